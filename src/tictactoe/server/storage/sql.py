"""Tables in an SQL database through SQLAlchemy 2: SQLite, or PostgreSQL (asyncpg), with the same
schema, the same statements and the same migrations.

Each save is one short transaction: `UPDATE tables ... WHERE id = ? AND version = ?` and the move
insert; zero rows updated means another writer got there first, and the transaction rolls back.
A database that cannot be reached raises `StorageUnavailableError` (the server answers 503).

Every operation is written once, as a function of a SQLAlchemy `Connection`. PostgreSQL runs it on
the async engine (`run_sync`). SQLite runs it through the synchronous engine in a thread: writes
in one writer thread (so this process never contends with itself for the write lock), reads in a
few others. Never on the event loop: a statement waiting for a lock another process holds (up to
the busy timeout) or for a slow disk then holds up only what needs it, not every table (issue 13:
a locked file froze the whole server for 5 s). aiosqlite was slower still (a move's save took
4.7 ms p50 and 35 ms p99 on the team box); a plain thread hop costs tens of microseconds.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import sqlite3
from collections.abc import AsyncIterator, Callable, Iterator
from concurrent.futures import ThreadPoolExecutor
from contextlib import asynccontextmanager, contextmanager
from pathlib import Path
from typing import Any, TypeVar

import sqlalchemy as sa
from sqlalchemy import event
from sqlalchemy.dialects import postgresql as postgresql_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect_module
from sqlalchemy.dialects.sqlite import dialect as sqlite_dialect
from sqlalchemy.engine import Connection, Engine, make_url
from sqlalchemy.exc import DBAPIError, IntegrityError, InterfaceError, OperationalError
from sqlalchemy.exc import TimeoutError as PoolTimeoutError
from sqlalchemy.ext.asyncio import AsyncEngine, create_async_engine

from tictactoe.server.storage import (
    DuplicateTableError,
    GameRecord,
    MoveRecord,
    SeatRecord,
    StaleVersionError,
    StorageUnavailableError,
    TableRecord,
    TakenBack,
)
from tictactoe.server.storage.migrate import upgrade_to_head
from tictactoe.server.storage.schema import games, moves, tables

log = logging.getLogger(__name__)


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


# How long an SQLite statement waits for a lock another connection holds before the database
# counts as unreachable (503, nothing written).
SQLITE_BUSY_TIMEOUT_MS = 1000
# SQLite work runs in threads, never on the event loop: a statement waiting for a lock (or a slow
# disk) then holds up only the requests that need that statement, not the whole process.
_SQLITE_THREADS = 4


def _set_sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
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


# Any lock id will do, as long as every process migrating this schema uses the same one.
_MIGRATION_LOCK = 0x7474_7431


def _unavailable(error: BaseException) -> StorageUnavailableError | None:
    """The `StorageUnavailableError` for "the database is not there" (refused, restarting,
    connection dropped, pool exhausted, SQLite locked too long), or None for any other error."""
    if isinstance(error, IntegrityError):
        return None
    if _damaged(error):
        return StorageUnavailableError(f"the database file cannot be read ({_first_line(error)})")
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


def _damaged(error: BaseException) -> bool:
    """SQLite's "file is not a database" or "database disk image is malformed": exactly its
    DatabaseError (its subclasses are programming and integrity errors, which stay errors)."""
    original = error.orig if isinstance(error, DBAPIError) else error
    return type(original) is sqlite3.DatabaseError


def _first_line(error: BaseException) -> str:
    original = error.orig if isinstance(error, DBAPIError) else error
    return str(original).splitlines()[0] if str(original) else type(original).__name__


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


def _row_values(table: TableRecord) -> dict[str, Any]:
    return {
        "variant": table.variant,
        "size": table.size,
        "line": table.line,
        "opponent": table.opponent,
        "level": table.level,
        "game_number": table.game_number,
        "record": " ".join(table.moves),
        "result": table.result,
        "ended_by": table.ended_by,
        "version": table.version,
        "x_token_hash": table.x.token_hash,
        "x_client_hash": table.x.client_hash,
        "x_computer": table.x.computer,
        "o_token_hash": table.o.token_hash,
        "o_client_hash": table.o.client_hash,
        "o_computer": table.o.computer,
        "score_x": table.score_x,
        "score_o": table.score_o,
        "draws": table.draws,
        "rematch_x": table.rematch_x,
        "rematch_o": table.rematch_o,
        "created_at": table.created_at,
        "updated_at": table.updated_at,
        "teams": table.teams,
        "takebacks": table.takebacks,
        "private": table.private,
        "clock_seconds": table.clock_seconds,
        "clock_increment": table.clock_increment,
        "x_time": table.x_time,
        "o_time": table.o_time,
        "clock_since": table.clock_since,
        "takeback_by": table.takeback_by,
        "x_mates": _mates_text(table.x_mates),
        "o_mates": _mates_text(table.o_mates),
        "start_position": table.start_position,
    }


def _mates_text(mates: tuple[SeatRecord, ...]) -> str:
    """Teammates as stored: `token_hash:client_hash` each (`-` for no cookie), by spaces.

    >>> _mates_text((SeatRecord("a" * 4, None), SeatRecord("b" * 4, "c" * 4)))
    'aaaa:- bbbb:cccc'
    >>> _mates_from_text(_mates_text((SeatRecord("a" * 4, None),)))
    (SeatRecord(token_hash='aaaa', client_hash=None, computer=False),)
    """
    return " ".join(f"{mate.token_hash}:{mate.client_hash or '-'}" for mate in mates)


def _mates_from_text(text: str | None) -> tuple[SeatRecord, ...]:
    mates = []
    for item in (text or "").split():
        token_hash, _, client = item.partition(":")
        mates.append(SeatRecord(token_hash, None if client == "-" else client))
    return tuple(mates)


def _record_from_row(row: Any) -> TableRecord:
    return TableRecord(
        id=row.id,
        variant=row.variant,
        size=row.size,
        line=row.line,
        opponent=row.opponent,
        level=row.level,
        game_number=row.game_number,
        moves=tuple(row.record.split()),
        result=row.result,
        ended_by=row.ended_by,
        version=row.version,
        x=SeatRecord(row.x_token_hash, row.x_client_hash, bool(row.x_computer)),
        o=SeatRecord(row.o_token_hash, row.o_client_hash, bool(row.o_computer)),
        score_x=row.score_x,
        score_o=row.score_o,
        draws=row.draws,
        rematch_x=bool(row.rematch_x),
        rematch_o=bool(row.rematch_o),
        created_at=row.created_at,
        updated_at=row.updated_at,
        teams=bool(row.teams),
        takebacks=bool(row.takebacks),
        private=bool(row.private),
        clock_seconds=row.clock_seconds,
        clock_increment=row.clock_increment,
        x_time=row.x_time,
        o_time=row.o_time,
        clock_since=row.clock_since,
        takeback_by=row.takeback_by,
        x_mates=_mates_from_text(row.x_mates),
        o_mates=_mates_from_text(row.o_mates),
        start_position=row.start_position,
    )


def _game_values(table: TableRecord) -> dict[str, Any]:
    """The row keeping the table's finished game (see `GameRecord.ended`)."""
    game = GameRecord.ended(table)
    return {
        "table_id": game.table_id,
        "game_number": game.game_number,
        "variant": game.variant,
        "size": game.size,
        "line": game.line,
        "start_position": game.start_position,
        "record": " ".join(game.moves),
        "result": game.result,
        "ended_by": game.ended_by,
        "x_client_hash": game.x_client_hash,
        "o_client_hash": game.o_client_hash,
        "x_computer": game.x_computer,
        "o_computer": game.o_computer,
        "level": game.level,
        "ended_at": game.ended_at,
        "x_mates": " ".join(game.x_mates),
        "o_mates": " ".join(game.o_mates),
    }


