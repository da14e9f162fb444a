"""PostgreSQL beyond the shared storage suite: processes migrating at once, and a database that is
unreachable or restarts under a running store."""

from __future__ import annotations

import asyncio
import subprocess
import sys

import pytest
from alembic.script import ScriptDirectory
from tests.scaleout.services import PostgresCluster, free_port
from tests.server.records import a_table, moved

from tictactoe.server.storage import StorageUnavailableError
from tictactoe.server.storage.migrate import alembic_config
from tictactoe.server.storage.sql import SQLStorage


async def test_processes_starting_together_migrate_once(postgres_url: str) -> None:
    stores = [SQLStorage(postgres_url) for _ in range(4)]
    await asyncio.gather(*(store.start() for store in stores))
    try:
        await stores[0].create(a_table("SharedTableSharedTable1"))
        assert (await stores[3].load("SharedTableSharedTable1")) is not None
    finally:
        await asyncio.gather(*(store.close() for store in stores))


async def test_unreachable_database_raises_storage_unavailable() -> None:
    store = SQLStorage(f"postgresql://postgres@127.0.0.1:{free_port()}/nowhere")
    with pytest.raises(StorageUnavailableError):
        await store.start()
    await store.close()


async def test_store_fails_clearly_while_the_database_is_down_and_recovers_after(
    private_postgres: PostgresCluster,
) -> None:
    store = SQLStorage(private_postgres.url())
    await store.start()
    try:
        table = a_table("RestartTableRestartTab1")
        await store.create(table)
        private_postgres.stop()
        after, move = moved(table, "b2")
        with pytest.raises(StorageUnavailableError):
            await store.save(after, expected_version=1, move=move)
        with pytest.raises(StorageUnavailableError):
            await store.load(table.id)
        private_postgres.start()
        # Nothing of the failed save was written, and the pool's dead connections are replaced.
        assert await store.load(table.id) == table
        await store.save(after, expected_version=1, move=move)
        assert await store.moves(table.id) == [move]
    finally:
        await store.close()


def test_serve_migrate_only_brings_an_empty_database_to_the_head_revision(
    postgres: PostgresCluster,
) -> None:
    url = postgres.new_database()
    command = [sys.executable, "-m", "tictactoe.cli", "serve", "--migrate-only", "--database", url]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 0, done.stdout + done.stderr
    database = url.rsplit("/", 1)[1]
    head = ScriptDirectory.from_config(alembic_config()).get_current_head()
    assert postgres.sql("SELECT version_num FROM alembic_version", database).strip() == head
    assert postgres.sql("SELECT count(*) FROM tables", database).strip() == "0"
