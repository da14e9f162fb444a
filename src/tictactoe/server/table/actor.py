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
from typing import Any

from tictactoe import IllegalMoveError
from tictactoe.server.ops import metrics
from tictactoe.server.ops.limits import TokenBuckets
from tictactoe.server.pubsub import PubSub
from tictactoe.server.pubsub.presence import Seen, SharedPresence
from tictactoe.server.storage import (
    MoveRecord,
    SeatRecord,
    StaleVersionError,
    Storage,
    StorageUnavailableError,
    TableRecord,
    TakenBack,
)
from tictactoe.server.table import draw
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import (
    REACTIONS,
    AnswerDraw,
    AnswerTakeback,
    AskRematch,
    AskTakeback,
    ClaimWin,
    Command,
    OfferDraw,
    PlayMove,
    Refused,
    Resign,
    SetName,
    TakeSeat,
    TimeOut,
)
from tictactoe.server.table.events import Event
from tictactoe.server.table.game import build_game, finish
from tictactoe.server.table.rematch import start_rematch
from tictactoe.server.table.seats import (
    COMPUTER,
    MARKS,
    Mark,
    members,
    named,
    other,
    seat,
    with_seat,
)
from tictactoe.server.table.takeback import plies_to_undo, taken_back
from tictactoe.server.table.view import encode_envelope, frame_for_person, table_json

log = logging.getLogger(__name__)

# A frame with a running clock is re-encoded when re-sent this much later, so its times are fresh.
_CLOCK_FRAME_FRESH = 0.5


def channel_of(table_id: str) -> str:
    """The pub/sub channel a table's frames are published on."""
    return f"table:{table_id}"


# -- the serial owner -----------------------------------------------------------------------------

ComputerPlayer = Callable[[TableRecord], Awaitable[str]]
# Whether the position is a proven draw (the computer accepts a draw offer only then).
DrawJudge = Callable[[TableRecord], Awaitable[bool]]


