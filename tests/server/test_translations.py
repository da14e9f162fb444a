"""The translation catalogs: the template (messages.pot) holds every string the pages use; every
language of the menu has a catalog, and every catalog present holds every message of the template
(with its context), keeps the placeholders of its English source (`%(n)s` in templates, `{mark}`
in the page scripts' strings), and has the plural forms its `Plural-Forms` header promises.

The tests run over whatever catalogs exist, so a new language is checked as soon as it lands."""

from __future__ import annotations

import gettext
import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from babel.messages.catalog import Catalog, Message
from babel.messages.extract import extract_from_dir
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po

from tictactoe.server.web.templating import LANGUAGES, LOCALES_DIR, TEMPLATES_DIR, templates_for

PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")
CATALOGS = sorted(path.parent.parent.name for path in LOCALES_DIR.glob("*/LC_MESSAGES/*.po"))
Key = tuple[str | None, str | tuple[str, ...]]
# The locale whose plural rule a catalog follows, where the code alone is ambiguous: the site's
# Portuguese is Brazilian (one form for 0 and 1).
PLURAL_LOCALE = {"pt": "pt_BR"}


def read_catalog(path: Path) -> Catalog:
    with open(path, "rb") as file:
        return read_po(file)


def catalog_of(language: str) -> Catalog:
    return read_catalog(LOCALES_DIR / language / "LC_MESSAGES" / "messages.po")


def key(message: Message) -> Key:
    ident = message.id
    return (message.context, tuple(ident) if isinstance(ident, list | tuple) else str(ident))


def messages(catalog: Catalog) -> Iterator[Message]:
    return (message for message in catalog if message.id)


def template_keys() -> set[Key]:
    return {key(message) for message in messages(read_catalog(LOCALES_DIR / "messages.pot"))}


def forms(message: Message) -> list[str]:
    string = message.string
    return list(string) if isinstance(string, list | tuple) else [str(string)]


def test_every_language_of_the_menu_has_a_catalog() -> None:
    assert CATALOGS, "no catalogs found"
    assert set(LANGUAGES) - {"en"} <= set(CATALOGS)


def test_the_catalog_template_holds_every_string_of_the_pages() -> None:
    options = {"extensions": "jinja2.ext.i18n", "trim_blocks": "True", "lstrip_blocks": "True"}
    in_pages = {
        (context, tuple(message) if isinstance(message, tuple) else message)
        for _, _, message, _, context in extract_from_dir(
            str(TEMPLATES_DIR), [("**.html", "jinja2")], {"**.html": options}
        )
    }
    assert in_pages == template_keys(), "run scripts/messages to refresh the catalogs"


@pytest.mark.parametrize("language", CATALOGS)
def test_every_catalog_has_every_message_of_the_template(language: str) -> None:
    keys = {key(message) for message in messages(catalog_of(language))}
    assert template_keys() - keys == set(), "run scripts/messages to refresh the catalogs"


@pytest.mark.parametrize("language", CATALOGS)
def test_every_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    missing = [
        key(message)
        for message in messages(catalog_of(language))
        if message.fuzzy or not all(form.strip() for form in forms(message))
    ]
    assert missing == [], f"{language} lacks translations: {missing}"


@pytest.mark.parametrize("language", CATALOGS)
def test_translations_keep_the_placeholders_of_the_english_text(language: str) -> None:
    for message in messages(catalog_of(language)):
        english = message.id[-1] if isinstance(message.id, list | tuple) else message.id
        source = sorted(PLACEHOLDER.findall(str(english)))
        for form in forms(message):
            assert set(PLACEHOLDER.findall(form)) == set(source), (language, message.id, form)
            if "python-format" in message.flags:  # the page fills it with `%`: it must not raise
                form % dict.fromkeys(re.findall(r"%\((\w+)\)s", str(english)), 1)


@pytest.mark.parametrize("language", CATALOGS)
def test_the_plural_forms_header_is_the_languages_own(language: str) -> None:
    catalog = catalog_of(language)
    expected = get_plural(PLURAL_LOCALE.get(language, language))
    assert catalog.num_plurals == expected.num_plurals, catalog.plural_forms
    header, cldr = gettext.c2py(catalog.plural_expr), gettext.c2py(expected.plural_expr)
    assert [header(n) for n in range(1001)] == [cldr(n) for n in range(1001)]


