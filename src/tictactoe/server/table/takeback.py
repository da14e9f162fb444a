"""Takebacks: a player asks to undo their last move, the other side agrees (the computer always
does) or declines. Undoing is stored like a move: one committed change with a version bump that
shortens the record and removes the undone moves from the log, so a restart loses nothing.
"""

from __future__ import annotations

import dataclasses
from typing import Literal

from tictactoe.server.storage import TableRecord, TakenBack
from tictactoe.server.table.clock import Clock, side_to_move

Mark = Literal["x", "o"]


def plies_to_undo(record: TableRecord, asker: Mark) -> int:
    """How many moves undoing `asker`'s last move takes: 1 if it was the last move played, 2 if
    the opponent has replied since, 0 if `asker` has not moved yet.

    >>> from tictactoe.server.storage import SeatRecord
    >>> record = TableRecord("t", "standard", 3, 3, "friend", None, 1, ("b2", "a1"), None, None, 3,
    ...     SeatRecord(), SeatRecord(), 0, 0, 0, False, False, 0.0, 0.0)
    >>> plies_to_undo(record, "o"), plies_to_undo(record, "x")
    (1, 2)
    """
    moves = len(record.moves)
    if side_to_move(record) != asker:
        return 1 if moves >= 1 else 0
    return 2 if moves >= 2 else 0


def taken_back(record: TableRecord, asker: Mark, now: float) -> tuple[TableRecord, TakenBack]:
    """The record with `asker`'s last move (and any reply) undone, and what leaves the log. The
    clock charges the running side for its time so far, then runs for the side to move again."""
    plies = plies_to_undo(record, asker)
    kept = record.moves[: len(record.moves) - plies]
    stopped = Clock(record, now).stopped()
    undone = dataclasses.replace(stopped, moves=kept, takeback_by=None, draw_offer=None)
    return (
        Clock(undone, now).started(),
        TakenBack(record.id, record.game_number, len(kept) + 1),
    )
