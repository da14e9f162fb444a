"""Ultimate Tic-Tac-Toe: nine small boards in a big one; the cell you mark sends your opponent.

State: per side a 9-bit mask of marks for each small board (bit = position inside the board,
0 top-left .. 8 bottom-right), and 9-bit masks of the small boards won by x, won by o, and drawn.
Boards are numbered the same way: 0 top-left .. 8 bottom-right.
"""

from __future__ import annotations

from typing import ClassVar

from tictactoe.rules.errors import IllegalMoveError, InvalidPositionError
from tictactoe.rules.game import (
    Game,
    check_mark_counts,
    check_side_to_move,
    has_removable_winning_mark,
)
from tictactoe.rules.notation import cell_name, read_grid

WIDTH = 9
FULL = 0b111111111
LINES = (0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)  # rows, columns, diagonals
HAS_LINE = tuple(any(mask & line == line for line in LINES) for mask in range(512))

CELL_BOARD = tuple((index // 27) * 3 + (index % 9) // 3 for index in range(81))
CELL_SPOT = tuple((index // 9 % 3) * 3 + index % 3 for index in range(81))
CELL_AT = tuple(
    tuple((board // 3 * 3 + spot // 3) * 9 + board % 3 * 3 + spot % 3 for spot in range(9))
    for board in range(9)
)
NAMES = tuple(cell_name(index, WIDTH) for index in range(81))
INDEX_OF = {name: index for index, name in enumerate(NAMES)}
BOARD_NAMES = tuple(NAMES[CELL_AT[board][4]] for board in range(9))
POSITION_WORDS = (
    "top-left",
    "top",
    "top-right",
    "left",
    "centre",
    "right",
    "bottom-left",
    "bottom",
    "bottom-right",
)
# The empty cells of a small board, by its board and its mask of taken spots, sorted by name.
OPEN_NAMES = tuple(
    tuple(
        tuple(sorted(NAMES[CELL_AT[board][spot]] for spot in range(9) if not taken >> spot & 1))
        for taken in range(512)
    )
    for board in range(9)
)

# Three cells of a small board's row as a position writes them, by the row's x and o bits.
_TRIPLES = tuple(
    "".join("x" if xs >> spot & 1 else "o" if os >> spot & 1 else "." for spot in range(3))
    for xs in range(8)
    for os in range(8)
)


def board_of(name: str) -> int:
    """The small board holding cell `name`.

    >>> board_of("a9"), board_of("e5"), board_of("i1")
    (0, 4, 8)
    """
    return CELL_BOARD[_index(name)]


def board_cells(board: int) -> list[str]:
    """The nine cells of small board `board`, from its top-left.

    >>> board_cells(0)
    ['a9', 'b9', 'c9', 'a8', 'b8', 'c8', 'a7', 'b7', 'c7']
    """
    return [NAMES[index] for index in CELL_AT[board]]


def board_name(board: int) -> str:
    """A small board is named by its centre cell.

    >>> board_name(0), board_name(4), board_name(8)
    ('b8', 'e5', 'h2')
    """
    return BOARD_NAMES[board]


def send_to_board(name: str) -> int:
    """The board a move in cell `name` sends the opponent to (its place inside its own board).

    >>> send_to_board("e5"), send_to_board("a9"), send_to_board("c7")
    (4, 0, 8)
    """
    return CELL_SPOT[_index(name)]


def _index(name: str) -> int:
    index = INDEX_OF.get(name)
    if index is None:
        raise ValueError(f"{name!r} is not a cell of the 9×9 grid")
    return index


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
        result: str | None = None
        if self._turn == "x":
            marks = x[board] | bit
            x = (*x[:board], marks, *x[board + 1 :])
            if HAS_LINE[marks]:
                x_boards |= 1 << board
                if HAS_LINE[x_boards]:
                    result = "x"
            elif marks | o[board] == FULL:
                drawn |= 1 << board
            turn = "o"
        else:
            marks = o[board] | bit
            o = (*o[:board], marks, *o[board + 1 :])
            if HAS_LINE[marks]:
                o_boards |= 1 << board
                if HAS_LINE[o_boards]:
                    result = "o"
            elif marks | x[board] == FULL:
                drawn |= 1 << board
            turn = "x"
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
                    _TRIPLES[(x[board] >> shift & 7) << 3 | (o[board] >> shift & 7)]
                    for board in range(rank // 3 * 3, rank // 3 * 3 + 3)
                )
                for rank in range(9)
                for shift in (rank % 3 * 3,)
            )
        last = NAMES[self._last] if self._last >= 0 else "-"
        return f"{grid} {self._turn} {last}"

    def cell(self, name: str) -> str | None:
        index = _index(name)
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
        return cls._make(
            tuple(x_cells), tuple(o_cells), x_boards, o_boards, drawn, last, turn, result, ()
        )


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