# People a side may have at a team table (the seat holder and teammates): a table stays small.
MAX_TEAM_SIZE = 8


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
    ) -> None:
        self.record = record
        self.game = build_game(record)
        self._storage = storage
        self._pubsub = pubsub
        self._base_url = base_url
        self._claim_after = claim_after_seconds
        self._computer = computer
        self._draw_judge = draw_judge
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
        self._envelope_at = now
        self._claim_timer: asyncio.TimerHandle | None = None
        self._flag_timer: asyncio.TimerHandle | None = None
        self._reactions = TokenBuckets(rate=0.5, burst=3, clock=clock)
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
            for holder in members(self.record, mark):
                if person == COMPUTER:
                    if holder.computer:
                        return mark
                elif holder.token_hash is not None and hmac.compare_digest(
                    holder.token_hash, person
                ):
                    return mark
        return None

    def person_of_client(self, client_hash: str | None) -> str | None:
        """The person (seat token hash) whose seat is bound to this browser cookie, if any."""
        if client_hash is None:
            return None
        for mark in MARKS:
            for holder in members(self.record, mark):
                if holder.client_hash is not None and hmac.compare_digest(
                    holder.client_hash, client_hash
                ):
                    return holder.token_hash
        return None

    def person_connected(self, person: str | None) -> bool:
        if person is None:
            return False
        return self._sockets.get(person, 0) > 0 or person in self._seen.connected

    def is_connected(self, mark: Mark) -> bool:
        """Whether anyone playing `mark` is here (a team is here while one member is)."""
        side = members(self.record, mark)
        if self.record.opponent == "here":
            # One device holds both seats: both people are here while it is.
            side = (*side, *members(self.record, other(mark)))
        return any(holder.computer or self.person_connected(holder.token_hash) for holder in side)

    @property
    def watchers(self) -> int:
        """How many sockets watch without a seat (here, plus the other processes' in scale-out)."""
        return self._spectators + self._seen.spectators

    def away_since(self, mark: Mark) -> float | None:
        """Since when everyone playing `mark` has had no socket open (None: connected or no one)."""
        side = [holder for holder in members(self.record, mark) if holder.token_hash is not None]
        if not side or self.is_connected(mark):
            return None
        left = []
        for holder in side:
            person = holder.token_hash
            assert person is not None
            here = self._away_since.get(person, self._loaded_at)
            # Gone from other processes later than from this one: that is when they left.
            left.append(max(here, self._seen.left_at.get(person, here)))
        return max(left)

    def may_watch(self, person: str | None) -> bool:
        """Whether this person may see the table: anyone, unless it is private."""
        return not self.record.private or self.mark_of(person) is not None

    @property
    def clock(self) -> Clock:
        """The table's clock as of now."""
        return Clock(self.record, self._clock())

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
        now = self._clock()
        stale = now - self._envelope_at > _CLOCK_FRAME_FRESH and self.clock.running is not None
        if self._envelope is None or stale:
            self._envelope = self._make_envelope()
            self._envelope_at = now
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
            if not isinstance(command, TimeOut) and self.clock.flagged() is not None:
                # The time ran out before this command: the game ends first, then the command is
                # judged against the finished game (a move is refused, a rematch may be asked).
                with contextlib.suppress(Refused):
                    await self._commit(TimeOut(), COMPUTER)
            events, moved = await self._commit(command, by)
        if moved:
            metrics.MOVES.inc()
            metrics.MOVE_SECONDS.observe(time.perf_counter() - started)
        self._after_change()
        return events

    async def _commit(self, command: Command, by: str | None) -> tuple[list[Event], bool]:
        """Decides, saves, adopts and publishes one command (under the lock)."""
        try:
            try:
                record, events, move, undone = self._decide(command, by)
                await self._save(record, move, undone)
            except (Refused, StaleVersionError):
                if not self._shared:
                    raise
                # Our copy may be behind another process's writes (so the refusal, or the
                # failed version check, may be ours alone): catch up, then decide again.
                await self.refresh()
                record, events, move, undone = self._decide(command, by)
                await self._save(record, move, undone)
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
        return events, move is not None

    def _decide(
        self, command: Command, by: str | None
    ) -> tuple[TableRecord, list[Event], MoveRecord | None, TakenBack | None]:
        record = self.record
        version = record.version + 1
        now = self._clock()
        if isinstance(command, TakeSeat):
            record = self._seated(record, command)
            record = Clock(record, now).started()
            record = dataclasses.replace(record, version=version, updated_at=now)
            mark = self.mark_in(record, command.token_hash)
            return record, [Event("seat-taken", version, mark=mark)], None, None
        if isinstance(command, TimeOut):
            flagged = self.clock.flagged()
            if flagged is None or record.result is not None:
                raise Refused(409, "no clock has run out")
            record = Clock(record, now).stopped()
            record = finish(record, other(flagged), "time")
            record = dataclasses.replace(record, version=version, updated_at=now)
            event = Event("game-over", version, result=other(flagged), ended_by="time")
            return record, [event], None, None

        if isinstance(command, AnswerDraw):
            mark = self._player_mark(by)
            if command.accept and record.draw_offer == other(mark):
                record, events = draw.agreed(record, now)
            else:
                record, events = draw.declined(record, mark)
            return dataclasses.replace(record, version=version, updated_at=now), events, None, None
        mark = self._player_mark(by)
        one_device = record.opponent == "here"
        if one_device and not isinstance(command, SetName):
            # Both people share one screen: whoever's turn it is acts (the last mover takes back).
            turn: Mark = self.game.turn  # type: ignore[assignment]
            mark = other(turn) if isinstance(command, AskTakeback) else turn
        if isinstance(command, SetName):
            if one_device and command.side is not None:
                mark = command.side
            record = named(record, mark, command.name)
            event = Event("name-set", version, mark=mark)
            return dataclasses.replace(record, version=version, updated_at=now), [event], None, None
        if isinstance(command, OfferDraw):
            record, events = draw.offered(record, mark, now)
            return dataclasses.replace(record, version=version, updated_at=now), events, None, None
        if isinstance(command, PlayMove):
            if command.version is not None and command.version != record.version:
                raise Refused(
                    409,
                    f"stale version {command.version}: the table is at version {record.version}",
                    table=self.view(),
                )
            if record.result is not None:
                ran_out = " on time" if record.ended_by == "time" else ""
                raise Refused(422, f"the game is over{ran_out}", reason="game-over")
            if self.game.turn != mark:
                raise Refused(403, f"it is {self.game.turn.upper()}'s turn, not yours")
            try:
                game = self.game.play(command.move)
            except IllegalMoveError as error:
                raise Refused(422, str(error), reason=error.reason) from None
            ply = len(record.moves) + 1
            record = dataclasses.replace(
                Clock(record, now).after_move(mark),
                moves=(*record.moves, command.move),
                version=version,
                updated_at=now,
                # A takeback request (or draw offer) lapses once another move is played.
                takeback_by=None,
                draw_offer=None,
            )
            events = [Event("moved", version, mark=mark, move=command.move)]
            if game.result is not None:
                record = Clock(record, now).stopped()
                record = finish(record, game.result, "draw" if game.result == "draw" else "line")
                events.append(
                    Event("game-over", version, result=record.result, ended_by=record.ended_by)
                )
            move = MoveRecord(record.id, record.game_number, ply, command.move, now)
            return record, events, move, None
        if isinstance(command, Resign):
            self._require_game_in_progress()
            if not seat(record, other(mark)).taken:
                raise Refused(409, "nobody has taken the other seat yet")
            record = finish(Clock(record, now).stopped(), other(mark), "resign")
            record = dataclasses.replace(record, version=version, updated_at=now)
            return (
                record,
                [Event("game-over", version, result=other(mark), ended_by="resign")],
                None,
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
            record = finish(Clock(record, now).stopped(), mark, "abandon")
            record = dataclasses.replace(record, version=version, updated_at=now)
            return (
                record,
                [Event("game-over", version, result=mark, ended_by="abandon")],
                None,
                None,
            )
        if isinstance(command, AskRematch):
            if record.result is None:
                raise Refused(409, "a rematch can be asked for once the game is over")
            record = dataclasses.replace(
                record,
                rematch_x=record.rematch_x or mark == "x" or one_device,
                rematch_o=record.rematch_o or mark == "o" or one_device,
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
            return record, events, None, None
        if isinstance(command, AskTakeback):
            if not record.takebacks:
                raise Refused(
                    403, "takebacks are not allowed at this table", reason="takebacks-off"
                )
            self._require_game_in_progress()
            if plies_to_undo(record, mark) == 0:
                raise Refused(409, "you have no move to take back", reason="nothing-to-take-back")
            if record.takeback_by is not None:
                raise Refused(409, "a takeback is already asked for", reason="takeback-pending")
            if seat(record, other(mark)).computer or one_device:
                record, undone = taken_back(record, mark, now)
                record = dataclasses.replace(record, version=version, updated_at=now)
                return record, [Event("taken-back", version, mark=mark)], None, undone
            record = dataclasses.replace(record, takeback_by=mark, version=version, updated_at=now)
            return record, [Event("takeback-asked", version, mark=mark)], None, None
        if isinstance(command, AnswerTakeback):
            asker = record.takeback_by
            if asker is None or asker == mark or record.result is not None:
                raise Refused(409, "your opponent has not asked for a takeback")
            if not command.accept:
                record = dataclasses.replace(
                    record, takeback_by=None, version=version, updated_at=now
                )
                return record, [Event("takeback-declined", version, mark=mark)], None, None
            record, undone = taken_back(record, other(mark), now)
            record = dataclasses.replace(record, version=version, updated_at=now)
            return record, [Event("taken-back", version, mark=other(mark))], None, undone
        raise TypeError(f"unknown command {command!r}")

    def _seated(self, record: TableRecord, command: TakeSeat) -> TableRecord:
        """The record with the newcomer seated: in a free seat, or (teams) in a side."""
        newcomer = SeatRecord(command.token_hash, command.client_hash)
        free = [mark for mark in MARKS if not seat(record, mark).taken]
        if command.side is not None and command.side in free:
            return with_seat(record, command.side, newcomer)
        if free and command.side is None:
            return with_seat(record, free[0], newcomer)
        if not record.teams or record.opponent == "computer":
            raise Refused(409, "both seats are taken; you can watch")
        if not record.teams_open and record.moves:
            raise Refused(
                409, "this table's teams are closed while a game is played; join between games"
            )
        fewer: Mark = min(MARKS, key=lambda mark: len(members(record, mark)))
        side: Mark = command.side if command.side is not None else fewer
        if len(members(record, side)) >= MAX_TEAM_SIZE:
            raise Refused(409, f"that side is full: at most {MAX_TEAM_SIZE} people a side")
        if not seat(record, side).taken:
            return with_seat(record, side, newcomer)
        if side == "x":
            return dataclasses.replace(record, x_mates=(*record.x_mates, newcomer))
        return dataclasses.replace(record, o_mates=(*record.o_mates, newcomer))

    @staticmethod
    def mark_in(record: TableRecord, token_hash: str) -> Mark:
        for mark in MARKS:
            if any(holder.token_hash == token_hash for holder in members(record, mark)):
                return mark
        raise LookupError(token_hash)

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

    async def _save(
        self, record: TableRecord, move: MoveRecord | None, undone: TakenBack | None = None
    ) -> None:
        """Commits `record` over the version this process holds; the database refuses it
        (`StaleVersionError`) if that is not the latest. In scale-out, learns meanwhile who is
        connected through other processes, for the frame about to be published."""
        save = self._storage.save(record, self.record.version, move, undone)
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
            await self._watchers_changed()
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
            await self._watchers_changed()
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

    async def _watchers_changed(self) -> None:
        if self._presence is not None:
            await self._presence.watching(self.id, self._spectators)
        self._envelope = None
        await self._look_around()
        await self._publish()

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
        self._schedule_draw_answer()
        self.watch_clock()

    def _schedule_draw_answer(self) -> None:
        """The computer answers a draw offered to it: yes only for a proven draw."""
        offer: Mark | None = self.record.draw_offer  # type: ignore[assignment]
        if offer is None or self._draw_judge is None:
            return
        if not seat(self.record, other(offer)).computer:
            return
        task = asyncio.ensure_future(self._answer_draw(self.record))
        task.add_done_callback(_log_failure)

    async def _answer_draw(self, record: TableRecord) -> None:
        assert self._draw_judge is not None
        accept = await self._draw_judge(record)
        if self.record.version != record.version:
            return  # the position moved on: the offer lapsed with it
        with contextlib.suppress(Refused):
            await self.apply(AnswerDraw(accept), COMPUTER)

    # -- the clock --

    def watch_clock(self) -> None:
        """Ends the game when the running clock runs out: a timer in this process (reads and
        commands check too, so a restart or another process ends it just as well)."""
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None
        left = self.clock.runs_out_in()
        if left is None:
            return
        loop = asyncio.get_running_loop()
        self._flag_timer = loop.call_later(left + 0.01, self._flag_fell)

    def _flag_fell(self) -> None:
        self._flag_timer = None
        task = asyncio.ensure_future(self.check_clock())
        task.add_done_callback(_log_failure)

    async def check_clock(self) -> None:
        """Ends the game if the side to move has run out of time (and nobody ended it yet)."""
        if self.clock.flagged() is None:
            return
        with contextlib.suppress(Refused):
            await self.apply(TimeOut(), COMPUTER)

    # -- quick reactions --

    async def react(self, reaction: str, by: str | None) -> None:
        """Shows a player's quick reaction to everyone at the table (not stored)."""
        mark = self._player_mark(by)
        if reaction not in REACTIONS:
            raise Refused(422, f"reactions are one of {', '.join(REACTIONS)}", reason="reaction")
        assert by is not None
        wait = self._reactions.take(by)
        if wait > 0:
            raise Refused(429, f"one reaction at a time: wait {wait:.0f} s", reason="rate-limited")
        await self._say({"type": "reaction", "reaction": reaction, "side": mark})

    async def _say(self, message: dict[str, Any]) -> None:
        """Publishes a message that is not the table (e.g. a reaction). It carries
        the table's version, so relays pass it on like a frame of that version."""
        frame = _dumps({**message, "version": self.record.version})
        await self._pubsub.publish(channel_of(self.id), encode_envelope(frame, None, None, None))

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
        if self._flag_timer is not None:
            self._flag_timer.cancel()
        if self._claim_timer is not None:
            self._claim_timer.cancel()
        if self._computer_task is not None:
            self._computer_task.cancel()


def _log_failure(task: asyncio.Future[Any]) -> None:
    if not task.cancelled() and task.exception() is not None:
        log.error("table background task failed", exc_info=task.exception())


def _dumps(value: Any) -> str:
    import json

    return json.dumps(value, separators=(",", ":"))
