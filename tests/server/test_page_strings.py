"""The words the page scripts show (board texts, statuses, error messages) come in each page's
`#strings` blob; in every language of the menu, each of them is that language's own, except the
few a catalog keeps as in English on purpose ("Beta", "online" in Czech...)."""

from __future__ import annotations

import json
import re

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient

from tictactoe.server.web.templating import LANGUAGES, LOCALES_DIR

TRANSLATED = [language for language in LANGUAGES if language != "en"]


def strings_blob(html: str) -> dict[str, str]:
    found = re.search(r'<script type="application/json" id="strings">(.*?)</script>', html, re.S)
    assert found, "no strings blob"
    return dict(json.loads(found.group(1)))


def kept_in_english(language: str) -> set[str]:
    with open(LOCALES_DIR / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        catalog = read_po(file)
    return {str(m.id) for m in catalog if m.id and str(m.string) == str(m.id)}


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_script_string_of_every_page_is_in_the_pages_language(
    client: TestClient, language: str
) -> None:
    table = client.post("/api/tables", json={"variant": "ultimate"}).json()["url"]
    pages = [
        "/",
        "/analysis",
        "/analysis?variant=standard",
        table.split("//", 1)[1].split("/", 1)[1],
    ]
    kept = kept_in_english(language)
    for path in pages:
        path = "/" + path.lstrip("/")
        joint = "&" if "?" in path else "?"
        english = strings_blob(client.get(f"{path}{joint}lang=en").text)
        translated = strings_blob(client.get(f"{path}{joint}lang={language}").text)
        assert translated.keys() == english.keys()
        same = {
            key for key in english if translated[key] == english[key] and english[key] not in kept
        }
        assert same == set(), f"English left in the script strings of {path} in {language}"
