"""A table's side jobs: the computer's move, its answer to a draw offered to it, the flag (the
running clock running out) and the frame that shows when the win may be claimed.

They live beside the serial owner (`actor.Table`), which tells them after every change that a new
version is committed (`committed`). Each job then looks at the table *as it is now*, never at the
change that woke it:

- one task per job at most: a job already running notices the new version on its next step, so
  a flood of commands costs nothing more (a draw offer is judged once, however many commands
  arrive while it is pending);
- a job that is refused, finds its answer stale, or meets a storage fault (503) re-arms: it looks
  again at the table, and after a storage fault waits a little (doubling up to `RETRY_MOST`)
  before it tries again, so the computer answers once the database is back;
- every task and timer is tracked, and `close` cancels them all.

The computer's move shows at least `least_think` seconds after its turn began (a reply at once is
easy to miss; issue 21), on the table's clock, and waits with `sleep`, which must wait on that
clock too (tests inject both).
"""

from __future__ import annotations

import asyncio
import logging
from collections.abc import Awaitable, Callable, Coroutine
from typing import Any, Protocol

from tictactoe import Game
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.claim import ClaimWindow
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import AnswerDraw, Command, PlayMove, Refused, TimeOut
from tictactoe.server.table.events import Event
from tictactoe.server.table.seats import COMPUTER, Mark, other, seat

log = logging.getLogger(__name__)

ComputerPlayer = Callable[[TableRecord], Awaitable[str]]
# Whether the position is a proven draw (the computer accepts a draw offer only then).
DrawJudge = Callable[[TableRecord], Awaitable[bool]]
Sleep = Callable[[float], Awaitable[None]]

# After a storage fault a job waits RETRY_FIRST seconds (doubling up to RETRY_MOST), then retries.
RETRY_FIRST = 0.1
RETRY_MOST = 2.0
# The claim frame goes out this long after the claim becomes possible (so the check passes).
_CLAIM_MARGIN = 0.05
_FLAG_MARGIN = 0.01


class Table(Protocol):
    """What the side jobs need of their table (`actor.Table`)."""

    record: TableRecord
    game: Game

    @property
    def id(self) -> str: ...
    @property
    def clock(self) -> Clock: ...
    def now(self) -> float: ...
    @property
    def turn_since(self) -> float: ...
    def claim_possible_at(self) -> ClaimWindow | None: ...
    async def apply(self, command: Command, by: str | None) -> list[Event]: ...
    async def publish_fresh(self) -> None: ...


def visible_wait(least_think: float, turn_since: float, now: float, left: float | None) -> float:
    """How much longer the computer's move waits so that its turn lasts `least_think` seconds
    (since `turn_since`, at `now`); on a running clock with `left` seconds for it, never more
    than a tenth of that."""
    wait = least_think - (now - turn_since)
    if left is not None:
        wait = min(wait, left / 10)
    return max(0.0, wait)


def retry_delay(failures: int) -> float:
    """How long to wait after the `failures`-th storage fault in a row."""
    return min(RETRY_MOST, RETRY_FIRST * 2 ** (failures - 1))


