"""The two ways input to the rules can be refused: an illegal move, or an unreachable position.

Each carries a `reason` code, so that a program (or a page in another language) can say it its
own way; the message says it in English words.
"""

from __future__ import annotations

from typing import Literal

Reason = Literal["malformed", "off-board", "occupied", "wrong-board", "closed-board", "game-over"]

PositionReason = Literal[
    "not-text",  # the code is not a string
    "code-shape",  # not the grid, the side to move (and, for ultimate, the last move)
    "rank-length",  # values: rank (from the top), cells, width
    "cell-mark",  # values: rank, marks (the characters that are not x, o or .)
    "size",  # a standard grid is 3, 4 or 5 wide; values: size
    "line",  # the line setting does not fit the variant or the size; values: size
    "grid-size",  # an ultimate grid is 9×9; values: width
    "side-to-move",  # values: text
    "mark-counts",  # values: x, o (how many marks each has)
    "turn",  # values: x, o, expected, turn
    "last-move-none",  # '-' as the last move, but the grid has marks
    "last-move-cell",  # values: move
    "last-move-mark",  # values: move, mark (the side that just moved)
    "board-both-lines",  # values: board (0-8, from the top-left)
    "board-lines",  # values: mark, board
    "last-move-in-lost-board",  # values: move
    "last-move-after-board-won",  # values: move
    "both-lines",  # standard: both sides have a line
    "both-won",  # ultimate: both sides have three boards in a line
    "winner-to-move",  # values: mark
    "lines-not-one-move",  # values: mark
    "won-before-last",  # values: mark, move
]


class IllegalMoveError(ValueError):
    """A move the rules refuse; `reason` says which rule, the message says it in words.

    >>> error = IllegalMoveError("occupied", "e5 is already taken")
    >>> error.reason, str(error)
    ('occupied', 'e5 is already taken')
    """

    def __init__(self, reason: Reason, message: str) -> None:
        super().__init__(message)
        self.reason: Reason = reason


class InvalidPositionError(ValueError):
    """A position code that is malformed or that no legal game can reach: `reason` says which
    check refused it and `values` holds the figures the message quotes.

    >>> error = InvalidPositionError("mark-counts", "x has 2 marks and o has 0", x=2, o=0)
    >>> error.reason, error.values, str(error)
    ('mark-counts', {'x': 2, 'o': 0}, 'x has 2 marks and o has 0')
    """

    def __init__(self, reason: PositionReason, message: str, **values: int | str) -> None:
        super().__init__(message)
        self.reason: PositionReason = reason
        self.values: dict[str, int | str] = values
