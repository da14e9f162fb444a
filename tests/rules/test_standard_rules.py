"""One test for each rule of standard Tic-Tac-Toe (`rules/standard.py`): sizes, lines, turns and
results."""

from __future__ import annotations

import pytest

from tictactoe import Game, IllegalMoveError, new_game


def test_x_moves_first() -> None:
    assert new_game("standard").turn == "x"
    assert new_game("standard").play("b2").turn == "o"


@pytest.mark.parametrize(("size", "line"), [(3, 3), (4, 4), (5, 4)])
def test_default_line_for_each_size(size: int, line: int) -> None:
    game = new_game("standard", size=size)
    assert (game.size, game.line) == (size, line)
    assert len(game.legal_moves()) == size * size


@pytest.mark.parametrize(
    ("record", "line"),
    [
        ("a1 a2 b1 b2 c1", ("a1", "b1", "c1")),  # horizontal
        ("a1 b1 a2 b2 a3", ("a1", "a2", "a3")),  # vertical
        ("a1 a2 b2 a3 c3", ("a1", "b2", "c3")),  # diagonal
        ("c1 a1 b2 a2 a3", ("a3", "b2", "c1")),  # the other diagonal
    ],
)
def test_three_in_a_row_wins_on_3x3_in_every_direction(record: str, line: tuple[str, ...]) -> None:
    game = Game.from_record("standard", record)
    assert game.result == "x"
    assert [set(found) for found in game.winning_lines()] == [set(line)]


def test_line_marks_in_a_row_win_on_a_larger_board() -> None:
    game = Game.from_record("standard", "a1 a4 b2 b4 c3", size=4, line=3)
    assert game.result == "x"


def test_fewer_than_line_marks_in_a_row_do_not_win() -> None:
    game = Game.from_record("standard", "a1 a4 b1 b4 c1", size=4)  # line 4 by default
    assert game.result is None
    assert Game.from_record("standard", "a1 a4 b1 b4 c1 c4 d1", size=4).result == "x"


def test_five_by_five_wins_with_four_in_a_row() -> None:
    game = Game.from_record("standard", "b2 a5 c3 b5 d4 c5 e5", size=5)
    assert game.result == "x"
    assert game.winning_lines() == [("b2", "c3", "d4", "e5")]


def test_a_full_board_without_a_line_is_a_draw() -> None:
    game = Game.from_record("standard", "a3 b3 c3 b2 a2 c2 b1 a1 c1")
    assert game.result == "draw"
    assert game.legal_moves() == []
    assert game.winning_lines() == []


def test_a_line_made_by_the_move_that_fills_the_board_wins() -> None:
    game = Game.from_record("standard", "a1 b1 c2 a2 a3 b2 c3 c1 b3")
    assert game.result == "x"


def test_o_wins_with_a_line_of_its_own() -> None:
    assert Game.from_record("standard", "a1 b1 a2 b2 c3 b3").result == "o"


def test_no_moves_once_the_game_is_over() -> None:
    game = Game.from_record("standard", "a1 a2 b1 b2 c1")
    with pytest.raises(IllegalMoveError) as refused:
        game.play("c3")
    assert refused.value.reason == "game-over"


@pytest.mark.parametrize(
    ("move", "reason"),
    [("d1", "off-board"), ("a4", "off-board"), ("b", "malformed"), ("b2 ", "malformed")],
)
def test_moves_that_are_not_cells_are_refused(move: str, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as refused:
        new_game("standard").play(move)
    assert refused.value.reason == reason


def test_an_occupied_cell_is_refused() -> None:
    with pytest.raises(IllegalMoveError) as refused:
        new_game("standard").play("b2").play("b2")
    assert refused.value.reason == "occupied"


@pytest.mark.parametrize(("size", "line"), [(2, None), (6, None), (3, 2), (4, 5), (5, 6)])
def test_settings_outside_the_rules_are_refused(size: int, line: int | None) -> None:
    with pytest.raises(ValueError, match="size|line"):
        new_game("standard", size=size, line=line)


def test_an_unknown_variant_is_refused() -> None:
    with pytest.raises(ValueError, match="unknown variant"):
        new_game("gomoku")


def test_a_record_with_an_illegal_move_names_its_ply() -> None:
    with pytest.raises(IllegalMoveError, match="move 3") as refused:
        Game.from_record("standard", "a1 b2 a1")
    assert refused.value.reason == "occupied"
