"""An unknown address, asked for by a browser, answers a page in the visitor's language: every
language of the menu, none of it left in English (the raw `{"detail": "Not Found"}` is for
scripts only)."""

from __future__ import annotations

import html
import re

import pytest
from starlette.testclient import TestClient

from tictactoe.server.web.templating import LANGUAGES, translations

TRANSLATED = [language for language in LANGUAGES if language != "en"]
ENGLISH = (
    "Page not found",
    "There is nothing at this address. Check the link, or start a new table.",
    "Start a table",
)


@pytest.mark.parametrize("language", TRANSLATED)
def test_an_unknown_address_is_a_page_in_the_visitors_language(
    client: TestClient, language: str
) -> None:
    answer = client.get(f"/no/such/page?lang={language}", headers={"Accept": "text/html"})
    assert answer.status_code == 404 and answer.headers["content-type"].startswith("text/html")
    text = html.unescape(answer.text)
    assert re.search(rf'<html[^>]* lang="{language}', text)
    for english in ENGLISH:
        translated = translations(language).gettext(english)
        assert translated != english, (language, english)
        assert translated in text and english not in text, (language, english)
