"""Two people play at a table by link in two browsers while a third watches: full games by clicking,
a reload that keeps the seat, and a rematch that swaps who starts."""

from __future__ import annotations

import random
import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, Page, Response, expect
from tests.helpers import RoutedSocket, create_table, join

from tictactoe.server.web.templating import LANGUAGES

NewContext = Callable[..., BrowserContext]

MARKED = "[data-board] [data-mark=x], [data-board] [data-mark=o]"


def marks_on(page: Page) -> int:
    return int(page.evaluate("s => document.querySelectorAll(s).length", MARKED))


def wait_for_marks(page: Page, count: int) -> None:
    expect(page.locator(MARKED)).to_have_count(count)


def table_of(page: Page, table_id: str) -> dict[str, Any]:
    response = page.request.get(f"/api/tables/{table_id}")
    assert response.ok
    table: dict[str, Any] = response.json()
    return table


def enabled_moves(page: Page) -> set[str]:
    return set(
        page.eval_on_selector_all(
            "[data-board] button[data-move]:enabled", "cells => cells.map(c => c.dataset.move)"
        )
    )


def seat_of(page: Page) -> str:
    return page.locator("[data-board]").get_attribute("data-seat") or ""


def play_to_the_end(
    table_id: str,
    players: dict[str, Page],
    watchers: list[Page],
    rng: random.Random,
    reload_after: int | None = None,
) -> str:
    """Click random legal moves for whoever's turn it is until the game ends; check after every move
    that each page shows it, that only the mover has cells enabled, and exactly the legal ones."""
    pages = [*players.values(), *watchers]
    played = marks_on(pages[0])
    for _ in range(200):
        table = table_of(pages[0], table_id)
        for page in pages:
            board = page.locator("[data-board]")
            expect(board).to_have_attribute("data-turn", table["turn"])
            expect(board).to_have_attribute("data-result", table["result"] or "")
        if table["result"] is not None:
            assert all(enabled_moves(page) == set() for page in pages)
            return str(table["result"])
        mover = players[table["turn"]]
        playable = mover.locator("[data-board] button[data-move]:enabled")
        expect(playable).to_have_count(len(table["legal_moves"]))
        assert enabled_moves(mover) == set(table["legal_moves"])
        assert all(enabled_moves(page) == set() for page in pages if page is not mover)
        move = rng.choice(sorted(table["legal_moves"]))
        mover.locator(f"[data-board] button[data-move='{move}']").click()
        played += 1
        for page in pages:
            wait_for_marks(page, played)
            expect(page.locator(f"[data-board] button[data-move='{move}']")).to_have_text(
                table["turn"].upper()
            )
        if reload_after is not None and played == reload_after:
            reloading = players["x"]
            reloading.reload()
            expect(reloading.locator("[data-board]")).to_have_attribute("data-seat", "x")
            wait_for_marks(reloading, played)
    raise AssertionError("the game did not end")


def test_friends_play_a_full_ultimate_game_by_link_while_a_spectator_watches(
    new_context: NewContext, base_url: str
) -> None:
    alice = create_table(new_context(), variant="ultimate", opponent="friend", first="me")
    link = alice.locator("[data-share-link]").input_value()
    assert link == alice.url
    assert link.startswith(base_url + "/t/")
    table_id = link.rsplit("/", 1)[1]
    expect(alice.locator("[data-board]")).to_have_attribute("data-variant", "ultimate")
    expect(alice.locator("[data-board]")).to_have_attribute("data-seat", "x")
    expect(alice.locator("[data-join]")).to_be_hidden()

    bob = join(new_context(), link)
    expect(bob.locator("[data-board]")).to_have_attribute("data-seat", "o")
    expect(bob.locator("[data-join]")).to_be_hidden()

    carol = new_context().new_page()
    carol.goto(link)
    expect(carol.locator("[data-board]")).to_have_attribute("data-seat", "spectator")
    expect(carol.locator("[data-join]")).to_be_hidden()  # both seats are taken

    result = play_to_the_end(
        table_id, {"x": alice, "o": bob}, [carol], random.Random(3), reload_after=12
    )
    assert result in ("x", "o", "draw")
    final = table_of(alice, table_id)
    for page in (alice, bob, carol):
        expect(page.locator("[data-status]")).not_to_be_empty()
        for index, owner in enumerate(final["boards"]):
            expect(page.locator(f"[data-small-board='{index}']")).to_have_attribute(
                "data-owner", owner or ""
            )
    expect(alice.locator("[data-rematch]")).to_be_visible()
    expect(carol.locator("[data-rematch]")).to_be_hidden()


