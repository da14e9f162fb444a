"""Group commit on SQLite: the saves of many tables in one instant share one transaction, each
still acknowledged only once that transaction is committed; a stale or cancelled save takes no
other down; a save that meets the write lock held elsewhere waits for it off the loop."""

from __future__ import annotations

import asyncio
import sqlite3
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from tests.server.records import a_table, moved

from tictactoe.server.storage import StaleVersionError, StorageUnavailableError, TableRecord
from tictactoe.server.storage.group_commit import GroupCommit
from tictactoe.server.storage.sql import SQLStorage
from tictactoe.server.storage.sqlite import SQLiteMoveWriter
from tictactoe.server.storage.writes import TableWrite, table_write


@pytest.fixture
async def storage(tmp_path: Path) -> AsyncIterator[SQLStorage]:
    store = SQLStorage(f"sqlite:///{tmp_path / 'tables.db'}")
    await store.start()
    yield store
    await store.close()


async def some_tables(storage: SQLStorage, count: int) -> list[TableRecord]:
    tables = [a_table(f"TableIdTableIdTable{number:04d}") for number in range(count)]
    for table in tables:
        await storage.create(table)
    return tables


def a_move(table: TableRecord, cell: str) -> TableWrite:
    after, move = moved(table, cell)
    return table_write(after, table.version, move, previous=table)


class CountedWriter:
    """The real writer of the database, counting the transactions its batches made."""

    def __init__(self, path: Path) -> None:
        self.writer = SQLiteMoveWriter(str(path))
        self.batches: list[int] = []

    def commit_now(self, saves: list[TableWrite]) -> list[StaleVersionError | None] | None:
        self.batches.append(len(saves))
        return self.writer.save_many_now(saves)

    async def commit_waiting(self, save: TableWrite) -> None:
        await asyncio.to_thread(self.writer.save, save)


async def test_saves_in_one_instant_share_one_commit_and_all_land(
    storage: SQLStorage, tmp_path: Path
) -> None:
    tables = await some_tables(storage, 40)
    counted = CountedWriter(tmp_path / "tables.db")
    group = GroupCommit(counted.commit_now, counted.commit_waiting)
    played = [moved(table, "e5") for table in tables]
    saves = [
        table_write(after, 1, move, previous=table)
        for table, (after, move) in zip(tables, played, strict=True)
    ]
    await asyncio.gather(*map(group.save, saves))
    assert counted.batches == [40]
    for after, move in played:
        assert await storage.load(after.id) == after
        assert await storage.moves(after.id) == [move]


async def test_a_stale_save_in_a_batch_fails_alone(storage: SQLStorage, tmp_path: Path) -> None:
    first, second, third = await some_tables(storage, 3)
    counted = CountedWriter(tmp_path / "tables.db")
    group = GroupCommit(counted.commit_now, counted.commit_waiting)
    stale, stale_move = moved(second, "a1")
    outcomes = await asyncio.gather(
        group.save(a_move(first, "e5")),
        group.save(table_write(stale, 7, stale_move)),  # the stored version is 1
        group.save(a_move(third, "i9")),
        return_exceptions=True,
    )
    assert outcomes[0] is None and outcomes[2] is None
    assert isinstance(outcomes[1], StaleVersionError)
    assert counted.batches == [3]
    assert await storage.load(second.id) == second
    assert await storage.moves(second.id) == []
    assert [move.move for move in await storage.moves(third.id)] == ["i9"]


async def test_a_save_cancelled_before_its_batch_is_not_written(
    storage: SQLStorage, tmp_path: Path
) -> None:
    kept, dropped = await some_tables(storage, 2)
    counted = CountedWriter(tmp_path / "tables.db")
    group = GroupCommit(counted.commit_now, counted.commit_waiting)
    cancelled = asyncio.ensure_future(group.save(a_move(dropped, "e5")))
    await asyncio.sleep(0)  # queued, not yet written
    cancelled.cancel()
    await group.save(a_move(kept, "e5"))
    assert counted.batches == [1]
    assert await storage.load(dropped.id) == dropped
    assert [move.move for move in await storage.moves(kept.id)] == ["e5"]


async def test_saves_that_meet_the_lock_held_elsewhere_wait_for_it(
    storage: SQLStorage, tmp_path: Path
) -> None:
    tables = await some_tables(storage, 5)
    other_process = sqlite3.connect(tmp_path / "tables.db", isolation_level=None)
    other_process.execute("BEGIN IMMEDIATE")
    played = [moved(table, "e5") for table in tables]
    saving = asyncio.ensure_future(
        asyncio.gather(*(storage.save(after, 1, move) for after, move in played))
    )
    for _ in range(3):  # the batch meets the lock and its saves go to the writer's thread
        await asyncio.sleep(0)
    assert not saving.done()
    other_process.execute("COMMIT")
    other_process.close()
    await saving
    for table in tables:
        assert [move.move for move in await storage.moves(table.id)] == ["e5"]


async def test_a_batch_the_database_fails_writes_nothing_and_tells_each_save(
    storage: SQLStorage, tmp_path: Path
) -> None:
    tables = await some_tables(storage, 3)
    counted = CountedWriter(tmp_path / "tables.db")
    group = GroupCommit(counted.commit_now, counted.commit_waiting)
    # The moves' table gone (a database broken underneath the server): every insert fails.
    other_process = sqlite3.connect(tmp_path / "tables.db", isolation_level=None)
    other_process.execute("DROP TABLE moves")
    other_process.close()
    outcomes = await asyncio.gather(
        *(group.save(a_move(table, "e5")) for table in tables), return_exceptions=True
    )
    assert counted.batches == [3]
    assert all(isinstance(outcome, StorageUnavailableError) for outcome in outcomes)
    assert len({id(outcome) for outcome in outcomes}) == 3  # an error of its own each
    for table in tables:
        assert await storage.load(table.id) == table  # the batch rolled back as one
