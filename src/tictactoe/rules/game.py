"""What every game shares: the public `Game` interface, its constructors by variant name, and the
checks of a position code that do not depend on the variant.

A `Game` is an immutable value: `play` returns a new game and leaves the old one as it was.
"""

from __future__ import annotations

from abc import ABC, abstractmethod
from typing import ClassVar

from tictactoe.rules.errors import IllegalMoveError, InvalidPositionError
from tictactoe.rules.notation import is_cell_name, split_record

VARIANTS: dict[str, type[Game]] = {}


class Game(ABC):
    """A game of one variant at one moment: the marks, the side to move, the moves so far.

    >>> game = Game.from_record("ultimate", "e5 e4")
    >>> game.turn, game.result, game.record
    ('x', None, 'e5 e4')
    """

    variant: ClassVar[str] = ""
    __slots__ = ("_legal", "_moves", "_result", "_turn")

    _legal: tuple[str, ...] | None
    _moves: tuple[str, ...]
    _result: str | None
    _turn: str

    def __init_subclass__(cls, **kwargs: object) -> None:
        super().__init_subclass__(**kwargs)
        VARIANTS[cls.variant] = cls

    # -- constructors -----------------------------------------------------------------------

    @staticmethod
    def new(variant: str, *, size: int | None = None, line: int | None = None) -> Game:
        """A game of `variant` before the first move; see `new_game`."""
        return variant_class(variant).start(size=size, line=line)

    @staticmethod
    def from_record(
        variant: str, record: str, *, size: int | None = None, line: int | None = None
    ) -> Game:
        """The game reached by playing `record` from the start.

        An illegal move in the record raises `IllegalMoveError` naming its ply.

        >>> Game.from_record("standard", "b2 a1 c3").position()
        '..x/.x./o.. o'
        """
        game = Game.new(variant, size=size, line=line)
        for ply, move in enumerate(split_record(record), start=1):
            try:
                game = game.play(move)
            except IllegalMoveError as error:
                raise IllegalMoveError(error.reason, f"move {ply} ({move}): {error}") from None
        return game

    @staticmethod
    def from_position(variant: str, code: str, *, line: int | None = None) -> Game:
        """The game at position `code` (see `position`); raises `InvalidPositionError` when no
        legal game can reach it.

        >>> Game.from_position("standard", "x../.o./... x").legal_moves()
        ['a1', 'a2', 'b1', 'b3', 'c1', 'c2', 'c3']
        """
        if not isinstance(code, str):
            raise InvalidPositionError("not-text", "a position code is a string")
        return variant_class(variant).from_code(code, line=line)

    @classmethod
    @abstractmethod
    def start(cls, *, size: int | None, line: int | None) -> Game:
        """The start position of this variant with these settings."""

    @classmethod
    @abstractmethod
    def from_code(cls, code: str, *, line: int | None) -> Game:
        """The game at position `code`, checked for reachability."""

    # -- the state --------------------------------------------------------------------------

    @property
    @abstractmethod
    def size(self) -> int:
        """The width of the grid of cells (ultimate: 9)."""

    @property
    @abstractmethod
    def line(self) -> int:
        """How many marks in a row win (ultimate: 3, on the small and on the big board)."""

    @property
    def turn(self) -> str:
        """The side to move: 'x' or 'o'."""
        return self._turn

    @property
    def result(self) -> str | None:
        """None while the game goes on, else 'x', 'o' or 'draw'. Once set it never changes."""
        return self._result

    @property
    def is_over(self) -> bool:
        return self._result is not None

    @property
    def moves(self) -> tuple[str, ...]:
        """The moves played since the start position (a game read from a position code starts
        there)."""
        return self._moves

    @property
    def record(self) -> str:
        """The game record: the moves separated by single spaces."""
        return " ".join(self._moves)

    @property
    def last_move(self) -> str | None:
        return self._moves[-1] if self._moves else None

    def legal_moves(self) -> list[str]:
        """The cells the side to move may play, sorted by name; empty once the game is over."""
        legal = self._legal
        if legal is None:
            legal = self._legal = self._find_legal_moves()
        return list(legal)

    @abstractmethod
    def play(self, move: str) -> Game:
        """The game after `move`; raises `IllegalMoveError` for anything but a legal move."""

    @abstractmethod
    def position(self) -> str:
        """The position code: the grid's ranks from the top, the side to move (and for
        ultimate the last move)."""

    @abstractmethod
    def cell(self, name: str) -> str | None:
        """The mark in cell `name`: 'x', 'o' or None."""

    @abstractmethod
    def winning_lines(self) -> list[tuple[str, ...]]:
        """The line(s) that won the game; empty unless a side has won."""

    @abstractmethod
    def _find_legal_moves(self) -> tuple[str, ...]:
        """The legal moves, computed once per game."""

    # -- shared by the variants -------------------------------------------------------------

    def _refuse_unknown_cell(self, move: object) -> IllegalMoveError:
        if not is_cell_name(move):
            return IllegalMoveError("malformed", f"{move!r} is not a cell name like 'e5'")
        return IllegalMoveError("off-board", f"{move} is not on the {self.size}×{self.size} board")

    def _refuse_after_the_end(self) -> IllegalMoveError:
        outcome = "a draw" if self._result == "draw" else f"won by {self._result}"
        return IllegalMoveError("game-over", f"the game is over ({outcome})")

    def __eq__(self, other: object) -> bool:
        if not isinstance(other, Game):
            return NotImplemented
        return (self.variant, self.line, self.position(), self._moves) == (
            other.variant,
            other.line,
            other.position(),
            other._moves,
        )

    def __hash__(self) -> int:
        return hash((self.variant, self.line, self.position(), self._moves))

    def __repr__(self) -> str:
        return f"<Game {self.variant} {self.position()!r}>"


