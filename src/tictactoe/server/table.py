"""A table: the one serial owner of a game table in this process (Lichess's round actor).

`Table.apply(command, by)` checks a command against the table and the rules, commits the new
state to storage (the database decides whether the version read is still the latest), then
publishes it, and returns what happened as events. It never touches a socket: the frames it
publishes go to whoever subscribed to the table's channel. Who is connected is kept here too
(it is not stored: it says nothing once the process is gone).
"""

from __future__ import annotations

import asyncio
import contextlib
import dataclasses
import hmac
import logging
import time
from collections.abc import Awaitable, Callable
from dataclasses import dataclass
from typing import Any, Literal

from tictactoe import Game, IllegalMoveError
from tictactoe.server import metrics
from tictactoe.server.presence import Seen, SharedPresence
from tictactoe.server.pubsub import PubSub
from tictactoe.server.storage import (
    MoveRecord,
    SeatRecord,
    StaleVersionError,
    Storage,
    StorageUnavailableError,
    TableRecord,
)
from tictactoe.server.view import encode_envelope, frame_for_person, table_json

log = logging.getLogger(__name__)

Mark = Literal["x", "o"]
MARKS: tuple[Mark, Mark] = ("x", "o")
# The `by` of the computer's own commands; a token hash is 64 hex digits, so it never collides.
COMPUTER = "computer"


def other(mark: Mark) -> Mark:
    """The opponent's mark.

    >>> other("x")
    'o'
    """
    return "o" if mark == "x" else "x"


def channel_of(table_id: str) -> str:
    """The pub/sub channel a table's frames are published on."""
    return f"table:{table_id}"


