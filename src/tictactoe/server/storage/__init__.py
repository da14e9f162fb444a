"""Storage of tables: one small interface, `Storage`, with an SQL and an in-memory implementation.

The record types here are plain data: storage knows nothing of the rules, the server or sockets.
A save carries the version the caller read; the store itself (a database transaction) decides
whether that is still the latest, so several processes sharing one database stay correct.
"""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Any, Literal, Protocol

# A side of a table, and the mark it plays: X moves first.
Mark = Literal["x", "o"]
MARKS: tuple[Mark, Mark] = ("x", "o")


class StaleVersionError(Exception):
    """The table changed since the caller read it: nothing was written."""


class DuplicateTableError(Exception):
    """A table with that id exists already."""


class StorageUnavailableError(Exception):
    """The database could not be reached (or went away mid-transaction): nothing was written by
    this call, or the transaction's outcome is that of the database (never half of it)."""


@dataclass(frozen=True, slots=True)
class SeatRecord:
    """Who holds a mark: hashes of the seat token and of the browser's cookie, or the computer."""

    token_hash: str | None = None
    client_hash: str | None = None
    computer: bool = False
    # The display name its player chose (migration 0005); it goes with the seat through rematches.
    name: str | None = None

    @property
    def taken(self) -> bool:
        return self.computer or self.token_hash is not None


# A free seat: one object for every table's free seats.
EMPTY_SEAT = SeatRecord()


@dataclass(frozen=True, slots=True)
class Side:
    """One side of a table, X or O: who holds its seat and (teams) their teammates in joining
    order, the seconds its clock had left when it last stopped or started (None: no clock), the
    games it won, and whether it asked for a rematch. At a rematch the two sides swap marks
    whole, so each person's score, teammates and time go with them."""

    holder: SeatRecord = EMPTY_SEAT
    mates: tuple[SeatRecord, ...] = ()
    time_left: float | None = None
    score: int = 0
    rematch: bool = False

    @property
    def members(self) -> tuple[SeatRecord, ...]:
        """Everyone playing this side: the seat holder, then the teammates in joining order."""
        return (self.holder, *self.mates) if self.holder.taken else self.mates

    @property
    def clients(self) -> tuple[str, ...]:
        """The browser cookies (hashes) of everyone playing this side."""
        return tuple(m.client_hash for m in (self.holder, *self.mates) if m.client_hash)


@dataclass(frozen=True, slots=True)
class TableRecord:
    """Everything stored about a table; `moves` are those of the current game (`game_number`);
    `x` and `o` are its two sides (`Side`), `side(mark)` the one a mark plays.

    The settings after `updated_at` came with the second migration (teams, takebacks, clock,
    private): `clock_seconds` is each side's time (None: no clock) and `clock_since` when the
    running clock started (None: stopped); `takeback_by` is the side whose takeback request
    awaits the other's answer."""

    id: str
    variant: str
    size: int
    line: int
    opponent: str
    level: str | None
    game_number: int
    moves: tuple[str, ...]
    result: str | None
    ended_by: str | None
    version: int
    x: Side
    o: Side
    draws: int
    created_at: float
    updated_at: float
    teams: bool = False
    # Migration 0006: False: teammates join only before a game's first move.
    teams_open: bool = True
    takebacks: bool = False
    private: bool = False
    clock_seconds: float | None = None
    clock_increment: float = 0.0
    clock_since: float | None = None
    takeback_by: str | None = None
    # The position code the table's games start from (None: the variant's usual start).
    start_position: str | None = None
    # Migration 0005: the short code to type in to join, whether the table is listed while a seat
    # is free, and the side whose draw offer awaits the other's answer.
    code: str | None = None
    public: bool = False
    draw_offer: str | None = None
    # Migration 0007: who plays X in the first game was decided by a coin toss.
    tossed: bool = False

    def side(self, mark: Mark) -> Side:
        return self.x if mark == "x" else self.o

    def with_side(self, mark: Mark, side: Side, **changes: Any) -> TableRecord:
        """The record with `mark`'s side replaced, and the record's fields `changes` with it
        (one copy of the record, not two: a clocked move changes a side and `clock_since`)."""
        changes[mark] = side
        return dataclasses.replace(self, **changes)

    def replace_side(self, mark: Mark, **changes: Any) -> TableRecord:
        """The record with some fields of `mark`'s side changed (`Side`'s field names)."""
        return self.with_side(mark, dataclasses.replace(self.side(mark), **changes))

    @property
    def waiting(self) -> bool:
        """A seat is still free for a person (not the computer's, not the creator's)."""
        return not (self.x.holder.taken and self.o.holder.taken)


