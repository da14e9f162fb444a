"""The game screen on phones (issue 21, changes 3, 6 and 7): names and clocks right above and
below the board, the thumb bar in reach, questions as one line that never covers the board, no
jump when the friend arrives; whose turn on the board itself; and a bad network: the mark drawn at
once, "Reconnecting…" at once, and play again within 3 s of the network's return. Each test runs
its pages side by side in one browser."""

from __future__ import annotations

import re
import time
from collections.abc import Callable
from typing import Any

from playwright.sync_api import APIRequestContext, BrowserContext, Page, expect

NewContext = Callable[..., BrowserContext]
PHONES = {320: 640, 360: 780}


def phone(width: int) -> dict[str, Any]:
    return {
        "viewport": {"width": width, "height": PHONES[width]},
        "is_mobile": True,
        "has_touch": True,
    }


def create(host: APIRequestContext, **body: Any) -> dict[str, Any]:
    created = host.post("/api/tables", data={"variant": "ultimate", "first": "me", **body})
    assert created.ok, created.text()
    table: dict[str, Any] = created.json()
    return table


def join(guest: APIRequestContext, table: dict[str, Any]) -> None:
    assert guest.post(f"/api/tables/{table['id']}/seats").ok


def box_of(page: Page, selector: str) -> dict[str, float]:
    box = page.locator(selector).bounding_box()
    assert box is not None, selector
    return box


def seen_whole(page: Page, selector: str) -> None:
    """Wholly on the screen, and not under the fixed thumb bar (unless it is in it)."""
    expect(page.locator(selector)).to_be_visible()
    box = box_of(page, selector)
    bottom = page.locator(selector).evaluate(
        """el => {
          const bar = document.querySelector("[data-thumb-bar]");
          const fixed = getComputedStyle(bar).position === "fixed" && !bar.contains(el);
          return fixed ? bar.getBoundingClientRect().top : innerHeight;
        }"""
    )
    width = page.viewport_size["width"]  # type: ignore[index]
    assert box["y"] >= 0 and box["y"] + box["height"] <= bottom + 0.5, (selector, box, bottom)
    assert box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5, (selector, box)


def two_phones_at_a_table(new_context: NewContext) -> tuple[BrowserContext, Page, Page]:
    """An Ultimate table on two 360 px phones, both pages open: the host's context (X, moves
    first), the host's page and the guest's (O)."""
    hosts, guests = new_context(**phone(360)), new_context(**phone(360))
    table = create(hosts.request)
    join(guests.request, table)
    host, guest = hosts.new_page(), guests.new_page()
    host.goto(table["url"], wait_until="commit")
    guest.goto(table["url"])
    host.wait_for_load_state()
    return hosts, host, guest


def apart(a: dict[str, float], b: dict[str, float]) -> bool:
    return a["y"] + a["height"] <= b["y"] + 0.5 or b["y"] + b["height"] <= a["y"] + 0.5


def test_names_clocks_and_the_thumb_bar_are_in_view_and_nothing_covers_the_board(
    new_context: NewContext,
) -> None:
    games = []
    for width in PHONES:
        hosts, guests = new_context(**phone(width)), new_context(**phone(width))
        table = create(hosts.request, takebacks=True, clock_minutes=3, clock_increment=2)
        host = hosts.new_page()
        host.goto(table["url"])
        games.append((width, table, host, guests))
    for width, table, host, guests in games:
        # Waiting: the link lies over the board; when the friend comes, the board stays put.
        expect(host.locator("[data-board-wrap] [data-share-link]")).to_be_visible()
        # Where the board lies in the page (a scroll to show the arrival's notice is no jump).
        place = """el => { const r = el.getBoundingClientRect();
                           return [r.top + scrollY, r.left, r.width, r.height]; }"""
        before = host.locator("[data-board]").evaluate(place)
        join(guests.request, table)
        expect(host.locator("[data-strip=o] [data-strip-name]")).to_have_text("Your opponent")
        expect(host.locator("[data-share-card]")).not_to_be_in_viewport()
        assert host.locator("[data-board]").evaluate(place) == before, width
        guest = guests.new_page()
        guest.goto(table["url"])
        host.locator("[data-board] [data-move=e5]").tap()
        expect(guest.locator("[data-board] [data-move=e5]")).to_have_text("X")
        for page in (host, guest):
            for part in ("[data-strip=x]", "[data-strip=o]", "[data-clock=x]", "[data-clock=o]"):
                seen_whole(page, part)
            seen_whole(page, "[data-board]")
            seen_whole(page, "[data-thumb-bar] [data-menu]")
            board = box_of(page, "[data-board]")
            assert apart(board, box_of(page, "[data-thumb-bar]")), width
        # Yours below the board, the opponent's above.
        assert box_of(host, "[data-strip=x]")["y"] > box_of(host, "[data-board]")["y"]
        assert box_of(guest, "[data-strip=o]")["y"] > box_of(guest, "[data-board]")["y"]
        seen_whole(host, "[data-takeback]")
        seen_whole(host, "[data-resign]")
        host.locator("[data-takeback]").tap()
        prompt = guest.locator("[data-takeback-prompt]")
        seen_whole(guest, "[data-takeback-prompt]")
        assert apart(box_of(guest, "[data-takeback-prompt]"), box_of(guest, "[data-board]"))
        assert prompt.evaluate("el => el.getBoundingClientRect().height") < 100
        guest.locator("[data-takeback-decline]").tap()
        expect(host.locator("[data-notice]")).to_have_text("Your opponent declined the takeback.")
        seen_whole(host, "[data-notice]")


