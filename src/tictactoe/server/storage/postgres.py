"""The hot path on PostgreSQL, straight on asyncpg: a table's save and load, one round trip each.

Through SQLAlchemy's asyncpg layer a move cost five round trips (the pool's ping, `BEGIN`, the
`UPDATE`, the `INSERT`, `COMMIT`) and a flooded process spent about half its time in them
(profiled with py-spy under bench/scale.py). Here a save is ONE statement, committed on its own:
the table's `UPDATE ... WHERE id = $1 AND version = $2` and, in data-modifying CTEs that run only
if that row was updated, the move's insert, a takeback's delete, the finished game's row and the
teammates' tokens. Zero rows updated means another writer got there first, and nothing else was
written. asyncpg prepares each statement once per connection and keeps it (its statement cache),
so a move is one Bind/Execute on the wire. The SQL is generated from the same SQLAlchemy schema as
everything else.

This module knows rows, not records: what a save writes comes decided (`writes.TableWrite`, the
same for every save path), and the caller (`SQLStorage`) turns a loaded row back into a record.
"""

from __future__ import annotations

import functools
from collections.abc import AsyncIterator, Mapping
from contextlib import asynccontextmanager
from typing import Any

import asyncpg
import sqlalchemy as sa
from sqlalchemy.dialects import postgresql
from sqlalchemy.engine import make_url

from tictactoe.server.storage import StaleVersionError, StorageUnavailableError
from tictactoe.server.storage.schema import games, moves, tables, team_tokens
from tictactoe.server.storage.writes import TableWrite

_DIALECT = postgresql.dialect()  # type: ignore[no-untyped-call]
_MOVE_COLUMNS = ["table_id", "game_number", "ply", "move", "played_at"]
_GAME_COLUMNS = [column.name for column in games.columns]


def _cast(column: sa.Column[Any]) -> str:
    """The column's type in PostgreSQL's words (for `$n::type`: values in a CTE's SELECT list are
    not typed by the column they end up in)."""
    return str(column.type.compile(dialect=_DIALECT))


class _Parameters:
    """Numbers `$n` placeholders in order, remembering which value goes where."""

    def __init__(self) -> None:
        self.keys: list[tuple[str, str]] = []  # (group, name)

    def add(self, group: str, name: str, column: sa.Column[Any]) -> str:
        self.keys.append((group, name))
        return f"${len(self.keys)}::{_cast(column)}"


@functools.lru_cache(maxsize=512)
def save_statement(
    columns: tuple[str, ...],
    delete_moves: bool,
    insert_move: bool,
    keep_game: bool,
    keep_team_tokens: bool,
) -> tuple[str, tuple[tuple[str, str], ...]]:
    """The one statement of a save (`writes.steps` as data-modifying CTEs that run only if the
    table's row was updated), and the (group, name) of each of its parameters in order.

    >>> sql, keys = save_statement(("version", "record"), False, True, False, False)
    >>> sql.startswith("WITH updated AS (UPDATE tables SET"), keys[:3]
    (True, (('where', 'id'), ('where', 'version'), ('row', 'version')))
    >>> "INSERT INTO moves" in sql, "DELETE" in sql, "games" in sql, "team_tokens" in sql
    (True, False, False, False)
    """
    p = _Parameters()
    where_id = p.add("where", "id", tables.c.id)
    where_version = p.add("where", "version", tables.c.version)
    sets = ", ".join(f'"{name}" = {p.add("row", name, tables.c[name])}' for name in columns)
    parts = [
        f"updated AS (UPDATE tables SET {sets} "
        f"WHERE id = {where_id} AND version = {where_version} RETURNING id)"
    ]
    if delete_moves:
        game = p.add("taken_back", "game_number", moves.c.game_number)
        first = p.add("taken_back", "first_ply", moves.c.ply)
        parts.append(
            "removed AS (DELETE FROM moves WHERE table_id IN (SELECT id FROM updated) "
            f"AND game_number = {game} AND ply >= {first})"
        )
    if insert_move:
        values = ", ".join(
            "updated.id" if name == "table_id" else p.add("move", name, moves.c[name])
            for name in _MOVE_COLUMNS
        )
        parts.append(
            f"moved AS (INSERT INTO moves ({', '.join(_MOVE_COLUMNS)}) "
            f"SELECT {values} FROM updated)"
        )
    if keep_game:
        # Kept once, as the game ends; the saves after that (rematch requests) leave it be.
        values = ", ".join(
            "updated.id" if name == "table_id" else p.add("game", name, games.c[name])
            for name in _GAME_COLUMNS
        )
        quoted = ", ".join(f'"{name}"' for name in _GAME_COLUMNS)
        parts.append(
            f"kept AS (INSERT INTO games ({quoted}) SELECT {values} FROM updated "
            "ON CONFLICT DO NOTHING)"
        )
    if keep_team_tokens:
        p.keys.append(("team_tokens", "token_hash"))
        tokens = f"${len(p.keys)}::{_cast(team_tokens.c.token_hash)}[]"
        parts.append(
            "tokens AS (INSERT INTO team_tokens (token_hash, table_id) "
            f"SELECT token_hash, updated.id FROM updated, unnest({tokens}) AS token_hash "
            "ON CONFLICT DO NOTHING)"
        )
    sql = "WITH " + ", ".join(parts) + " SELECT count(*) FROM updated"
    return sql, tuple(p.keys)


