"""Fair turns at the computer's workers: no table can hold the pool.

At most `slots` searches run at once (one per worker, so none ever queues inside the pool). The
rest wait in line by kind, moves before draw judgements before analysis (a review, a hint, the
analysis board: a table's or a visitor's), and within a kind the tables take turns
(round robin): a table with many searches waiting gets one turn, then every other waiting table
gets one. A search whose caller gives up (its task is cancelled) leaves the line.
"""

from __future__ import annotations

import asyncio
from collections import OrderedDict, deque
from collections.abc import Awaitable, Callable
from typing import TypeVar

T = TypeVar("T")

MOVE = 0  # the computer's move at a table: someone waits for it
DRAW = 1  # whether a draw offered to the computer is proven: it may wait behind moves
ANALYSIS = 2  # a position of a review, a hint, the analysis board: nobody's game waits for it
KINDS = (MOVE, DRAW, ANALYSIS)


class FairQueue:
    """Runs jobs at most `slots` at a time, fairly between tables (see the module's docstring)."""

    def __init__(self, slots: int) -> None:
        self.slots = max(1, slots)
        self.running = 0
        # kind → table id → the futures of that table's waiting jobs, oldest first
        self._lines: dict[int, OrderedDict[str, deque[asyncio.Future[None]]]] = {
            kind: OrderedDict() for kind in KINDS
        }

    @property
    def waiting(self) -> int:
        return sum(len(jobs) for line in self._lines.values() for jobs in line.values())

    async def run(self, table_id: str, kind: int, job: Callable[[], Awaitable[T]]) -> T:
        """Waits for this table's turn at a free slot, then runs `job` there."""
        await self._turn(table_id, kind)
        try:
            return await job()
        finally:
            self._release()

    async def _turn(self, table_id: str, kind: int) -> None:
        if self.running < self.slots and self.waiting == 0:
            self.running += 1
            return
        turn: asyncio.Future[None] = asyncio.get_running_loop().create_future()
        line = self._lines[kind]
        line.setdefault(table_id, deque()).append(turn)
        try:
            await turn
        except asyncio.CancelledError:
            if turn.done() and not turn.cancelled():
                self._release()  # the slot was just handed over: hand it on
            else:
                self._leave(line, table_id, turn)
            raise

    def _leave(
        self, line: OrderedDict[str, deque[asyncio.Future[None]]], table_id: str, turn: object
    ) -> None:
        jobs = line.get(table_id)
        if jobs is not None and turn in jobs:
            jobs.remove(turn)  # type: ignore[arg-type]
            if not jobs:
                del line[table_id]

    def _release(self) -> None:
        """A slot is free: the next table in line (most urgent kind first) gets it."""
        self.running -= 1
        for kind in KINDS:
            line = self._lines[kind]
            while line:
                table_id, jobs = next(iter(line.items()))
                turn = jobs.popleft()
                if jobs:
                    line.move_to_end(table_id)  # its other jobs wait for every other table
                else:
                    del line[table_id]
                if turn.done():
                    continue
                self.running += 1
                turn.set_result(None)
                return