class Refused(Exception):
    """A command the table turns down; `status` is the HTTP status of the contract."""

    def __init__(
        self,
        status: int,
        message: str,
        reason: str | None = None,
        table: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason
        # For a stale version: the fresh table, so the caller can catch up at once.
        self.table = table


# -- commands -----------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class PlayMove:
    move: str
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class AskRematch:
    pass


@dataclass(frozen=True, slots=True)
class ClaimWin:
    pass


@dataclass(frozen=True, slots=True)
class TakeSeat:
    token_hash: str
    client_hash: str | None


Command = PlayMove | Resign | AskRematch | ClaimWin | TakeSeat

# -- events -------------------------------------------------------------------------------------


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table; `version` is the table's version after it."""

    kind: Literal["seat-taken", "moved", "game-over", "rematch-asked", "game-started"]
    version: int
    mark: Mark | None = None
    move: str | None = None
    result: str | None = None
    ended_by: str | None = None


# -- the rules of a table, as pure functions of its record ----------------------------------------


def build_game(record: TableRecord) -> Game:
    """The rules' game for the record's current moves (from its start position, if any)."""
    size = record.size if record.variant == "standard" else None
    line = record.line if record.variant == "standard" else None
    if record.start_position is None:
        return Game.from_record(record.variant, " ".join(record.moves), size=size, line=line)
    game = Game.from_position(record.variant, record.start_position, line=line)
    for move in record.moves:
        game = game.play(move)
    return game


def seat(record: TableRecord, mark: Mark) -> SeatRecord:
    return record.x if mark == "x" else record.o


def finish(record: TableRecord, result: str, ended_by: str) -> TableRecord:
    """The record with the game over and the score counted."""
    return dataclasses.replace(
        record,
        result=result,
        ended_by=ended_by,
        score_x=record.score_x + (result == "x"),
        score_o=record.score_o + (result == "o"),
        draws=record.draws + (result == "draw"),
    )


def start_rematch(record: TableRecord) -> TableRecord:
    """The next game at the table: the marks swap, and each person's score goes with them, so
    whoever was O moves first as X with the same seat token."""
    return dataclasses.replace(
        record,
        game_number=record.game_number + 1,
        moves=(),
        result=None,
        ended_by=None,
        x=record.o,
        o=record.x,
        score_x=record.score_o,
        score_o=record.score_x,
        rematch_x=False,
        rematch_o=False,
    )


# -- the serial owner -----------------------------------------------------------------------------

ComputerPlayer = Callable[[TableRecord], Awaitable[str]]


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
    ) -> None:
        self.record = record
        self.game = build_game(record)
        self._storage = storage
        self._pubsub = pubsub
        self._base_url = base_url
        self._claim_after = claim_after_seconds
        self._computer = computer
        self._clock = clock
        self._lock = asyncio.Lock()
        now = clock()
        # Open sockets per person (seat token hash), and since when a person has had none.
        self._sockets: dict[str, int] = {}
        self._spectators = 0  # their sockets: they keep the table in memory, not "connected"
        self._away_since: dict[str, float] = {}
        self._turn_since = now
        self._loaded_at = now
        self._envelope: str | None = None
        self._claim_timer: asyncio.TimerHandle | None = None
        self._computer_task: asyncio.Task[None] | None = None
        # Other processes write this table too (scale-out): re-read it before deciding.
        self._shared = shared
        # Scale-out: players connected through other processes, and when the rest left.
        self._presence = presence
        self._seen = Seen()

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
        if person is None:
            return None
        for mark in MARKS:
            holder = seat(self.record, mark)
            if person == COMPUTER:
                if holder.computer:
                    return mark
            elif holder.token_hash is not None and hmac.compare_digest(holder.token_hash, person):
                return mark
        return None

    def person_of_client(self, client_hash: str | None) -> str | None:
        """The person (seat token hash) whose seat is bound to this browser cookie, if any."""
        if client_hash is None:
            return None
        for mark in MARKS:
            holder = seat(self.record, mark)
            if holder.client_hash is not None and hmac.compare_digest(
                holder.client_hash, client_hash
            ):
                return holder.token_hash
        return None

    def is_connected(self, mark: Mark) -> bool:
        holder = seat(self.record, mark)
        if holder.computer:
            return True
        person = holder.token_hash
        if person is None:
            return False
        return self._sockets.get(person, 0) > 0 or person in self._seen.connected

    def away_since(self, mark: Mark) -> float | None:
        """Since when the player of `mark` has had no socket open (None: connected or no one)."""
        holder = seat(self.record, mark)
        if holder.computer or holder.token_hash is None or self.is_connected(mark):
            return None
        here = self._away_since.get(holder.token_hash, self._loaded_at)
        # Gone from other processes later than from this one: that is when they left.
        return max(here, self._seen.left_at.get(holder.token_hash, here))

    def claim_possible_at(self) -> tuple[Mark, float] | None:
        """Who could claim the win, and from when: the opponent of a player away on their turn."""
        if self.record.result is not None or self.game.is_over:
            return None
        mover: Mark = self.game.turn  # type: ignore[assignment]
        away = self.away_since(mover)
        if away is None or seat(self.record, other(mover)).computer:
            return None
        if not seat(self.record, other(mover)).taken:
            return None
        return other(mover), max(away, self._turn_since) + self._claim_after

    def can_claim(self, person: str | None) -> bool:
        """Whether this person may claim the win right now."""
        claim = self.claim_possible_at()
        return claim is not None and claim[1] <= self._clock() and self.mark_of(person) == claim[0]

    # -- views --

    def view(self, base_url: str | None = None) -> dict[str, Any]:
        """The table as the API shows it (GET /api/tables/{id})."""
        return table_json(self, base_url if base_url is not None else self._base_url())

    def envelope(self) -> str:
        """The latest frame for this table, with who may claim the win (see `view`)."""
        if self._envelope is None:
            self._envelope = self._make_envelope()
        return self._envelope

    def frame_for(self, person: str | None) -> str:
        """The `{"type": "table"}` frame as this person (None: a spectator) should get it."""
        return frame_for_person(self.envelope(), person)

    def _make_envelope(self) -> str:
        claim = self.claim_possible_at()
        claimant = claim[0] if claim is not None and claim[1] <= self._clock() else None
        frame = '{"type":"table","table":' + _dumps(self.view()) + "}"
        return encode_envelope(frame, claimant, self.record.x.token_hash, self.record.o.token_hash)

    # -- commands --

    async def apply(self, command: Command, by: str | None) -> list[Event]:
        """Applies `command` from person `by` (seat token hash, COMPUTER, or None), commits it,
        publishes the new state, and returns the events; raises `Refused` with nothing changed."""
        started = time.perf_counter()
        async with self._lock:
            try:
                try:
                    record, events, move = self._decide(command, by)
                    await self._save(record, move)
                except (Refused, StaleVersionError):
                    if not self._shared:
                        raise
                    # Our copy may be behind another process's writes (so the refusal, or the
                    # failed version check, may be ours alone): catch up, then decide again.
                    await self.refresh()
                    record, events, move = self._decide(command, by)
                    await self._save(record, move)
            except StaleVersionError:
                # Another process wrote first: catch up from the database and refuse.
                await self._reload()
                raise Refused(
                    409, "the table changed meanwhile; here it is", table=self.view()
                ) from None
            except StorageUnavailableError:
                # The transaction rolled back (or never began): nothing changed, say so plainly.
                metrics.STORAGE_UNAVAILABLE.inc()
                raise Refused(
                    503, "the database is unreachable right now; nothing changed, try again"
                ) from None
            self._adopt(record)
            await self._publish()
        if move is not None:
            metrics.MOVES.inc()
            metrics.MOVE_SECONDS.observe(time.perf_counter() - started)
        self._after_change()
        return events

    def _decide(
        self, command: Command, by: str | None
    ) -> tuple[TableRecord, list[Event], MoveRecord | None]:
        record = self.record
        version = record.version + 1
        now = self._clock()
        if isinstance(command, TakeSeat):
            for mark in MARKS:
                if not seat(record, mark).taken:
                    record = _with_seat(
                        record, mark, SeatRecord(command.token_hash, command.client_hash)
                    )
                    record = dataclasses.replace(record, version=version, updated_at=now)
                    return record, [Event("seat-taken", version, mark=mark)], None
            raise Refused(409, "both seats are taken; you can watch")

        mark = self._player_mark(by)
        if isinstance(command, PlayMove):
            if command.version is not None and command.version != record.version:
                raise Refused(
                    409,
                    f"stale version {command.version}: the table is at version {record.version}",
                    table=self.view(),
                )
            if record.result is not None:
                raise Refused(422, "the game is over", reason="game-over")
            if self.game.turn != mark:
                raise Refused(403, f"it is {self.game.turn.upper()}'s turn, not yours")
            try:
                game = self.game.play(command.move)
            except IllegalMoveError as error:
                raise Refused(422, str(error), reason=error.reason) from None
            ply = len(record.moves) + 1
            record = dataclasses.replace(
                record, moves=(*record.moves, command.move), version=version, updated_at=now
            )
            events = [Event("moved", version, mark=mark, move=command.move)]
            if game.result is not None:
                record = finish(record, game.result, "draw" if game.result == "draw" else "line")
                events.append(
                    Event("game-over", version, result=record.result, ended_by=record.ended_by)
                )
            move = MoveRecord(record.id, record.game_number, ply, command.move, now)
            return record, events, move
        if isinstance(command, Resign):
            self._require_game_in_progress()
            if not seat(record, other(mark)).taken:
                raise Refused(409, "nobody has taken the other seat yet")
            record = finish(record, other(mark), "resign")
            record = dataclasses.replace(record, version=version, updated_at=now)
            return (
                record,
                [Event("game-over", version, result=other(mark), ended_by="resign")],
                None,
            )
        if isinstance(command, ClaimWin):
            self._require_game_in_progress()
            claim = self.claim_possible_at()
            if claim is None or claim[0] != mark:
                raise Refused(
                    403, "you can claim the win only while your opponent is away on their turn"
                )
            if claim[1] > now:
                raise Refused(
                    403, f"your opponent may come back: you can claim in {claim[1] - now:.0f} s"
                )
            record = finish(record, mark, "abandon")
            record = dataclasses.replace(record, version=version, updated_at=now)
            return record, [Event("game-over", version, result=mark, ended_by="abandon")], None
        if isinstance(command, AskRematch):
            if record.result is None:
                raise Refused(409, "a rematch can be asked for once the game is over")
            record = dataclasses.replace(
                record,
                rematch_x=record.rematch_x or mark == "x",
                rematch_o=record.rematch_o or mark == "o",
                version=version,
                updated_at=now,
            )
            events = [Event("rematch-asked", version, mark=mark)]
            both = (record.rematch_x or record.x.computer) and (
                record.rematch_o or record.o.computer
            )
            if both:
                record = start_rematch(record)
                events.append(Event("game-started", version))
            return record, events, None
        raise TypeError(f"unknown command {command!r}")

    def _player_mark(self, by: str | None) -> Mark:
        if by is None:
            raise Refused(401, "a seat token is needed to play")
        mark = self.mark_of(by)
        if mark is None:
            raise Refused(403, "you do not sit at this table")
        return mark

    def _require_game_in_progress(self) -> None:
        if self.record.result is not None:
            raise Refused(409, "the game is already over")

    def _adopt(self, record: TableRecord) -> None:
        old = self.record
        self.record = record
        if record.game_number != old.game_number or record.moves != old.moves:
            if record.game_number == old.game_number and record.moves[:-1] == old.moves:
                # One move on: play it rather than replaying the whole record.
                self.game = self.game.play(record.moves[-1])
            else:
                self.game = build_game(record)
            self._turn_since = self._clock()
        self._envelope = None

    async def _save(self, record: TableRecord, move: MoveRecord | None) -> None:
        """Commits `record` over the version this process holds; the database refuses it
        (`StaleVersionError`) if that is not the latest. In scale-out, learns meanwhile who is
        connected through other processes, for the frame about to be published."""
        save = self._storage.save(record, self.record.version, move)
        if self._presence is None:
            await save
        else:
            await asyncio.gather(save, self._look_around())

    async def _reload(self) -> None:
        record = await self._storage.load(self.id)
        if record is not None:
            self._adopt(record)
            await self._publish()

    async def refresh(self) -> None:
        """Adopts the stored table if another process has changed it since (scale-out). That
        process published the change already, so nothing is published here."""
        record, _ = await asyncio.gather(self._storage.load(self.id), self._look_around())
        if record is not None and record.version > self.record.version:
            self._adopt(record)

    async def _look_around(self) -> None:
        """Learns who is connected through the other processes (scale-out)."""
        if self._presence is None:
            return
        seen = await self._presence.seen(self.id)
        if seen != self._seen:
            self._seen = seen
            self._envelope = None

    # -- presence --

    async def connect(self, person: str | None) -> None:
        """A socket of `person` opened (None: a spectator's)."""
        if person is None:
            self._spectators += 1
            return
        self._sockets[person] = self._sockets.get(person, 0) + 1
        if self._sockets[person] == 1:
            self._away_since.pop(person, None)
            if self._presence is not None:
                await self._presence.arrived(self.id, person)
            await self._presence_changed()

    async def disconnect(self, person: str | None) -> None:
        """A socket of `person` closed."""
        if person is None:
            self._spectators = max(0, self._spectators - 1)
            return
        if person not in self._sockets:
            return
        self._sockets[person] -= 1
        if self._sockets[person] == 0:
            del self._sockets[person]
            self._away_since[person] = self._clock()
            if self._presence is not None:
                await self._presence.left(self.id, person)
            await self._presence_changed()

    @property
    def is_idle(self) -> bool:
        """Nobody connected here and nothing under way: the table may leave memory."""
        computing = self._computer_task is not None and not self._computer_task.done()
        watched = self.socket_count > 0 or self._spectators > 0
        return not watched and not self._lock.locked() and not computing

    @property
    def socket_count(self) -> int:
        return sum(self._sockets.values())

    async def _presence_changed(self) -> None:
        self._envelope = None
        await self._look_around()
        await self._publish()
        self._schedule_claim_frame()

    # -- after a change --

    async def _publish(self) -> None:
        await self._pubsub.publish(channel_of(self.id), self.envelope())

    def _after_change(self) -> None:
        self._schedule_claim_frame()
        self.schedule_computer_move()

    def _schedule_claim_frame(self) -> None:
        """Publishes a fresh frame when the claim becomes possible, so the button shows on time."""
        if self._claim_timer is not None:
            self._claim_timer.cancel()
            self._claim_timer = None
        claim = self.claim_possible_at()
        if claim is None:
            return
        delay = claim[1] - self._clock()
        if delay <= 0:
            return
        loop = asyncio.get_running_loop()
        self._claim_timer = loop.call_later(delay + 0.05, self._claim_became_possible)

    def _claim_became_possible(self) -> None:
        self._claim_timer = None
        self._envelope = None
        task = asyncio.ensure_future(self._publish())
        task.add_done_callback(_log_failure)

    def schedule_computer_move(self) -> None:
        """Starts the computer thinking if it is to move (and not already thinking)."""
        if self._computer is None or self.record.result is not None:
            return
        if not seat(self.record, self.game.turn).computer:  # type: ignore[arg-type]
            return
        if self._computer_task is not None and not self._computer_task.done():
            return
        self._computer_task = asyncio.ensure_future(self._play_computer_move(self.record))
        self._computer_task.add_done_callback(_log_failure)

    async def _play_computer_move(self, record: TableRecord) -> None:
        assert self._computer is not None
        move = await self._computer(record)
        # The version pins the move to the position it was computed for.
        with contextlib.suppress(Refused):
            await self.apply(PlayMove(move, version=record.version), COMPUTER)

    async def wait_for_computer(self) -> None:
        """Returns once the computer has played (tests, and a clean shutdown)."""
        while self._computer_task is not None and not self._computer_task.done():
            await asyncio.shield(self._computer_task)

    def close(self) -> None:
        if self._claim_timer is not None:
            self._claim_timer.cancel()
        if self._computer_task is not None:
            self._computer_task.cancel()


def _with_seat(record: TableRecord, mark: Mark, holder: SeatRecord) -> TableRecord:
    return (
        dataclasses.replace(record, x=holder)
        if mark == "x"
        else dataclasses.replace(record, o=holder)
    )


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("table background task failed", exc_info=task.exception())


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))
