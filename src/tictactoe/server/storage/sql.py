"""Tables in an SQL database through SQLAlchemy 2: SQLite, or PostgreSQL (asyncpg), with the same
schema, the same statements and the same migrations.

Each save is one short transaction: `UPDATE tables ... WHERE id = ? AND version = ?` and the move
insert; zero rows updated means another writer got there first, and the transaction rolls back.
What a save writes is described once (`writes.TableWrite`) and carried out by one of the save
paths (`SAVE_PATHS`).
A database that cannot be reached raises `StorageUnavailableError` (the server answers 503).

Every other operation is written once, as a function of a SQLAlchemy `Connection`. PostgreSQL runs
it on the async engine (`run_sync`). SQLite runs it through the synchronous engine in a thread:
writes in one writer thread (so this process never contends with itself for the write lock), reads
in a few others. Nothing waits on the event loop: a statement waiting for a lock another process
holds (up to the busy timeout) or for a slow disk then holds up only what needs it, not every table
(issue 13: a locked file froze the whole server for 5 s). The one exception is the hot write, a
table's save (`SQLiteMoveWriter`): it is tried on the loop with `busy_timeout=0`, which never
waits, and goes to the writer thread only when the lock is held; under load the two thread hops
and GIL hand-offs of every save cost more than the save itself (bench/server.py: p50 25.6 ms
against ~1 ms). aiosqlite was slower still (4.7 ms p50 and 35 ms p99 a save on the team box).
The saves of tables that move in the same instant share one transaction (`GroupCommit`).
"""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from types import SimpleNamespace
from typing import Any, Literal, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from tictactoe.server.storage import (
    DuplicateTableError,
    GameRecord,
    MoveRecord,
    StaleVersionError,
    StorageUnavailableError,
    TableRecord,
    TakenBack,
    statements,
    writes,
)
from tictactoe.server.storage.group_commit import GroupCommit
from tictactoe.server.storage.migrate import upgrade_to_head
from tictactoe.server.storage.postgres import PostgresHotPath
from tictactoe.server.storage.rows import record_from_row
from tictactoe.server.storage.sqlite import (
    SQLiteMoveWriter,
    WALCheckpointer,
    damaged,
    first_line,
    set_sqlite_pragmas,
)
from tictactoe.server.storage.writes import TableWrite, table_write

# The ways a save reaches the database (each carries out the same `writes.TableWrite`): on
# SQLite, the sqlite3 driver on the event loop, the saves of an instant in one transaction, when
# the write lock is free (else on the writer thread: the default for a file), or always on the
# writer thread, or SQLAlchemy on the writer thread (the default in memory); on PostgreSQL,
# asyncpg as one statement (the default), or SQLAlchemy. The shared storage suite runs each.
SavePath = Literal["sqlite-loop", "sqlite-writer-thread", "sqlalchemy", "asyncpg"]
SAVE_PATHS: dict[str, tuple[SavePath, ...]] = {
    "sqlite": ("sqlite-loop", "sqlite-writer-thread", "sqlalchemy"),
    "postgresql": ("asyncpg", "sqlalchemy"),
}

T = TypeVar("T")
# SQLite work runs in threads, never on the event loop: a statement waiting for a lock (or a slow
# disk) then holds up only the requests that need that statement, not the whole process.
_SQLITE_THREADS = 4

# PostgreSQL connections per process: the hot path's pool and the engine's.
_CONNECTIONS = 20
_ENGINE_CONNECTIONS = 4


def async_database_url(database_url: str) -> str:
    """The SQLAlchemy async-driver URL for a plain database URL.

    >>> async_database_url("sqlite:///data/t.db")
    'sqlite+aiosqlite:///data/t.db'
    >>> async_database_url("postgresql://me@db:5432/ttt")
    'postgresql+asyncpg://me@db:5432/ttt'
    """
    url = make_url(database_url)
    driver = {"sqlite": "sqlite+aiosqlite", "postgresql": "postgresql+asyncpg"}.get(
        url.drivername, url.drivername
    )
    return url.set(drivername=driver).render_as_string(hide_password=False)


# Any lock id will do, as long as every process migrating this schema uses the same one.
_MIGRATION_LOCK = 0x7474_7431


def _unavailable(error: BaseException) -> StorageUnavailableError | None:
    """The `StorageUnavailableError` for "the database is not there" (refused, restarting,
    connection dropped, pool exhausted, SQLite locked too long), or None for any other error."""
    if isinstance(error, IntegrityError):
        return None
    if damaged(error):
        return StorageUnavailableError(f"the database file cannot be read ({first_line(error)})")
    if isinstance(
        error, TimeoutError | OperationalError | InterfaceError | PoolTimeoutError | OSError
    ):
        return StorageUnavailableError(
            str(error).splitlines()[0] if str(error) else type(error).__name__
        )
    if isinstance(error, DBAPIError) and (
        error.connection_invalidated or "connection" in str(error).lower()
    ):
        return StorageUnavailableError(str(error).splitlines()[0])
    return None


