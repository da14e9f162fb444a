"""Resigning: the game ends, won by the other side (who must be seated)."""

from __future__ import annotations

from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.game import finish, require_in_progress
from tictactoe.server.table.seats import Mark, other, seat


def resign(record: TableRecord, mark: Mark, now: float) -> Decision:
    """`mark` gives up: the opponent wins, the clock stops."""
    require_in_progress(record)
    if not seat(record, other(mark)).taken:
        raise Refused(409, "nobody has taken the other seat yet", "no-opponent")
    after = stamped(finish(Clock(record, now).stopped(), other(mark), "resign"), now)
    return Decision(
        after, (Event("game-over", after.version, result=other(mark), ended_by="resign"),)
    )