@pytest.mark.parametrize("language", CATALOGS)
def test_every_plural_message_has_all_the_forms_of_its_language(language: str) -> None:
    catalog = catalog_of(language)
    plurals = [m for m in messages(catalog) if isinstance(m.id, list | tuple)]
    assert plurals, "the template has plural messages, so every catalog has them"
    for message in plurals:
        assert len(forms(message)) == catalog.num_plurals, (language, message.id)


def test_a_number_before_an_english_plural_noun_is_a_plural_message() -> None:
    """'%(n)s moves' or 'moves: %(n)s' as a plain message would read '1 moves' or, in Czech,
    'tahů: 1'; a count must go through ngettext so each language gets its forms."""
    words = "mark|cell|move|board|text|marks|expected|turn|name"  # placeholders that are no number
    number = rf"(?:%\((?!(?:{words})\))\w+\)s|\{{(?!(?:{words})\}})\w+\}})"
    counted = re.compile(rf"{number} [a-z]{{2,}}s\b|\b[a-z]+s: {number}")
    singular = [
        message.id
        for message in messages(read_catalog(LOCALES_DIR / "messages.pot"))
        if not isinstance(message.id, list | tuple) and counted.search(str(message.id))
    ]
    assert singular == []


@pytest.mark.parametrize(
    ("language", "counts"),
    [
        ("en", {1: "1 move", 2: "2 moves", 5: "5 moves"}),
        (
            "cs",
            {
                1: "1\u00a0tah",
                2: "2\u00a0tahy",
                4: "4\u00a0tahy",
                5: "5\u00a0tahů",
                22: "22\u00a0tahů",
            },
        ),
        ("fi", {1: "1 siirto", 3: "3 siirtoa"}),
        ("el", {1: "1 κίνηση", 3: "3 κινήσεις"}),
        (
            "ru",
            {1: "1 ход", 3: "3 хода", 5: "5 ходов", 11: "11 ходов", 21: "21 ход", 22: "22 хода"},
        ),
        ("uk", {1: "1 хід", 2: "2 ходи", 5: "5 ходів", 12: "12 ходів", 101: "101 хід"}),
        (
            "ar",
            {
                0: "0 نقلة",
                1: "1 نقلة",
                2: "2 نقلتان",
                3: "3 نقلات",
                11: "11 نقلة",
                101: "101 نقلة",
                105: "105 نقلات",
            },
        ),
        ("he", {1: "1 מהלך", 2: "2 מהלכים", 0: "0 מהלכים"}),
        ("ja", {1: "1 手", 25: "25 手"}),
    ],
)
def test_a_count_takes_the_form_its_number_needs(language: str, counts: dict[int, str]) -> None:
    assert language == "en" or language in CATALOGS, f"the {language} catalog is missing"
    env = templates_for(language).env
    page = env.from_string('{{ ngettext("%(num)s move", "%(num)s moves", n) }}')
    assert {n: page.render(n=n) for n in counts} == counts


@pytest.mark.parametrize("language", CATALOGS)
def test_the_two_meanings_of_game_are_two_messages(language: str) -> None:
    """'Game' is the variant on the home form and one game in a games list."""
    env = templates_for(language).env
    variant = env.from_string('{{ pgettext("variant", "Game") }}').render()
    one_game = env.from_string('{{ pgettext("one game in a list", "Game") }}').render()
    assert variant != "Game" and one_game != "Game"


@pytest.mark.skipif("cs" not in CATALOGS, reason="no Czech catalog")
def test_czech_keeps_a_one_letter_word_on_the_line_of_the_next() -> None:
    """Czech typography (and its glossary) never ends a line with k, s, v, z, o, u, a or i: a
    no-break space follows them (a capital O is left alone: it is usually the mark)."""
    loose = re.compile(r"(?<![\w%(){}])[ksvzouaiKSVZUAI] ")
    found = [
        form
        for message in messages(catalog_of("cs"))
        for form in forms(message)
        if loose.search(form)
    ]
    assert found == []


@pytest.mark.skipif("fr" not in CATALOGS, reason="no French catalog")
def test_french_puts_a_no_break_space_before_double_punctuation() -> None:
    """« : » takes a no-break space, « ; ? ! » a narrow one (U+00A0 or U+202F either way): an
    ordinary space would let the sign start a line, none at all is English."""
    bare = re.compile(r"(?<![\u00a0\u202f])[:;?!](?!//)")
    found = [
        form
        for message in messages(catalog_of("fr"))
        for form in forms(message)
        if bare.search(form)
    ]
    assert found == []
