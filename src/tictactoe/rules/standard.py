"""Tic-Tac-Toe on a size×size board (3, 4 or 5) where `line` marks in a row win.

Each side's marks are one integer, bit `index` for the cell at grid index `index`.
"""

from __future__ import annotations

from functools import cache
from typing import ClassVar

from tictactoe.rules.errors import IllegalMoveError, InvalidPositionError, PositionReason
from tictactoe.rules.game import (
    Game,
    check_mark_counts,
    check_side_to_move,
    has_removable_winning_mark,
)
from tictactoe.rules.notation import cell_name, read_grid, write_grid

SIZES = (3, 4, 5)
DEFAULT_LINE = {3: 3, 4: 4, 5: 4}


class Geometry:
    """The cells and winning lines of one board size and line length, computed once."""

    def __init__(self, size: int, line: int) -> None:
        self.size = size
        self.line = line
        self.cell_count = size * size
        self.full = (1 << self.cell_count) - 1
        self.names = tuple(cell_name(index, size) for index in range(self.cell_count))
        self.index_of = {name: index for index, name in enumerate(self.names)}
        self.name_order = tuple(sorted(range(self.cell_count), key=lambda i: (i % size, -i)))
        self.lines = tuple(self._lines())
        self.lines_through = tuple(
            tuple(mask for mask in self.lines if mask >> index & 1)
            for index in range(self.cell_count)
        )

    def _lines(self) -> list[int]:
        size, line = self.size, self.line
        masks = []
        for row in range(size):
            for column in range(size):
                for d_row, d_column in ((0, 1), (1, 0), (1, 1), (1, -1)):
                    end_row = row + d_row * (line - 1)
                    end_column = column + d_column * (line - 1)
                    if not (0 <= end_row < size and 0 <= end_column < size):
                        continue
                    mask = 0
                    for step in range(line):
                        mask |= 1 << ((row + d_row * step) * size + column + d_column * step)
                    masks.append(mask)
        return masks

    def has_line(self, marks: int) -> bool:
        return any(marks & mask == mask for mask in self.lines)


@cache
def geometry(size: int, line: int) -> Geometry:
    return Geometry(size, line)


def check_settings(size: int | None, line: int | None) -> tuple[int, int]:
    """The board size and line length, with their defaults, or a ValueError saying what is wrong.

    >>> check_settings(None, None), check_settings(5, None), check_settings(4, 3)
    ((3, 3), (5, 4), (4, 3))
    """
    size = 3 if size is None else size
    if size not in SIZES:
        raise ValueError(f"size is 3, 4 or 5, not {size!r}")
    line = DEFAULT_LINE[size] if line is None else line
    if not isinstance(line, int) or not 3 <= line <= size:
        raise ValueError(f"line is between 3 and the size ({size}), not {line!r}")
    return size, line