def _game_from_row(row: Any) -> GameRecord:
    return GameRecord(
        table_id=row.table_id,
        game_number=row.game_number,
        variant=row.variant,
        size=row.size,
        line=row.line,
        start_position=row.start_position,
        moves=tuple(row.record.split()),
        result=row.result,
        ended_by=row.ended_by,
        x_client_hash=row.x_client_hash,
        o_client_hash=row.o_client_hash,
        x_computer=bool(row.x_computer),
        o_computer=bool(row.o_computer),
        level=row.level,
        ended_at=row.ended_at,
        x_mates=tuple((row.x_mates or "").split()),
        o_mates=tuple((row.o_mates or "").split()),
    )


T = TypeVar("T")


# Statements built once, with bound parameters: SQLAlchemy compiles each once and caches it, where
# `.values(literal, ...)` would build and key a fresh statement on every move.
_ROW_COLUMNS = [column.name for column in tables.columns if column.name != "id"]
_INSERT_TABLE = tables.insert()
_UPDATE_TABLE = (
    tables.update()
    .where(tables.c.id == sa.bindparam("where_id"))
    .where(tables.c.version == sa.bindparam("where_version"))
    .values({name: sa.bindparam(name) for name in _ROW_COLUMNS})
)
_INSERT_MOVE = moves.insert()
_DELETE_MOVES = (
    moves.delete()
    .where(moves.c.table_id == sa.bindparam("where_table_id"))
    .where(moves.c.game_number == sa.bindparam("where_game_number"))
    .where(moves.c.ply >= sa.bindparam("where_first_ply"))
)


