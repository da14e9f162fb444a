"""Playing with the keyboard alone: B jumps to the board you must play in, arrow keys move over the
playable cells, Enter plays; a polite live region announces every move and where play goes next."""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

NewContext = Callable[..., BrowserContext]
ARROWS = ["ArrowUp", "ArrowDown", "ArrowLeft", "ArrowRight"]


def focused_move(page: Page) -> str | None:
    move: str | None = page.evaluate(
        "() => document.activeElement?.matches('[data-board] button[data-move]:enabled')"
        " ? document.activeElement.dataset.move : null"
    )
    return move


def table_of(page: Page, table_id: str) -> dict[str, Any]:
    table: dict[str, Any] = page.request.get(f"/api/tables/{table_id}").json()
    return table


def test_a_whole_ultimate_game_played_with_the_keyboard_alone(new_context: NewContext) -> None:
    alice = new_context().new_page()
    alice.goto("/?variant=ultimate")
    # Keyboard only from the start: focus the form's submit button and press Enter.
    alice.locator("form[data-create-table] [data-start=friend]").focus()
    alice.keyboard.press("Enter")
    alice.wait_for_url("**/t/**")
    table_id = alice.url.rsplit("/", 1)[1]
    bob = new_context().new_page()
    bob.goto(alice.url)
    bob.locator("[data-join]").focus()
    bob.keyboard.press("Enter")
    expect(bob.locator("[data-board]")).to_have_attribute("data-seat", "o")

    players = {"x": alice, "o": bob}
    rng = random.Random(5)
    for _ in range(100):
        table = table_of(alice, table_id)
        if table["result"] is not None:
            break
        page = players[table["turn"]]
        expect(page.locator("[data-board]")).to_have_attribute("data-turn", table["turn"])
        playable = page.locator("[data-board] button[data-move]:enabled")
        expect(playable).to_have_count(len(table["legal_moves"]))
        if len(table["moves"]) >= 2 and len(table["moves"]) % 4 < 2:
            # Focus stayed on the board after the player's last move, so it comes back to a
            # playable cell by itself when their turn comes.
            expect(page.locator("[data-board] button[data-move]:enabled:focus")).to_have_count(1)
        else:
            page.keyboard.press("b")
        move = focused_move(page)
        assert move in table["legal_moves"]
        if table["sent_to"] is not None and len(table["moves"]) % 4 >= 2:
            assert table["sends_to"] is not None
            # B lands in the board the player is sent to.
            cells = page.locator(f"[data-small-board='{table['sent_to']}'] button[data-move]")
            assert move in cells.evaluate_all("cs => cs.map(c => c.dataset.move)")
        for _ in range(rng.randrange(4)):
            page.keyboard.press(rng.choice(ARROWS))
            move = focused_move(page)
            assert move in table["legal_moves"], "arrow keys left the playable cells"
        page.keyboard.press("Enter")
        played = len(table["moves"]) + 1
        for viewer in players.values():
            expect(viewer.locator(f"[data-move='{move}']")).to_have_text(table["turn"].upper())
            announcement = viewer.locator("[data-announcer]")
            expect(announcement).to_contain_text(f"{table['turn'].upper()} played {move}")
        assert len(table_of(alice, table_id)["moves"]) == played
    final = table_of(alice, table_id)
    assert final["result"] in ("x", "o", "draw")
    expect(alice.locator("[data-board]")).to_have_attribute("data-result", final["result"])
