"""A table's clock, decided on the server: each side's time and the increment per move.

Only what cannot be recomputed is stored: the seconds each side had left when its clock last
started or stopped (its `Side.time_left`) and when the running clock started (`clock_since`). The
time left is computed on every read from those and the wall clock, so a restarted process, or
another one, reads the same clock. Each side's first move of a game is free, as on the best sites:
the clock starts once both sides have moved once (each side's clock is untouched until it has
moved), then runs for the side to move, and stops when the game ends.
"""

from __future__ import annotations

import dataclasses
from typing import Any

from tictactoe.server.storage import TableRecord
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.game import finish
from tictactoe.server.table.seats import Mark, other


def side_to_move(record: TableRecord) -> Mark:
    """Who is to move: X first (unless the table starts from a position), then in turn.

    >>> from tictactoe.server.storage import Side
    >>> record = TableRecord("t", "standard", 3, 3, "friend", None, 1, ("b2",), None, None, 2,
    ...     Side(), Side(), 0, 0.0, 0.0)
    >>> side_to_move(record)
    'o'
    """
    # A table may start from a position code (the analysis board's "play on"): its side to move.
    start: str | None = getattr(record, "start_position", None)
    first = start.split()[1] if start else "x"
    if len(record.moves) % 2 == 0:
        return "x" if first == "x" else "o"
    return "o" if first == "x" else "x"


def due(record: TableRecord, moves: int) -> bool:
    """Whether the clock runs once `moves` moves of this game are in: both sides seated, and
    each has made its first move (whose time is never charged).

    >>> from tictactoe.server.storage import SeatRecord, Side
    >>> record = TableRecord("t", "standard", 3, 3, "friend", None, 1, (), None, None, 2,
    ...     Side(SeatRecord("x-token")), Side(SeatRecord("o-token")), 0, 0.0, 0.0)
    >>> due(record, 0), due(record, 1), due(record, 2)
    (False, False, True)
    """
    return record.x.holder.taken and record.o.holder.taken and moves >= 2


class Clock:
    """The clock of one table record at one moment: what it shows, and the record after a change."""

    def __init__(self, record: TableRecord, now: float) -> None:
        self.record = record
        self.now = now

    @property
    def on(self) -> bool:
        return self.record.clock_seconds is not None

    @property
    def running(self) -> Mark | None:
        """The side whose clock is running, if any."""
        if not self.on or self.record.clock_since is None or self.record.result is not None:
            return None
        return side_to_move(self.record)

    def stored(self, mark: Mark) -> float:
        left = self.record.side(mark).time_left
        return left if left is not None else (self.record.clock_seconds or 0.0)

    def left(self, mark: Mark) -> float:
        """The seconds `mark` has left now (never below zero)."""
        left = self.stored(mark)
        if self.running == mark and self.record.clock_since is not None:
            left -= self.now - self.record.clock_since
        return max(0.0, left)

    def flagged(self) -> Mark | None:
        """The side whose time has run out on its turn (the game should end), if any."""
        running = self.running
        return running if running is not None and self.left(running) <= 0 else None

    def runs_out_in(self) -> float | None:
        """Seconds until the running side's time is up (None: no clock running)."""
        running = self.running
        return None if running is None else self.left(running)

    def started(self) -> TableRecord:
        """The record with the clock running for the side to move, once both sides are seated
        and have each moved once this game (see `due`)."""
        record = self.record
        if not self.on or record.clock_since is not None or record.result is not None:
            return record
        if not due(record, len(record.moves)):
            return record
        return dataclasses.replace(record, clock_since=self.now)

    def after_move(self, mover: Mark) -> TableRecord:
        """The record (from before the move) with the mover's time used this turn charged, their
        increment added, and the clock restarted now (for the opponent, once the move is in).
        Before it runs, the move that completes each side's first one starts it, charging
        nothing."""
        if not self.on or self.record.result is not None:
            return self.record
        if self.record.clock_since is None:
            if not due(self.record, len(self.record.moves) + 1):
                return self.record
            return dataclasses.replace(self.record, clock_since=self.now)
        left = self.left(mover) + self.record.clock_increment
        side = dataclasses.replace(self.record.side(mover), time_left=left)
        return self.record.with_side(mover, side, clock_since=self.now)

    def stopped(self) -> TableRecord:
        """The record with the running clock's time left written down and the clock stopped."""
        running = self.running
        if running is None:
            return self.record
        side = dataclasses.replace(self.record.side(running), time_left=self.left(running))
        return self.record.with_side(running, side, clock_since=None)

    def reset(self) -> TableRecord:
        """A new game: both sides get their full time, running once each has moved once."""
        if not self.on:
            return self.record
        full = self.record.clock_seconds
        fresh = dataclasses.replace(
            self.record,
            x=dataclasses.replace(self.record.x, time_left=full),
            o=dataclasses.replace(self.record.o, time_left=full),
            clock_since=None,
        )
        return Clock(fresh, self.now).started()

    def json(self) -> dict[str, Any] | None:
        """The clock as the table JSON shows it (None: no clock)."""
        if not self.on:
            return None
        return {
            "seconds": self.record.clock_seconds,
            "increment": self.record.clock_increment,
            "x": round(self.left("x"), 3),
            "o": round(self.left("o"), 3),
            "running": self.running,
        }


def time_out(record: TableRecord, now: float) -> Decision:
    """The side to move has run out of time: the game ends, won by the other side."""
    flagged = Clock(record, now).flagged()
    if flagged is None or record.result is not None:
        raise Refused(409, "no clock has run out", "no-time-out")
    after = stamped(finish(Clock(record, now).stopped(), other(flagged), "time"), now)
    return Decision(
        after, (Event("game-over", after.version, result=other(flagged), ended_by="time"),)
    )
