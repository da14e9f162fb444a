"""`FairQueue`: the computer's workers are shared fairly between tables, moves first."""

from __future__ import annotations

import asyncio
from collections.abc import Awaitable, Callable
from concurrent.futures import ThreadPoolExecutor
from typing import TypeVar

import pytest

from tictactoe.server.table.fair_queue import DRAW, MOVE, FairQueue
from tictactoe.server.table.review import Analyst, GameKey

T = TypeVar("T")


class Jobs:
    """Jobs that run until the test ends them; `started` says in which order they got a slot."""

    def __init__(self, queue: FairQueue) -> None:
        self.queue = queue
        self.started: list[str] = []
        self.gates: dict[str, asyncio.Future[None]] = {}
        self.tasks: list[asyncio.Task[str]] = []

    def add(self, name: str, table: str, kind: int) -> None:
        async def job() -> str:
            self.started.append(name)
            gate = asyncio.get_running_loop().create_future()
            self.gates[name] = gate
            await gate
            return name

        self.tasks.append(asyncio.ensure_future(self.queue.run(table, kind, job)))

    async def end(self, name: str) -> None:
        self.gates[name].set_result(None)
        for _ in range(5):
            await asyncio.sleep(0)


async def settle() -> None:
    for _ in range(5):
        await asyncio.sleep(0)


async def test_tables_take_turns_and_moves_go_before_draw_judgements() -> None:
    jobs = Jobs(FairQueue(slots=1))
    jobs.add("a1", "A", MOVE)
    await settle()
    for index in range(2, 5):
        jobs.add(f"a{index}", "A", MOVE)  # table A floods
    for index in range(1, 4):
        jobs.add(f"draw{index}", "A", DRAW)
    jobs.add("b1", "B", MOVE)
    jobs.add("c1", "C", MOVE)
    await settle()
    assert jobs.started == ["a1"]
    for name in ["a1", "a2", "b1", "c1", "a3", "a4", "draw1", "draw2"]:
        await jobs.end(name)
    assert jobs.started == ["a1", "a2", "b1", "c1", "a3", "a4", "draw1", "draw2", "draw3"]
    await jobs.end("draw3")
    assert [task.result() for task in jobs.tasks] == [
        "a1", "a2", "a3", "a4", "draw1", "draw2", "draw3", "b1", "c1"
    ]  # fmt: skip
    assert jobs.queue.running == 0 and jobs.queue.waiting == 0


async def test_a_cancelled_waiter_leaves_the_line_and_a_failed_job_frees_its_slot() -> None:
    queue = FairQueue(slots=1)
    jobs = Jobs(queue)
    jobs.add("a1", "A", MOVE)
    await settle()
    jobs.add("b1", "B", MOVE)
    jobs.add("c1", "C", MOVE)
    await settle()
    jobs.tasks[1].cancel()  # B gives up while waiting
    await settle()
    assert queue.waiting == 1
    await jobs.end("a1")
    assert jobs.started == ["a1", "c1"]

    async def broken() -> None:
        raise RuntimeError("the worker died")

    failing = asyncio.ensure_future(queue.run("D", DRAW, broken))
    await jobs.end("c1")
    with pytest.raises(RuntimeError):
        await failing
    assert queue.running == 0 and queue.waiting == 0


async def test_as_many_run_at_once_as_there_are_slots() -> None:
    jobs = Jobs(FairQueue(slots=2))
    for name in ("a1", "b1", "c1"):
        jobs.add(name, name[0], MOVE)
    await settle()
    assert jobs.started == ["a1", "b1"]
    await jobs.end("b1")
    assert jobs.started == ["a1", "b1", "c1"]


class RecordingQueue(FairQueue):
    """A fair queue that notes who got each slot, in order."""

    def __init__(self, slots: int) -> None:
        super().__init__(slots)
        self.order: list[str] = []

    async def run(self, table_id: str, kind: int, job: Callable[[], Awaitable[T]]) -> T:
        async def noted() -> T:
            self.order.append(table_id)
            return await job()

        return await super().run(table_id, kind, noted)


async def test_analysis_takes_turns_in_the_same_fair_queue_behind_draw_judgements() -> None:
    queue = RecordingQueue(slots=1)
    jobs = Jobs(queue)
    jobs.add("b", "B", DRAW)  # table B's draw judgement holds the only worker
    await settle()
    with ThreadPoolExecutor(1) as threads:
        analyst = Analyst(lambda: threads, think_ms=5, max_waiting=100, queue=queue)
        # Table A's review: one search per position, 6 of them, each waiting its turn.
        review = asyncio.ensure_future(
            analyst.analysis(GameKey("standard", 3, 3, None, "b2 a1 c3 a3 a2"), "table:A")
        )
        await settle()
        jobs.add("c", "C", DRAW)  # then table C's draw judgement, and a visitor's hint
        hint = asyncio.ensure_future(
            analyst.position("standard", 3, 3, ".../.x./o.. x", "address:D")
        )
        await settle()
        assert queue.order == ["B"] and queue.waiting == 3  # nobody jumped into the pool
        await jobs.end("b")
        assert queue.order == ["B", "C"]  # a draw judgement goes before any analysis
        await jobs.end("c")
        evaluation = await hint
        assert queue.order[2:4] == ["table:A", "address:D"]  # A's review waits after one turn
        assert not review.done() and evaluation["best_move"] is not None
        analysis = await review
    assert len(analysis["evaluations"]) == 6
    assert queue.order.count("table:A") == 6 and queue.running == queue.waiting == 0
