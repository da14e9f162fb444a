"""Who is at a table: the sockets open in this process, by person (seat token hash), since when
each person has had none, and (scale-out) who is connected through the other processes.

Not stored: it says nothing once the process is gone. A team is here while one member is."""

from __future__ import annotations

from tictactoe.server.pubsub.presence import Seen
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.seats import MARKS, Mark, members, other

# What a table knows of the other processes until it asks (one for all: a Seen is frozen).
NOBODY_ELSEWHERE = Seen()


class Attendance:
    """One table's connections in this process (no I/O: the actor tells it what happened)."""

    # One a table in memory: slots, no per-object dict (~40 bytes each, ten thousand tables).
    __slots__ = ("_away_since", "_since", "_sockets", "seen", "spectators")

    def __init__(self, since: float) -> None:
        self._sockets: dict[str, int] = {}
        self.spectators = 0  # their sockets: they keep the table in memory, not "connected"
        self._away_since: dict[str, float] = {}
        self._since = since  # a person never seen here counts as gone from then
        self.seen = NOBODY_ELSEWHERE  # through the other processes (scale-out)

    def arrived(self, person: str) -> bool:
        """A socket of `person` opened; True if it is their first here."""
        self._sockets[person] = self._sockets.get(person, 0) + 1
        if self._sockets[person] > 1:
            return False
        self._away_since.pop(person, None)
        return True

    def left(self, person: str, now: float) -> bool:
        """A socket of `person` closed; True if it was their last here."""
        if person not in self._sockets:
            return False
        self._sockets[person] -= 1
        if self._sockets[person] > 0:
            return False
        del self._sockets[person]
        self._away_since[person] = now
        return True

    @property
    def socket_count(self) -> int:
        return sum(self._sockets.values())

    def everyone_here(self, record: TableRecord) -> bool:
        """Whether everyone seated has a socket open in this process (then presence in other
        processes cannot change what the table shows)."""
        seated = [
            holder.token_hash
            for mark in MARKS
            for holder in members(record, mark)
            if holder.token_hash is not None
        ]
        return bool(seated) and all(self._sockets.get(person, 0) > 0 for person in seated)

    def person_connected(self, person: str | None) -> bool:
        if person is None:
            return False
        return self._sockets.get(person, 0) > 0 or person in self.seen.connected

    def is_connected(self, record: TableRecord, mark: Mark) -> bool:
        """Whether anyone playing `mark` is here (the computer always is)."""
        side = members(record, mark)
        if record.opponent == "here":
            # One device holds both seats: both people are here while it is.
            side = (*side, *members(record, other(mark)))
        return any(holder.computer or self.person_connected(holder.token_hash) for holder in side)

    def away_since(self, record: TableRecord, mark: Mark) -> float | None:
        """Since when everyone playing `mark` has had no socket open (None: connected or no one)."""
        side = [holder for holder in members(record, mark) if holder.token_hash is not None]
        if not side or self.is_connected(record, mark):
            return None
        left = []
        for holder in side:
            person = holder.token_hash
            assert person is not None
            here = self._away_since.get(person, self._since)
            # Gone from other processes later than from this one: that is when they left.
            left.append(max(here, self.seen.left_at.get(person, here)))
        return max(left)