_LOAD_SQL = "SELECT {} FROM tables WHERE id = $1".format(
    ", ".join(f'"{column.name}"' for column in tables.columns)
)

# What "the database is not there" looks like through asyncpg (refused, restarting, connection
# dropped, the pool's wait for a connection running out).
_UNAVAILABLE = (
    OSError,
    TimeoutError,
    asyncpg.PostgresConnectionError,
    asyncpg.InterfaceError,
    asyncpg.exceptions.OperatorInterventionError,
    asyncpg.exceptions.CannotConnectNowError,
)


async def _keep_session(connection: asyncpg.Connection) -> None:
    """What a connection needs before going back to the pool: nothing. Every query here is one
    statement committed on its own, with no session state; asyncpg's default reset would cost a
    round trip per query (`RESET ALL`, `UNLISTEN *`, ...)."""


def asyncpg_dsn(database_url: str) -> str:
    """The URL as asyncpg takes it (no SQLAlchemy driver name).

    >>> asyncpg_dsn("postgresql+asyncpg://me@db:5432/ttt")
    'postgresql://me@db:5432/ttt'
    """
    url = make_url(database_url).set(drivername="postgresql")
    return url.render_as_string(hide_password=False)


class PostgresHotPath:
    """Saves and loads tables on a pool of `size` asyncpg connections of its own."""

    def __init__(self, database_url: str, size: int, wait_seconds: float = 10.0) -> None:
        self._dsn = asyncpg_dsn(database_url)
        self._size = size
        self._wait = wait_seconds
        self._pool: asyncpg.Pool | None = None

    async def start(self) -> None:
        # Connections open as they are needed (none is lost at start-up if the database is slow);
        # one that finds the database gone fails its request with a 503, and the pool opens a
        # fresh one for the next.
        self._pool = await asyncpg.create_pool(
            self._dsn, min_size=1, max_size=self._size, timeout=5.0, reset=_keep_session
        )

    async def close(self) -> None:
        if self._pool is not None:
            await self._pool.close()
            self._pool = None

    @asynccontextmanager
    async def _connection(self) -> AsyncIterator[asyncpg.Connection]:
        if self._pool is None:
            raise RuntimeError("PostgresHotPath.start() has not been called")
        # Waiting with a timeout costs a task per query: only when no connection is free.
        wait = self._wait if self._pool.get_idle_size() == 0 else None
        try:
            async with self._pool.acquire(timeout=wait) as connection:
                yield connection
        except _UNAVAILABLE as error:
            raise StorageUnavailableError(str(error) or type(error).__name__) from error

    async def save(self, write: TableWrite) -> None:
        """`write` as one statement; `StaleVersionError` (nothing written) when the stored
        version is not the one expected."""
        taken_back, move, game = write.taken_back, write.move, write.game
        sql, keys = save_statement(
            tuple(write.columns),
            taken_back is not None,
            move is not None,
            game is not None,
            bool(write.team_tokens),
        )
        groups: dict[str, Mapping[str, Any]] = {
            "where": {"id": write.table_id, "version": write.expected_version},
            "row": write.columns,
            "taken_back": (
                {"game_number": taken_back.game_number, "first_ply": taken_back.first_ply}
                if taken_back is not None
                else {}
            ),
            "move": move or {},
            "game": game or {},
            "team_tokens": {"token_hash": [row["token_hash"] for row in write.team_tokens]},
        }
        values = [groups[group][name] for group, name in keys]
        async with self._connection() as connection:
            try:
                updated = await connection.fetchval(sql, *values)
            except asyncpg.UniqueViolationError as error:
                # A move at that ply is in the log already: another writer got there first.
                raise StaleVersionError(write.table_id) from error
        if updated != 1:
            raise StaleVersionError(write.table_id)

    async def load(self, table_id: str) -> Mapping[str, Any] | None:
        """The table's row by column name, or None."""
        async with self._connection() as connection:
            row = await connection.fetchrow(_LOAD_SQL, table_id)
        return None if row is None else dict(row.items())
