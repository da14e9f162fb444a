"""The tables this process serves: creates them, and keeps exactly one `Table` (the serial owner)
per table id, loading it from storage on first use."""

from __future__ import annotations

import asyncio
import dataclasses
import secrets
import time
from collections.abc import Callable
from dataclasses import dataclass
from typing import NamedTuple

from tictactoe import Game, new_game
from tictactoe.server.pubsub import PubSub
from tictactoe.server.pubsub.presence import SharedPresence
from tictactoe.server.settings import Settings
from tictactoe.server.storage import DuplicateTableError, SeatRecord, Side, Storage, TableRecord
from tictactoe.server.table.actor import Table
from tictactoe.server.table.codes import new_code
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.computer import DEFAULT_LEVEL, ComputerPlayer
from tictactoe.server.table.lobby import creator_mark
from tictactoe.server.table.seats import Mark, other
from tictactoe.server.table.side_jobs import Sleep
from tictactoe.server.table.tokens import hash_secret, looks_like_secret, new_secret, new_table_id

DEFAULT_BASE_URL = "http://127.0.0.1:8000/"


@dataclass(frozen=True, slots=True)
class TableOptions:
    """What the creator of a table chooses (the body of POST /api/tables)."""

    variant: str
    size: int | None = None
    line: int | None = None
    first: str = "me"  # me | friend | random: who gets X, which always moves first
    opponent: str = "friend"  # friend | computer | here (two people at one device)
    level: str | None = None  # the computer's level
    position: str | None = None  # a position code the games start from (None: the usual start)
    teams: bool = False  # several people per side; any member of the side to move may move
    teams_open: bool = True  # teams: people may join while a game is played (False: between games)
    takebacks: bool = False  # a player may ask to undo their last move
    private: bool = False  # only the players see the table
    clock_minutes: float | None = None  # each side's time (None: no clock)
    clock_increment: float = 0.0  # seconds added after each move
    public: bool = False  # listed among the open tables while a seat is free

    def check(self) -> None:
        """Raises `Refused` (422) for settings that do not go together."""
        if self.teams and self.opponent != "friend":
            raise Refused(
                422, "teams play each other: choose a friend as the opponent", "bad-settings"
            )
        if self.public and (self.opponent != "friend" or self.private):
            raise Refused(
                422,
                "an open table waits for a stranger: a friend's seat, not private",
                "bad-settings",
            )
        if self.clock_minutes is not None and not 0 < self.clock_minutes <= 180:
            raise Refused(
                422, "the clock's minutes are more than 0 and at most 180", "bad-settings"
            )
        if not 0 <= self.clock_increment <= 60:
            raise Refused(422, "the clock's increment is 0 to 60 seconds", "bad-settings")


class NewTable(NamedTuple):
    """A table just made: its owner here, the creator's mark and seat token, and every seat token
    this browser holds (both, for two people at one device)."""

    table: Table
    mark: Mark
    token: str
    tokens: dict[Mark, str]


