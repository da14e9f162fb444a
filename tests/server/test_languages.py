"""The languages the site offers: one for every catalog on disk, each named in itself in the menu,
each reachable through `?lang=`, the cookie and `Accept-Language` (the catalogs' own checks are in
test_translations.py)."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from tictactoe.server.web.templating import LANGUAGE_NAMES, LANGUAGES, LOCALES_DIR

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def catalogs_on_disk() -> set[str]:
    return {path.parent.parent.name for path in LOCALES_DIR.glob("*/LC_MESSAGES/messages.po")}


def test_every_catalog_on_disk_is_offered_and_nothing_else() -> None:
    assert catalogs_on_disk() <= set(LANGUAGE_NAMES), "name the new language in LANGUAGE_NAMES"
    assert set(LANGUAGES) == catalogs_on_disk() | {"en"}


def test_the_site_offers_all_twelve_languages() -> None:
    assert list(LANGUAGES) == list(LANGUAGE_NAMES)
    assert len(LANGUAGES) == 12


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
