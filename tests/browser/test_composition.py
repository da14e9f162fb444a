"""What the page's scripts compose follows the page language: the dash that joins a status line,
the colon after a label, and the decimal sign in the clock and in the home page's open tables
(written by the server first, then rewritten by the page's script)."""

from __future__ import annotations

import re
from collections.abc import Callable
from dataclasses import dataclass

from playwright.sync_api import BrowserContext, expect

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


# The machine may be busy with other work: page loads and checks get room, not a tight window.
SLOW = 30_000


def test_the_page_composes_lines_and_numbers_as_its_language_does(
    new_context: NewContext,
) -> None:
    # A public table is listed while its creator is there: the creator keeps its page open.
    creator = new_context()
    waiting = creator.new_page()
    waiting.goto("/", timeout=SLOW)
    settings = {"variant": "standard", "size": 4, "line": 3, "clock_minutes": 0.5}
    lobby = creator.request.post("/api/tables", data={**settings, "public": True})
    assert lobby.ok
    waiting.goto(lobby.json()["url"], timeout=SLOW)
    for c in COMPOSITIONS:  # one page at a time, closed once checked: a lean browser
        page = new_context().new_page()
        # The open tables: the server's list, then the one the page's script writes in its place.
        page.goto(f"/?lang={c.language}", timeout=SLOW)
        written_by_server = page.locator("[data-open-tables] li", has_text=c.minutes)
        expect(written_by_server.first).to_be_visible(timeout=SLOW)
        page.evaluate(
            """() => {
              for (const item of document.querySelectorAll("[data-open-tables] li")) {
                item.dataset.fromServer = "yes";
              }
              document.dispatchEvent(new Event("visibilitychange"));
            }"""
        )
        written_by_script = page.locator(
            "[data-open-tables] li:not([data-from-server])", has_text=c.minutes
        )
        expect(written_by_script.first).to_be_visible(timeout=SLOW)
        # A table on a 6-second clock: the clock shows tenths.
        body = {"variant": "ultimate", "first": "me", "clock_minutes": 0.1}
        created = page.context.request.post("/api/tables", data=body)
        assert created.ok
        page.goto(created.json()["url"], timeout=SLOW)
        expect(page.locator("[data-status]")).to_contain_text(c.dash, timeout=SLOW)
        spectators = re.compile("^" + re.escape(c.spectators))
        expect(page.locator(".watchers")).to_have_text(spectators, timeout=SLOW)
        clock = re.compile(rf"^0:0\d{re.escape(c.decimal)}\d$")
        expect(page.locator("[data-clock=x]")).to_have_text(clock, timeout=SLOW)
        page.close()
