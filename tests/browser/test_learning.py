"""The lessons and the puzzles in a real browser, on a phone: a lesson step failed then solved, a
puzzle solved and one failed with its refutation on the board, the rating kept in the browser
moving both ways; and both pages free of serious accessibility faults."""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

from playwright.sync_api import BrowserContext, Page, expect

from tictactoe.server.learning.puzzles import Puzzle, all_puzzles

NewContext = Callable[..., BrowserContext]
PHONE: dict[str, Any] = {
    "viewport": {"width": 360, "height": 740},
    "is_mobile": True,
    "has_touch": True,
}

LAST = re.compile(r"\blast\b")


def tap(page: Page, cell: str) -> None:
    page.locator(f"[data-board] [data-move='{cell}']").tap()


def rating(page: Page) -> int:
    return int(page.locator("[data-rating]").inner_text())


def test_a_lesson_step_failed_then_solved_on_a_phone_and_remembered(
    new_context: NewContext,
) -> None:
    page = new_context(**PHONE).new_page()
    page.goto("/learn#win-board")
    root = page.locator("[data-learn]")
    expect(root).to_have_attribute("data-lesson-step", "win-board")
    tap(page, "b8")
    expect(root).to_have_attribute("data-lesson-result", "wrong")
    expect(page.locator("[data-lesson-feedback]")).to_contain_text("does not complete")
    page.locator("[data-lesson-retry]").tap()
    expect(root).to_have_attribute("data-lesson-result", "")
    tap(page, "c9")
    expect(root).to_have_attribute("data-lesson-result", "right")
    expect(page.locator("[data-board] [data-move='c9']")).to_have_text("X")
    expect(page.locator("[data-lesson-go='win-board']")).to_have_attribute("data-done", "true")
    page.locator("[data-lesson-next]").tap()
    expect(root).to_have_attribute("data-lesson-step", "block")
    page.reload()
    # Progress is kept: the first step not done yet comes back, the done one keeps its tick.
    expect(page.locator("[data-lesson-go='win-board']")).to_have_attribute("data-done", "true")
    expect(root).to_have_attribute("data-lesson-step", "block")


def a_puzzle(win_in: int, skip: int = 0) -> Puzzle:
    return [p for p in all_puzzles() if p.win_in == win_in][skip]


def test_a_puzzle_solved_and_one_failed_move_the_rating_and_show_the_refutation(
    new_context: NewContext,
) -> None:
    context = new_context(**PHONE)
    solved, failed = a_puzzle(2), a_puzzle(2, skip=1)
    page = context.new_page()
    page.goto(f"/puzzles/{solved.id}")
    root = page.locator("[data-puzzle]")
    expect(root).to_have_attribute("data-puzzle", solved.id)
    assert rating(page) == 1500
    tap(page, solved.line[0])
    feedback = page.locator("[data-puzzle-feedback]")
    expect(feedback).to_have_text("Right! Find the next move.")
    expect(page.locator(f"[data-board] [data-move='{solved.line[1]}']")).to_have_class(LAST)
    tap(page, solved.line[2])
    expect(root).to_have_attribute("data-puzzle-result", "solved")
    expect(feedback).to_have_text("Solved!")
    after_win = rating(page)
    assert after_win > 1500

    wrong, reply = next((m, r) for m, r in failed.refutations[0].items() if r)
    page.goto(f"/puzzles/{failed.id}")
    assert rating(page) == after_win  # kept in the browser
    tap(page, wrong)
    expect(root).to_have_attribute("data-puzzle-result", "failed")
    expect(feedback).to_contain_text(f"{reply} beats it")
    expect(page.locator(f"[data-board] [data-move='{reply}']")).to_have_class(LAST)
    assert rating(page) < after_win
    # A retry is allowed but no longer rated.
    after_loss = rating(page)
    page.locator("[data-retry]").tap()
    tap(page, failed.line[0])
    expect(feedback).to_have_text("Right! Find the next move.")
    tap(page, failed.line[2])
    expect(root).to_have_attribute("data-puzzle-result", "solved")
    assert rating(page) == after_loss


