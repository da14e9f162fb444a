"""Every SQL statement, built once, and every SQL operation but a save (`writes`), written once as
a function of a SQLAlchemy `Connection` (SQLite and PostgreSQL alike)."""

from __future__ import annotations

import functools

import sqlalchemy as sa
from sqlalchemy.dialects import postgresql as postgresql_dialect
from sqlalchemy.dialects import sqlite as sqlite_dialect_module
from sqlalchemy.engine import Connection

from tictactoe.server.storage import GameRecord, MoveRecord, TableRecord
from tictactoe.server.storage.rows import game_from_row, record_from_row, row_values
from tictactoe.server.storage.schema import games, moves, tables, team_tokens

# Statements built once, with bound parameters: SQLAlchemy compiles each once and caches it, where
# `.values(literal, ...)` would build and key a fresh statement on every move.
INSERT_TABLE = tables.insert()


@functools.lru_cache(maxsize=512)
def update_table_columns(names: tuple[str, ...]) -> sa.Update:
    """The table's row over the version read (`where_id`, `where_version`), setting only the
    columns `names` (one statement object per set of names, so each compiles once): a save that
    leaves a column as it was need not send it, and a column some index covers, set even to its
    old value, makes SQLite rewrite that index's entry (six indexes' pages in every commit were
    ~26% of a loaded server's time, py-spy under bench/server.py)."""
    return (
        tables.update()
        .where(tables.c.id == sa.bindparam("where_id"))
        .where(tables.c.version == sa.bindparam("where_version"))
        .values({name: sa.bindparam(name) for name in names})
    )


INSERT_MOVE = moves.insert()
DELETE_MOVES = (
    moves.delete()
    .where(moves.c.table_id == sa.bindparam("where_table_id"))
    .where(moves.c.game_number == sa.bindparam("where_game_number"))
    .where(moves.c.ply >= sa.bindparam("where_first_ply"))
)


# A game is kept once, as it ends; the saves after that (rematch requests) leave it as it was.
KEEP_GAME = {
    "sqlite": sqlite_dialect_module.insert(games).on_conflict_do_nothing(),
    "postgresql": postgresql_dialect.insert(games).on_conflict_do_nothing(),
}
SELECT_TABLE = tables.select().where(tables.c.id == sa.bindparam("where_id"))
KEEP_TEAM_TOKEN = {
    "sqlite": sqlite_dialect_module.insert(team_tokens).on_conflict_do_nothing(),
    "postgresql": postgresql_dialect.insert(team_tokens).on_conflict_do_nothing(),
}
# Each branch by an index: the holders' token columns, and the teammates' primary key.
_TOKEN: sa.BindParameter[str] = sa.bindparam("token_hash", type_=sa.String())
FIND_BY_TOKEN = sa.union_all(
    sa.select(tables.c.id).where(tables.c.x_token_hash == _TOKEN),
    sa.select(tables.c.id).where(tables.c.o_token_hash == _TOKEN),
    sa.select(team_tokens.c.table_id).where(team_tokens.c.token_hash == _TOKEN),
).limit(1)


def team_token_rows(table: TableRecord) -> list[dict[str, str]]:
    """The `team_tokens` rows of a table's teammates (none without teams)."""
    return [
        {"token_hash": mate.token_hash, "table_id": table.id}
        for mate in (*table.x.mates, *table.o.mates)
        if mate.token_hash is not None
    ]


def create(connection: Connection, table: TableRecord) -> None:
    connection.execute(INSERT_TABLE, {"id": table.id, **row_values(table)})
    if rows := team_token_rows(table):
        connection.execute(KEEP_TEAM_TOKEN[connection.dialect.name], rows)


def load(connection: Connection, table_id: str) -> TableRecord | None:
    row = connection.execute(SELECT_TABLE, {"where_id": table_id}).first()
    return None if row is None else record_from_row(row)


def find_table_by_token_hash(connection: Connection, token_hash: str) -> str | None:
    found: str | None = connection.execute(FIND_BY_TOKEN, {"token_hash": token_hash}).scalar()
    return found


def find_table_by_code(connection: Connection, code: str) -> str | None:
    found: str | None = connection.execute(
        sa.select(tables.c.id).where(tables.c.code == code)
    ).scalar()
    return found


def open_tables(connection: Connection, limit: int) -> list[TableRecord]:
    """Public tables with a seat free for a person, newest first (index on public, created_at)."""
    free = sa.or_(
        sa.and_(tables.c.x_token_hash.is_(None), sa.not_(tables.c.x_computer)),
        sa.and_(tables.c.o_token_hash.is_(None), sa.not_(tables.c.o_computer)),
    )
    statement = (
        tables.select()
        .where(tables.c.public.is_(True), tables.c.result.is_(None), free)
        .order_by(tables.c.created_at.desc())
        .limit(limit)
    )
    return [record_from_row(row) for row in connection.execute(statement)]


def moves_of(connection: Connection, table_id: str) -> list[MoveRecord]:
    statement = (
        moves.select()
        .where(moves.c.table_id == table_id)
        .order_by(moves.c.game_number, moves.c.ply)
    )
    return [
        MoveRecord(row.table_id, row.game_number, row.ply, row.move, row.played_at)
        for row in connection.execute(statement)
    ]


def games_of(connection: Connection, table_id: str) -> list[GameRecord]:
    statement = games.select().where(games.c.table_id == table_id).order_by(games.c.game_number)
    return [game_from_row(row) for row in connection.execute(statement)]


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


def games_of_client(connection: Connection, client_hash: str, limit: int) -> list[GameRecord]:
    statement = (
        games.select()
        .where(_seated(games, client_hash))
        .order_by(games.c.ended_at.desc())
        .limit(limit)
    )
    return [game_from_row(row) for row in connection.execute(statement)]


def tables_of_client(connection: Connection, client_hash: str, limit: int) -> list[TableRecord]:
    statement = (
        tables.select()
        .where(_seated(tables, client_hash))
        .order_by(tables.c.updated_at.desc())
        .limit(limit)
    )
    return [record_from_row(row) for row in connection.execute(statement)]
