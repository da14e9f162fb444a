"""Takebacks: a player asks to undo their last move, the other side agrees (the computer always
does) or declines. Undoing is stored like a move: one committed change with a version bump that
shortens the record and removes the undone moves from the log, so a restart loses nothing.
"""

from __future__ import annotations

import dataclasses

from tictactoe.server.storage import TableRecord, TakenBack
from tictactoe.server.table.clock import Clock, side_to_move
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.game import require_in_progress
from tictactoe.server.table.seats import Mark, other, seat


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


def ask_takeback(record: TableRecord, mark: Mark, now: float) -> Decision:
    """`mark` asks to undo their last move: against the computer (or at one device) it is undone
    at once, else the opponent is asked."""
    if not record.takebacks:
        raise Refused(403, "takebacks are not allowed at this table", "takebacks-off")
    require_in_progress(record)
    if plies_to_undo(record, mark) == 0:
        raise Refused(409, "you have no move to take back", "nothing-to-take-back")
    if record.takeback_by is not None:
        raise Refused(409, "a takeback is already asked for", "takeback-pending")
    if seat(record, other(mark)).computer or record.opponent == "here":
        undone, gone = taken_back(record, mark, now)
        after = stamped(undone, now)
        return Decision(after, (Event("taken-back", after.version, mark=mark),), undone=gone)
    after = stamped(dataclasses.replace(record, takeback_by=mark), now)
    return Decision(after, (Event("takeback-asked", after.version, mark=mark),))


def answer_takeback(record: TableRecord, mark: Mark, accept: bool, now: float) -> Decision:
    """`mark` answers the opponent's request: the move is undone, or the request dropped."""
    asker = record.takeback_by
    if asker is None or asker == mark or record.result is not None:
        raise Refused(409, "your opponent has not asked for a takeback", "no-takeback-asked")
    if not accept:
        after = stamped(dataclasses.replace(record, takeback_by=None), now)
        return Decision(after, (Event("takeback-declined", after.version, mark=mark),))
    undone, gone = taken_back(record, other(mark), now)
    after = stamped(undone, now)
    return Decision(after, (Event("taken-back", after.version, mark=other(mark)),), undone=gone)