@asynccontextmanager
async def _unavailable_on_failure() -> AsyncIterator[None]:
    """Raises `_unavailable` errors as `StorageUnavailableError`; the transaction, if any, was
    rolled back or never reached the database."""
    try:
        yield
    except Exception as error:
        unavailable = _unavailable(error)
        if unavailable is None:
            raise
        raise unavailable from error


@contextmanager
def _unavailable_on_failure_inline() -> Iterator[None]:
    """`_unavailable_on_failure` for the synchronous (SQLite) engine."""
    try:
        yield
    except Exception as error:
        unavailable = _unavailable(error)
        if unavailable is None:
            raise
        raise unavailable from error


def _ping(connection: Connection) -> None:
    connection.execute(sa.select(sa.literal(1))).first()
    connection.execute(sa.text("SELECT count(*) FROM tables WHERE id = ''")).first()


def _migrate(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Processes starting together would race to create the tables: the first to take this
        # lock migrates, the others wait and then find nothing left to do.
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    upgrade_to_head(connection)


class SQLStorage:
    """`Storage` in SQLite (`sqlite:///path`) or PostgreSQL (`postgresql://...`); `save_path`
    (tests, measurements) picks how saves are written, else the fastest for the database."""

    def __init__(self, database_url: str, save_path: SavePath | None = None) -> None:
        self.database_url = database_url
        backend = make_url(database_url).get_backend_name()
        if save_path is not None and save_path not in SAVE_PATHS.get(backend, ()):
            raise ValueError(f"{backend} has no save path {save_path!r}")
        self._save_path = save_path
        self._inline_engine: Engine | None = None  # SQLite: run in `_sqlite_threads`
        self._async_engine: AsyncEngine | None = None  # PostgreSQL
        self._checkpointer: WALCheckpointer | None = None
        self._move_writer: SQLiteMoveWriter | None = None
        self._hot_path: PostgresHotPath | None = None  # PostgreSQL: saves and loads on asyncpg
        self._sqlite_threads: ThreadPoolExecutor | None = None
        self._writer_thread: ThreadPoolExecutor | None = None  # the move writer's connection
        self._group_commit: GroupCommit | None = None  # SQLite: the saves of an instant together

    @property
    def engine(self) -> Engine | AsyncEngine:
        engine = self._inline_engine or self._async_engine
        if engine is None:
            raise RuntimeError("SQLStorage.start() has not been called")
        return engine

    async def start(self) -> None:
        url = make_url(self.database_url)
        if url.get_backend_name() == "sqlite":
            if url.database and url.database != ":memory:":
                Path(url.database).parent.mkdir(parents=True, exist_ok=True)
            engine = sa.create_engine(url.set(drivername="sqlite"))
            event.listen(engine, "connect", set_sqlite_pragmas)
            self._inline_engine = engine
            self._writer_thread = ThreadPoolExecutor(1, "sqlite-writer")
            # An in-memory database lives in one connection, hence one thread.
            in_memory = not url.database or url.database == ":memory:"
            self._sqlite_threads = (
                self._writer_thread if in_memory else ThreadPoolExecutor(_SQLITE_THREADS, "sqlite")
            )
            if url.database and url.database != ":memory:":
                self._checkpointer = WALCheckpointer(url.database)
                if self._save_path != "sqlalchemy":
                    self._move_writer = writer = SQLiteMoveWriter(url.database)
                    if self._save_path != "sqlite-writer-thread":
                        self._group_commit = GroupCommit(writer.save_many_now, self._save_waiting)
        else:
            # pre_ping: after the database restarts, pooled connections are dead; test each one
            # as it is checked out rather than failing the first request on each.
            # pool_timeout: a request waiting longer than this for a connection gets a 503.
            # No overflow: connections opened for a burst and closed after it cost far more than
            # waiting (measured: ~40% of a process's time under load went to opening them).
            # The saves and loads of tables (nearly every query) go straight to asyncpg on a
            # pool of their own (`PostgresHotPath`); the engine keeps a few connections for the
            # rest, so that a process still holds 20 in all.
            self._async_engine = create_async_engine(
                async_database_url(self.database_url),
                pool_pre_ping=True,
                pool_size=_ENGINE_CONNECTIONS,
                max_overflow=0,
                pool_timeout=10,
            )
            if self._save_path != "sqlalchemy":
                self._hot_path = PostgresHotPath(
                    self.database_url, size=_CONNECTIONS - _ENGINE_CONNECTIONS, wait_seconds=10
                )
        await self._transaction(_migrate, writes=True)
        if self._hot_path is not None:
            try:
                await self._hot_path.start()
            except Exception as error:
                unavailable = _unavailable(error)
                if unavailable is None:
                    raise
                raise unavailable from error
        if self._checkpointer is not None:
            self._checkpointer.start()

    async def close(self) -> None:
        if self._hot_path is not None:
            await self._hot_path.close()
            self._hot_path = None
        if self._move_writer is not None:
            # On the writer's own thread, after the saves queued there: a save still running
            # when its connection closes under it crashes the process (seen in CI: SIGSEGV).
            writer, self._move_writer = self._move_writer, None
            self._group_commit = None
            writer.close_now()
            await asyncio.get_running_loop().run_in_executor(self._writer_thread, writer.close)
        if self._checkpointer is not None:
            await self._checkpointer.stop()
            self._checkpointer = None
        if self._inline_engine is not None:
            self._inline_engine.dispose()
            self._inline_engine = None
        for threads in {self._sqlite_threads, self._writer_thread}:
            if threads is not None:
                threads.shutdown(wait=True)
        self._sqlite_threads = self._writer_thread = None
        if self._async_engine is not None:
            await self._async_engine.dispose()
            self._async_engine = None

    async def _transaction(self, work: Callable[..., T], *args: Any, writes: bool = False) -> T:
        """Runs `work(connection, *args)` in one transaction, committed if it returns."""
        if self._inline_engine is not None:
            engine = self._inline_engine
            threads = self._writer_thread if writes else self._sqlite_threads

            def in_a_thread() -> T:
                with _unavailable_on_failure_inline(), engine.begin() as connection:
                    return work(connection, *args)

            return await asyncio.get_running_loop().run_in_executor(threads, in_a_thread)
        if self._async_engine is not None:
            async with _unavailable_on_failure(), self._async_engine.begin() as connection:
                return await connection.run_sync(work, *args)
        raise RuntimeError("SQLStorage.start() has not been called")

    async def create(self, table: TableRecord) -> None:
        try:
            await self._transaction(statements.create, table, writes=True)
        except IntegrityError as error:
            raise DuplicateTableError(table.id) from error

    async def load(self, table_id: str) -> TableRecord | None:
        if self._hot_path is not None:
            row = await self._hot_path.load(table_id)
            return None if row is None else record_from_row(SimpleNamespace(**row))
        return await self._transaction(statements.load, table_id)

    async def save(
        self,
        table: TableRecord,
        expected_version: int,
        move: MoveRecord | None = None,
        taken_back: TakenBack | None = None,
        previous: TableRecord | None = None,
    ) -> None:
        write = table_write(table, expected_version, move, taken_back, previous)
        if self._group_commit is not None:
            await self._group_commit.save(write)
        elif self._move_writer is not None:
            await self._save_waiting(write)
        elif self._hot_path is not None:
            await self._hot_path.save(write)
        else:
            try:
                await self._transaction(writes.save, write, writes=True)
            except IntegrityError as error:
                raise StaleVersionError(table.id) from error

    async def _save_waiting(self, request: TableWrite) -> None:
        """A save that met the write lock held (another process, or this one's writer thread):
        it waits for the lock on the writer's thread, not on the event loop."""
        if self._move_writer is None:
            raise StorageUnavailableError("the storage is closed")
        writer = self._move_writer
        await asyncio.get_running_loop().run_in_executor(self._writer_thread, writer.save, request)

    async def find_table_by_token_hash(self, token_hash: str) -> str | None:
        return await self._transaction(statements.find_table_by_token_hash, token_hash)

    async def ping(self) -> None:
        """Raises `StorageUnavailableError` unless the database can be read and (SQLite, where
        another process may hold the file's write lock) written now."""
        await self._transaction(_ping)
        if self._move_writer is not None:
            await asyncio.get_running_loop().run_in_executor(
                self._writer_thread, self._move_writer.ping
            )

    async def find_table_by_code(self, code: str) -> str | None:
        return await self._transaction(statements.find_table_by_code, code)

    async def open_tables(self, limit: int) -> list[TableRecord]:
        return await self._transaction(statements.open_tables, limit)

    async def moves(self, table_id: str) -> list[MoveRecord]:
        return await self._transaction(statements.moves_of, table_id)

    async def games(self, table_id: str) -> list[GameRecord]:
        return await self._transaction(statements.games_of, table_id)

    async def games_of_client(self, client_hash: str, limit: int) -> list[GameRecord]:
        return await self._transaction(statements.games_of_client, client_hash, limit)

    async def tables_of_client(self, client_hash: str, limit: int) -> list[TableRecord]:
        return await self._transaction(statements.tables_of_client, client_hash, limit)
