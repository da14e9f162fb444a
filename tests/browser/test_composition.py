"""What the page's scripts compose follows the page language: the dash that joins a status line,
the colon after a label, and the decimal sign in the clock and in the home page's open tables
(written by the server first, then rewritten by the page's script)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import BrowserContext, Page, expect

NewContext = Callable[..., BrowserContext]


@dataclass(frozen=True)
class Composition:
    language: str
    dash: str  # between "Your move" and where to play
    spectators: str  # the label and its colon, up to the count
    minutes: str  # half a minute in the open tables list
    decimal: str  # in the clock's tenths


COMPOSITIONS = [
    Composition("en", " — ", "Spectators: ", "0.5 min", "."),
    Composition("de", " – ", "Zuschauer: ", "0,5 Min.", ","),
    Composition("cs", " – ", "Diváci: ", "0,5\u00a0min", ","),
    Composition("fr", " — ", "Spectateurs\u00a0: ", "0,5\u00a0min", ","),
]


def a_table_on_a_short_clock(context: BrowserContext, language: str) -> Page:
    page = context.new_page()
    page.goto(f"/?lang={language}")  # the language and the browser's cookie first
    body = {"variant": "ultimate", "first": "me", "clock_minutes": 0.1}  # 6 s: tenths shown
    created = context.request.post("/api/tables", data=body)
    assert created.ok
    page.goto(created.json()["url"])
    return page


def test_the_page_composes_lines_and_numbers_as_its_language_does(
    new_context: NewContext,
) -> None:
    # A public table is listed while its creator is there: the creator keeps its page open.
    creator = new_context()
    waiting = creator.new_page()
    waiting.goto("/")
    settings = {"variant": "standard", "size": 4, "line": 3, "clock_minutes": 0.5}
    lobby = creator.request.post("/api/tables", data={**settings, "public": True})
    assert lobby.ok
    waiting.goto(lobby.json()["url"])
    tables = {c.language: a_table_on_a_short_clock(new_context(), c.language) for c in COMPOSITIONS}
    homes = {}
    for c in COMPOSITIONS:
        home = new_context().new_page()
        home.goto(f"/?lang={c.language}")
        homes[c.language] = home
    for c in COMPOSITIONS:
        table = tables[c.language]
        expect(table.locator("[data-status]")).to_contain_text(c.dash)
        expect(table.locator(".watchers")).to_have_text(re.compile("^" + re.escape(c.spectators)))
        clock = re.compile(rf"^0:0\d{re.escape(c.decimal)}\d$")
        expect(table.locator("[data-clock=x]")).to_have_text(clock)
        # The open tables: the server's list, then the one the page's script writes in its place.
        home = homes[c.language]
        written_by_server = home.locator("[data-open-tables] li", has_text=c.minutes)
        expect(written_by_server.first).to_be_visible()
        home.evaluate(
            """() => {
              for (const item of document.querySelectorAll("[data-open-tables] li")) {
                item.dataset.fromServer = "yes";
              }
              document.dispatchEvent(new Event("visibilitychange"));
            }"""
        )
        written_by_script = home.locator(
            "[data-open-tables] li:not([data-from-server])", has_text=c.minutes
        )
        expect(written_by_script.first).to_be_visible()