def variant_class(variant: str) -> type[Game]:
    try:
        return VARIANTS[variant]
    except (KeyError, TypeError):
        known = ", ".join(sorted(VARIANTS))
        raise ValueError(f"unknown variant {variant!r}; the variants are {known}") from None


def new_game(variant: str, *, size: int | None = None, line: int | None = None) -> Game:
    """A game before the first move.

    `standard` takes `size` (3, 4 or 5; default 3) and `line` (3..size; defaults 3×3→3, 4×4→4,
    5×5→4). `ultimate` takes neither.

    >>> new_game("standard", size=4).line, len(new_game("ultimate").legal_moves())
    (4, 81)
    """
    return Game.new(variant, size=size, line=line)


def check_mark_counts(x_count: int, o_count: int, turn: str) -> None:
    """X moves first, so X has as many marks as O (X to move) or one more (O to move)."""
    if x_count not in (o_count, o_count + 1):
        raise InvalidPositionError(
            "mark-counts",
            f"x has {x_count} marks and o has {o_count}: x moves first, so x has as many marks"
            " as o or one more",
            x=x_count,
            o=o_count,
        )
    expected = "x" if x_count == o_count else "o"
    if turn != expected:
        raise InvalidPositionError(
            "turn",
            f"with {x_count} x and {o_count} o it is {expected}'s turn, not {turn}'s",
            x=x_count,
            o=o_count,
            expected=expected,
            turn=turn,
        )


def check_side_to_move(text: str) -> str:
    if text not in ("x", "o"):
        raise InvalidPositionError(
            "side-to-move", f"the side to move is 'x' or 'o', not {text!r}", text=text
        )
    return text


def has_removable_winning_mark(marks: int, lines: tuple[int, ...], candidates: int) -> bool:
    """Whether one of the `candidates` marks, taken back, leaves `marks` without a line: a side's
    lines must all have been completed by its last move there, since a line ends play.
    """
    bit = 1
    while bit <= candidates:
        if candidates & bit:
            rest = marks & ~bit
            if not any(rest & line == line for line in lines):
                return True
        bit <<= 1
    return False
