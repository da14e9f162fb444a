"""Every page in every language: `<html lang>` is right, the title is translated, and no English
text of the catalogs is left on a translated page (the board's script-drawn text included)."""

from __future__ import annotations

import json
import re
import urllib.request
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from typing import Any

import pytest
from babel.messages.pofile import read_po
from playwright.sync_api import Browser, BrowserContext, Page, expect

from tictactoe.server.web.templating import LANGUAGES, LOCALES_DIR, language_tag, text_direction

NewContext = Callable[..., BrowserContext]
TRANSLATED = [language for language in LANGUAGES if language != "en"]
PLACEHOLDER = re.compile(r"%\(\w+\)s|\{\w+\}")


def english_fragments(language: str) -> set[str]:
    """Pieces of English source text long enough that finding one on a page means it was not
    translated (texts a language keeps as they are, like "Beta", are left out)."""
    with open(LOCALES_DIR / language / "LC_MESSAGES" / "messages.po", "rb") as file:
        catalog = read_po(file)
    fragments = set()
    for message in catalog:
        if not message.id or str(message.string).strip() == str(message.id).strip():
            continue
        for piece in PLACEHOLDER.split(re.sub(r"<[^>]+>", " ", str(message.id))):
            piece = " ".join(piece.split()).strip(" .,:;—-")
            if len(piece) >= 12 and " " in piece:
                fragments.add(piece)
    return fragments


def visible_text(page: Page) -> str:
    return " ".join(page.locator("body").inner_text().split())


def english_status(english: Page) -> str:
    """The status line of the English page once its socket is open (it no longer says
    "Connecting…")."""
    status = english.locator("[data-status]")
    expect(status).not_to_have_text("Connecting…")
    return status.inner_text()


def new_table(base_url: str, variant: str) -> str:
    request = urllib.request.Request(
        base_url + "/api/tables",
        data=json.dumps({"variant": variant}).encode(),
        headers={"Content-Type": "application/json"},
        method="POST",
    )
    with urllib.request.urlopen(request) as response:
        return str(json.load(response)["url"])


def post(base_url: str, path: str, body: dict[str, object], token: str | None = None) -> Any:
    headers = {"Content-Type": "application/json"}
    if token is not None:
        headers["Authorization"] = f"Bearer {token}"
    request = urllib.request.Request(
        base_url + path, data=json.dumps(body).encode(), headers=headers, method="POST"
    )
    with urllib.request.urlopen(request) as response:
        return json.load(response)


def a_finished_game_review(base_url: str) -> str:
    """The review page of a 3×3 game X won in five moves."""
    created = post(base_url, "/api/tables", {"variant": "standard", "first": "me"})
    guest = post(base_url, f"/api/tables/{created['id']}/seats", {})
    tokens = {"x": created["token"], "o": guest["token"]}
    for ply, move in enumerate("a1 a2 b1 b2 c1".split()):
        post(base_url, f"/api/tables/{created['id']}/moves", {"move": move}, tokens["xo"[ply % 2]])
    return f"/t/{created['id']}/games/1"


UNREADABLE = "/analysis?variant=standard&position=xxx/.../...+o"  # the reason, translated


def paths(base_url: str) -> dict[str, str]:
    """Every page, by kind; the table, its review and its games are fresh ones."""
    table = new_table(base_url, "ultimate")
    review = a_finished_game_review(base_url)
    return {
        **{"home": "/", "table": table, "standard": "/games/standard"},
        **{"ultimate": "/games/ultimate", "review": review, "games": review.rsplit("/", 1)[0]},
        **{"analysis": "/analysis", "my games": "/my-games", "unreadable": UNREADABLE},
        **{"lessons": "/learn", "puzzle": "/puzzles/daily"},
    }


def with_lang(path: str, language: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={language}"


@dataclass
class English:
    """What the English pages say where a translated page must say something else: each kind's
    title, a fresh table's status once its socket is open, the unreadable code's reason. The same
    for every table, review and games page of a kind (a title names the game, not the table)."""

    titles: dict[str, str]
    status: str
    reason: str


@pytest.fixture(scope="module")
def english(browser: Browser, base_url: str) -> Iterator[English]:
    """The English pages, read once for all the languages (and, like every page, without errors)."""
    context = browser.new_context(base_url=base_url, locale="en-GB")
    context.set_default_timeout(10_000)
    errors: list[str] = []
    context.on("console", lambda m: errors.append(m.text) if m.type == "error" else None)
    page = context.new_page()
    page.on("pageerror", lambda error: errors.append(str(error)))
    titles, status, reason = {}, "", ""
    for kind, path in paths(base_url).items():
        page.goto(with_lang(path, "en"))
        if kind == "table":
            status = english_status(page)
        if kind == "unreadable":
            reason = page.locator("[data-read-error-reason]").inner_text()
        titles[kind] = page.title()
    yield English(titles, status, reason)
    context.close()
    assert errors == [], f"the English pages logged errors: {errors}"


@pytest.mark.parametrize("language", TRANSLATED)
def test_every_page_is_wholly_in_the_chosen_language(
    new_context: NewContext, base_url: str, english: English, language: str
) -> None:
    page = new_context().new_page()
    fragments = english_fragments(language)
    for kind, path in paths(base_url).items():
        page.goto(with_lang(path, language))
        expect(page.locator("html")).to_have_attribute("lang", language_tag(language))
        expect(page.locator("html")).to_have_attribute("dir", text_direction(language))
        if kind == "review":  # drawn by the page's script
            expect(page.locator("[data-status]")).not_to_be_empty()
        if kind == "table":  # the board is drawn by the page's script once the socket is open
            expect(page.locator("[data-board] button[data-move]")).to_have_count(81)
            expect(page.locator("[data-status]")).not_to_have_text(english.status)
        assert page.title() and page.title() != english.titles[kind], (path, page.title())
        text = visible_text(page)
        left = sorted(fragment for fragment in fragments if fragment in text)
        assert left == [], f"English left on {path} in {language}: {left}"
        if kind == "unreadable":
            assert page.locator("[data-read-error-reason]").inner_text() != english.reason
