"""The table page when the server can't do what it is asked: the database unreachable (503, or the
socket closed with 1013 "try again later") and too many requests (429). The page says which, and a
move the database could not store is sent again until it lands, exactly once."""

from __future__ import annotations

import json
import re
import sqlite3
from collections.abc import Callable
from pathlib import Path
from typing import Any

from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect
from tests.helpers import RoutedSocket, create_table, join

NewContext = Callable[..., BrowserContext]

DATABASE_DOWN = "The server cannot reach its database: retrying…"


def moves_of(page: Page) -> list[str]:
    table_id = page.url.rsplit("/", 1)[1]
    response = page.request.get(f"/api/tables/{table_id}")
    assert response.ok
    table: dict[str, Any] = response.json()
    return list(table["moves"])


def test_a_move_made_while_the_database_is_unreachable_says_so_and_lands_once_it_is_back(
    new_context: NewContext, database_path: Path
) -> None:
    alice = create_table(new_context(), variant="standard", first="me")
    bob = join(new_context(), alice.url, seat="o")
    centre = "[data-board] button[data-move='b2']"
    expect(alice.locator(centre)).to_be_enabled()

    # Another process holds SQLite's write lock longer than the server waits for it: to the server
    # that is the database being unreachable (503, nothing written). Reads still work.
    blocker = sqlite3.connect(database_path, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")
        alice.locator(centre).click()
        expect(alice.locator("[data-connection-note]")).to_have_text(DATABASE_DOWN, timeout=20_000)
        # Drawn at once, but pending: faint until the server has it.
        expect(alice.locator(centre)).to_have_text("X")
        expect(alice.locator(centre)).to_have_class(re.compile(r"\bpending\b"))
        expect(alice.locator("[data-board] button[data-move]:enabled")).to_have_count(0)
        assert moves_of(bob) == []
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()

    # The page sends the same move again by itself; it lands once, and the game goes on.
    expect(bob.locator(centre)).to_have_text("X", timeout=20_000)
    expect(alice.locator(centre)).to_have_text("X")
    expect(alice.locator("[data-connection-note]")).to_be_hidden()
    expect(alice.locator("[data-board]")).to_have_attribute("data-turn", "o")
    bob.locator("[data-board] button[data-move='a1']").click()
    expect(alice.locator("[data-move='a1']")).to_have_text("O")
    assert moves_of(alice) == ["b2", "a1"]


def test_a_socket_closed_to_try_again_later_says_the_database_is_unreachable_and_reconnects(
    new_context: NewContext,
) -> None:
    alice = create_table(new_context(), variant="standard", first="me")
    bob = new_context().new_page()
    # While the database is "down" the page's socket reaches no server: the test answers it.
    socket = RoutedSocket(bob)
    bob.goto(alice.url)
    bob.locator("[data-join]").click()
    expect(bob.locator("[data-board]")).to_have_attribute("data-seat", "o")

    socket.through = False
    socket.await_reconnect(socket.drop())
    # What the server does when it cannot load the table: a 503 frame, then close 1013.
    refused = socket.sockets[-1]
    refused.send(json.dumps({"type": "error", "status": 503, "message": "unreachable"}))
    refused.close(code=1013, reason="try again later")
    expect(bob.locator("[data-connection-note]")).to_have_text(DATABASE_DOWN)
    expect(bob.locator("[data-error]")).to_be_hidden()
    alice.locator("[data-board] button[data-move='b2']").click()
    socket.through = True
    expect(bob.locator("[data-move='b2']")).to_have_text("X", timeout=20_000)
    expect(bob.locator("[data-connection-note]")).to_be_hidden()


def test_too_many_moves_and_too_many_reactions_are_told_apart(new_context: NewContext) -> None:
    alice = create_table(new_context(), variant="standard", first="me")
    join(new_context(), alice.url, seat="o")
    flooded = {"now": False}

    def route(socket: WebSocketRoute) -> None:
        server = socket.connect_to_server()

        def from_page(message: str | bytes) -> None:
            # The server's per-address move limit, answered as the rate-limit middleware does.
            if flooded["now"] and '"move"' in str(message):
                frame = {
                    "type": "error",
                    "id": json.loads(message)["id"],  # the answer echoes the message's id
                    "status": 429,
                    "reason": "rate-limited",
                    "message": "too many messages: wait 1 s",
                }
                socket.send(json.dumps({**frame, "retry_after": 1.0}))
            else:
                server.send(message)

        socket.on_message(from_page)

    alice.route_web_socket(re.compile(r"/ws$"), route)
    alice.reload()
    expect(alice.locator("[data-board] button[data-move='b2']")).to_be_enabled()
    flooded["now"] = True
    alice.locator("[data-board] button[data-move='b2']").click()
    expect(alice.locator("[data-error]")).to_have_text("Too many requests: wait a moment.")
    expect(alice.locator("[data-board] button[data-move='b2']")).to_be_enabled()  # play again

    # The table's own limit on reactions (a burst of three) keeps its own words.
    for _ in range(4):
        alice.locator("button[data-reaction='wow']").click()
    expect(alice.locator("[data-error]")).to_have_text("Slow down: one reaction at a time.")
