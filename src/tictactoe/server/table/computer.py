"""The computer's seat: asks `tictactoe.engine.best_move` for its reply in a small pool of worker
processes (created on first use), so thinking never blocks the event loop."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import os
import random
import threading
import time
from collections.abc import Callable
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from tictactoe import Game
from tictactoe.engine import warm_up
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock, side_to_move
from tictactoe.server.table.fair_queue import DRAW, MOVE, FairQueue
from tictactoe.server.table.game import build_game

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "medium"

# On the clock, the computer spends about a thirtieth of the time it has left and most of its
# increment on a move (only `max` is bounded by time; the other levels search a fixed amount),
# between these bounds: a second is a fair wait for a person, and it never takes more than half
# of what is left.
MOVES_TO_PLAN_FOR = 30
MOST_THINK_MS = 1000
LEAST_THINK_MS = 50


def think_time(table: TableRecord, default_ms: int, now: float) -> int:
    """How long the computer may think on its move at `table` (ms): `default_ms` without a
    clock; with one, from the time it has left at `now` (the table's clock, seconds)."""
    if table.clock_seconds is None:
        return default_ms
    left = Clock(table, now).left(side_to_move(table))
    share = left / MOVES_TO_PLAN_FOR + 0.8 * table.clock_increment
    budget = min(MOST_THINK_MS, max(LEAST_THINK_MS, share * 1000), left * 500)
    return max(1, round(budget))


def think(
    variant: str,
    size: int,
    line: int,
    record: str,
    level: str,
    think_ms: int,
    start_position: str | None = None,
) -> str:
    """The engine's move in the game reached by `record` from the start, or from
    `start_position` (runs in a worker process)."""
    from tictactoe.engine import best_move

    game = _game(variant, size, line, record, start_position)
    return best_move(game, level=level, think_ms=think_ms)


def judge_draw(
    variant: str, size: int, line: int, record: str, start_position: str | None, think_ms: int
) -> bool:
    """Whether the engine proves the game reached a draw with best play (runs in a worker)."""
    from tictactoe.engine.analysis import evaluate

    game = _game(variant, size, line, record, start_position)
    return evaluate(game, think_ms=think_ms).proven == "draw"


def _game(variant: str, size: int, line: int, record: str, start_position: str | None) -> Game:
    standard = variant == "standard"
    if start_position is None:
        return Game.from_record(
            variant, record, size=size if standard else None, line=line if standard else None
        )
    game = Game.from_position(variant, start_position, line=line if standard else None)
    for move in record.split():
        game = game.play(move)
    return game


# The analysis pool's workers (reviews, hints, draw judgements) run this much nicer than the
# move pool's: on a busy machine a move at a table gets the processor before any analysis.
ANALYSIS_NICENESS = 10


# How often a worker looks whether the server that started it is still there.
PARENT_CHECK_SECONDS = 1.0


def leave_with_parent(parent_pid: int) -> None:
    """Ends this worker once the process that started it is gone. A server killed outright
    (SIGKILL, the OOM killer) cannot shut its pool down, and a worker blocked on the pool's
    queue would wait for work forever; re-parented, it notices here and exits."""

    def watch() -> None:
        while os.getppid() == parent_pid:
            time.sleep(PARENT_CHECK_SECONDS)
        os._exit(0)

    threading.Thread(target=watch, name="leave-with-parent", daemon=True).start()


def warm_up_nicer(niceness: int, parent_pid: int) -> None:
    """A worker's start: follow the server out, lower its priority by `niceness`, then load
    the kernels."""
    leave_with_parent(parent_pid)
    os.nice(niceness)
    warm_up()


def _new_pool(workers: int, niceness: int = 0) -> ProcessPoolExecutor:
    # spawn: forking a process that runs an event loop and database threads is unsafe.
    # Each worker loads the compiled kernels once, so no later move pays for it.
    return ProcessPoolExecutor(
        max_workers=workers,
        mp_context=multiprocessing.get_context("spawn"),
        initializer=warm_up_nicer,
        initargs=(niceness, os.getpid()),
    )


class ComputerPlayer:
    """Plays the computer's moves: `await player(record)` is its move at that table. Analysis
    (reviews, the analysis board) thinks in a pool of its own, `analysis_pool`, so that however
    much of it is asked for, it never queues in front of a move at a table; nor do draw
    judgements, which think there too. Tables take turns at either pool (`fair_queue`)."""

    def __init__(
        self,
        workers: int = 1,
        think_ms: int = 300,
        analysis_workers: int = 1,
        clock: Callable[[], float] = time.time,
        judge_think_ms: int = 80,
    ) -> None:
        self.workers = workers
        # A draw offered to it is judged with an analysis's budget (a position of a review), not
        # a move's: offers are the player's to repeat, and each new position costs a search.
        self.judge_think_ms = judge_think_ms
        self.clock = clock  # the tables' time (its clock's budget is read on it)
        self.think_ms = think_ms  # per move, at tables without a clock
        self.analysis_workers = analysis_workers
        self._pool: ProcessPoolExecutor | None = None
        self._analysis_pool: ProcessPoolExecutor | None = None
        self.queue = FairQueue(workers)
        # Draw judgements think beside analysis (reviews, hints, the analysis board), never in
        # front of a move at a table, and take turns with it in one fair line (`Analyst`).
        self.analysis_queue = FairQueue(analysis_workers)

    @property
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            self._pool = _new_pool(self.workers)
        return self._pool

    @property
    def analysis_pool(self) -> ProcessPoolExecutor:
        if self._analysis_pool is None:
            self._analysis_pool = _new_pool(self.analysis_workers, ANALYSIS_NICENESS)
        return self._analysis_pool

    async def start(self) -> None:
        """Starts every worker now and lets each load its kernels (`warm_up`), so that no person
        waits for that at their first move (`tictactoe serve` calls it at start-up: on a busy
        machine starting a worker took longer than many searches; issue 20)."""
        loop = asyncio.get_running_loop()
        starts = [
            *(loop.run_in_executor(self.pool, os.getpid) for _ in range(self.workers)),
            *(
                loop.run_in_executor(self.analysis_pool, os.getpid)
                for _ in range(self.analysis_workers)
            ),
        ]
        try:
            await asyncio.gather(*starts)
        except Exception:
            log.exception("the computer's workers failed to start; they start at the first move")

    def close_analysis(self) -> None:
        """Drops the analysis pool (a worker died): the next analysis starts a fresh one."""
        if self._analysis_pool is not None:
            self._analysis_pool.shutdown(wait=False, cancel_futures=True)
            self._analysis_pool = None

    async def __call__(self, table: TableRecord) -> str:
        loop = asyncio.get_running_loop()
        record = " ".join(table.moves)
        level = table.level or DEFAULT_LEVEL
        try:
            return await self.queue.run(
                table.id,
                MOVE,
                lambda: loop.run_in_executor(
                    self.pool,
                    think,
                    table.variant,
                    table.size,
                    table.line,
                    record,
                    level,
                    think_time(table, self.think_ms, self.clock()),
                    table.start_position,
                ),
            )
        except Exception as error:
            if isinstance(error, BrokenProcessPool):
                # A worker died (killed, out of memory): start afresh on the next move.
                self._pool = None
            # A broken engine must not leave a person waiting forever at the table.
            log.exception("the engine failed at table %s; playing a random move", table.id)
            return random.choice(build_game(table).legal_moves())

    async def proves_draw(self, table: TableRecord) -> bool:
        """Whether the position at the table is a proven draw (so the computer agrees to one)."""
        loop = asyncio.get_running_loop()
        try:
            return await self.analysis_queue.run(
                table.id,
                DRAW,
                lambda: loop.run_in_executor(
                    self.analysis_pool,
                    judge_draw,
                    table.variant,
                    table.size,
                    table.line,
                    " ".join(table.moves),
                    table.start_position,
                    self.judge_think_ms,
                ),
            )
        except Exception as error:
            if isinstance(error, BrokenProcessPool):
                self.close_analysis()
            log.exception("the engine failed to judge a draw at table %s", table.id)
            return False

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
        self.close_analysis()
