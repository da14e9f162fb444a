"""The two ways input to the rules can be refused: an illegal move, or an unreachable position."""

from __future__ import annotations

from typing import Literal

Reason = Literal["malformed", "off-board", "occupied", "wrong-board", "closed-board", "game-over"]


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
    """A position code that is malformed or that no legal game can reach."""
