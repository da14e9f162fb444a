"""The languages the site offers: one for every catalog on disk, each named in itself in the menu,
each reachable through `?lang=`, the cookie and `Accept-Language`; and every catalog's
`Plural-Forms` is its language's own (the rule CLDR gives for it)."""

from __future__ import annotations

import gettext
import re

import pytest
from babel.messages.plurals import get_plural
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from tictactoe.server.templating import LANGUAGE_NAMES, LANGUAGES, LOCALES_DIR

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def catalogs_on_disk() -> set[str]:
    return {path.parent.parent.name for path in LOCALES_DIR.glob("*/LC_MESSAGES/messages.po")}


def test_every_catalog_on_disk_is_offered_and_nothing_else() -> None:
    assert catalogs_on_disk() <= set(LANGUAGE_NAMES), "name the new language in LANGUAGE_NAMES"
    assert set(LANGUAGES) == catalogs_on_disk() | {"en"}


def test_the_language_menu_lists_every_language_in_its_own_name(client: TestClient) -> None:
    html = client.get("/?lang=de").text
    menu = re.findall(r'<a href="\?lang=(\w+)" lang="(\w+)" hreflang="\w+"[^>]*>([^<]+)</a>', html)
    assert [(code, name) for code, _, name in menu] == list(LANGUAGES.items())
    assert all(code == lang for code, lang, _ in menu)
    assert 'aria-current="true">Deutsch</a>' in html


@pytest.mark.parametrize("language", TRANSLATED)
def test_accept_language_picks_the_language_and_the_page_says_so(
    client: TestClient, language: str
) -> None:
    accept = f"{language}-XX,{language};q=0.9,en;q=0.5"
    response = client.get("/games/ultimate", headers={"Accept-Language": accept})
    assert f'<html lang="{language}"' in response.text
    assert response.headers["content-language"] == language
    assert "lang" not in response.cookies  # only an explicit choice is remembered


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_cookie_picks_the_language(client: TestClient, language: str) -> None:
    client.cookies.set("lang", language)
    assert f'<html lang="{language}"' in client.get("/analysis").text


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_catalog_has_its_languages_own_plural_forms(language: str) -> None:
    with open(LOCALES_DIR / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        catalog = read_po(file)
    expected = get_plural(language)
    assert catalog.num_plurals == expected.num_plurals, catalog.plural_forms
    ours, cldr = gettext.c2py(catalog.plural_expr), gettext.c2py(expected.plural_expr)
    assert [ours(n) for n in range(1000)] == [cldr(n) for n in range(1000)], catalog.plural_forms