def test_friends_play_a_full_4x4_game_and_the_rematch_swaps_who_starts(
    new_context: NewContext,
) -> None:
    alice = create_table(new_context(), variant="standard", size="4", line="4", first="friend")
    expect(alice.locator("[data-board]")).to_have_attribute("data-seat", "o")
    table_id = alice.url.rsplit("/", 1)[1]
    bob = join(new_context(), alice.url)
    expect(bob.locator("[data-board]")).to_have_attribute("data-seat", "x")
    assert table_of(alice, table_id)["size"] == 4
    expect(alice.locator("[data-board] button[data-move]")).to_have_count(16)

    result = play_to_the_end(table_id, {"x": bob, "o": alice}, [], random.Random(7))
    score = table_of(alice, table_id)["score"]
    assert score == {mark: int(result == mark) for mark in ("x", "o")} | {
        "draws": int(result == "draw")
    }

    alice.locator("[data-rematch]").click()
    expect(alice.locator("[data-rematch]")).to_be_disabled()
    expect(bob.locator("[data-rematch]")).to_be_visible()
    bob.locator("[data-rematch]").click()
    for page, seat in ((alice, "x"), (bob, "o")):
        board = page.locator("[data-board]")
        expect(board).to_have_attribute("data-result", "")
        expect(board).to_have_attribute("data-seat", seat)
        expect(board).to_have_attribute("data-turn", "x")
    wait_for_marks(alice, 0)
    expect(alice.locator("[data-board] button[data-move]:enabled")).to_have_count(16)
    assert enabled_moves(bob) == set()
    # The score follows the person: Alice's wins are now in the X row.
    alice_wins = score["o"]
    expect(alice.locator("[data-player=x] [data-wins]")).to_have_text(str(alice_wins))


def test_the_table_page_is_light_and_loads_nothing_from_elsewhere_in_every_language(
    new_context: NewContext, base_url: str
) -> None:
    creator = create_table(new_context(), variant="ultimate")
    weights: dict[str, int] = {}
    for language in LANGUAGES:
        # A new visitor each time: nothing comes from the cache of the language before.
        visitor = new_context().new_page()
        responses: list[Response] = []
        visitor.on("response", lambda response, kept=responses: kept.append(response))
        visitor.goto(f"{creator.url}?lang={language}")
        expect(visitor.locator("html")).to_have_attribute("lang", re.compile(f"^{language}"))
        expect(visitor.locator("[data-board] button[data-move]")).to_have_count(81)
        visitor.wait_for_load_state("networkidle")
        assert responses
        assert all(response.url.startswith(base_url) for response in responses)
        # Bytes as sent (scripts and styles come gzipped); bench/page_weight.py prints them per
        # file.
        sizes = {
            response.url: response.request.sizes()["responseBodySize"]
            for response in responses
            if response.request.resource_type in ("document", "stylesheet", "script")
        }
        assert any(url.endswith(".css") or ".css?" in url for url in sizes), sizes
        assert any("/table_connection.js" in url for url in sizes), "the modules were not seen"
        assert any(f"/strings/{language}/table.js" in url for url in sizes), sizes
        weights[language] = sum(sizes.values())
        visitor.context.close()
    assert max(weights.values()) <= 60 * 1024, weights


def test_the_tab_title_says_when_it_becomes_your_turn_while_the_tab_is_hidden(
    new_context: NewContext,
) -> None:
    alice = create_table(new_context(), variant="standard", size="3", first="friend")
    bob = join(new_context(), alice.url)
    title = alice.title()
    # Alice switches to another tab: the page now reports itself hidden.
    alice.evaluate(
        "() => Object.defineProperty(document, 'hidden', {get: () => true, configurable: true})"
    )
    bob.locator("[data-board] button[data-move='b2']").click()
    expect(alice.locator("[data-board] button[data-move='b2']")).to_have_text("X")
    expect(alice).to_have_title(re.compile(r"^● Your move · "))
    alice.evaluate(
        """() => {
            Object.defineProperty(document, 'hidden', {get: () => false});
            document.dispatchEvent(new Event('visibilitychange'));
        }"""
    )
    expect(alice).to_have_title(title)


