"""The computer's evaluation of positions, as the review of a game charts it (X's point of view)."""

from __future__ import annotations

import tictactoe
from tictactoe.engine.analysis import Evaluation, evaluate


def test_a_win_in_one_for_x_is_proven_and_its_move_named() -> None:
    evaluation = evaluate(tictactoe.Game.from_record("standard", "a1 a2 b1 b2"), think_ms=20)
    assert (evaluation.score, evaluation.proven, evaluation.best_move) == (1.0, "x", "c1")


def test_a_win_for_o_scores_minus_one_from_xs_side() -> None:
    # O holds a1 and b2 and is to move: c3 completes the diagonal.
    game = tictactoe.Game.from_record("standard", "a2 a1 c1 b2 b3")
    evaluation = evaluate(game, think_ms=20)
    assert evaluation.score == -1.0
    assert evaluation.proven == "o"
    assert evaluation.best_move == "c3"


def test_the_empty_three_by_three_board_is_a_proven_draw() -> None:
    evaluation = evaluate(tictactoe.new_game("standard"), think_ms=50)
    assert (evaluation.score, evaluation.proven) == (0.0, "draw")


def test_a_finished_game_scores_its_result_without_a_move() -> None:
    game = tictactoe.Game.from_record("standard", "a1 a2 b1 b2 c1")
    assert evaluate(game) == Evaluation(1.0, "x", None)


def test_ultimate_positions_get_a_score_in_range_and_a_legal_move() -> None:
    game = tictactoe.Game.from_record("ultimate", "e5 e4 d2")
    evaluation = evaluate(game, think_ms=30)
    assert -1.0 <= evaluation.score <= 1.0
    assert evaluation.best_move in game.legal_moves()