def test_whose_turn_shows_on_the_board_and_a_wrong_tap_says_where_to_play(
    new_context: NewContext,
) -> None:
    _, host, guest = two_phones_at_a_table(new_context)
    expect(guest.locator("[data-status]")).to_contain_text("Your opponent's move")
    expect(guest.locator("[data-board]")).to_have_class("board ultimate their-turn")
    guest.locator("[data-board] [data-move=a1]").tap(force=True)
    expect(guest.locator("[data-notice]")).to_have_text("Your opponent's move")
    host.locator("[data-board] [data-move=e5]").tap()  # sends O to the centre board
    expect(guest.locator("[data-board]")).to_have_class("board ultimate my-turn")
    guest.locator("[data-board] [data-move=a1]").tap(force=True)
    expect(guest.locator("[data-notice]")).to_contain_text("must play in the centre board")
    # The frame of where to play is O's colour for O, and muted on X's screen (read once the
    # frame's 0.15 s colour transition has ended: to_have_css waits for it).
    o_colour = guest.evaluate("getComputedStyle(document.querySelector('.mark-o')).color")
    expect(guest.locator(".small-board.playable").first).to_have_css("background-color", o_colour)
    expect(host.locator(".small-board.playable").first).not_to_have_css(
        "background-color", o_colour
    )


def test_a_move_made_offline_is_drawn_at_once_and_lands_within_3_s_of_the_network(
    new_context: NewContext,
) -> None:
    hosts, host, guest = two_phones_at_a_table(new_context)
    board = host.locator("[data-board]")
    expect(board).to_have_attribute("data-connection", "open")
    # The mark is drawn the moment the cell is pressed, pending until the server has it.
    cell = host.locator("[data-board] [data-move=e5]")
    assert cell.evaluate("el => { el.click(); return [el.textContent, el.className]; }") == [
        "X",
        "cell pending",
    ]
    expect(cell).to_have_class("cell last fresh")
    expect(guest.locator("[data-board] [data-move=d4]")).to_be_enabled()
    hosts.set_offline(True)
    expect(board).to_have_attribute("data-connection", "reconnecting", timeout=6_000)
    expect(host.locator("[data-status]")).to_have_text("Reconnecting…")
    expect(host.locator("[data-board] button[data-move]:enabled")).to_have_count(0)
    guest.locator("[data-board] [data-move=d4]").tap()  # sends X to the bottom-left board
    back = time.monotonic()
    hosts.set_offline(False)
    expect(board).to_have_attribute("data-connection", "open", timeout=10_000)
    expect(host.locator("[data-board] [data-move=d4]")).to_have_text("O", timeout=10_000)
    expect(host.locator("[data-board] [data-move=b2]")).to_be_enabled()
    assert time.monotonic() - back <= 3.0
    # The opponent is told of a disconnection, never that the player "left".
    assert "left" not in guest.locator("[data-claim-countdown]").inner_text()


