"""How each language composes what the page says: plural forms against the CLDR rule of the
language (Babel's plural rules), numbers through the locale (Babel's `format_decimal`), and the
patterns that join two parts of a line (the dash of a status line, the colon after a label)
written the way the language writes them.

Every test runs over the catalogs present, so a language is checked as soon as it lands."""

from __future__ import annotations

import gettext
import re

import pytest
from babel import Locale
from babel.numbers import get_decimal_symbol
from babel.support import Translations
from tests.server.test_translations import CATALOGS, PLURAL_LOCALE, catalog_of, forms, messages

from tictactoe.server.web.page_constants import BOARD_POSITIONS
from tictactoe.server.web.templating import (
    LOCALES_DIR,
    STATIC_DIR,
    number_in,
    templates_for,
    translations,
)

COUNTS = (0, 1, 2, 3, 5, 11, 21, 22, 25, 101)
# The patterns the page joins two parts of a line with (templates/_board_strings.html, table.html).
STATUS_JOINER, RESULT_JOINER = "{status} — {where}", "{result} — {how}"
LABEL_PATTERNS = ("{label}: {text}", "%(label)s: %(value)s")
# What follows the status or the result: it goes on the same line, after the joiner.
FOLLOWS_STATUS = (
    "free choice: any open board",
    *(f"must play in the {where} board" for where in BOARD_POSITIONS),
)
FOLLOWS_RESULT = ("{mark} resigned", "{mark} left the game", "{mark} ran out of time")
# Where the glossaries ask for a spaced en dash rather than an em dash.
EN_DASH = {"cs", "pl", "fi", "sv", "nl", "de"}


def cldr_category(language: str, n: int) -> str:
    return str(Locale.parse(PLURAL_LOCALE.get(language, language)).plural_form(n))


@pytest.mark.parametrize("language", CATALOGS)
def test_plural_forms_follow_the_languages_cldr_rule(language: str) -> None:
    """For n = 0, 1, 2, 3, 5, 11, 21, 22, 25, 101: numbers of one CLDR category get one form of
    every plural message, and where the catalog has a form for each category the language
    uses for whole numbers, different categories get different forms."""
    catalog = catalog_of(language)
    form_of = gettext.c2py(catalog.plural_expr)
    compiled = translations(language)
    assert isinstance(compiled, Translations)
    chosen = {n: form_of(n) for n in COUNTS}
    by_category: dict[str, set[int]] = {}
    for n, form in chosen.items():
        by_category.setdefault(cldr_category(language, n), set()).add(form)
    for category, chosen_forms in by_category.items():
        assert len(chosen_forms) == 1, f"{language}: {category} numbers take forms {chosen_forms}"
    whole_number_categories = {cldr_category(language, n) for n in range(1001)}
    if catalog.num_plurals == len(whole_number_categories):
        assert len(set(chosen.values())) == len(by_category), f"{language}: categories share a form"
    plurals = [m for m in messages(catalog) if isinstance(m.id, list | tuple)]
    assert plurals
    for message in plurals:  # and the compiled catalog the pages use says the same
        singular, plural = str(message.id[0]), str(message.id[1])
        for n, form in chosen.items():
            assert compiled.ngettext(singular, plural, n) == forms(message)[form], (language, n)


@pytest.mark.parametrize(
    ("language", "expected"),
    [
        ("cs", ("0\u00a0tahů", "1\u00a0tah", "3\u00a0tahy", "5\u00a0tahů", "22\u00a0tahů")),
        ("pl", ("0 ruchów", "1 ruch", "3 ruchy", "5 ruchów", "22 ruchy", "25 ruchów")),
    ],
)
def test_a_count_reads_as_a_native_writes_it(language: str, expected: tuple[str, ...]) -> None:
    env = templates_for(language).env
    page = env.from_string('{{ ngettext("%(num)s move", "%(num)s moves", n) }}')
    numbers = [int(re.split(r"\s", text)[0]) for text in expected]
    assert tuple(page.render(n=n) for n in numbers) == expected


