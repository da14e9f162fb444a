"""Looking back in the browser: the review of a finished game stepped through move by move with
the computer's chart, the analysis board opening a position code and playing on against the
computer, and My games listing a game once it has been played."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

NewContext = Callable[..., BrowserContext]

# A 3×3 game O loses with its first move (an edge against the centre): X wins on the seventh.
GAME = "b2 b1 a1 c3 a3 c1 a2"
MARKED = "[data-board] [data-mark=x], [data-board] [data-mark=o]"


def play_game(new_context: NewContext, record: str, variant: str = "standard") -> dict[str, Any]:
    """A table where the first context's browser played X and a second browser O, `record`
    played through the API; returns the creation answer (and the creator's context)."""
    host = new_context()
    created = host.request.post("/api/tables", data={"variant": variant, "first": "me"})
    assert created.ok
    table = created.json()
    guest = new_context().request.post(f"/api/tables/{table['id']}/seats")
    assert guest.ok
    tokens = {"x": table["token"], "o": guest.json()["token"]}
    for ply, move in enumerate(record.split()):
        response = host.request.post(
            f"/api/tables/{table['id']}/moves",
            data={"move": move},
            headers={"Authorization": f"Bearer {tokens['xo'[ply % 2]]}"},
        )
        assert response.ok, response.text()
    return {**table, "context": host}


def marks(page: Page) -> int:
    return int(page.evaluate("s => document.querySelectorAll(s).length", MARKED))


def test_the_review_steps_through_every_move_with_the_chart(new_context: NewContext) -> None:
    table = play_game(new_context, GAME)
    page: Page = table["context"].new_page()
    page.goto(f"/t/{table['id']}")
    page.locator("[data-games-link]").click()
    page.get_by_role("link", name="Review").click()
    expect(page).to_have_url(re.compile(rf"/t/{table['id']}/games/1$"))
    review = page.locator("[data-review-page]")
    # The review opens at the end, and the chart arrives once the computer has looked.
    expect(review).to_have_attribute("data-ply", "7")
    expect(review).to_have_attribute("data-analysis", "ready", timeout=30_000)
    expect(page.locator("[data-chart] polyline")).to_be_visible()
    analysis = page.request.get(f"/api/tables/{table['id']}/games/1/analysis").json()
    points = page.locator("[data-chart] polyline").get_attribute("points") or ""
    assert len(points.split()) == 8
    # O's b1 turned a draw into a loss: the swing is ringed on the chart and in the move list.
    assert analysis["swings"] == [2]
    expect(page.locator("[data-chart] [data-swing]")).to_have_count(1)
    expect(page.locator("[data-move-list] button.swing")).to_have_text("2. b1")

    page.keyboard.press("Home")
    expect(review).to_have_attribute("data-ply", "0")
    assert marks(page) == 0
    for ply, move in enumerate(GAME.split(), start=1):
        page.keyboard.press("ArrowRight")
        expect(review).to_have_attribute("data-ply", str(ply))
        cell = page.locator(f"[data-board] [data-move={move}]")
        expect(cell).to_have_attribute("data-mark", "xo"[(ply - 1) % 2])
        expect(cell).to_have_class(re.compile(r"\blast\b"))
        assert marks(page) == ply
    expect(page.locator("[data-status]")).to_have_text("X wins")
    page.keyboard.press("ArrowRight")  # already at the end: stays
    expect(review).to_have_attribute("data-ply", "7")

    # Buttons and the move list step too; the computer's move is shown on request.
    page.locator("[data-step=first]").click()
    page.locator("[data-step=next]").click()
    expect(review).to_have_attribute("data-ply", "1")
    page.locator("[data-best-move]").click()
    best = analysis["evaluations"][1]["best_move"]
    expect(page.locator("[data-best-move-text]")).to_have_text(f"The computer would play {best}")
    expect(page.locator(f"[data-board] [data-move={best}]")).to_have_class(
        re.compile(r"\bsuggested\b")
    )
    page.locator("[data-move-list] button", has_text="5. a3").click()
    expect(review).to_have_attribute("data-ply", "5")
    page.keyboard.press("End")
    expect(review).to_have_attribute("data-ply", "7")
    expect(page.locator("#record-code")).to_have_value(GAME)
    expect(page.locator("#position-code")).to_have_value("x.o/xx./xoo o")


def test_the_analysis_board_opens_a_code_and_plays_on_against_the_computer(
    new_context: NewContext,
) -> None:
    page = new_context().new_page()
    page.goto("/analysis?variant=ultimate&position=bad")
    expect(page.locator("[data-read-error]")).to_contain_text("position code")

    code = "x../.o./... x"  # X in a3, O in b2, X to move
    page.goto(f"/analysis?variant=standard&position={code}")
    board = page.locator("[data-analysis-page]")
    expect(page.locator("[data-board] [data-move=a3]")).to_have_attribute("data-mark", "x")
    expect(page.locator("[data-board] [data-move=b2]")).to_have_attribute("data-mark", "o")
    expect(page.locator("#position-code")).to_have_value(code)
    # A line of one's own, played locally, then taken back with the arrow key.
    page.locator("[data-board] [data-move=c1]").click()
    expect(board).to_have_attribute("data-ply", "1")
    expect(page.locator("[data-board] [data-move=c1]")).to_have_attribute("data-mark", "x")
    page.keyboard.press("ArrowLeft")
    expect(board).to_have_attribute("data-ply", "0")
    expect(page.locator("[data-board] [data-move=c1]")).to_have_attribute("data-mark", "")
    # The computer's move on request: O threatens nothing yet, so it names some free cell.
    page.locator("[data-best-move]").click()
    expect(page.locator("[data-best-move-text]")).to_contain_text("The computer would play")
    expect(page.locator("[data-board] .cell.suggested")).to_have_count(1)

    form = page.locator("form[data-play-on]")
    form.locator("input[name=opponent][value=computer]").check()
    form.locator("select[name=level]").select_option("easy")
    form.locator("button[type=submit]").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    table_board = page.locator("[data-board]")
    expect(table_board).to_have_attribute("data-seat", "x")
    expect(page.locator("[data-board] [data-move=a3]")).to_have_attribute("data-mark", "x")
    expect(page.locator("[data-board] [data-move=b2]")).to_have_attribute("data-mark", "o")
    page.locator("[data-board] [data-move=c1]").click()
    # The computer answers from the position the table started from.
    expect(page.locator(MARKED)).to_have_count(4, timeout=15_000)
    expect(table_board).to_have_attribute("data-turn", "x")


def test_my_games_lists_a_game_after_playing_it(new_context: NewContext) -> None:
    table = play_game(new_context, "a1 a2 b1 b2 c1")
    page: Page = table["context"].new_page()
    page.goto("/")
    page.locator("[data-my-games-link]").click()
    expect(page).to_have_url(re.compile(r"/my-games$"))
    row = page.locator(f"[data-game-row][data-table-id='{table['id']}']")
    expect(row).to_contain_text("You won")
    row.get_by_role("link", name="Review").click()
    expect(page.locator("[data-review-page]")).to_have_attribute("data-ply", "5")

    stranger = new_context().new_page()
    stranger.goto("/my-games")
    expect(stranger.locator("[data-no-games]")).to_be_visible()