def test_quick_pairing_looks_for_an_opponent_then_opens_the_board_with_a_moment(
    new_context: NewContext,
) -> None:
    first = new_context(**phone(360)).new_page()
    first.goto("/?variant=ultimate&clock=5%2B3")
    first.locator("[data-start=someone]").click()
    first.wait_for_url("**/t/*")
    looking = first.locator("[data-looking]")
    expect(looking).to_be_visible()
    expect(looking).to_contain_text("Looking for an opponent…")
    expect(first.locator("[data-invite]")).to_be_hidden()  # no friend, no link to send
    expect(first.locator("[data-cancel]")).to_have_attribute("href", "/")
    second = new_context(**phone(360)).new_page()
    second.goto("/?variant=ultimate&clock=5%2B3")
    second.locator("[data-start=someone]").click()
    second.wait_for_url(first.url)
    expect(looking).to_be_hidden()
    expect(first.locator("[data-announcer]")).to_contain_text("Your opponent is here")
    expect(first.locator("[data-notice]")).to_have_text("Your opponent is here.")
    for page in (first, second):
        mine = page.locator("[data-board]").get_attribute("data-seat")
        expect(page.locator(f"[data-strip={mine}] [data-strip-name]")).to_have_text("You")
    seats = {page.locator("[data-board]").get_attribute("data-seat") for page in (first, second)}
    assert seats == {"x", "o"}


def test_the_computer_takes_a_visible_moment_and_gets_no_reactions_or_draw_offers(
    new_context: NewContext,
) -> None:
    context = new_context(**phone(360))
    table = create(context.request, opponent="computer", level="easy")
    page = context.new_page()
    page.goto(table["url"])
    expect(page.locator("[data-reactions]")).to_be_hidden()
    page.locator("[data-board] [data-move=e5]").tap()
    started = time.monotonic()
    expect(page.locator("[data-status]")).to_have_class("status thinking")
    expect(page.locator("[data-board] [data-mark=o]")).to_have_count(1, timeout=10_000)
    assert time.monotonic() - started >= 0.5
    expect(page.locator("[data-draw-slot]")).to_be_hidden()
    expect(page.locator("[data-reactions]")).to_be_hidden()


def test_one_device_names_the_sides_and_a_spectator_is_told_they_watch(
    new_context: NewContext,
) -> None:
    context = new_context(**phone(320))
    table = create(context.request, opponent="here")
    here = context.new_page()
    here.goto(table["url"])
    expect(here.locator("[data-strip=x] [data-strip-name]")).to_have_text("Player X")
    expect(here.locator("[data-strip=o] [data-strip-name]")).to_have_text("Player O")
    here.locator("[data-board] [data-move=e5]").tap()
    expect(here.locator("[data-board] [data-move=e5]")).to_have_text("X")
    text = here.locator("main").inner_text()
    assert "Your opponent" not in text and "You\n" not in text
    expect(here.locator("[data-share-card]")).to_be_hidden()
    # A full table's visitor: a badge and a word that they are watching.
    hosts, guests = new_context(**phone(360)), new_context(**phone(360))
    full = create(hosts.request)
    join(guests.request, full)
    visitor = new_context(**phone(360)).new_page()
    visitor.goto(full["url"])
    expect(visitor.locator("[data-watching]")).to_be_visible()
    expect(visitor.locator("[data-notice]")).to_have_text("You are watching this table.")


def test_cancel_leaves_the_quick_pairing_queue_on_the_server(new_context: NewContext) -> None:
    context = new_context(**phone(360))
    first = context.new_page()
    first.goto("/?variant=standard&size=4&line=3")
    first.locator("[data-start=someone]").click()
    first.wait_for_url("**/t/*")
    table_url = first.url
    # The same person has the table open in another tab too: still "here" after Cancel, so only
    # the server's own answer can keep a stranger from being paired with them.
    other_tab = context.new_page()
    other_tab.goto(table_url)
    expect(other_tab.locator("[data-looking]")).to_be_visible()
    first.locator("[data-cancel]").tap()
    first.wait_for_url(re.compile(r"://[^/]+/$"))  # home
    expect(first.locator("[data-start=someone]")).to_be_visible()
    table = context.request.get(table_url.replace("/t/", "/api/tables/")).json()
    assert table["public"] is False and table["record"] == ""
    stranger = new_context(**phone(360)).new_page()
    stranger.goto("/?variant=standard&size=4&line=3")
    stranger.locator("[data-start=someone]").click()
    stranger.wait_for_url("**/t/*")
    assert stranger.url != table_url
    expect(stranger.locator("[data-looking]")).to_be_visible()
    # The cancelled table is nobody's open table any more: its other seat is still free.
    expect(other_tab.locator("[data-looking]")).to_be_hidden()
    table = context.request.get(table_url.replace("/t/", "/api/tables/")).json()
    assert [seat["taken"] for seat in table["seats"].values()].count(True) == 1