@pytest.mark.parametrize("language", ["en", *CATALOGS])
def test_a_number_takes_the_languages_decimal_sign(language: str) -> None:
    sign = get_decimal_symbol(language)
    assert number_in(language, 0.5) == f"0{sign}5"
    assert number_in(language, 3.0) == "3"
    assert number_in(language, 0.25, 2) == f"0{sign}25"


@pytest.mark.parametrize(
    ("language", "minutes"),
    [("en", "0.5 min"), ("de", "0,5 Min."), ("fi", "0,5 min"), ("cs", "0,5\u00a0min")],
)
def test_the_open_tables_list_writes_minutes_as_the_language_does(
    language: str, minutes: str
) -> None:
    assert language == "en" or language in CATALOGS
    label = templates_for(language).env.get_template("_open_table_label.html")
    open_table = {
        "variant": "standard",
        "size": 4,
        "line": 3,
        "clock_minutes": 0.5,
        "clock_increment": 2,
        "teams": False,
        "takebacks": False,
    }
    assert minutes in label.render(open=open_table)


def msgstr(language: str, msgid: str) -> str:
    message = catalog_of(language).get(msgid)
    assert message is not None and message.string, (language, msgid)
    return str(message.string)


@pytest.mark.parametrize("language", CATALOGS)
def test_the_dash_of_a_status_line_is_the_languages_own(language: str) -> None:
    for joiner in (STATUS_JOINER, RESULT_JOINER):
        pattern = msgstr(language, joiner)
        if language in EN_DASH:
            assert " – " in pattern and "—" not in pattern, (language, pattern)


@pytest.mark.parametrize("language", CATALOGS)
def test_no_capital_letter_follows_the_dash(language: str) -> None:
    """'Gewonnen — De tijd van O is op' put a capital in the middle of a line: what follows the
    joiner starts with its mark or in lower case."""
    for joiner, first, second, following in (
        (STATUS_JOINER, "{status}", "{where}", FOLLOWS_STATUS),
        (RESULT_JOINER, "{result}", "{how}", FOLLOWS_RESULT),
    ):
        pattern = msgstr(language, joiner)
        if pattern.index(second) < pattern.index(first):
            continue  # the language puts this part first: it may start with a capital
        for msgid in following:
            text = msgstr(language, msgid)
            assert text.startswith("{") or not text[0].isupper(), (language, text)


@pytest.mark.parametrize("language", CATALOGS)
def test_a_label_and_its_colon_are_written_as_the_language_does(language: str) -> None:
    for msgid in LABEL_PATTERNS:
        pattern = msgstr(language, msgid)
        if language == "fr":
            assert re.search("[\u00a0\u202f]:", pattern), pattern
        else:
            assert re.search(r"\s:", pattern) is None, (language, pattern)


def test_every_catalog_is_checked() -> None:
    on_disk = sorted(path.name for path in LOCALES_DIR.iterdir() if path.is_dir())
    assert on_disk == CATALOGS


# A template literal that glues pieces with a dash, a colon or a full stop writes English
# punctuation and order into every language; these two are no sentence.
NOT_SENTENCES = re.compile(
    # a move list's "12. e5": notation, the same in every language
    r"`\$\{[^}]+\}\. \$\{[^`]*move[^`]*\}`"
    r"|`untranslatable string: \$\{key\}`"  # the console, for developers
)
GLUED = re.compile(r"\}\s*[—–:.]\s|\s[—–:]\s*\$\{")


def test_no_script_glues_a_line_together_with_english_punctuation() -> None:
    glued = [
        (path.name, literal)
        for path in sorted(STATIC_DIR.glob("*.js"))
        for literal in re.findall(r"`[^`]*`", path.read_text())
        if "${" in literal and GLUED.search(literal) and not NOT_SENTENCES.fullmatch(literal)
    ]
    assert glued == [], "join through a translatable pattern such as {status} — {where}"