def _taken_back_parameters(taken_back: TakenBack) -> dict[str, Any]:
    return {
        "where_table_id": taken_back.table_id,
        "where_game_number": taken_back.game_number,
        "where_first_ply": taken_back.first_ply,
    }


# A game is kept once, as it ends; the saves after that (rematch requests) leave it as it was.
_KEEP_GAME = {
    "sqlite": sqlite_dialect_module.insert(games).on_conflict_do_nothing(),
    "postgresql": postgresql_dialect.insert(games).on_conflict_do_nothing(),
}
_SELECT_TABLE = tables.select().where(tables.c.id == sa.bindparam("where_id"))


def _create(connection: Connection, table: TableRecord) -> None:
    connection.execute(_INSERT_TABLE, {"id": table.id, **_row_values(table)})


def _load(connection: Connection, table_id: str) -> TableRecord | None:
    row = connection.execute(_SELECT_TABLE, {"where_id": table_id}).first()
    return None if row is None else _record_from_row(row)


def _save(
    connection: Connection,
    table: TableRecord,
    expected_version: int,
    move: MoveRecord | None,
    taken_back: TakenBack | None = None,
) -> None:
    parameters = {"where_id": table.id, "where_version": expected_version, **_row_values(table)}
    if connection.execute(_UPDATE_TABLE, parameters).rowcount != 1:
        # Raising inside the transaction rolls it back.
        raise StaleVersionError(table.id)
    if taken_back is not None:
        connection.execute(_DELETE_MOVES, _taken_back_parameters(taken_back))
    if move is not None:
        connection.execute(
            _INSERT_MOVE,
            {
                "table_id": move.table_id,
                "game_number": move.game_number,
                "ply": move.ply,
                "move": move.move,
                "played_at": move.played_at,
            },
        )
    if table.result is not None:
        connection.execute(_KEEP_GAME[connection.dialect.name], _game_values(table))


_NAMED_SQLITE = sqlite_dialect(paramstyle="named")  # type: ignore[no-untyped-call]


