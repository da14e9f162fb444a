"""Cell names, records and position codes: the notation's examples (`rules/notation.py`) and
their errors."""

from __future__ import annotations

import pytest
from tests.rules.positions import position_code

from tictactoe import Game, InvalidPositionError, new_game
from tictactoe.rules import board_name, board_of
from tictactoe.rules.notation import cell_name, parse_cell

AFTER_E5 = (
    "........./........./........./........./....x..../........./........./........./........."
    " o e5"
)


def test_cells_are_named_by_file_from_the_left_and_rank_from_the_bottom() -> None:
    assert board_of("e5") == 4 and board_name(4) == "e5"  # centre cell of the centre board
    assert parse_cell("a9", 9) == 0  # top-left cell of the top-left board
    assert parse_cell("i1", 9) == 80  # bottom-right cell of the bottom-right board
    assert [cell_name(i, 9) for i in (0, 8, 72, 80)] == ["a9", "i9", "a1", "i1"]


def test_cell_names_round_trip_on_every_grid() -> None:
    for width in (3, 4, 5, 9):
        for index in range(width * width):
            assert parse_cell(cell_name(index, width), width) == index


def test_a_record_is_the_moves_separated_by_single_spaces() -> None:
    game = Game.from_record("ultimate", "e5 e4 d2")
    assert game.record == "e5 e4 d2"
    assert game.moves == ("e5", "e4", "d2")
    assert new_game("ultimate").record == ""


def test_the_position_code_after_e5_is_the_contracts_example() -> None:
    assert new_game("ultimate").play("e5").position() == AFTER_E5
    assert Game.from_position("ultimate", AFTER_E5).legal_moves() == (
        new_game("ultimate").play("e5").legal_moves()
    )


def test_the_position_code_before_the_first_move_has_no_last_move() -> None:
    assert new_game("ultimate").position().endswith(" x -")
    assert new_game("standard", size=4).position() == "..../..../..../.... x"


def test_a_standard_position_code_reads_back() -> None:
    game = Game.from_position("standard", "x../.o./... x")
    assert (game.cell("a3"), game.cell("b2"), game.turn) == ("x", "o", "x")
    assert Game.from_position("standard", "x.../..../..../.... o").line == 4
    assert Game.from_position("standard", "x.../..../..../.... o", line=3).line == 3


@pytest.mark.parametrize(
    ("code", "why"),
    [
        (position_code("e5 e4", "", "o", "e4"), "x has 2 marks and o has 0"),
        (position_code("e5", "e4", "o", "e4"), "x's turn"),
        (position_code("", "e4", "x", "e4"), "x has 0 marks and o has 1"),
        (position_code("e5", "", "o", "e4"), "must hold an x"),
        (position_code("e5", "", "o", "-"), "'-' (none) but the grid has marks"),
        (position_code("e5", "", "o", "z9"), "not a cell"),
        (position_code("a9 b9 c9 d9", "a8 b8 c8", "o", "d9"), "line of x and a line of o"),
        (position_code("a9 b9 c9 a8", "d1 d2 e4", "o", "a8"), "already won before it"),
        (position_code("a9 b9 c9", "e4 d1 b8", "x", "b8"), "the other side had already won"),
        ("x../.o./... x -", "9 ranks"),
        ("........./.. o -", "rank 1 from the top has 9 cells; a 2×2 grid needs 2"),
        (AFTER_E5.replace("/........./", "/........../", 1), "rank 2 from the top has 10 cells"),
        (AFTER_E5.replace(" o e5", " y e5"), "'x' or 'o'"),
        (AFTER_E5.replace(" o e5", " o"), "grid, the side to move and the last move"),
    ],
)
def test_unreachable_ultimate_positions_are_refused_with_the_reason(code: str, why: str) -> None:
    with pytest.raises(InvalidPositionError, match=None) as refused:
        Game.from_position("ultimate", code)
    assert why in str(refused.value)


def test_a_board_won_before_the_game_was_won_is_refused() -> None:
    # x has the top row of boards and more: the win before the last move would have ended play.
    x = "a9 b9 c9 d9 e9 f9 g9 h9 i9 a6 b6 c6"
    o = "a4 b4 d6 f6 d4 e4 g4 h4 g6 i6 a5"
    with pytest.raises(InvalidPositionError, match="won the game before"):
        Game.from_position("ultimate", position_code(x, o, "o", "c6"))


@pytest.mark.parametrize(
    ("code", "why"),
    [
        ("xx./.../... x", "x has 2 marks and o has 0"),
        ("xxx/ooo/x.. o", "both x and o have a line"),
        ("x.x/.x./x.x o", "x has 5 marks and o has 0"),
        ("xox/oxo/.x. x", "it is o's turn"),
        ("xo./.x./..z o", "cells are 'x', 'o' or '.'"),
        ("x../... x", "rank 1 from the top has 3 cells"),
        ("../.. x", "size is 3, 4 or 5"),
        ("... x o", "grid, a space and the side to move"),
    ],
)
def test_unreachable_standard_positions_are_refused_with_the_reason(code: str, why: str) -> None:
    with pytest.raises(InvalidPositionError) as refused:
        Game.from_position("standard", code)
    assert why in str(refused.value)


def test_two_lines_made_by_one_last_move_are_a_legal_win() -> None:
    game = Game.from_position("standard", "xxx/xoo/xoo o")
    assert game.result == "x"
    assert len(game.winning_lines()) == 2


def test_two_lines_no_single_move_could_make_are_refused() -> None:
    with pytest.raises(InvalidPositionError, match="no single last move"):
        Game.from_position("standard", "xxxx./ooo../xxxx./ooo../o.... o")


@pytest.mark.parametrize(
    ("variant", "code", "reason", "values"),
    [
        ("standard", "xx./.../... x", "mark-counts", {"x": 2, "o": 0}),
        ("standard", "xox/oxo/.x. x", "turn", {"x": 4, "o": 3, "expected": "o", "turn": "x"}),
        ("standard", "x../... x", "rank-length", {"rank": 1, "cells": 3, "width": 2}),
        ("standard", "../.. x", "size", {"size": 2}),
        ("ultimate", "x../.../... x -", "grid-size", {"width": 3}),
        ("ultimate", AFTER_E5.replace(" o e5", " o z9"), "last-move-cell", {"move": "z9"}),
    ],
)
def test_a_refused_code_names_its_reason_and_figures(
    variant: str, code: str, reason: str, values: dict[str, object]
) -> None:
    """A program (or a page in another language) can say why in its own words."""
    with pytest.raises(InvalidPositionError) as refused:
        Game.from_position(variant, code)
    assert (refused.value.reason, refused.value.values) == (reason, values)