def test_resigning_takes_two_presses_and_ends_the_game_for_everyone(
    new_context: NewContext,
) -> None:
    alice = create_table(new_context(), variant="ultimate", first="me")
    bob = join(new_context(), alice.url)
    alice.locator("[data-board] button[data-move='e5']").click()
    expect(bob.locator("[data-board]")).to_have_attribute("data-turn", "o")
    resign = bob.locator("[data-resign]")
    resign.click()
    expect(resign).to_have_text("Really resign? Press again")
    expect(bob.locator("[data-board]")).to_have_attribute("data-result", "")
    resign.click()
    for page in (alice, bob):
        expect(page.locator("[data-board]")).to_have_attribute("data-result", "x")
        expect(page.locator("[data-status]")).to_contain_text("O resigned")
        expect(page.locator("[data-resign]")).to_be_hidden()
        expect(page.locator("[data-rematch]")).to_be_visible()
    expect(alice.locator("[data-status]")).to_contain_text("You won")
    expect(bob.locator("[data-status]")).to_contain_text("You lost")
    expect(alice.locator("[data-player=x] [data-wins]")).to_have_text("1")


def test_a_dropped_connection_reconnects_and_catches_up_on_missed_moves(
    new_context: NewContext,
) -> None:
    alice = create_table(new_context(), variant="ultimate", first="me")
    bob = new_context().new_page()
    # While cut off, the page's socket goes nowhere: it hears nothing the server says.
    socket = RoutedSocket(bob)
    bob.goto(alice.url)
    bob.locator("[data-join]").click()
    expect(bob.locator("[data-board]")).to_have_attribute("data-seat", "o")
    expect(bob.locator("[data-player=x] [data-presence]")).to_have_text("online")
    alice.locator("[data-board] button[data-move='e5']").click()
    bob.locator("[data-board] button[data-move='d5']").click()
    expect(alice.locator("[data-move='d5']")).to_have_text("O")

    socket.through = False
    connections = socket.drop()
    expect(bob.locator("[data-connection-note]")).to_contain_text("reconnecting")
    alice.locator("[data-board] button[data-move='b5']").click()
    expect(alice.locator("[data-board]")).to_have_attribute("data-turn", "o")
    socket.await_reconnect(connections)
    # That connection went nowhere, so Bob missed b5; the next real one catches up.
    expect(bob.locator("[data-move='b5']")).to_have_text("")
    socket.through = True
    socket.sockets[-1].close()
    expect(bob.locator("[data-move='b5']")).to_have_text("X")
    expect(bob.locator("[data-connection-note]")).to_be_hidden()
    expect(bob.locator("[data-board]")).to_have_attribute("data-turn", "o")
    legal = table_of(bob, alice.url.rsplit("/", 1)[1])["legal_moves"]
    expect(bob.locator("[data-board] button[data-move]:enabled")).to_have_count(len(legal))
    assert enabled_moves(bob) == set(legal)

    alice.close()
    expect(bob.locator("[data-player=x] [data-presence]")).to_have_text("offline")


def test_a_player_may_claim_the_win_when_the_opponent_vanishes_on_their_turn(
    new_context: NewContext,
) -> None:
    alice = create_table(new_context(), variant="standard", size="3", first="me")
    bob = join(new_context(), alice.url)
    alice.locator("[data-board] button[data-move='b2']").click()
    expect(bob.locator("[data-move='b2']")).to_have_text("X")
    claim = alice.locator("[data-claim]")
    expect(claim).to_be_hidden()
    bob.close()
    expect(alice.locator("[data-player=o] [data-presence]")).to_have_text("offline")
    # The server offers the claim once Bob has been away on his turn for the claim delay.
    expect(claim).to_be_visible(timeout=15_000)
    claim.click()
    expect(alice.locator("[data-board]")).to_have_attribute("data-result", "x")
    expect(alice.locator("[data-status]")).to_contain_text("O left the game")
    expect(claim).to_be_hidden()


def test_the_copy_button_puts_the_table_link_on_the_clipboard(new_context: NewContext) -> None:
    context = new_context()
    context.grant_permissions(["clipboard-read", "clipboard-write"])
    alice = create_table(context, variant="standard", size="5")
    copy = alice.locator("[data-copy]")
    copy.click()
    expect(copy).to_have_text("Link copied")
    assert alice.evaluate("() => navigator.clipboard.readText()") == alice.url
    expect(alice.locator("[data-status]")).to_contain_text(
        "Waiting for your friend to join: send them the link."
    )
