"""SQLite specifics: the connection's pragmas, WAL checkpoints in a thread, and the hot write (a
table's save) straight on the sqlite3 driver."""

from __future__ import annotations

import asyncio
import contextlib
import functools
import logging
import sqlite3
from typing import Any

import sqlalchemy as sa
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect

from tictactoe.server.storage import StaleVersionError, StorageUnavailableError
from tictactoe.server.storage.writes import TableWrite, steps

log = logging.getLogger(__name__)


# How long an SQLite statement waits for a lock another connection holds before the database
# counts as unreachable (503, nothing written).
SQLITE_BUSY_TIMEOUT_MS = 1000

# The page cache of the connection that writes moves on the event loop (SQLite's default is
# 2 MiB). At 9 980 tables a move's update and insert touch pages all over the tables and the
# moves' index: with 2 MiB most were read back from the file at every move, and a slow commit
# made the next batch larger (bench/server.py, quiet box, same run: p50 6.77 ms and p99 729 ms
# with 2 MiB, 2.33 ms and 30 ms with 8 MiB). A fixed 8 MiB: 0.8 KiB a table at 10 000.
LOOP_CACHE_KIB = 8192


def damaged(error: BaseException) -> bool:
    """SQLite's "file is not a database" or "database disk image is malformed": exactly its
    DatabaseError (its subclasses are programming and integrity errors, which stay errors)."""
    original = getattr(error, "orig", None) or error
    return type(original) is sqlite3.DatabaseError


def first_line(error: BaseException) -> str:
    original = getattr(error, "orig", None) or error
    return str(original).splitlines()[0] if str(original) else type(original).__name__


def set_sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    # WAL: readers never block the writer, and a committed move survives the process being
    # killed; synchronous=NORMAL is durable against process death (not power loss) and keeps
    # each commit cheap. busy_timeout: wait a little for another process's write instead of
    # failing, but not so long that a lock held elsewhere holds up every table's writes.
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute(f"PRAGMA busy_timeout={SQLITE_BUSY_TIMEOUT_MS}")
    cursor.execute("PRAGMA foreign_keys=ON")
    # Checkpoints (copying the WAL into the database, with an fsync) would run inside whichever
    # commit crosses the threshold, i.e. on the event loop, stalling it for as long as the disk
    # takes (hundreds of ms on a busy machine): `WALCheckpointer` runs them in a thread instead.
    cursor.execute("PRAGMA wal_autocheckpoint=0")
    cursor.close()