class SQLiteMoveWriter:
    """The hot write, a table's save, straight on the sqlite3 driver with SQL compiled once from the
    same SQLAlchemy statements: the engine's per-statement machinery cost ~0.5 ms a move, more
    than the SQL itself (measured with bench/server.py)."""

    _UPDATE_SQL = str(_UPDATE_TABLE.compile(dialect=_NAMED_SQLITE))
    _INSERT_SQL = str(
        _INSERT_MOVE.compile(
            dialect=_NAMED_SQLITE,
            column_keys=["table_id", "game_number", "ply", "move", "played_at"],
        )
    )
    _DELETE_SQL = str(_DELETE_MOVES.compile(dialect=_NAMED_SQLITE))
    _KEEP_GAME_SQL = str(
        _KEEP_GAME["sqlite"].compile(
            dialect=_NAMED_SQLITE, column_keys=[column.name for column in games.columns]
        )
    )

    def __init__(self, path: str) -> None:
        # Autocommit mode: the transaction is spelled out below. Used from one thread at a time
        # (the storage's writer thread), not always the one that opened it.
        self._connection = sqlite3.connect(path, isolation_level=None, check_same_thread=False)
        _set_sqlite_pragmas(self._connection, None)

    def save(
        self,
        table: TableRecord,
        expected_version: int,
        move: MoveRecord | None,
        taken_back: TakenBack | None = None,
    ) -> None:
        connection = self._connection
        parameters = {"where_id": table.id, "where_version": expected_version, **_row_values(table)}
        try:
            connection.execute("BEGIN IMMEDIATE")
            if connection.execute(self._UPDATE_SQL, parameters).rowcount != 1:
                raise StaleVersionError(table.id)
            if taken_back is not None:
                connection.execute(self._DELETE_SQL, _taken_back_parameters(taken_back))
            if move is not None:
                connection.execute(
                    self._INSERT_SQL,
                    {
                        "table_id": move.table_id,
                        "game_number": move.game_number,
                        "ply": move.ply,
                        "move": move.move,
                        "played_at": move.played_at,
                    },
                )
            if table.result is not None:
                connection.execute(self._KEEP_GAME_SQL, _game_values(table))
            connection.execute("COMMIT")
        except BaseException as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            if isinstance(error, sqlite3.IntegrityError):
                raise StaleVersionError(table.id) from error
            if isinstance(error, sqlite3.OperationalError) or _damaged(error):
                raise StorageUnavailableError(_first_line(error)) from error
            raise

    def ping(self) -> None:
        """Takes the write lock and lets it go: raises `StorageUnavailableError` when another
        connection holds it longer than the busy timeout, or the file cannot be read."""
        connection = self._connection
        try:
            connection.execute("BEGIN IMMEDIATE")
            connection.execute("SELECT count(*) FROM sqlite_master").fetchone()
            connection.execute("ROLLBACK")
        except sqlite3.DatabaseError as error:
            if connection.in_transaction:
                connection.execute("ROLLBACK")
            raise StorageUnavailableError(_first_line(error)) from error

    def close(self) -> None:
        self._connection.close()


def _find_table_by_token_hash(connection: Connection, token_hash: str) -> str | None:
    # Teammates' hashes sit in the text of `x_mates`/`o_mates`: hex digits, so no LIKE wildcards.
    # A scan, but this runs only for a token that is not valid at the table it was sent to.
    statement = sa.select(tables.c.id).where(
        sa.or_(
            tables.c.x_token_hash == token_hash,
            tables.c.o_token_hash == token_hash,
            tables.c.x_mates.contains(token_hash),
            tables.c.o_mates.contains(token_hash),
        )
    )
    found: str | None = connection.execute(statement).scalar()
    return found


def _ping(connection: Connection) -> None:
    connection.execute(sa.select(tables.c.id).limit(1)).first()


def _moves(connection: Connection, table_id: str) -> list[MoveRecord]:
    statement = (
        moves.select()
        .where(moves.c.table_id == table_id)
        .order_by(moves.c.game_number, moves.c.ply)
    )
    return [
        MoveRecord(row.table_id, row.game_number, row.ply, row.move, row.played_at)
        for row in connection.execute(statement)
    ]


def _games(connection: Connection, table_id: str) -> list[GameRecord]:
    statement = games.select().where(games.c.table_id == table_id).order_by(games.c.game_number)
    return [_game_from_row(row) for row in connection.execute(statement)]


def _seated(source: sa.Table, client_hash: str) -> sa.ColumnElement[bool]:
    """Rows where this browser sat at either side, in the seat or as a teammate."""
    columns = source.c
    return sa.or_(
        columns.x_client_hash == client_hash,
        columns.o_client_hash == client_hash,
        # Teammates: hex hashes in a space-separated text, so no LIKE wildcards.
        columns.x_mates.contains(client_hash),
        columns.o_mates.contains(client_hash),
    )


def _games_of_client(connection: Connection, client_hash: str, limit: int) -> list[GameRecord]:
    statement = (
        games.select()
        .where(_seated(games, client_hash))
        .order_by(games.c.ended_at.desc())
        .limit(limit)
    )
    return [_game_from_row(row) for row in connection.execute(statement)]


def _tables_of_client(connection: Connection, client_hash: str, limit: int) -> list[TableRecord]:
    statement = (
        tables.select()
        .where(_seated(tables, client_hash))
        .order_by(tables.c.updated_at.desc())
        .limit(limit)
    )
    return [_record_from_row(row) for row in connection.execute(statement)]


