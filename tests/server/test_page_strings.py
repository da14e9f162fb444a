"""The words the page scripts show (board texts, statuses, error messages) come in each page's
`#strings` blob; in every language of the menu, each of them is that language's own, except the
few a catalog keeps as in English on purpose ("Beta", "online" in Czech...)."""

from __future__ import annotations

import re

import pytest
from babel.messages.pofile import read_po
from starlette.testclient import TestClient
from tests.server.script_strings import page_strings

from tictactoe.server.web.templating import LANGUAGES, LOCALES_DIR

TRANSLATED = [language for language in LANGUAGES if language != "en"]


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
        english = page_strings(client, client.get(f"{path}{joint}lang=en").text)
        translated = page_strings(client, client.get(f"{path}{joint}lang={language}").text)
        assert translated.keys() == english.keys()
        same = {
            key for key in english if translated[key] == english[key] and english[key] not in kept
        }
        assert same == set(), f"English left in the script strings of {path} in {language}"


def test_the_table_strings_script_goes_compressed_and_cached_for_the_build(
    client: TestClient,
) -> None:
    table = client.post("/api/tables", json={"variant": "ultimate"}).json()["url"]
    html = client.get("/" + table.split("//", 1)[1].split("/", 1)[1] + "?lang=el").text
    source = re.search(r'<script src="(/strings/el/table\.js\?v=[^"]+)"', html)
    assert source, "the Greek table page does not load its strings script"
    current = client.get(source.group(1), headers={"Accept-Encoding": "gzip"})
    assert current.headers["content-encoding"] == "gzip"
    assert "immutable" in current.headers["cache-control"]
    assert current.headers["content-type"].startswith("text/javascript")
    # Greek letters as they are (UTF-8), not \\u escapes: and nothing that could close a <script>.
    assert '"Your move": "Σειρά σας"' in current.text
    assert "\\u03" not in current.text
    assert "<" not in current.text
    stale = client.get("/strings/el/table.js?v=an-older-build")
    assert stale.headers["cache-control"] == "no-cache"
    assert client.get("/strings/xx/table.js").status_code == 404