class WALCheckpointer:
    """Checkpoints an SQLite database's WAL every `interval` seconds from a worker thread, on a
    connection of its own (sqlite3 releases the GIL while it copies pages and syncs)."""

    def __init__(self, path: str, interval: float = 1.0) -> None:
        self.path = path
        self.interval = interval
        self._task: asyncio.Task[None] | None = None

    def start(self) -> None:
        self._task = asyncio.ensure_future(self._run())

    async def _run(self) -> None:
        while True:
            await asyncio.sleep(self.interval)
            try:
                await asyncio.to_thread(self.checkpoint, "PASSIVE")
            except sqlite3.Error as error:  # e.g. busy: the next round will do
                log.warning("WAL checkpoint failed: %s", error)

    def checkpoint(self, mode: str) -> None:
        connection = sqlite3.connect(self.path, timeout=5)
        try:
            connection.execute(f"PRAGMA wal_checkpoint({mode})")
        finally:
            connection.close()

    async def stop(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
            self._task = None
        # Leave a compact database behind: everything copied in, the WAL emptied.
        with contextlib.suppress(sqlite3.Error):
            await asyncio.to_thread(self.checkpoint, "TRUNCATE")


_NAMED_SQLITE = sqlite_dialect(paramstyle="named")  # type: ignore[no-untyped-call]


@functools.lru_cache(maxsize=512)
def sqlite_sql(statement: sa.UpdateBase, keys: tuple[str, ...] | None) -> str:
    """A statement of `writes.steps` as the sqlite3 driver takes it (an insert, for the columns
    `keys`), compiled once."""
    return str(statement.compile(dialect=_NAMED_SQLITE, column_keys=keys))


class SQLiteMoveWriter:
    """The hot write, a table's save (`writes.TableWrite`), straight on the sqlite3 driver: the
    same statements as every other path, compiled once; the engine's per-statement machinery
    cost ~0.5 ms a move, more than the SQL itself (measured with bench/server.py).

    Two connections. `save_many_now` runs on the event loop and never waits: it takes the write
    lock only if it is free at once (a WAL commit without fsync is ~0.05 ms), and says so when it
    is not; it commits the saves of many tables at once (`group_commit.GroupCommit`). `save` is
    one save on the storage's writer thread, waiting for the lock up to the busy timeout: only
    saves that met a held lock go there, so a lock another process holds stalls those writes
    and nothing else (issue 13), while a move does not pay for two thread hops and the GIL
    hand-offs between them (25.6 ms p50 under bench/server.py's load, against ~1 ms inline)."""

    def __init__(self, path: str) -> None:
        # Autocommit mode: the transaction is spelled out below.
        self._now = sqlite3.connect(path, isolation_level=None)  # the event loop's
        set_sqlite_pragmas(self._now, None)
        self._now.execute("PRAGMA busy_timeout=0")
        self._now.execute(f"PRAGMA cache_size=-{LOOP_CACHE_KIB}")
        # Used from one thread at a time (the storage's writer thread), not the one that opened it.
        self._waiting = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        set_sqlite_pragmas(self._waiting, None)

    def save(self, save: TableWrite) -> None:
        """Saves, waiting for the write lock up to the busy timeout (on the writer thread)."""
        self._write(self._waiting, save)

    def save_many_now(self, saves: list[TableWrite]) -> list[StaleVersionError | None] | None:
        """The saves in one transaction, each in a savepoint of its own (a stale one writes
        nothing and takes no other down): one commit, and one write of each page the saves share,
        instead of one each. None (nothing written) if the write lock is not free at once; each
        save's outcome otherwise (None: written), known only once the whole batch is committed;
        `StorageUnavailableError` (nothing written) if the transaction fails."""
        if not self._begin_now():
            return None
        connection = self._now
        outcomes: list[StaleVersionError | None] = []
        alone = len(saves) == 1  # the usual case: a save alone needs no savepoint
        try:
            for save in saves:
                if not alone:
                    connection.execute("SAVEPOINT one_save")
                try:
                    self._statements(connection, save)
                except (StaleVersionError, sqlite3.IntegrityError):
                    connection.execute("ROLLBACK" if alone else "ROLLBACK TO one_save")
                    outcomes.append(StaleVersionError(save.table_id))
                else:
                    outcomes.append(None)
                if not alone:
                    connection.execute("RELEASE one_save")
            if connection.in_transaction:
                connection.execute("COMMIT")
        except BaseException as error:
            self._undo(connection, error, saves[0].table_id)
            raise
        return outcomes

    def _begin_now(self) -> bool:
        """Begins a write transaction on the event loop's connection if the lock is free now."""
        try:
            self._now.execute("BEGIN IMMEDIATE")
        except sqlite3.OperationalError as error:
            # The primary code: SQLite reports extended ones (SQLITE_BUSY_RECOVERY is 5 | 1 << 8).
            if (error.sqlite_errorcode & 0xFF) in (sqlite3.SQLITE_BUSY, sqlite3.SQLITE_LOCKED):
                return False
            raise StorageUnavailableError(first_line(error)) from error
        except sqlite3.DatabaseError as error:
            if damaged(error):
                raise StorageUnavailableError(first_line(error)) from error
            raise
        return True

    def _write(self, connection: sqlite3.Connection, save: TableWrite) -> None:
        try:
            connection.execute("BEGIN IMMEDIATE")
            self._statements(connection, save)
            connection.execute("COMMIT")
        except BaseException as error:
            self._undo(connection, error, save.table_id)
            raise

    @staticmethod
    def _undo(connection: sqlite3.Connection, error: BaseException, table_id: str) -> None:
        """Rolls back what `error` interrupted, and raises it as the storage's error if it is one
        (a failed version check as stale, a database that fails as unavailable)."""
        if connection.in_transaction:
            connection.execute("ROLLBACK")
        if isinstance(error, sqlite3.IntegrityError):
            raise StaleVersionError(table_id) from error
        if isinstance(error, sqlite3.OperationalError) or damaged(error):
            raise StorageUnavailableError(first_line(error)) from error

    @staticmethod
    def _statements(connection: sqlite3.Connection, write: TableWrite) -> None:
        """One save's statements (`writes.steps`), inside a transaction (`StaleVersionError` if
        the stored version is not the expected one)."""
        for number, (statement, parameters) in enumerate(steps(write, "sqlite")):
            if isinstance(parameters, list):
                connection.executemany(sqlite_sql(statement, tuple(parameters[0])), parameters)
                continue
            keys = tuple(parameters) if isinstance(statement, sa.Insert) else None
            cursor = connection.execute(sqlite_sql(statement, keys), parameters)
            if number == 0 and cursor.rowcount != 1:
                raise StaleVersionError(write.table_id)

    def ping(self) -> None:
        """Takes the write lock and lets it go (on the writer thread's connection): raises
        `StorageUnavailableError` when another connection holds it longer than the busy timeout,
        or the file cannot be read."""
        connection = self._waiting
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            connection.execute("ROLLBACK")
        except sqlite3.DatabaseError as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise StorageUnavailableError(first_line(error)) from error

    def close_now(self) -> None:
        """Closes the event loop's connection (call on the loop)."""
        self._now.close()

    def close(self) -> None:
        """Closes the writer thread's connection (call on that thread)."""
        self._waiting.close()