class StandardGame(Game):
    """Tic-Tac-Toe: X and O take turns; `line` in a row wins; a full board without one is a draw.

    >>> game = StandardGame.start(size=3, line=3).play("a1").play("b1").play("b2")
    >>> game.play("c1").play("c3").result
    'x'
    """

    variant: ClassVar[str] = "standard"
    __slots__ = ("_geometry", "_o", "_x")

    _geometry: Geometry
    _x: int
    _o: int

    @classmethod
    def _make(
        cls,
        geo: Geometry,
        x: int,
        o: int,
        turn: str,
        result: str | None,
        moves: tuple[str, ...],
    ) -> StandardGame:
        game = object.__new__(cls)
        game._geometry = geo
        game._x = x
        game._o = o
        game._turn = turn
        game._result = result
        game._moves = moves
        game._legal = None
        return game

    @classmethod
    def start(cls, *, size: int | None, line: int | None) -> StandardGame:
        size, line = check_settings(size, line)
        return cls._make(geometry(size, line), 0, 0, "x", None, ())

    @classmethod
    def from_code(cls, code: str, *, line: int | None) -> StandardGame:
        parts = code.split(" ")
        if len(parts) != 2:
            raise InvalidPositionError(
                "code-shape",
                "a standard position code is the grid, a space and the side to move,"
                " e.g. 'x../.o./... x'",
            )
        marks, size = read_grid(parts[0])
        turn = check_side_to_move(parts[1])
        try:
            size, line = check_settings(size, line)
        except ValueError as error:
            reason: PositionReason = "size" if size not in SIZES else "line"
            raise InvalidPositionError(reason, str(error), size=size) from None
        geo = geometry(size, line)
        x = sum(1 << index for index, mark in enumerate(marks) if mark == "x")
        o = sum(1 << index for index, mark in enumerate(marks) if mark == "o")
        check_mark_counts(x.bit_count(), o.bit_count(), turn)
        result = _check_reachable(geo, x, o, turn)
        return cls._make(geo, x, o, turn, result, ())

    @property
    def size(self) -> int:
        return self._geometry.size

    @property
    def line(self) -> int:
        return self._geometry.line

    def play(self, move: str) -> StandardGame:
        geo = self._geometry
        index = geo.index_of.get(move) if isinstance(move, str) else None
        if index is None:
            raise self._refuse_unknown_cell(move)
        if self._result is not None:
            raise self._refuse_after_the_end()
        bit = 1 << index
        x, o = self._x, self._o
        if (x | o) & bit:
            raise IllegalMoveError("occupied", f"{move} is already taken")
        mover = (x if self._turn == "x" else o) | bit
        result: str | None = None
        if any(mover & mask == mask for mask in geo.lines_through[index]):
            result = self._turn
        elif (x | o | bit) == geo.full:
            result = "draw"
        moves = (*self._moves, move)
        if self._turn == "x":
            return self._make(geo, mover, o, "o", result, moves)
        return self._make(geo, x, mover, "x", result, moves)

    def _find_legal_moves(self) -> tuple[str, ...]:
        if self._result is not None:
            return ()
        taken = self._x | self._o
        names = self._geometry.names
        return tuple(names[i] for i in self._geometry.name_order if not taken >> i & 1)

    def position(self) -> str:
        x, o, size = self._x, self._o, self._geometry.size
        marks = [
            "x" if x >> index & 1 else "o" if o >> index & 1 else "."
            for index in range(size * size)
        ]
        return f"{write_grid(marks, size)} {self._turn}"

    def cell(self, name: str) -> str | None:
        index = self._geometry.index_of.get(name)
        if index is None:
            raise ValueError(f"{name!r} is not a cell of the {self.size}×{self.size} board")
        if self._x >> index & 1:
            return "x"
        if self._o >> index & 1:
            return "o"
        return None

    def winning_lines(self) -> list[tuple[str, ...]]:
        if self._result not in ("x", "o"):
            return []
        marks = self._x if self._result == "x" else self._o
        geo = self._geometry
        return [
            tuple(geo.names[i] for i in geo.name_order if mask >> i & 1)
            for mask in geo.lines
            if marks & mask == mask
        ]


def _check_reachable(geo: Geometry, x: int, o: int, turn: str) -> str | None:
    """The result of a position read from a code, or InvalidPositionError if no game reaches it."""
    x_won, o_won = geo.has_line(x), geo.has_line(o)
    if x_won and o_won:
        raise InvalidPositionError(
            "both-lines", "both x and o have a line, but the first line ends the game"
        )
    for side, won, marks in (("x", x_won, x), ("o", o_won, o)):
        if not won:
            continue
        if turn == side:
            raise InvalidPositionError(
                "winner-to-move",
                f"{side} has a line, so {side} moved last and it cannot be {side}'s turn",
                mark=side,
            )
        if not has_removable_winning_mark(marks, geo.lines, marks):
            raise InvalidPositionError(
                "lines-not-one-move",
                f"{side} has lines that no single last move completes; the first line ends the"
                " game",
                mark=side,
            )
        return side
    if (x | o) == geo.full:
        return "draw"
    return None