def _migrate(connection: Connection) -> None:
    if connection.dialect.name == "postgresql":
        # Processes starting together would race to create the tables: the first to take this
        # lock migrates, the others wait and then find nothing left to do.
        connection.execute(sa.text("SELECT pg_advisory_xact_lock(:key)"), {"key": _MIGRATION_LOCK})
    upgrade_to_head(connection)


class SQLStorage:
    """`Storage` in SQLite (`sqlite:///path`) or PostgreSQL (`postgresql://...`)."""

    def __init__(self, database_url: str) -> None:
        self.database_url = database_url
        self._inline_engine: Engine | None = None  # SQLite: run in `_sqlite_threads`
        self._async_engine: AsyncEngine | None = None  # PostgreSQL
        self._checkpointer: WALCheckpointer | None = None
        self._move_writer: SQLiteMoveWriter | None = None
        self._sqlite_threads: ThreadPoolExecutor | None = None
        self._writer_thread: ThreadPoolExecutor | None = None  # the move writer's connection

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
            event.listen(engine, "connect", _set_sqlite_pragmas)
            self._inline_engine = engine
            self._writer_thread = ThreadPoolExecutor(1, "sqlite-writer")
            # An in-memory database lives in one connection, hence one thread.
            in_memory = not url.database or url.database == ":memory:"
            self._sqlite_threads = (
                self._writer_thread if in_memory else ThreadPoolExecutor(_SQLITE_THREADS, "sqlite")
            )
            if url.database and url.database != ":memory:":
                self._checkpointer = WALCheckpointer(url.database)
                self._move_writer = SQLiteMoveWriter(url.database)
        else:
            # pre_ping: after the database restarts, pooled connections are dead; test each one
            # as it is checked out rather than failing the first request on each.
            # pool_timeout: a request waiting longer than this for a connection gets a 503.
            # No overflow: connections opened for a burst and closed after it cost far more than
            # waiting (measured: ~40% of a process's time under load went to opening them).
            self._async_engine = create_async_engine(
                async_database_url(self.database_url),
                pool_pre_ping=True,
                pool_size=20,
                max_overflow=0,
                pool_timeout=10,
            )
        await self._transaction(_migrate, writes=True)
        if self._checkpointer is not None:
            self._checkpointer.start()

    async def close(self) -> None:
        if self._move_writer is not None:
            self._move_writer.close()
            self._move_writer = None
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
            await self._transaction(_create, table, writes=True)
        except IntegrityError as error:
            raise DuplicateTableError(table.id) from error

    async def load(self, table_id: str) -> TableRecord | None:
        return await self._transaction(_load, table_id)

    async def save(
        self,
        table: TableRecord,
        expected_version: int,
        move: MoveRecord | None = None,
        taken_back: TakenBack | None = None,
    ) -> None:
        if self._move_writer is not None:
            await asyncio.get_running_loop().run_in_executor(
                self._writer_thread,
                self._move_writer.save,
                table,
                expected_version,
                move,
                taken_back,
            )
            return
        try:
            await self._transaction(_save, table, expected_version, move, taken_back, writes=True)
        except IntegrityError as error:
            raise StaleVersionError(table.id) from error

    async def find_table_by_token_hash(self, token_hash: str) -> str | None:
        return await self._transaction(_find_table_by_token_hash, token_hash)

    async def ping(self) -> None:
        """Raises `StorageUnavailableError` unless the database can be read and (SQLite, where
        another process may hold the file's write lock) written now."""
        await self._transaction(_ping)
        if self._move_writer is not None:
            await asyncio.get_running_loop().run_in_executor(
                self._writer_thread, self._move_writer.ping
            )

    async def moves(self, table_id: str) -> list[MoveRecord]:
        return await self._transaction(_moves, table_id)

    async def games(self, table_id: str) -> list[GameRecord]:
        return await self._transaction(_games, table_id)

    async def games_of_client(self, client_hash: str, limit: int) -> list[GameRecord]:
        return await self._transaction(_games_of_client, client_hash, limit)

    async def tables_of_client(self, client_hash: str, limit: int) -> list[TableRecord]:
        return await self._transaction(_tables_of_client, client_hash, limit)