class SideJobs:
    """The side jobs of one table (see the module's docstring)."""

    def __init__(
        self,
        table: Table,
        *,
        computer: ComputerPlayer | None = None,
        draw_judge: DrawJudge | None = None,
        sleep: Sleep = asyncio.sleep,
        least_think: float = 0.0,
    ) -> None:
        self._table = table
        self._least_think = least_think
        self._computer = computer
        self._draw_judge = draw_judge
        self._sleep = sleep
        self._computer_task: asyncio.Task[None] | None = None
        self._draw_task: asyncio.Task[None] | None = None
        # The last position judged (game number, moves) and whether it is a proven draw: an offer
        # repeated at the same position costs no second search.
        self._verdict: tuple[tuple[int, tuple[str, ...]], bool] | None = None
        self._claim_timer: asyncio.TimerHandle | None = None
        self._flag_timer: asyncio.TimerHandle | None = None
        self._tasks: set[asyncio.Task[None]] = set()
        self._closed = False

    # -- what wakes them --

    def committed(self) -> None:
        """A new version of the table is committed (or the table was just loaded)."""
        self.claim_frame()
        self.resume()
        self.watch_clock()

    def resume(self) -> None:
        """Starts the computer's move and its answer to a draw offer if either is due and not
        already under way (cheap: every read of the table may call it)."""
        if self._computer is not None and _idle(self._computer_task) and self._computer_to_move():
            self._computer_task = self._spawn(self._play_computer())
        if self._draw_judge is not None and _idle(self._draw_task) and self._draw_offered():
            self._draw_task = self._spawn(self._answer_draws())

    @property
    def busy(self) -> bool:
        """Whether a job is under way (the table must then stay in memory)."""
        return any(not task.done() for task in self._tasks)

    async def wait_for_computer(self) -> None:
        """Returns once the computer has played (tests, and a clean shutdown)."""
        while self._computer_task is not None and not self._computer_task.done():
            await asyncio.shield(self._computer_task)

    def close(self) -> None:
        """Cancels every timer and task: the table leaves memory."""
        self._closed = True
        for timer in (self._claim_timer, self._flag_timer):
            if timer is not None:
                timer.cancel()
        self._claim_timer = self._flag_timer = None
        for task in list(self._tasks):
            task.cancel()

    def _spawn(self, job: Coroutine[Any, Any, None]) -> asyncio.Task[None]:
        task = asyncio.ensure_future(job)
        self._tasks.add(task)
        task.add_done_callback(self._finished)
        return task

    def _finished(self, task: asyncio.Task[None]) -> None:
        self._tasks.discard(task)
        if not task.cancelled() and task.exception() is not None:
            log.error("table %s: a side job failed", self._table.id, exc_info=task.exception())

    async def _after_refusal(self, refusal: Refused, failures: int, version: int) -> bool:
        """Whether to look again after `refusal` of a command decided at `version`: after a storage
        fault, once a little time has passed; after any other refusal, only if the table moved
        on meanwhile (otherwise the same command would be refused again)."""
        if refusal.status == 503:
            await self._sleep(retry_delay(failures))
            return True
        if self._table.record.version != version:
            return True
        log.warning("table %s: the computer's command was refused: %s", self._table.id, refusal)
        return False

    # -- the computer's move --

    def _computer_to_move(self) -> TableRecord | None:
        """The record the computer must answer, if it is the computer's turn."""
        record = self._table.record
        if record.result is not None:
            return None
        turn: Mark = self._table.game.turn  # type: ignore[assignment]
        return record if seat(record, turn).computer else None

    async def _play_computer(self) -> None:
        """Thinks and plays until it is no longer the computer's turn. A move thought for a
        version that changed meanwhile (a takeback, a rematch, a name) is thought again; after a
        storage fault the same move is saved again."""
        assert self._computer is not None
        failures = 0
        thought: tuple[int, str] | None = None  # the version thought about, and the move
        while (record := self._computer_to_move()) is not None:
            if thought is None or thought[0] != record.version:
                # (Re)thinks, and shows its move no sooner than `least_think` after its turn
                # began; the table may move on meanwhile (a takeback), so look again.
                thought = (record.version, await self._computer(record))
                await self._visible_think()
                continue
            try:
                # The version pins the move to the position it was thought for.
                await self._table.apply(PlayMove(thought[1], version=record.version), COMPUTER)
            except Refused as refusal:
                failures += 1
                if not await self._after_refusal(refusal, failures, record.version):
                    return
            else:
                failures = 0

    async def _visible_think(self) -> None:
        table = self._table
        left = table.clock.runs_out_in()
        wait = visible_wait(self._least_think, table.turn_since, table.now(), left)
        if wait > 0:
            await self._sleep(wait)

    # -- the computer's answer to a draw --

    def _draw_offered(self) -> tuple[int, tuple[str, ...]] | None:
        """The position (game number, moves) at which a draw is offered to the computer, or None."""
        record = self._table.record
        offer: Mark | None = record.draw_offer  # type: ignore[assignment]
        if offer is None or record.result is not None:
            return None
        if not seat(record, other(offer)).computer:
            return None
        return record.game_number, record.moves

    async def _answer_draws(self) -> None:
        """Judges each position offered at once (yes only for a proven draw) and answers; commands
        that leave the position as it was (a name, the same offer again) reuse the verdict."""
        assert self._draw_judge is not None
        failures = 0
        while (position := self._draw_offered()) is not None:
            record = self._table.record
            if self._verdict is None or self._verdict[0] != position:
                self._verdict = (position, await self._draw_judge(record))
                continue  # the table may have moved on while the judge thought
            try:
                await self._table.apply(AnswerDraw(self._verdict[1], record.version), COMPUTER)
            except Refused as refusal:
                failures += 1
                if not await self._after_refusal(refusal, failures, record.version):
                    return
            else:
                failures = 0

    # -- the flag --

    def watch_clock(self) -> None:
        """Ends the game when the running clock runs out: a timer in this process (reads and
        commands check too, so a restart or another process ends it just as well)."""
        if self._flag_timer is not None:
            self._flag_timer.cancel()
            self._flag_timer = None
        left = self._table.clock.runs_out_in()
        if left is None or self._closed:
            return
        loop = asyncio.get_running_loop()
        self._flag_timer = loop.call_later(left + _FLAG_MARGIN, self._flag_fell)

    def _flag_fell(self) -> None:
        self._flag_timer = None
        self._spawn(self._time_out())

    async def _time_out(self) -> None:
        """Ends the game on time, retrying after a storage fault until it is ended."""
        failures = 0
        while self._table.clock.flagged() is not None:
            version = self._table.record.version
            try:
                await self._table.apply(TimeOut(), COMPUTER)
            except Refused as refusal:
                failures += 1
                if not await self._after_refusal(refusal, failures, version):
                    return

    # -- the claim frame --

    def claim_frame(self) -> None:
        """Publishes a fresh frame when the claim becomes possible, so the button shows on time."""
        if self._claim_timer is not None:
            self._claim_timer.cancel()
            self._claim_timer = None
        claim = self._table.claim_possible_at()
        if claim is None or self._closed:
            return
        delay = claim[1] - self._table.now()
        if delay <= 0:
            return
        loop = asyncio.get_running_loop()
        self._claim_timer = loop.call_later(delay + _CLAIM_MARGIN, self._claim_became_possible)

    def _claim_became_possible(self) -> None:
        self._claim_timer = None
        self._spawn(self._table.publish_fresh())


def _idle(task: asyncio.Task[None] | None) -> bool:
    return task is None or task.done()
