"""'Tap twice to play' on a touch phone: off by default; once on, a first tap shows the mark where
it would go and where it sends the opponent, and only a second tap on the same cell plays."""

from __future__ import annotations

import re

from playwright.sync_api import expect
from tests.browser.test_game_screen import NewContext, create, join, phone


def test_tap_twice_to_play_shows_the_move_before_playing_it(new_context: NewContext) -> None:
    host = new_context(**phone(360))
    host.new_page().goto("/")  # the browser's cookie first: the table is bound to it
    table = create(host.request)
    join(new_context(**phone(360)).request, table)
    page = host.new_page()
    page.goto(table["url"])
    setting = page.locator("[data-confirm-taps]")
    expect(setting).not_to_be_checked()
    setting.check()
    hint = page.locator("[data-hint]")
    centre = page.locator("[data-board] [data-move=e5]")
    centre.tap()
    expect(centre).to_have_class(re.compile(r"\btap-preview\b"))
    expect(centre).to_have_attribute("data-preview-mark", "X")
    expect(hint).to_have_text(re.compile(r"^e5: .+ · Tap again to play$"))
    assert page.request.get(f"/api/tables/{table['id']}").json()["record"] == ""
    # A tap on another cell shows that one instead; a second tap on it plays it.
    corner = page.locator("[data-board] [data-move=a9]")
    corner.tap()
    expect(centre).not_to_have_class(re.compile(r"\btap-preview\b"))
    expect(corner).to_have_class(re.compile(r"\btap-preview\b"))
    corner.tap()
    expect(corner).to_have_attribute("data-mark", "x")
    expect(corner).not_to_have_class(re.compile(r"\b(tap-preview|pending)\b"))  # acknowledged
    assert page.request.get(f"/api/tables/{table['id']}").json()["record"] == "a9"
    # The choice is kept in this browser.
    page.reload()
    expect(page.locator("[data-confirm-taps]")).to_be_checked()
