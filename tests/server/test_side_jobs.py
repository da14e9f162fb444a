"""A table's side jobs under interleaving: the computer answers whatever happens meanwhile.

The computer and the storage here are gates the test opens: the computer's search ends only when
the test says so, and storage fails while the test keeps it "down". Hypothesis chooses what
happens at each point (a person's move, a takeback, a name, a draw offer, storage going down or
coming back, the search ending) and how many steps the event loop runs in between; at the end,
with storage back and every search allowed to finish, the computer must have answered.
"""

from __future__ import annotations

import asyncio
import contextlib
import itertools
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st
from tests.server.conftest import TestClock

from tictactoe.server.pubsub.memory import MemoryPubSub
from tictactoe.server.settings import Settings
from tictactoe.server.storage import StorageUnavailableError, TableRecord
from tictactoe.server.storage.memory import MemoryStorage
from tictactoe.server.storage.sql import SQLStorage
from tictactoe.server.table.actor import Table
from tictactoe.server.table.broadcast import channel_of
from tictactoe.server.table.commands import (
    AskRematch,
    AskTakeback,
    OfferDraw,
    PlayMove,
    Refused,
    SetName,
)
from tictactoe.server.table.game import build_game
from tictactoe.server.table.side_jobs import visible_wait
from tictactoe.server.table.tables import TableOptions, Tables
from tictactoe.server.table.tokens import hash_secret


class GatedComputer:
    """The computer's seat and draw judge, thinking until the test lets a search end."""

    def __init__(self) -> None:
        self.searches: list[tuple[TableRecord, asyncio.Future[str]]] = []
        self.judgements: list[tuple[TableRecord, asyncio.Future[bool]]] = []

    async def __call__(self, record: TableRecord) -> str:
        future: asyncio.Future[str] = asyncio.get_running_loop().create_future()
        self.searches.append((record, future))
        return await future

    async def proves_draw(self, record: TableRecord) -> bool:
        future: asyncio.Future[bool] = asyncio.get_running_loop().create_future()
        self.judgements.append((record, future))
        return await future

    def finish_one(self, accept_draw: bool = False) -> None:
        """Ends the oldest search still running (a legal move) and the oldest judgement."""
        for record, future in self.searches:
            if not future.done():
                future.set_result(build_game(record).legal_moves()[0])
                break
        for _, verdict in self.judgements:
            if not verdict.done():
                verdict.set_result(accept_draw)
                break

    async def finish(self, accept_draw: bool = False) -> None:
        """Lets the event loop run until a search or judgement is under way, then ends it."""
        for _ in range(50):
            if self.thinking:
                self.finish_one(accept_draw)
                return
            await asyncio.sleep(0)
        raise AssertionError("the computer was never asked")

    @property
    def thinking(self) -> int:
        return sum(not future.done() for _, future in [*self.searches, *self.judgements])


class FlakyStorage(MemoryStorage):
    """Memory storage whose saves fail (nothing written) while it is down."""

    down = False

    async def save(self, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0)  # a real store awaits: other work interleaves here
        if self.down:
            raise StorageUnavailableError("down")
        await super().save(*args, **kwargs)


async def computer_table(computer: GatedComputer, **options: Any) -> tuple[Table, str, Tables]:
    storage = FlakyStorage()
    settings = Settings(database_url="memory://", computer_least_think_seconds=0)
    tables = Tables(storage, MemoryPubSub(), settings)
    tables.computer = computer  # type: ignore[assignment]
    created = await tables.create(
        TableOptions(variant="standard", opponent="computer", takebacks=True, **options), None
    )
    table = created.table
    table.side_jobs._sleep = lambda _: asyncio.sleep(0)  # retries at once: no wall-clock waits
    return table, hash_secret(created.token), tables


async def run_loop(steps: int) -> None:
    for _ in range(steps):
        await asyncio.sleep(0)


async def person(table: Table, by: str, action: str) -> None:
    """What a person does, refused or not (a refusal is part of the game here)."""
    mine = table.mark_of(by)
    commands = {
        "move": lambda: PlayMove(table.game.legal_moves()[-1])
        if table.game.legal_moves()
        else None,
        "takeback": AskTakeback,
        "name": lambda: SetName("Ana"),
        "draw": OfferDraw,
        "rematch": AskRematch,
    }
    command = commands[action]()
    if command is None or mine is None:
        return
    with contextlib.suppress(Refused):
        await table.apply(command, by)


async def settle(table: Table, computer: GatedComputer, accept_draw: bool) -> None:
    """Storage back, every search allowed to end: waits until nothing is left to do."""
    table._storage.down = False  # type: ignore[attr-defined]
    for _ in range(200):
        computer.finish_one(accept_draw)
        await run_loop(5)
        if computer.thinking == 0 and not table.side_jobs.busy:
            return
    raise AssertionError("the side jobs never settled")


ACTIONS = st.sampled_from(
    ["move", "takeback", "name", "draw", "rematch", "think", "down", "up", "wait"]
)


