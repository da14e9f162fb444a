"""Hints: the computer's move in a table's position and what it does (the reasons a page words),
refused for a position no game reaches or a game that is over."""

from __future__ import annotations

from starlette.testclient import TestClient

from tictactoe import Game
from tictactoe.server.learning.hints import reasons
from tictactoe.server.learning.lessons import LESSONS


def lesson(step_id: str) -> Game:
    step = next(s for s in LESSONS if s.id == step_id)
    return Game.from_position(step.variant, step.position, line=step.line)


def test_the_reasons_say_what_a_move_does_in_ultimate() -> None:
    assert reasons(lesson("win-board"), "c9") == ["wins-board", "safe-send"]
    assert reasons(lesson("free-choice"), "i1") == ["wins-board", "free-choice"]
    assert reasons(lesson("block"), "f6") == ["blocks", "safe-send"]
    # d6 sends O to the top-left board, where O wins at once: no reason to give.
    assert reasons(lesson("dont-send"), "d6") == []


def test_a_hint_is_the_computers_move_with_its_reasons(client: TestClient) -> None:
    game = Game.from_record("standard", "a1 b2 a2")
    answer = client.post("/api/hints", json={"variant": "standard", "position": game.position()})
    assert answer.status_code == 200, answer.text
    hint = answer.json()
    assert (hint["move"], hint["proven"], hint["reasons"]) == ("a3", "draw", ["blocks"])
    assert hint["outlook"] == "draw"
    assert hint["text"] == (
        "The computer's move: a3. It blocks your opponent's line. "
        "With best play the game is a draw."
    )
    client.cookies.set("lang", "de")
    german = client.post("/api/hints", json={"variant": "standard", "position": game.position()})
    assert german.json()["text"].startswith("Der Zug des Computers: a3.")


def test_a_hint_is_refused_for_a_bad_position_or_a_finished_game(client: TestClient) -> None:
    bad = client.post("/api/hints", json={"variant": "ultimate", "position": "nonsense"})
    assert (bad.status_code, bad.json()["reason"]) == (422, "invalid-position")
    over = Game.from_record("standard", "a1 b1 a2 b2 a3").position()
    done = client.post("/api/hints", json={"variant": "standard", "position": over})
    assert (done.status_code, done.json()["reason"]) == (422, "game-over")
    assert "post" in client.get("/openapi.json").json()["paths"]["/api/hints"]
