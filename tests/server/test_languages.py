"""The languages the site offers: one for every catalog on disk, each named in itself in the menu,
each reachable through `?lang=`, the cookie and `Accept-Language` (the catalogs' own checks are in
test_translations.py)."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient

from tictactoe.server.web.templating import (
    LANGUAGE_NAMES,
    LANGUAGES,
    LOCALES_DIR,
    language_tag,
    text_direction,
)

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def catalogs_on_disk() -> set[str]:
    return {path.parent.parent.name for path in LOCALES_DIR.glob("*/LC_MESSAGES/messages.po")}


def test_every_catalog_on_disk_is_offered_and_nothing_else() -> None:
    assert catalogs_on_disk() <= set(LANGUAGE_NAMES), "name the new language in LANGUAGE_NAMES"
    assert set(LANGUAGES) == catalogs_on_disk() | {"en"}


def test_the_site_offers_all_twenty_languages() -> None:
    assert list(LANGUAGES) == list(LANGUAGE_NAMES)
    assert len(LANGUAGES) == 20


def test_the_language_menu_lists_every_language_in_its_own_name(client: TestClient) -> None:
    html = client.get("/?lang=de").text
    link = r'<a href="\?lang=(\w+)" lang="([\w-]+)" hreflang="[\w-]+" dir="(\w+)"[^>]*>([^<]+)</a>'
    menu = re.findall(link, html)
    assert [(code, name) for code, _, _, name in menu] == list(LANGUAGES.items())
    assert all(lang == language_tag(code) for code, lang, _, _ in menu)
    assert all(direction == text_direction(code) for code, _, direction, _ in menu)
    assert 'aria-current="true">Deutsch</a>' in html


@pytest.mark.parametrize("language", TRANSLATED)
def test_accept_language_picks_the_language_and_the_page_says_so(
    client: TestClient, language: str
) -> None:
    accept = f"{language}-XX,{language};q=0.9,en;q=0.5"
    response = client.get("/games/ultimate", headers={"Accept-Language": accept})
    root = f'<html lang="{language_tag(language)}" dir="{text_direction(language)}"'
    assert root in response.text
    assert response.headers["content-language"] == language_tag(language)
    assert "lang" not in response.cookies  # only an explicit choice is remembered


@pytest.mark.parametrize("language", TRANSLATED)
def test_the_cookie_picks_the_language(client: TestClient, language: str) -> None:
    client.cookies.set("lang", language)
    assert f'<html lang="{language_tag(language)}"' in client.get("/analysis").text


@pytest.mark.parametrize(
    ("language", "tag", "direction"),
    [("ar", "ar", "rtl"), ("he", "he", "rtl"), ("ja", "ja", "ltr"), ("zh", "zh-Hans", "ltr")],
)
def test_a_page_declares_its_script_direction_and_tag(
    client: TestClient, language: str, tag: str, direction: str
) -> None:
    assert f'<html lang="{tag}" dir="{direction}">' in client.get(f"/?lang={language}").text


def test_traditional_chinese_is_not_answered_in_simplified(client: TestClient) -> None:
    taiwan = client.get("/", headers={"Accept-Language": "zh-TW,zh-Hant;q=0.9,en;q=0.5"})
    assert '<html lang="en"' in taiwan.text
    mainland = client.get("/", headers={"Accept-Language": "zh-CN,zh;q=0.9,en;q=0.5"})
    assert '<html lang="zh-Hans"' in mainland.text