@settings(max_examples=300, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(
    script=st.lists(st.tuples(ACTIONS, st.integers(0, 6)), max_size=40),
    computer_first=st.booleans(),
    accept_draw=st.booleans(),
)
def test_the_computer_answers_whatever_happens_while_it_thinks(
    script: list[tuple[str, int]], computer_first: bool, accept_draw: bool
) -> None:
    async def play() -> None:
        computer = GatedComputer()
        table, me, _ = await computer_table(computer, first="friend" if computer_first else "me")
        frames: list[str] = []
        await table._pubsub.subscribe(channel_of(table.id), frames.append)
        storage: FlakyStorage = table._storage  # type: ignore[assignment]
        people: list[asyncio.Future[None]] = []
        for action, steps in script:
            if action == "think":
                computer.finish_one(accept_draw)
            elif action in ("down", "up"):
                storage.down = action == "down"
            elif action != "wait":
                # A person's command runs as its own task, so it interleaves with the jobs.
                people.append(asyncio.ensure_future(person(table, me, action)))
            await run_loop(steps)
        # Every person's command done first (refused, while storage is down): settling stops once
        # no side job is under way, which says nothing of a command still waiting for the lock.
        storage.down = False
        await asyncio.gather(*people)
        await settle(table, computer, accept_draw)
        record = table.record
        assert storage._tables[table.id] == record  # what is stored is what is shown
        if record.result is None:
            assert table.mark_of(me) == table.game.turn, "the computer is to move and idle"
            assert record.draw_offer is None, "a draw offer to the computer is unanswered"
        # Offers at one position cost one judgement, however often they are repeated.
        judged = [(r.game_number, r.moves) for r, _ in computer.judgements]
        assert all(one != next_one for one, next_one in itertools.pairwise(judged)), judged
        table.close()

    asyncio.run(play())


def test_a_takeback_during_the_search_is_answered_with_a_fresh_search() -> None:
    async def play() -> None:
        computer = GatedComputer()
        table, me, _ = await computer_table(computer)
        await table.apply(PlayMove("b2"), me)
        await run_loop(3)
        assert len(computer.searches) == 1
        await table.apply(AskTakeback(), me)  # undone at once against the computer
        await table.apply(PlayMove("a1"), me)
        await computer.finish()  # the first search ends: its move is for a position now gone
        await run_loop(10)
        assert table.record.moves == ("a1",)
        assert len(computer.searches) == 2 and computer.searches[1][0].moves == ("a1",)
        await computer.finish()
        await table.wait_for_computer()
        assert len(table.record.moves) == 2 and table.game.turn == table.mark_of(me)

    asyncio.run(play())


def test_a_storage_fault_during_the_computers_save_is_retried_until_storage_is_back() -> None:
    async def play() -> None:
        computer = GatedComputer()
        table, me, _ = await computer_table(computer)
        waits: list[float] = []
        back = asyncio.Event()

        async def wait(seconds: float) -> None:
            waits.append(seconds)
            if len(waits) == 3:
                back.set()
            await asyncio.sleep(0)

        table.side_jobs._sleep = wait
        storage: FlakyStorage = table._storage  # type: ignore[assignment]
        await table.apply(PlayMove("b2"), me)
        storage.down = True
        await run_loop(3)
        await computer.finish()
        await back.wait()
        assert table.record.moves == ("b2",)  # nothing stored while down
        storage.down = False
        await table.wait_for_computer()
        assert len(table.record.moves) == 2
        assert storage._tables[table.id].moves == table.record.moves
        assert waits == sorted(waits) and waits[0] < waits[-1]  # it backs off

    asyncio.run(play())


def test_a_draw_offer_is_judged_once_however_many_commands_follow() -> None:
    async def play() -> None:
        computer = GatedComputer()
        table, me, _ = await computer_table(computer)
        await table.apply(PlayMove("b2"), me)
        await computer.finish()
        await table.wait_for_computer()
        await table.apply(OfferDraw(), me)
        for index in range(20):
            await table.apply(SetName(f"Ana {index}"), me)
        await run_loop(5)
        assert len(computer.judgements) == 1
        await computer.finish(accept_draw=False)
        await run_loop(10)
        assert table.record.draw_offer is None and table.record.result is None
        assert len(computer.judgements) == 1

    asyncio.run(play())


def test_closing_the_table_cancels_its_jobs() -> None:
    async def play() -> None:
        computer = GatedComputer()
        table, me, _ = await computer_table(computer, clock_minutes=1)
        await table.apply(PlayMove("b2"), me)
        await run_loop(3)
        assert table.side_jobs.busy
        table.close()
        await run_loop(3)
        assert not table.side_jobs.busy
        assert table.side_jobs._flag_timer is None

    asyncio.run(play())


def test_a_failing_subscriber_neither_fails_a_stored_move_nor_stops_the_computer() -> None:
    async def play() -> None:
        computer = GatedComputer()
        table, me, _ = await computer_table(computer)

        def broken(_: str) -> None:
            raise RuntimeError("a subscriber that fails")

        later: list[str] = []
        await table._pubsub.subscribe(channel_of(table.id), broken)
        await table._pubsub.subscribe(channel_of(table.id), later.append)
        await table.apply(PlayMove("b2"), me)  # no exception: the move is stored
        assert later and table._storage._tables[table.id].moves == ("b2",)  # type: ignore[attr-defined]
        await run_loop(3)
        assert len(computer.searches) == 1

    asyncio.run(play())


def test_the_computers_move_shows_no_sooner_than_its_least_think_time() -> None:
    async def play() -> None:
        clock, computer = TestClock(), GatedComputer()
        settings = Settings(database_url="memory://", computer_least_think_seconds=0.6)
        tables = Tables(MemoryStorage(), MemoryPubSub(), settings, clock=clock, sleep=clock.sleep)
        tables.computer = computer  # type: ignore[assignment]
        created = await tables.create(
            TableOptions(variant="standard", opponent="computer", first="friend"), None
        )
        table, me = created.table, hash_secret(created.token)
        await computer.finish()  # the computer moves first, and finds its move at once
        await run_loop(20)
        clock.advance(0.5)
        await run_loop(20)
        assert table.record.moves == ()  # 0.5 s into its turn: still thinking, to all eyes
        clock.advance(0.1)
        await table.wait_for_computer()
        assert len(table.record.moves) == 1
        clock.advance(30)  # the person's long think counts for nothing: the turn starts anew
        await table.apply(PlayMove(table.game.legal_moves()[0]), me)
        await computer.finish()
        await run_loop(20)
        assert len(table.record.moves) == 2
        clock.advance(0.6)
        await table.wait_for_computer()
        assert len(table.record.moves) == 3 and table.game.turn == table.mark_of(me)
        table.close()

    asyncio.run(play())


def test_on_a_running_clock_the_visible_think_takes_at_most_a_tenth_of_the_time_left() -> None:
    assert visible_wait(0.6, turn_since=100.0, now=100.1, left=None) == pytest.approx(0.5)
    assert visible_wait(0.6, turn_since=100.0, now=101.0, left=None) == 0.0
    assert visible_wait(0.6, turn_since=100.0, now=100.0, left=3.0) == pytest.approx(0.3)
    assert visible_wait(0.0, turn_since=100.0, now=100.0, left=3.0) == 0.0


class MidSaveFault:
    """Cuts a real SQLite save in the middle: after its UPDATE went through, the move's INSERT is
    interrupted (an `OperationalError`, as a disk or lock fault gives), while `down`."""

    def __init__(self) -> None:
        self.down = False
        self.cuts = 0

    def attach(self, connection: sqlite3.Connection) -> None:
        statement = [""]

        def traced(sql: str) -> None:
            statement[0] = sql

        def progress() -> int:
            if self.down and statement[0].lstrip().upper().startswith("INSERT INTO MOVES"):
                self.cuts += 1
                return 1  # interrupts the statement
            return 0

        connection.set_trace_callback(traced)
        connection.set_progress_handler(progress, 1)


def test_a_fault_in_the_middle_of_the_computers_save_on_sqlite_is_retried_until_it_is_back(
    tmp_path: Path,
) -> None:
    async def play() -> None:
        storage = SQLStorage(f"sqlite:///{tmp_path / 'tables.db'}")
        await storage.start()
        fault = MidSaveFault()
        writer = storage._move_writer
        assert writer is not None
        fault.attach(writer._now)
        fault.attach(writer._waiting)
        settings = Settings(database_url="sqlite://", computer_least_think_seconds=0)
        tables = Tables(storage, MemoryPubSub(), settings)
        computer = GatedComputer()
        tables.computer = computer  # type: ignore[assignment]
        waits: list[float] = []

        async def wait(seconds: float) -> None:
            waits.append(seconds)
            await asyncio.sleep(0)

        created = await tables.create(
            TableOptions(variant="standard", opponent="computer", takebacks=True), None
        )
        table, me = created.table, hash_secret(created.token)
        table.side_jobs._sleep = wait
        await table.apply(PlayMove("b2"), me)
        fault.down = True
        await computer.finish()
        for _ in range(5000):  # refused with 503 (nothing changed), retried, refused again...
            if len(waits) >= 5:
                break
            await asyncio.sleep(0.001)
        assert len(waits) >= 5, "the computer gave up after a storage fault"
        stored = await storage.load(table.id)
        assert stored is not None and stored.moves == ("b2",) and fault.cuts >= 5
        assert stored.version == table.record.version  # the half-done save was rolled back
        fault.down = False
        await table.wait_for_computer()
        stored = await storage.load(table.id)
        assert stored is not None and len(stored.moves) == 2 == len(table.record.moves)
        assert table.game.turn == table.mark_of(me)
        assert waits == sorted(waits) and waits[0] < waits[-1]  # it backs off
        table.close()
        await storage.close()

    asyncio.run(play())
