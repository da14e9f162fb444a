"""The pages around the table: each person's language, the rules pages' sending-rule picture, and
their links to start a game with that game preselected."""

from __future__ import annotations

import re
from collections.abc import Callable

from playwright.sync_api import BrowserContext, expect

NewContext = Callable[..., BrowserContext]


def test_a_table_link_opens_in_the_friends_language_not_the_senders(
    new_context: NewContext,
) -> None:
    alice = new_context(locale="fi-FI").new_page()
    alice.goto("/")
    expect(alice.locator("html")).to_have_attribute("lang", "fi")
    alice.goto("/?lang=cs")  # Alice picks Czech from the menu; it sticks through the cookie
    alice.locator("form[data-create-table] [data-start=friend]").click()
    alice.wait_for_url(re.compile(r"/t/"))
    expect(alice.locator("html")).to_have_attribute("lang", "cs")
    link = alice.locator("[data-share-link]").input_value()
    assert "lang" not in link

    bob = new_context(locale="sv-SE").new_page()
    bob.goto(link)
    expect(bob.locator("html")).to_have_attribute("lang", "sv")


def test_the_sending_rule_picture_shows_where_a_cell_sends_the_opponent(
    new_context: NewContext,
) -> None:
    page = new_context().new_page()
    page.goto("/games/ultimate")
    top_right = page.locator("[data-sending] button[data-position='2']")
    top_right.click()
    expect(top_right).to_have_attribute("aria-pressed", "true")
    expect(page.locator("[data-board-position='2']")).to_have_class(re.compile(r"\bto\b"))
    expect(page.locator(".mini span.to")).to_have_count(1)
    expect(page.locator("[data-sending-result]")).to_have_text(
        "A mark in the top-right cell of any small board"
        " sends your opponent to the top-right board."
    )
    # The keyboard moves around the little grid too.
    top_right.press("ArrowDown")
    page.keyboard.press("Enter")
    expect(page.locator("[data-board-position='5']")).to_have_class(re.compile(r"\bto\b"))


def test_each_game_page_starts_that_game_against_a_friend_or_the_computer(
    new_context: NewContext,
) -> None:
    page = new_context().new_page()
    for game in ("standard", "ultimate"):
        for opponent in ("friend", "computer"):
            page.goto(f"/games/{game}")
            page.locator(f"main a[href='/?variant={game}&opponent={opponent}']").first.click()
            form = page.locator("form[data-create-table]")
            expect(form.locator(f"input[name=variant][value={game}]")).to_be_checked()
            # The way into the game the rules page offered is the one that stands out.
            expect(form.locator(f"[data-start={opponent}]")).to_have_class(re.compile("primary"))
            expect(form.locator("select[name=level]")).to_be_visible()