def test_the_puzzle_and_lesson_pages_have_no_serious_accessibility_faults(
    new_context: NewContext, serious_violations: Callable[[Page], list[str]]
) -> None:
    context = new_context(bypass_csp=True, **PHONE)
    for path in ("/learn", f"/puzzles/{all_puzzles()[0].id}"):
        page = context.new_page()
        page.goto(path)
        expect(page.locator("[data-board] [data-move]").first).to_be_attached()
        assert serious_violations(page) == [], path


# A 3×3 game O loses with its first move (an edge against the centre): X wins on the seventh.
BLUNDER_GAME = "b2 b1 a1 c3 a3 c1 a2"


def test_a_mistake_of_a_finished_game_is_played_again_as_an_exercise(
    new_context: NewContext,
) -> None:
    host = new_context(**PHONE)
    table = host.request.post("/api/tables", data={"variant": "standard", "first": "me"}).json()
    guest = new_context().request.post(f"/api/tables/{table['id']}/seats").json()
    tokens = {"x": table["token"], "o": guest["token"]}
    for ply, move in enumerate(BLUNDER_GAME.split()):
        played = host.request.post(
            f"/api/tables/{table['id']}/moves",
            data={"move": move},
            headers={"Authorization": f"Bearer {tokens['xo'[ply % 2]]}"},
        )
        assert played.ok, played.text()
    page = host.new_page()
    page.goto(f"/t/{table['id']}/games/1")
    # O's b1 is the one move that lost: it is the only exercise.
    mistakes = page.locator("[data-mistake]")
    expect(mistakes).to_have_count(1, timeout=60_000)
    expect(mistakes.first).to_have_text("Move 2: O played b1")
    mistakes.first.tap()
    exercise = page.locator("[data-mistake-exercise]")
    expect(exercise).to_have_attribute("data-mistake-ply", "2")
    board = page.locator("[data-mistake-board]")
    board.locator("[data-move='b1']").tap()
    expect(exercise).to_have_attribute("data-mistake-result", "wrong")
    page.locator("[data-mistake-retry]").tap()
    board.locator("[data-move='c2']").tap()  # another edge: as lost as b1
    expect(exercise).to_have_attribute("data-mistake-result", "wrong", timeout=20_000)
    expect(page.locator("[data-mistake-feedback]")).to_contain_text("prefers another move")
    page.locator("[data-mistake-retry]").tap()
    board.locator("[data-move='c1']").tap()  # a corner holds the draw
    expect(exercise).to_have_attribute("data-mistake-result", "right", timeout=20_000)


def test_a_hint_against_the_computer_shows_its_move_and_is_marked_in_the_review(
    new_context: NewContext,
) -> None:
    page = new_context(bypass_csp=True, **PHONE).new_page()  # for wait_for_function
    created = page.request.post(
        "/api/tables",
        data={"variant": "standard", "opponent": "computer", "level": "easy", "first": "me"},
    ).json()
    page.goto(created["url"])
    card = page.locator("[data-hints]")
    expect(card).to_be_visible()
    ask = page.locator("[data-hint-ask]")
    expect(ask).to_be_hidden()  # off until the player turns hints on
    page.locator("[data-hints-on]").check()
    expect(ask).to_be_enabled()
    ask.tap()
    text = page.locator("[data-hint-text]")
    expect(text).to_contain_text("The computer's move:", timeout=30_000)
    hinted = page.locator("[data-board] .cell.suggested")
    expect(hinted).to_have_count(1)
    move = hinted.get_attribute("data-move")
    # The hinted move, then any free cell on each turn, until the game ends.
    cell = hinted
    for played in range(1, 6):
        cell.tap()
        page.wait_for_function(
            """n => document.querySelector("[data-board]").dataset.result !== ""
                || document.querySelectorAll("[data-board] .cell:enabled").length > 0
                && document.querySelectorAll("[data-board] [data-mark=o]").length >= n""",
            arg=played,
            timeout=20_000,
        )
        if page.locator("[data-board]").get_attribute("data-result"):
            break
        cell = page.locator("[data-board] .cell:enabled").first
    page.goto(f"/t/{created['id']}/games/1")
    expect(page.locator("[data-hints-used]")).to_have_text(f"Played after a hint: 1. {move}.")
    expect(page.locator("[data-move-list] [data-ply='1']")).to_have_attribute("data-hinted", "true")