@dataclass(frozen=True, slots=True)
class TakenBack:
    """A takeback: the moves of game `game_number` from `first_ply` on leave the log."""

    table_id: str
    game_number: int
    first_ply: int


@dataclass(frozen=True, slots=True)
class MoveRecord:
    """One move in the log of all games played at a table."""

    table_id: str
    game_number: int
    ply: int
    move: str
    played_at: float


@dataclass(frozen=True, slots=True)
class PlayedSide:
    """Who played one side of a kept game: the seat holder's browser cookie (hash), whether it
    was the computer, and (teams) the teammates' cookies."""

    client_hash: str | None = None
    computer: bool = False
    mates: tuple[str, ...] = ()

    @classmethod
    def of(cls, side: Side) -> PlayedSide:
        mates = tuple(mate.client_hash for mate in side.mates if mate.client_hash is not None)
        return cls(side.holder.client_hash, side.holder.computer, mates)

    @property
    def clients(self) -> tuple[str, ...]:
        """Every browser cookie (hash) that played this side."""
        return (self.client_hash, *self.mates) if self.client_hash else self.mates


@dataclass(frozen=True, slots=True)
class GameRecord:
    """A finished game at a table, kept for looking back at it: written by `save` as the game
    ends (so the next game at the table can start without losing it); `x` and `o` are who
    played each side."""

    table_id: str
    game_number: int
    variant: str
    size: int
    line: int
    start_position: str | None
    moves: tuple[str, ...]
    result: str | None
    ended_by: str | None
    x: PlayedSide
    o: PlayedSide
    level: str | None
    ended_at: float | None

    @classmethod
    def ended(cls, table: TableRecord) -> GameRecord:
        """The table's current game as it stands (call once it is over)."""
        return cls(
            table_id=table.id,
            game_number=table.game_number,
            variant=table.variant,
            size=table.size,
            line=table.line,
            start_position=table.start_position,
            moves=table.moves,
            result=table.result,
            ended_by=table.ended_by,
            x=PlayedSide.of(table.x),
            o=PlayedSide.of(table.o),
            level=table.level,
            ended_at=table.updated_at,
        )


class Storage(Protocol):
    """Where tables live. Implementations: `SQLStorage` (SQLite, PostgreSQL), `MemoryStorage`."""

    async def start(self) -> None:
        """Connects and brings the schema up to date."""

    async def close(self) -> None:
        """Releases connections."""

    async def create(self, table: TableRecord) -> None:
        """Stores a new table; `DuplicateTableError` if its id is taken."""

    async def load(self, table_id: str) -> TableRecord | None:
        """The table, or None if there is no such table."""

    async def save(
        self,
        table: TableRecord,
        expected_version: int,
        move: MoveRecord | None = None,
        taken_back: TakenBack | None = None,
        previous: TableRecord | None = None,
    ) -> None:
        """Replaces the table (and logs `move`, or removes the moves `taken_back`) in one
        transaction, only if the stored version is still `expected_version`; otherwise raises
        `StaleVersionError` and writes nothing. A table whose game is over also keeps that game
        (`GameRecord.ended`) if it is not kept yet. `previous`, the record at `expected_version`
        when the caller holds it, lets a store write only what changed."""

    async def find_table_by_token_hash(self, token_hash: str) -> str | None:
        """The id of the table whose seat has this token hash, if any."""

    async def find_table_by_code(self, code: str) -> str | None:
        """The id of the table with this short code (as stored: upper case), if any."""

    async def open_tables(self, limit: int) -> list[TableRecord]:
        """Public tables with a free seat and no game over, the newest `limit` first."""

    async def moves(self, table_id: str) -> list[MoveRecord]:
        """Every move logged at the table, in the order played."""

    async def games(self, table_id: str) -> list[GameRecord]:
        """The finished games kept for the table, by game number."""

    async def games_of_client(self, client_hash: str, limit: int) -> list[GameRecord]:
        """Finished games in which this browser cookie held a seat, the latest `limit`."""

    async def tables_of_client(self, client_hash: str, limit: int) -> list[TableRecord]:
        """Tables where this browser cookie holds a seat, the latest changed `limit`."""