class Tables:
    """Creates tables and hands out their one `Table` in this process."""

    def __init__(
        self,
        storage: Storage,
        pubsub: PubSub,
        settings: Settings,
        computer: ComputerPlayer | None = None,
        clock: Callable[[], float] = time.time,
        presence: SharedPresence | None = None,
        sleep: Sleep = asyncio.sleep,
    ) -> None:
        self.storage = storage
        self.presence = presence
        self.pubsub = pubsub
        self.settings = settings
        self.computer = computer
        self._clock = clock
        self._sleep = sleep  # waits on `clock` (the side jobs' waits: the computer's visible think)
        self._open: dict[str, Table] = {}
        self.evicted = 0  # tables dropped from memory, ever (what they leave: ops/garbage.py)
        # Public tables opened here: their creator's address (the lobby lists one per address).
        self._creators: dict[str, str] = {}
        self._public: set[str] = set()  # the ids of the public tables in memory
        # Loads are rare (first use after start-up); one at a time makes a double load impossible.
        self._load_lock = asyncio.Lock()
        self._base_url = settings.public_url
        # Several processes share the tables (Redis fan-out): the database, not this process's
        # copy, is the truth, so a table is re-read whenever it is used.
        self.shared = settings.redis_url is not None

    # -- the site's address, for table links in frames --

    @property
    def base_url(self) -> str:
        """The address in the links of frames, which are encoded once for every socket: the
        settings' public URL, else a fixed default that each socket replaces with the address
        it was opened at (never one a request's Host header chose for everyone: issue 13)."""
        return self._base_url or DEFAULT_BASE_URL

    # -- tables --

    async def create(
        self, options: TableOptions, client_hash: str | None, address: str | None = None
    ) -> NewTable:
        """A new table with the creator seated (both seats, for one device); `address` is the
        creator's (for the lobby)."""
        options.check()
        try:
            game = new_game(options.variant, size=options.size, line=options.line)
        except ValueError as error:
            raise Refused(422, str(error), "bad-settings") from None
        if options.variant == "ultimate" and (options.size, options.line) not in {
            (None, None),
            (9, 3),
            (9, None),
            (None, 3),
        }:
            raise Refused(422, "ultimate is played on its 9×9 grid with 3 in a row", "bad-settings")
        start_position = None
        if options.position is not None:
            # "Play on from here": the rules library checks that a legal game reaches the code.
            line = options.line if options.variant == "standard" else None
            try:
                game = Game.from_position(options.variant, options.position, line=line)
            except ValueError as error:
                raise Refused(422, str(error), "invalid-position") from None
            if game.is_over:
                raise Refused(422, "that position is the end of a game", "game-over")
            start_position = game.position()
        if options.first == "random":
            creator: Mark = secrets.choice(("x", "o"))
        else:
            creator = "x" if options.first == "me" else "o"
        token = new_secret()
        mine = SeatRecord(hash_secret(token), client_hash)
        tokens: dict[Mark, str] = {creator: token}
        if options.opponent == "computer":
            theirs = SeatRecord(computer=True)
        elif options.opponent == "here":
            tokens[other(creator)] = new_secret()
            theirs = SeatRecord(hash_secret(tokens[other(creator)]), client_hash)
        else:
            theirs = SeatRecord()
        now = self._clock()
        clock = None if options.clock_minutes is None else options.clock_minutes * 60
        sides = {
            creator: Side(mine, time_left=clock),
            other(creator): Side(theirs, time_left=clock),
        }
        record = TableRecord(
            id=new_table_id(),
            variant=options.variant,
            size=game.size,
            line=game.line,
            opponent=options.opponent,
            level=(options.level or DEFAULT_LEVEL) if options.opponent == "computer" else None,
            game_number=1,
            moves=(),
            result=None,
            ended_by=None,
            version=1,
            x=sides["x"],
            o=sides["o"],
            draws=0,
            created_at=now,
            start_position=start_position,
            updated_at=now,
            teams=options.teams,
            teams_open=options.teams_open,
            takebacks=options.takebacks,
            private=options.private,
            clock_seconds=clock,
            clock_increment=options.clock_increment if clock is not None else 0.0,
            public=options.public,
            tossed=options.first == "random",
        )
        record = await self._store_new(record)
        table = self._open_table(record)
        if options.public and address is not None:
            if len(self._creators) >= self.settings.max_open_tables:
                self._creators.pop(next(iter(self._creators)))
            self._creators[record.id] = address
        table.schedule_computer_move()
        table.watch_clock()
        return NewTable(table, creator, token, tokens)

    def creator_address(self, table_id: str) -> str | None:
        """The address a public table was opened from, if it was opened by this process."""
        return self._creators.get(table_id)

    def waiting_here(self) -> list[TableRecord]:
        """The public tables in memory here still waiting for a player, their creator connected
        (so the lobby finds them however many newer tables wait without anyone)."""
        return [
            table.record
            for table in map(self._open.get, self._public)
            if table is not None
            and table.record.result is None
            and (mark := creator_mark(table.record)) is not None
            and table.is_connected(mark)
        ]

    async def _store_new(self, record: TableRecord) -> TableRecord:
        """Stores the new table under a fresh code; the database refuses a code in use, so on
        the rare clash another one is drawn."""
        for _ in range(8):
            record = dataclasses.replace(record, code=new_code())
            try:
                await self.storage.create(record)
            except DuplicateTableError:
                continue
            return record
        raise DuplicateTableError(record.id)

    async def get(self, table_id: str) -> Table | None:
        """The table's owner in this process, or None if there is no such table."""
        table = self._open.get(table_id)
        if table is not None:
            # Most recently used last: eviction starts from the front.
            self._open[table_id] = self._open.pop(table_id)
            if self.shared:
                await table.refresh()
            # Every read checks the clock: a game whose time ran out ends before it is shown.
            await table.check_clock()
            # ...and the computer's move or draw answer, should one be due and not under way.
            table.schedule_computer_move()
            return table
        if not looks_like_secret(table_id):
            return None
        async with self._load_lock:
            table = self._open.get(table_id)
            if table is None:
                record = await self.storage.load(table_id)
                if record is None:
                    return None
                table = self._open_table(record)
                # A game against the computer resumes where it stopped (e.g. after a restart).
                table.schedule_computer_move()
                table.watch_clock()
        await table.check_clock()
        return table

    def _open_table(self, record: TableRecord) -> Table:
        table = Table(
            record,
            self.storage,
            self.pubsub,
            base_url=lambda: self.base_url,
            claim_after_seconds=self.settings.claim_after_seconds,
            computer=self.computer if record.opponent == "computer" else None,
            draw_judge=(
                self.computer.proves_draw
                if self.computer is not None and record.opponent == "computer"
                else None
            ),
            clock=self._clock,
            shared=self.shared,
            presence=self.presence,
            sleep=self._sleep,
            least_think=self.settings.computer_least_think_seconds,
        )
        self._open[record.id] = table
        if record.public:
            self._public.add(record.id)
        if len(self._open) > self.settings.max_open_tables:
            self._evict_idle_tables()
        return table

    def _evict_idle_tables(self) -> None:
        """Drops the least recently used tables without sockets until a tenth below the cap.
        Should one still be in use somewhere, the database's version check keeps it right."""
        goal = self.settings.max_open_tables * 9 // 10
        for table_id in list(self._open):
            if len(self._open) <= goal:
                break
            table = self._open[table_id]
            if table.is_idle:
                del self._open[table_id]
                self._public.discard(table_id)
                table.close()
                self.evicted += 1

    async def latest_envelope(self, table_id: str) -> str | None:
        """The table's current frame envelope (in scale-out, `get` has just re-read it from
        storage): a subscriber that may have missed messages catches up with it."""
        table = await self.get(table_id)
        return None if table is None else table.envelope()

    @property
    def open_count(self) -> int:
        return len(self._open)

    async def close(self) -> None:
        for table in self._open.values():
            table.close()
        self._open.clear()
        self._public.clear()
