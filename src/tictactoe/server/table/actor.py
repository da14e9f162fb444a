"""A table: the one serial owner of a game table in this process (Lichess's round actor).

`Table.apply(command, by)` has the command decided (`decision.decide`, pure), commits the new
state to storage (the database decides whether the version read is still the latest), then
publishes it, and returns what happened as events. It never touches a socket: the frames it
publishes go to whoever subscribed to the table's channel. Who is connected is kept here too
(it is not stored: it says nothing once the process is gone).
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
from collections.abc import Callable
from typing import Any

from tictactoe import Game
from tictactoe.server.ops import metrics
from tictactoe.server.ops.token_buckets import TokenBuckets
from tictactoe.server.pubsub import PubSub
from tictactoe.server.pubsub.presence import SharedPresence
from tictactoe.server.storage import (
    StaleVersionError,
    Storage,
    StorageUnavailableError,
    TableRecord,
)
from tictactoe.server.table.attendance import Attendance
from tictactoe.server.table.broadcast import Broadcast
from tictactoe.server.table.claim import ClaimWindow, claim_window
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import ClaimWin, Command, Refused, StaleCommand, TimeOut
from tictactoe.server.table.decision import decide
from tictactoe.server.table.events import Decision, Event
from tictactoe.server.table.game import build_game
from tictactoe.server.table.messages import MessageId
from tictactoe.server.table.reactions import reaction_message
from tictactoe.server.table.seats import COMPUTER, Mark, mark_of, person_of_client
from tictactoe.server.table.side_jobs import ComputerPlayer, DrawJudge, SideJobs, Sleep
from tictactoe.server.table.view import table_json

log = logging.getLogger(__name__)
Events = tuple[Event, ...]

# -- the serial owner -----------------------------------------------------------------------------


class Table:
    """One table's state in this process, and the only way to change it."""

    def __init__(
        self,
        record: TableRecord,
        storage: Storage,
        pubsub: PubSub,
        *,
        base_url: Callable[[], str],
        claim_after_seconds: float,
        computer: ComputerPlayer | None = None,
        clock: Callable[[], float] = time.time,
        shared: bool = False,
        presence: SharedPresence | None = None,
        draw_judge: DrawJudge | None = None,
        sleep: Sleep = asyncio.sleep,
        least_think: float = 0.0,
    ) -> None:
        self.record = record
        self.game = build_game(record)
        self._storage = storage
        self._pubsub = pubsub
        self._base_url = base_url
        self._claim_after = claim_after_seconds
        self._clock = clock
        self._lock = asyncio.Lock()
        now = clock()
        self._attendance = Attendance(since=now)
        self._turn_since = now
        self.broadcast = Broadcast(self, pubsub, now)  # its frames
        self._reactions: TokenBuckets | None = None  # made at the first reaction
        # The computer's move and draw answers, the flag, the claim frame (see side_jobs).
        self.side_jobs = SideJobs(
            self, computer=computer, draw_judge=draw_judge, sleep=sleep, least_think=least_think
        )
        # Other processes write this table too (scale-out): re-read it before deciding.
        self._shared = shared
        # Scale-out: players connected through other processes, and when the rest left.
        self._presence = presence

    @property
    def id(self) -> str:
        return self.record.id

    @property
    def shared(self) -> bool:
        """Whether other processes change this table too (then `refresh` before trusting it)."""
        return self._shared

    # -- who is who --

    def mark_of(self, person: str | None) -> Mark | None:
        """The mark a person (seat token hash, or COMPUTER) plays in the current game."""
        return mark_of(self.record, person)

    def person_of_client(self, client_hash: str | None) -> str | None:
        """The person (seat token hash) whose seat is bound to this browser cookie, if any."""
        return person_of_client(self.record, client_hash)

    def person_connected(self, person: str | None) -> bool:
        return self._attendance.person_connected(person)

    def is_connected(self, mark: Mark) -> bool:
        """Whether anyone playing `mark` is here (a team is here while one member is)."""
        return self._attendance.is_connected(self.record, mark)

    @property
    def watchers(self) -> int:
        """How many sockets watch without a seat (here, plus the other processes' in scale-out)."""
        return self._attendance.spectators + self._attendance.seen.spectators

    def away_since(self, mark: Mark) -> float | None:
        """Since when everyone playing `mark` has had no socket open (None: connected or no one)."""
        return self._attendance.away_since(self.record, mark)

    def may_watch(self, person: str | None) -> bool:
        """Whether this person may see the table: anyone, unless it is private."""
        return not self.record.private or self.mark_of(person) is not None

    @property
    def clock(self) -> Clock:
        """The table's clock as of now."""
        return Clock(self.record, self._clock())

    def now(self) -> float:
        """The table's time (the injected clock)."""
        return self._clock()

    @property
    def turn_since(self) -> float:
        """When the side to move began its turn (the table's time)."""
        return self._turn_since

    def claim_possible_at(self) -> ClaimWindow | None:
        """Who could claim the win, and from when: the opponent of a player away on their turn."""
        return claim_window(
            self.record, self.game, self.away_since, self._turn_since, self._claim_after
        )

    def can_claim(self, person: str | None) -> bool:
        """Whether this person may claim the win right now."""
        claim = self.claim_possible_at()
        return claim is not None and claim[1] <= self._clock() and self.mark_of(person) == claim[0]

    # -- views --

    def view(self, base_url: str | None = None) -> dict[str, Any]:
        """The table as the API shows it (GET /api/tables/{id})."""
        return table_json(self, base_url if base_url is not None else self._base_url())

    def envelope(self) -> str:
        """The latest `table` frame in its envelope (see `Broadcast.envelope`)."""
        return self.broadcast.envelope()

    def frame_for(self, person: str | None, id: MessageId | None = None) -> str:
        """The `table` frame as this person (None: a spectator) gets it, answering message `id`."""
        return self.broadcast.frame_for(person, id)

    # -- commands --

    async def apply(self, command: Command, by: str | None) -> list[Event]:
        """Applies `command` from person `by` (seat token hash, COMPUTER, or None), commits it,
        publishes the new state, and returns the events; raises `Refused` with nothing changed."""
        started = time.perf_counter()
        async with self._lock:
            if not isinstance(command, TimeOut) and self.clock.flagged() is not None:
                # The time ran out before this command: the game ends first, then the command is
                # judged against the finished game (a move is refused, a rematch may be asked).
                with contextlib.suppress(Refused):
                    await self._commit(TimeOut(), COMPUTER)
            events, moved = await self._commit(command, by)
        if moved:
            metrics.MOVES.inc()
            metrics.MOVE_SECONDS.observe(time.perf_counter() - started)
        self.side_jobs.committed()
        return events

    async def _commit(self, command: Command, by: str | None) -> tuple[list[Event], bool]:
        """Decides, saves, adopts and publishes one command (under the lock)."""
        try:
            try:
                before = self.record
                decision = self._decide(command, by)
                await self._save(decision)
            except (Refused, StaleVersionError):
                if not self._shared:
                    raise
                # Our copy may be behind another process's writes (so the refusal, or the
                # failed version check, may be ours alone): catch up, then decide again.
                await self._refresh()
                before = self.record
                decision = self._decide(command, by)
                await self._save(decision)
        except StaleVersionError:
            # Another process wrote first: catch up from the database and refuse.
            await self._reload()
            raise Refused(
                409, "the table changed meanwhile; here it is", "stale-version", table=self.view()
            ) from None
        except StorageUnavailableError:
            # The transaction rolled back (or never began): nothing changed, say so plainly.
            metrics.STORAGE_UNAVAILABLE.inc()
            raise Refused(
                503,
                "the database is unreachable right now; nothing changed, try again",
                "database-unavailable",
            ) from None
        move, events = decision.move, decision.events
        self._adopt(decision.record, decision.game)
        try:
            if move is None:
                await self.broadcast.publish(events)
            else:
                await self.broadcast.publish_move(move, before, events)
        except Exception:
            # The change is stored: it stands, and the sockets that missed this frame catch up
            # from the next one (its version shows them the gap).
            log.exception("table %s: publishing version %s failed", self.id, self.record.version)
        return list(events), move is not None

    def _decide(self, command: Command, by: str | None) -> Decision:
        """The pure decision on this table's copy (see `decision.decide`)."""
        claim = self.claim_possible_at() if isinstance(command, ClaimWin) else None
        try:
            return decide(self.record, command, by, self._clock(), game=self.game, claim=claim)
        except StaleCommand as stale:
            stale.table = self.view()  # so the caller can catch up at once
            raise

    def _adopt(self, record: TableRecord, game: Game | None = None) -> None:
        old = self.record
        self.record = record
        if game is not None:
            self.game = game
            self._turn_since = self._clock()
        elif record.game_number != old.game_number or record.moves != old.moves:
            if record.game_number == old.game_number and record.moves[:-1] == old.moves:
                # One move on: play it rather than replaying the whole record.
                self.game = self.game.play(record.moves[-1])
            else:
                self.game = build_game(record)
            self._turn_since = self._clock()
        self.broadcast.forget()

    async def _save(self, decision: Decision) -> None:
        """Commits the decided record over the version held here (`StaleVersionError` if that is not
        the latest); in scale-out, learns meanwhile who is connected through other processes."""
        old = self.record
        save = self._storage.save(
            decision.record, old.version, decision.move, decision.undone, previous=old
        )
        if self._presence is None:
            await save
        else:
            await asyncio.gather(save, self._look_around())

    async def _reload(self) -> None:
        record = await self._storage.load(self.id)
        if record is not None:
            self._adopt(record)
            await self.broadcast.publish()

    async def refresh(self) -> None:
        """Adopts the stored table if another process has changed it since (scale-out). That
        process published the change already, so nothing is published here. Under the table's
        lock, like every change of the record (a command's frame says what it changed from)."""
        async with self._lock:
            await self._refresh()

    async def _refresh(self) -> None:
        record, _ = await asyncio.gather(self._storage.load(self.id), self._look_around())
        if record is not None and record.version > self.record.version:
            self._adopt(record)

    async def _look_around(self) -> None:
        """Learns who is connected through the other processes (scale-out)."""
        if self._presence is None:
            return
        if self._attendance.everyone_here(self.record):
            return  # what other processes see changes nothing
        seen = await self._presence.seen(self.id)
        if seen != self._attendance.seen:
            self._attendance.seen = seen
            self.broadcast.forget()
            self.broadcast.company_changed = True

    # -- presence --

    async def connect(self, person: str | None) -> None:
        """A socket of `person` opened (None: a spectator's)."""
        if person is None:
            self._attendance.spectators += 1
            await self._watchers_changed()
            return
        if self._attendance.arrived(person):
            if self._presence is not None:
                await self._presence.arrived(self.id, person)
            await self._presence_changed()

    async def disconnect(self, person: str | None) -> None:
        """A socket of `person` closed."""
        if person is None:
            self._attendance.spectators = max(0, self._attendance.spectators - 1)
            await self._watchers_changed()
            return
        if self._attendance.left(person, self._clock()):
            if self._presence is not None:
                await self._presence.left(self.id, person)
            await self._presence_changed()

    @property
    def is_idle(self) -> bool:
        """Nobody connected here and nothing under way: the table may leave memory."""
        watched = self.socket_count > 0 or self._attendance.spectators > 0
        return not watched and not self._lock.locked() and not self.side_jobs.busy

    @property
    def socket_count(self) -> int:
        return self._attendance.socket_count

    async def _watchers_changed(self) -> None:
        if self._presence is not None:
            await self._presence.watching(self.id, self._attendance.spectators)
        self.broadcast.forget()
        await self._look_around()
        await self.broadcast.publish()

    async def _presence_changed(self) -> None:
        self.broadcast.forget()
        await self._look_around()
        await self.broadcast.publish()
        self.side_jobs.claim_frame()

    # -- the clock --

    def watch_clock(self) -> None:
        """Ends the game when the running clock runs out (see `SideJobs.watch_clock`)."""
        self.side_jobs.watch_clock()

    async def check_clock(self) -> None:
        """Ends the game if the side to move has run out of time (and nobody ended it yet)."""
        if self.clock.flagged() is None:
            return
        with contextlib.suppress(Refused):
            await self.apply(TimeOut(), COMPUTER)

    # -- quick reactions --

    async def react(self, reaction: str, by: str | None) -> None:
        """Shows a player's quick reaction to everyone at the table (not stored)."""
        self._reactions = self._reactions or TokenBuckets(rate=0.5, burst=3, clock=self._clock)
        await self.broadcast.say(reaction_message(self.record, reaction, by, self._reactions))

    async def publish_fresh(self) -> None:
        """Publishes the whole table afresh (e.g. once the win may be claimed)."""
        self.broadcast.forget()
        await self.broadcast.publish()

    def schedule_computer_move(self) -> None:
        """Starts the computer's move or draw answer if one is due (see `SideJobs.resume`)."""
        self.side_jobs.resume()

    async def wait_for_computer(self) -> None:
        """Returns once the computer has played (tests, and a clean shutdown)."""
        await self.side_jobs.wait_for_computer()

    def close(self) -> None:
        self.side_jobs.close()
