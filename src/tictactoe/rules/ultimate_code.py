"""Reading an Ultimate position code: the checks that a grid, a side to move and a last move are
a position some game reaches, and the result they stand for."""

from __future__ import annotations

from typing import NamedTuple

from tictactoe.rules.errors import InvalidPositionError
from tictactoe.rules.game import check_mark_counts, check_side_to_move, has_removable_winning_mark
from tictactoe.rules.notation import read_grid
from tictactoe.rules.ultimate_grid import (
    CELL_BOARD,
    CELL_SPOT,
    FULL,
    HAS_LINE,
    INDEX_OF,
    LINES,
    NAMES,
    POSITION_WORDS,
    WIDTH,
)


class ReadCode(NamedTuple):
    """A position read from its code: each side's marks by board, the boards decided, the last
    move's cell (-1 before the first), the side to move and the result."""

    x: tuple[int, ...]
    o: tuple[int, ...]
    x_boards: int
    o_boards: int
    drawn: int
    last: int
    turn: str
    result: str | None


def read_code(code: str, *, line: int | None) -> ReadCode:
    """Read an Ultimate position code, or raise InvalidPositionError saying why no game reaches it.

    >>> empty = "/".join(["........."] * 9)
    >>> read_code(f"{empty} x -", line=None).turn
    'x'
    """
    if line not in (None, 3):
        raise InvalidPositionError("line", "ultimate has no line setting: 3 in a row", size=9)
    parts = code.split(" ")
    if len(parts) != 3:
        raise InvalidPositionError(
            "code-shape",
            "an ultimate position code is the grid, the side to move and the last move"
            " ('-' before the first), separated by single spaces",
        )
    grid, turn_text, last_text = parts
    marks, width = read_grid(grid)
    if width != WIDTH:
        raise InvalidPositionError(
            "grid-size", f"an ultimate grid has 9 ranks of 9 cells, not {width}", width=width
        )
    turn = check_side_to_move(turn_text)
    x_cells = [0] * 9
    o_cells = [0] * 9
    for index, mark in enumerate(marks):
        if mark == "x":
            x_cells[CELL_BOARD[index]] |= 1 << CELL_SPOT[index]
        elif mark == "o":
            o_cells[CELL_BOARD[index]] |= 1 << CELL_SPOT[index]
    check_mark_counts(marks.count("x"), marks.count("o"), turn)
    last = _read_last_move(last_text, marks, turn)
    x_boards, o_boards, drawn = _decided_boards(x_cells, o_cells)
    result = _check_reachable(x_cells, o_cells, x_boards, o_boards, drawn, last, turn)
    return ReadCode(tuple(x_cells), tuple(o_cells), x_boards, o_boards, drawn, last, turn, result)


def _read_last_move(text: str, marks: list[str], turn: str) -> int:
    moved = "o" if turn == "x" else "x"
    if text == "-":
        if any(mark != "." for mark in marks):
            raise InvalidPositionError(
                "last-move-none", "the last move is '-' (none) but the grid has marks"
            )
        return -1
    index = INDEX_OF.get(text)
    if index is None:
        raise InvalidPositionError(
            "last-move-cell", f"the last move {text!r} is not a cell of the 9×9 grid", move=text
        )
    if marks[index] != moved:
        raise InvalidPositionError(
            "last-move-mark",
            f"the last move {text} must hold an {moved} (the side that just moved), not"
            f" {marks[index]!r}",
            move=text,
            mark=moved,
        )
    return index


def _decided_boards(x_cells: list[int], o_cells: list[int]) -> tuple[int, int, int]:
    x_boards = o_boards = drawn = 0
    for board in range(9):
        x_line, o_line = HAS_LINE[x_cells[board]], HAS_LINE[o_cells[board]]
        if x_line and o_line:
            raise InvalidPositionError(
                "board-both-lines",
                f"the {POSITION_WORDS[board]} board has a line of x and a line of o, but the"
                " first line closes the board",
                board=board,
            )
        for side, has, marks in (("x", x_line, x_cells[board]), ("o", o_line, o_cells[board])):
            if has and not has_removable_winning_mark(marks, LINES, marks):
                raise InvalidPositionError(
                    "board-lines",
                    f"{side}'s lines in the {POSITION_WORDS[board]} board were not all made by"
                    " one last move, but the first line closes the board",
                    mark=side,
                    board=board,
                )
        if x_line:
            x_boards |= 1 << board
        elif o_line:
            o_boards |= 1 << board
        elif x_cells[board] | o_cells[board] == FULL:
            drawn |= 1 << board
    return x_boards, o_boards, drawn


def _check_reachable(
    x_cells: list[int],
    o_cells: list[int],
    x_boards: int,
    o_boards: int,
    drawn: int,
    last: int,
    turn: str,
) -> str | None:
    """The result of a position read from a code, or InvalidPositionError if no game reaches it."""
    moved = "o" if turn == "x" else "x"
    if last >= 0:
        board, bit = CELL_BOARD[last], 1 << CELL_SPOT[last]
        mover_cells = x_cells if moved == "x" else o_cells
        other_boards = o_boards if moved == "x" else x_boards
        if other_boards >> board & 1:
            raise InvalidPositionError(
                "last-move-in-lost-board",
                f"the last move {NAMES[last]} is in a board the other side had already won",
                move=NAMES[last],
            )
        if HAS_LINE[mover_cells[board]] and HAS_LINE[mover_cells[board] & ~bit]:
            raise InvalidPositionError(
                "last-move-after-board-won",
                f"the last move {NAMES[last]} is in a board that was already won before it",
                move=NAMES[last],
            )
    x_won, o_won = HAS_LINE[x_boards], HAS_LINE[o_boards]
    if x_won and o_won:
        raise InvalidPositionError(
            "both-won", "both x and o have three boards in a line; the first one wins"
        )
    for side, won, boards in (("x", x_won, x_boards), ("o", o_won, o_boards)):
        if not won:
            continue
        if side != moved:
            raise InvalidPositionError(
                "winner-to-move",
                f"{side} has won the game, so {side} must have moved last",
                mark=side,
            )
        last_board = 1 << CELL_BOARD[last]
        if not has_removable_winning_mark(boards, LINES, last_board):
            raise InvalidPositionError(
                "won-before-last",
                f"{side} won the game before the last move {NAMES[last]}; play stops at the win",
                mark=side,
                move=NAMES[last],
            )
        return side
    if x_boards | o_boards | drawn == FULL:
        return "draw"
    return None
