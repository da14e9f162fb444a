"""The analysis board says why a position code or record cannot be read in the page's language:
every reason the rules library can give has words in every catalog, and the page fills in the
figures of the code it was given."""

from __future__ import annotations

import re
from typing import get_args

import pytest
from starlette.testclient import TestClient

from tictactoe.rules.errors import PositionReason, Reason
from tictactoe.server.web.templating import LANGUAGES, LOCALES_DIR, templates_for
from tictactoe.server.web.unreadable import Unreadable

REASONS = [*get_args(PositionReason), *(f"move-{reason}" for reason in get_args(Reason))]
TRANSLATED = [language for language in LANGUAGES if language != "en"]  # offered by the site
CATALOGS = sorted(path.parent.parent.name for path in LOCALES_DIR.glob("*/LC_MESSAGES/*.po"))
FIGURES: dict[str, int | str] = {
    "rank": 2,
    "cells": 4,
    "width": 3,
    "marks": "z",
    "size": 3,
    "text": "y",
    "x": 3,
    "o": 0,
    "expected": "X",
    "turn": "O",
    "move": "e5",
    "mark": "X",
    "board": "centre",
    "ply": 2,
}


def described(language: str, reason: str, variant: str) -> str:
    macros = templates_for(language).env.get_template("_unreadable.html").module
    return " ".join(str(macros.describe(Unreadable(reason, FIGURES), variant)).split())  # type: ignore[attr-defined]


@pytest.mark.parametrize("variant", ["standard", "ultimate"])
@pytest.mark.parametrize("reason", REASONS)
def test_every_reason_has_words_in_every_language(reason: str, variant: str) -> None:
    english = described("en", reason, variant)
    assert english, f"no words for {reason}"
    for language in CATALOGS:
        text = described(language, reason, variant)
        assert text and text != english, (language, reason, text)
        assert "%(" not in text and "{" not in text, text


def read_error(client: TestClient, language: str, **query: str) -> tuple[str, str]:
    page = client.get("/analysis", params={**query, "lang": language})
    assert page.status_code == 200
    found = re.search(r'<p data-read-error-reason="([^"]+)">(.*?)</p>', page.text, re.S)
    assert found, "no read error on the page"
    assert 'lang="en"' not in page.text.split("data-read-error", 1)[1].split("</div>", 1)[0]
    return found.group(1), " ".join(found.group(2).split())


@pytest.mark.parametrize(
    ("query", "reason", "figures"),
    [
        ({"variant": "standard", "position": "xxx/.../... o"}, "mark-counts", "X 3, O 0"),
        ({"variant": "standard", "position": "xo./.../... o"}, "turn", "X 1, O 1"),
        ({"variant": "standard", "position": "ooo/xx./xx. o"}, "winner-to-move", "O"),
        ({"variant": "standard", "position": "x../... x"}, "rank-length", "3"),
        ({"variant": "standard", "position": "x../.../... o", "line": "5"}, "line", "3×3"),
        ({"variant": "ultimate", "position": "x../.../... x -"}, "grid-size", "3×3"),
        ({"variant": "ultimate", "record": "e5 e5"}, "move-occupied", "e5"),
        ({"variant": "standard", "record": "b2 z9"}, "move-off-board", "z9"),
        ({"variant": "standard", "record": "b2 9z"}, "move-malformed", "9z"),
    ],
)
def test_the_page_says_why_in_its_language_with_the_figures_of_the_code(
    client: TestClient, query: dict[str, str], reason: str, figures: str
) -> None:
    found, english = read_error(client, "en", **query)
    assert found == reason
    assert figures in english
    for language in TRANSLATED:
        found, text = read_error(client, language, **query)
        assert found == reason
        assert text != english and figures_in_order(figures, text), (language, text)


def figures_in_order(figures: str, text: str) -> bool:
    """The code's marks and numbers appear in the text in the same order, each language joining
    them its own way ("X 1", "X — 1", "X が 1")."""
    pattern = ".*?".join(re.escape(token) for token in re.findall(r"[^\W_]+|×", figures))
    return re.search(pattern, text, re.S) is not None
