"""Ultimate Tic-Tac-Toe: nine small boards in a big one; the cell you mark sends your opponent.

State: per side a 9-bit mask of marks for each small board (bit = position inside the board,
0 top-left .. 8 bottom-right), and 9-bit masks of the small boards won by x, won by o, and drawn.
The grid's geometry is in `ultimate_grid`, reading a position code in `ultimate_code`.
"""

from __future__ import annotations

from typing import ClassVar

from tictactoe.rules.errors import IllegalMoveError
from tictactoe.rules.game import Game
from tictactoe.rules.ultimate_code import read_code
from tictactoe.rules.ultimate_grid import (
    BOARD_NAMES,
    CELL_BOARD,
    CELL_SPOT,
    FULL,
    HAS_LINE,
    INDEX_OF,
    LINES,
    NAMES,
    OPEN_NAMES,
    POSITION_WORDS,
    ROW_TRIPLES,
    WIDTH,
    board_cells,
    board_name,
    board_of,
    cell_index,
    send_to_board,
)

__all__ = ["LINES", "UltimateGame", "board_cells", "board_name", "board_of", "send_to_board"]


class UltimateGame(Game):
    """Ultimate Tic-Tac-Toe, played on the 9×9 grid `a1`…`i9`.

    >>> game = UltimateGame.start(size=None, line=None).play("e5")
    >>> game.sent_to, game.legal_moves()
    (4, ['d4', 'd5', 'd6', 'e4', 'e6', 'f4', 'f5', 'f6'])
    """

    variant: ClassVar[str] = "ultimate"
    # `_grid`: the marks as a position writes them (ranks by `/`), once asked for: the next game
    # after a move patches one character of it instead of writing all 81 again.
    __slots__ = ("_drawn", "_grid", "_last", "_o", "_o_boards", "_x", "_x_boards")

    _x: tuple[int, ...]
    _o: tuple[int, ...]
    _x_boards: int
    _o_boards: int
    _drawn: int
    _grid: str | None
    _last: int

    @classmethod
    def _make(
        cls,
        x: tuple[int, ...],
        o: tuple[int, ...],
        x_boards: int,
        o_boards: int,
        drawn: int,
        last: int,
        turn: str,
        result: str | None,
        moves: tuple[str, ...],
    ) -> UltimateGame:
        game = object.__new__(cls)
        game._x = x
        game._o = o
        game._x_boards = x_boards
        game._o_boards = o_boards
        game._drawn = drawn
        game._last = last
        game._turn = turn
        game._result = result
        game._moves = moves
        game._legal = None
        game._grid = None
        return game

    @classmethod
    def start(cls, *, size: int | None, line: int | None) -> UltimateGame:
        if size not in (None, WIDTH) or line not in (None, 3):
            raise ValueError("ultimate has no size or line settings: nine 3×3 boards, 3 in a row")
        empty = (0,) * 9
        return cls._make(empty, empty, 0, 0, 0, -1, "x", None, ())

    @property
    def size(self) -> int:
        return WIDTH

    @property
    def line(self) -> int:
        return 3

    @property
    def last_move(self) -> str | None:
        return NAMES[self._last] if self._last >= 0 else None

    @property
    def _closed(self) -> int:
        return self._x_boards | self._o_boards | self._drawn

    @property
    def sent_to(self) -> int | None:
        """The small board the side to move must play in; None when free to choose (or over)."""
        if self._result is not None or self._last < 0:
            return None
        target = CELL_SPOT[self._last]
        return None if self._closed >> target & 1 else target

    def boards(self) -> list[str | None]:
        """Each small board's state, top-left first: None while open, else 'x', 'o' or 'draw'."""
        return [
            "x"
            if self._x_boards >> board & 1
            else "o"
            if self._o_boards >> board & 1
            else "draw"
            if self._drawn >> board & 1
            else None
            for board in range(9)
        ]

    def sends_to(self, move: str) -> int | None:
        """Where the legal `move` sends the opponent: a board index, or None for free choice.

        Worked out from the masks rather than by playing the move (a page shows it for every
        legal move, after every move): the board the move lands on may close (won or full), and
        the move may end the game; anything but a legal move is refused as `play` refuses it."""
        index = INDEX_OF.get(move) if isinstance(move, str) else None
        if self._legal is None:
            self._legal = self._find_legal_moves()
        if index is None or move not in self._legal:
            return self.play(move).sent_to  # raises what `play` raises
        board, spot = CELL_BOARD[index], CELL_SPOT[index]
        own, theirs = (self._x, self._o) if self._turn == "x" else (self._o, self._x)
        own_boards = self._x_boards if self._turn == "x" else self._o_boards
        marks = own[board] | 1 << spot
        closed = self._closed
        if HAS_LINE[marks]:
            if HAS_LINE[own_boards | 1 << board]:
                return None  # the game is won
            closed |= 1 << board
        elif marks | theirs[board] == FULL:
            closed |= 1 << board
        if closed == FULL or closed >> spot & 1:
            return None
        return spot

    def play(self, move: str) -> UltimateGame:
        index = INDEX_OF.get(move) if isinstance(move, str) else None
        if index is None:
            raise self._refuse_unknown_cell(move)
        if self._result is not None:
            raise self._refuse_after_the_end()
        board = CELL_BOARD[index]
        bit = 1 << CELL_SPOT[index]
        x, o = self._x, self._o
        if (x[board] | o[board]) & bit:
            raise IllegalMoveError("occupied", f"{move} is already taken")
        x_boards, o_boards, drawn = self._x_boards, self._o_boards, self._drawn
        closed = x_boards | o_boards | drawn
        if closed >> board & 1:
            raise IllegalMoveError(
                "closed-board", f"the {POSITION_WORDS[board]} board is closed: it is decided"
            )
        if self._last >= 0:
            target = CELL_SPOT[self._last]
            if target != board and not closed >> target & 1:
                raise IllegalMoveError(
                    "wrong-board",
                    f"{self._turn} must play in the {POSITION_WORDS[target]} board,"
                    f" not the {POSITION_WORDS[board]} one",
                )
        mover = self._turn
        own, theirs = (x, o) if mover == "x" else (o, x)
        own_boards = x_boards if mover == "x" else o_boards
        marks = own[board] | bit
        own = (*own[:board], marks, *own[board + 1 :])
        result: str | None = None
        if HAS_LINE[marks]:
            own_boards |= 1 << board
            if HAS_LINE[own_boards]:
                result = mover
        elif marks | theirs[board] == FULL:
            drawn |= 1 << board
        if mover == "x":
            x, x_boards, turn = own, own_boards, "o"
        else:
            o, o_boards, turn = own, own_boards, "x"
        if result is None and x_boards | o_boards | drawn == FULL:
            result = "draw"
        after = self._make(
            x, o, x_boards, o_boards, drawn, index, turn, result, (*self._moves, move)
        )
        grid = self._grid
        if grid is not None:
            at = index // WIDTH * (WIDTH + 1) + index % WIDTH  # ranks of 9, each then a "/"
            after._grid = f"{grid[:at]}{self._turn}{grid[at + 1 :]}"
        return after

    def _find_legal_moves(self) -> tuple[str, ...]:
        if self._result is not None:
            return ()
        x, o = self._x, self._o
        target = self.sent_to
        if target is not None:
            return OPEN_NAMES[target][x[target] | o[target]]
        closed = self._closed
        moves: list[str] = []
        for board in range(9):
            if not closed >> board & 1:
                moves.extend(OPEN_NAMES[board][x[board] | o[board]])
        moves.sort()
        return tuple(moves)

    def position(self) -> str:
        grid = self._grid
        if grid is None:
            # Rank by rank from the top: three cells of each of three small boards, looked up.
            x, o = self._x, self._o
            grid = self._grid = "/".join(
                "".join(
                    ROW_TRIPLES[(x[board] >> shift & 7) << 3 | (o[board] >> shift & 7)]
                    for board in range(rank // 3 * 3, rank // 3 * 3 + 3)
                )
                for rank in range(9)
                for shift in (rank % 3 * 3,)
            )
        last = NAMES[self._last] if self._last >= 0 else "-"
        return f"{grid} {self._turn} {last}"

    def cell(self, name: str) -> str | None:
        index = cell_index(name)
        board, bit = CELL_BOARD[index], 1 << CELL_SPOT[index]
        if self._x[board] & bit:
            return "x"
        if self._o[board] & bit:
            return "o"
        return None

    def winning_lines(self) -> list[tuple[str, ...]]:
        if self._result not in ("x", "o"):
            return []
        won = self._x_boards if self._result == "x" else self._o_boards
        return [
            tuple(BOARD_NAMES[board] for board in range(9) if line >> board & 1)
            for line in LINES
            if won & line == line
        ]

    @classmethod
    def from_code(cls, code: str, *, line: int | None) -> UltimateGame:
        read = read_code(code, line=line)
        return cls._make(
            read.x,
            read.o,
            read.x_boards,
            read.o_boards,
            read.drawn,
            read.last,
            read.turn,
            read.result,
            (),
        )
