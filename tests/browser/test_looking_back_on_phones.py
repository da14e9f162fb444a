"""Looking back on a phone: the analysis board opened from a review carries the whole game (at the
move the review showed) with the computer's evaluation above the board, and "My games" is one card
a game, named by the opponent's name, the whole card a link."""

from __future__ import annotations

import re
from typing import Any

from playwright.sync_api import Page, expect
from tests.browser.test_game_screen import NewContext, phone
from tests.browser.test_review import GAME, play_game


def test_the_analysis_board_has_the_whole_game_and_an_evaluation(
    new_context: NewContext,
) -> None:
    table = play_game(lambda: new_context(**phone(360)), GAME)
    page: Page = table["context"].new_page()
    page.goto(f"/t/{table['id']}/games/1")
    review = page.locator("[data-review-page]")
    page.locator("[data-step=first]").tap()
    for _ in range(3):
        page.locator("[data-step=next]").tap()
    expect(review).to_have_attribute("data-ply", "3")
    page.locator("[data-analysis-link]").tap()
    analysis = page.locator("[data-analysis-page]")
    expect(analysis).to_have_attribute("data-ply", "3")
    # The rest of the game is still there: Forward runs to its last move.
    expect(page.locator("[data-step=next]")).to_be_enabled()
    expect(page.locator("[data-board] [data-mark=x], [data-board] [data-mark=o]")).to_have_count(3)
    text = page.locator("[data-evaluation-text]")
    # After b2 b1 a1 X wins with best play (O's edge reply lost the game).
    expect(text).to_have_text(re.compile(r"^(X wins with best play|X is better)$"), timeout=30_000)
    bar = page.locator("[data-evaluation-bar]")
    assert float(bar.get_attribute("aria-valuenow") or "0") > 0
    box = page.locator("[data-evaluation]").bounding_box()
    assert box is not None and box["y"] + box["height"] <= 780, box  # above the board, in view
    page.locator("[data-step=last]").tap()
    expect(analysis).to_have_attribute("data-ply", "7")
    expect(page.locator("#record-code")).to_have_value(GAME)
    expect(page.locator("[data-evaluation]")).to_be_hidden()  # the game is over: nothing to weigh


def test_my_games_cards_name_the_opponent_and_open_as_a_whole(new_context: NewContext) -> None:
    host = new_context(**phone(360))
    created: dict[str, Any] = host.request.post(
        "/api/tables", data={"variant": "standard", "first": "me"}
    ).json()
    guest = new_context(**phone(360))
    joined = guest.request.post(f"/api/tables/{created['id']}/seats").json()
    guest.request.put(
        f"/api/tables/{created['id']}/name",
        data={"name": "Νίκος"},
        headers={"Authorization": f"Bearer {joined['token']}"},
    )
    for ply, move in enumerate("a1 a2 b1 b2 c1".split()):
        token = created["token"] if ply % 2 == 0 else joined["token"]
        answer = host.request.post(
            f"/api/tables/{created['id']}/moves",
            data={"move": move},
            headers={"Authorization": f"Bearer {token}"},
        )
        assert answer.ok, answer.text()
    page = host.new_page()
    page.goto("/my-games")
    card = page.locator(f"[data-game-row][data-table-id='{created['id']}']")
    expect(card.locator("[data-opponent]")).to_have_text("Νίκος")
    expect(card).to_contain_text("You won")
    width = page.viewport_size["width"]  # type: ignore[index]
    box = card.bounding_box()
    assert box is not None and box["x"] >= 0 and box["x"] + box["width"] <= width + 0.5
    # A tap anywhere on the card (here: on the opponent's name) opens the review.
    name = card.locator("[data-opponent]").bounding_box()
    assert name is not None
    page.touchscreen.tap(name["x"] + name["width"] / 2, name["y"] + name["height"] / 2)
    expect(page.locator("[data-review-page]")).to_have_attribute("data-ply", "5")
