"""The translation catalogs: the template (messages.pot) holds every string the pages use, every
language's catalog holds every message of the template, and a translation keeps the placeholders
of its English source (`%(n)s` in templates, `{mark}` in the table page's script strings)."""

from __future__ import annotations

import re

import pytest
from babel.messages.catalog import Catalog
from babel.messages.extract import extract_from_dir
from babel.messages.pofile import read_po

from tictactoe.server.web.templating import LANGUAGES, LOCALES_DIR, TEMPLATES_DIR

PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")
TRANSLATED = [language for language in LANGUAGES if language != "en"]


def read_catalog(path: str) -> Catalog:
    with open(LOCALES_DIR / path, "rb") as file:
        return read_po(file)


def template_ids() -> set[str]:
    return {str(message.id) for message in read_catalog("messages.pot") if message.id}


def test_the_catalog_template_holds_every_string_of_the_pages() -> None:
    options = {"extensions": "jinja2.ext.i18n", "trim_blocks": "True", "lstrip_blocks": "True"}
    in_pages = {
        message
        for _, _, message, _, _ in extract_from_dir(
            str(TEMPLATES_DIR), [("**.html", "jinja2")], {"**.html": options}
        )
    }
    assert in_pages == template_ids(), "run scripts/messages to refresh the catalogs"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalog_has_every_message_of_the_template(language: str) -> None:
    catalog = read_catalog(f"{language}/LC_MESSAGES/messages.po")
    ids = {str(message.id) for message in catalog if message.id}
    assert template_ids() - ids == set(), "run scripts/messages to refresh the catalogs"


@pytest.mark.parametrize("language", TRANSLATED)
def test_translations_keep_the_placeholders_of_the_english_text(language: str) -> None:
    catalog = read_catalog(f"{language}/LC_MESSAGES/messages.po")
    for message in catalog:
        if message.id and message.string:
            source = sorted(PLACEHOLDER.findall(str(message.id)))
            assert sorted(PLACEHOLDER.findall(str(message.string))) == source, message.id


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_message_is_translated_and_none_is_fuzzy(language: str) -> None:
    catalog = read_catalog(f"{language}/LC_MESSAGES/messages.po")
    missing = [str(m.id) for m in catalog if m.id and (not m.string or m.fuzzy)]
    assert missing == [], f"{language} lacks translations: {missing}"
