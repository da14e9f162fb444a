"""Every lesson step's answers, recomputed with the rules library from what its `kind` says makes a
move right, so a position and its answers cannot drift apart; and the `/learn` page."""

from __future__ import annotations

import json
import re
from collections.abc import Callable
from typing import Any

import pytest
from starlette.testclient import TestClient

from tictactoe import Game
from tictactoe.rules.ultimate import LINES, board_cells, board_of
from tictactoe.server.learning.lessons import LESSONS, LessonStep
from tictactoe.server.learning.puzzles import all_puzzles
from tictactoe.server.web.templating import LANGUAGES

from .test_puzzle_proofs import move_wins_within, wins_within


def start(step: LessonStep) -> Game:
    return Game.from_position(step.variant, step.position, line=step.line)


def small_boards_won(game: Game, mark: str) -> int:
    return sum(owner == mark for owner in game.boards())  # type: ignore[attr-defined]


def wins_small_board(game: Game, move: str) -> bool:
    return small_boards_won(game.play(move), game.turn) > small_boards_won(game, game.turn)


def opponent_can_win_a_small_board(after: Game) -> bool:
    return after.result is None and any(wins_small_board(after, m) for m in after.legal_moves())


def big_line_possible(game: Game, mark: str) -> bool:
    boards = game.boards()  # type: ignore[attr-defined]
    return any(all(boards[b] in (None, mark) for b in range(9) if line >> b & 1) for line in LINES)


def opponent_completes_a_line(game: Game, move: str) -> bool:
    """Would the opponent make three in a row with `move` (in its small board, for Ultimate)?"""
    other = "o" if game.turn == "x" else "x"
    if game.variant == "ultimate":
        cells = board_cells(board_of(move))
    else:
        cells = [f"{col}{row}" for row in "321" for col in "abc"]
    owned = {spot for spot, name in enumerate(cells) if game.cell(name) == other or name == move}
    return any(all(spot in owned for spot in range(9) if line >> spot & 1) for line in LINES)


RIGHT: dict[str, Callable[[Game, str], bool]] = {
    "sent-board": lambda game, move: move in game.legal_moves(),
    "sends-to-bottom-right": lambda game, move: game.sends_to(move) == 8,  # type: ignore[attr-defined]
    "wins-small-board": wins_small_board,
    "blocks-small-board": opponent_completes_a_line,
    "gives-no-small-board": lambda game, move: not opponent_can_win_a_small_board(game.play(move)),
    "wins-in-2": lambda game, move: move_wins_within(game, move, 2) and not wins_within(game, 1),
    "leaves-no-big-line": lambda game, move: not any(
        big_line_possible(game.play(move), mark) for mark in "xo"
    ),
    "blocks-line": opponent_completes_a_line,
}


@pytest.mark.parametrize("step", LESSONS, ids=lambda step: step.id)
def test_the_answers_are_exactly_the_moves_the_task_asks_for(step: LessonStep) -> None:
    game = start(step)
    assert game.result is None
    right = {move for move in game.legal_moves() if RIGHT[step.kind](game, move)}
    assert right == set(step.answers)
    assert len(right) < len(game.legal_moves()) or step.any_cell, "every move would be right"


def test_where_am_i_sent_lets_every_empty_cell_be_pressed() -> None:
    step = next(s for s in LESSONS if s.any_cell)
    game = start(step)
    empty = [name for name in _cells(9) if game.cell(name) is None]
    assert len(empty) > len(game.legal_moves()) == len(step.answers)


def _cells(size: int) -> list[str]:
    return [f"{chr(97 + col)}{row}" for col in range(size) for row in range(1, size + 1)]


def test_the_course_has_ten_to_fifteen_steps_with_a_standard_corner() -> None:
    assert 10 <= len(LESSONS) <= 15
    assert {step.variant for step in LESSONS} == {"ultimate", "standard"}
    assert len({step.id for step in LESSONS}) == len(LESSONS)


def test_the_learn_page_carries_every_step_and_its_words(client: TestClient) -> None:
    page = client.get("/learn")
    assert page.status_code == 200
    assert "data-learn" in page.text and 'class="skip-link"' in page.text
    for step in LESSONS:
        assert f'data-lesson-text="{step.id}"' in page.text
    assert 'href="/learn"' in client.get("/").text


@pytest.mark.parametrize("language", [lang for lang in LANGUAGES if lang != "en"])
def test_the_learning_pages_words_are_in_the_pages_language(
    client: TestClient, language: str
) -> None:
    puzzle = all_puzzles()[0].id
    for path in ("/learn", f"/puzzles/{puzzle}", "/puzzles"):
        english = client.get(f"{path}?lang=en").text
        translated = client.get(f"{path}?lang={language}").text
        assert f'<html lang="{language}' in translated  # zh is zh-Hans
        english_words, words = json_blobs(english), json_blobs(translated)
        for name, blob in english_words.items():
            same = {k for k, v in blob.items() if words[name][k] == v and has_words(v)}
            assert same == set(), f"English left in {name} of {path}: {same}"
        translated = re.sub(r"<script.*?</script>", "", translated, flags=re.S)
        for needle in ("Lessons", "Try again", "Where am I sent?", "Complete the line.", "Solved!"):
            if needle in english:
                assert needle not in translated, f"{needle!r} left in English on {path}"


def json_blobs(html: str) -> dict[str, dict[str, Any]]:
    """The page's JSON blob of words for its scripts."""
    found = dict(
        re.findall(r'<script type="application/json" id="([\w-]+)">(.*?)</script>', html, re.S)
    )
    blobs = {"strings": json.loads(found["strings"])}
    return blobs


def has_words(text: object) -> bool:
    """Text with letters besides its placeholders (a pattern like "{label}: {text}" has none)."""
    return (
        isinstance(text, str) and re.search(r"[^\W\d_]", re.sub(r"\{\w+\}", "", text)) is not None
    )
