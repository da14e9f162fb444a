"""One test for each rule of Ultimate Tic-Tac-Toe (`rules/ultimate.py`): where a move sends the
opponent, closed boards, free choice, winning the big board."""

from __future__ import annotations

import pytest
from tests.rules.positions import position_code

from tictactoe import Game, IllegalMoveError, new_game
from tictactoe.rules import board_cells, board_of, send_to_board

# x has won the top-left board (a9 b9 c9); x's last move a6 sends o to it.
TOP_LEFT_WON = position_code("a9 b9 c9 a6", "e5 e4 d2", "o", "a6")
# The top-left board is full without a line; x's last move a9 sends o to it.
TOP_LEFT_FULL = position_code("a9 c9 a8 b7 c7", "b9 b8 c8 a7", "o", "a9")
# Eight boards decided so that no line of boards is possible; only the bottom-right one is open.
NO_LINE_LEFT = position_code(
    "a9 b9 c9 g9 h9 i9 a6 b6 c6 d3 e3 f3",
    "d9 e9 f9 d6 e6 f6 g6 h6 i6 a3 b3 c3",
    "x",
    "f9",
)
# x has won the two top-left boards and can win the top-right one with i9; o's c6 sends x there.
ABOUT_TO_WIN = position_code("a9 b9 c9 d9 e9 f9 g9 h9", "a6 c6 b4 g6 i6 h4 d3 f3", "x", "c6")


def cells_of_boards(boards: list[int]) -> set[str]:
    return {cell for board in boards for cell in board_cells(board)}


def test_x_moves_first_anywhere() -> None:
    game = new_game("ultimate")
    assert game.turn == "x"
    assert len(game.legal_moves()) == 81


def test_the_cell_you_mark_sends_the_opponent_to_the_board_in_the_same_position() -> None:
    for cell in new_game("ultimate").legal_moves():
        game = new_game("ultimate").play(cell)
        target = send_to_board(cell)
        assert game.sent_to == target
        assert set(game.legal_moves()) == set(board_cells(target)) - {cell}


def test_playing_outside_the_board_you_are_sent_to_is_wrong_board() -> None:
    game = new_game("ultimate").play("e5")  # o is sent to the centre board
    with pytest.raises(IllegalMoveError) as refused:
        game.play("a1")
    assert refused.value.reason == "wrong-board"
    assert "centre" in str(refused.value)


def test_three_in_a_row_wins_a_small_board() -> None:
    game = Game.from_position("ultimate", ABOUT_TO_WIN)
    assert game.boards()[:2] == ["x", "x"]
    assert game.boards()[2] is None


def test_a_won_small_board_counts_as_the_winners_cell_of_the_big_board() -> None:
    game = Game.from_position("ultimate", ABOUT_TO_WIN).play("i9")
    assert game.boards()[:3] == ["x", "x", "x"]
    assert game.result == "x"


def test_a_full_small_board_without_a_line_belongs_to_nobody() -> None:
    game = Game.from_position("ultimate", TOP_LEFT_FULL)
    assert game.boards()[0] == "draw"
    assert game.result is None


def test_no_more_moves_in_a_won_board() -> None:
    game = Game.from_position("ultimate", TOP_LEFT_WON)
    with pytest.raises(IllegalMoveError) as refused:
        game.play("b8")
    assert refused.value.reason == "closed-board"


def test_no_more_moves_in_a_full_board() -> None:
    game = Game.from_position("ultimate", TOP_LEFT_FULL)
    assert not set(game.legal_moves()) & set(board_cells(0))


def test_sent_to_a_won_board_may_play_in_any_open_board() -> None:
    game = Game.from_position("ultimate", TOP_LEFT_WON)
    assert game.sent_to is None
    empty = {cell for cell in cells_of_boards(list(range(1, 9))) if game.cell(cell) is None}
    assert set(game.legal_moves()) == empty


def test_sent_to_a_full_board_may_play_in_any_open_board() -> None:
    game = Game.from_position("ultimate", TOP_LEFT_FULL)
    assert game.sent_to is None
    assert set(game.legal_moves()) == cells_of_boards(list(range(1, 9)))


def test_a_move_that_wins_a_small_board_and_fills_it_counts_as_a_win() -> None:
    code = position_code("a9 c9 b8 b7 e5", "b9 a8 c8 a7 d6", "x", "d6")
    game = Game.from_position("ultimate", code).play("c7")
    assert game.boards()[0] == "x"


def test_a_move_that_closes_the_board_it_sends_to_gives_free_choice() -> None:
    # x's e5 completes the centre board's middle row and would send o to that same board.
    code = position_code("d5 f5 a9", "h8 b2 b8", "x", "b8")
    game = Game.from_position("ultimate", code)
    assert game.sends_to("e5") is None
    after = game.play("e5")
    assert after.boards()[4] == "x"
    assert after.sent_to is None
    assert len({board_of(cell) for cell in after.legal_moves()}) == 8


def test_three_won_boards_in_a_line_win_the_game() -> None:
    game = Game.from_position("ultimate", ABOUT_TO_WIN).play("i9")
    assert game.result == "x"
    assert game.winning_lines() == [("b8", "e8", "h8")]


def test_the_game_goes_on_while_boards_are_open_even_when_no_line_is_possible() -> None:
    game = Game.from_position("ultimate", NO_LINE_LEFT)
    assert game.result is None
    assert set(game.legal_moves()) == set(board_cells(8))


def test_draw_when_every_small_board_is_decided_without_a_line_of_boards() -> None:
    game = Game.from_position("ultimate", NO_LINE_LEFT)
    for move in ["g3", "h3", "g2", "h2"]:
        game = game.play(move)
        assert game.result is None
    game = game.play("g1")  # x wins the last board, but the boards make no line
    assert game.boards()[8] == "x"
    assert game.result == "draw"
    assert game.winning_lines() == []


def test_no_moves_once_the_game_is_over() -> None:
    game = Game.from_position("ultimate", ABOUT_TO_WIN).play("i9")
    assert game.legal_moves() == []
    with pytest.raises(IllegalMoveError) as refused:
        game.play("e5")
    assert refused.value.reason == "game-over"


def test_a_marked_cell_cannot_be_marked_again() -> None:
    game = new_game("ultimate").play("e5")  # o is sent to the centre board, where e5 is taken
    with pytest.raises(IllegalMoveError) as refused:
        game.play("e5")
    assert refused.value.reason == "occupied"


@pytest.mark.parametrize(
    ("move", "reason"),
    [
        ("j1", "off-board"),
        ("a10", "off-board"),
        ("", "malformed"),
        ("E5", "malformed"),
        ("5e", "malformed"),
        (None, "malformed"),
    ],
)
def test_moves_that_are_not_cells_of_the_grid_are_refused(move: object, reason: str) -> None:
    with pytest.raises(IllegalMoveError) as refused:
        new_game("ultimate").play(move)  # type: ignore[arg-type]
    assert refused.value.reason == reason
    assert isinstance(refused.value, ValueError)
