"""What a table's save writes, decided once for every way of writing it.

A save is one transaction: the table's row, only if its stored version is still the one the
caller read, then what goes with it (the move logged, the moves a takeback undid removed, the
finished game kept, the teammates' tokens kept). `table_write` turns the records into that
description, `TableWrite`, and `steps` into the statements of `statements` with their
parameters. Each save path carries out the same steps its own way: SQLAlchemy (`save`, here),
the sqlite3 driver on the event loop or on the writer thread (`sqlite.SQLiteMoveWriter`), and
asyncpg as one statement (`postgres.PostgresHotPath`); the shared storage suite runs them all.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import sqlalchemy as sa
from sqlalchemy.engine import Connection

from tictactoe.server.storage import MoveRecord, StaleVersionError, TableRecord, TakenBack
from tictactoe.server.storage.rows import (
    changed_row_values,
    game_values,
    move_values,
    row_values,
)
from tictactoe.server.storage.statements import (
    DELETE_MOVES,
    INSERT_MOVE,
    KEEP_GAME,
    KEEP_TEAM_TOKEN,
    team_token_rows,
    update_table_columns,
)

Parameters = dict[str, Any] | list[dict[str, Any]]


@dataclass(frozen=True, slots=True)
class TableWrite:
    """One save as rows: the table's `columns` to set where its id is `table_id` and its
    version `expected_version` (nothing else is written when it is not), then the moves of
    `taken_back` removed, the `move` row logged, the `game` row kept (once: a row already kept
    stays as it was) and the `team_tokens` rows kept (likewise)."""

    table_id: str
    expected_version: int
    columns: dict[str, Any]
    taken_back: TakenBack | None = None
    move: dict[str, Any] | None = None
    game: dict[str, Any] | None = None
    team_tokens: tuple[dict[str, str], ...] = ()


def table_write(
    table: TableRecord,
    expected_version: int,
    move: MoveRecord | None = None,
    taken_back: TakenBack | None = None,
    previous: TableRecord | None = None,
) -> TableWrite:
    """The save `Storage.save` describes. With `previous` at the expected version, only the
    columns that changed since it are set (the version check makes sure that is what is
    stored): a move changes three or four of ~40, and a column some index covers, set even to
    its old value, costs SQLite a rewrite of that index's entry."""
    if previous is not None and previous.version == expected_version:
        columns = changed_row_values(previous, table)
    else:
        columns = row_values(table)
    return TableWrite(
        table.id,
        expected_version,
        columns,
        taken_back,
        None if move is None else move_values(move),
        None if table.result is None else game_values(table),
        tuple(team_token_rows(table)),
    )


def steps(write: TableWrite, dialect: str) -> list[tuple[sa.UpdateBase, Parameters]]:
    """The statements of `write` in order, with their parameters (a list: one row each); the
    first is the table's update, which must change exactly one row."""
    update = update_table_columns(tuple(write.columns))
    done: list[tuple[sa.UpdateBase, Parameters]] = [
        (
            update,
            {"where_id": write.table_id, "where_version": write.expected_version, **write.columns},
        )
    ]
    if write.taken_back is not None:
        done.append((DELETE_MOVES, taken_back_parameters(write.taken_back)))
    if write.move is not None:
        done.append((INSERT_MOVE, write.move))
    if write.game is not None:
        done.append((KEEP_GAME[dialect], write.game))
    if write.team_tokens:
        done.append((KEEP_TEAM_TOKEN[dialect], list(write.team_tokens)))
    return done


def taken_back_parameters(taken_back: TakenBack) -> dict[str, Any]:
    return {
        "where_table_id": taken_back.table_id,
        "where_game_number": taken_back.game_number,
        "where_first_ply": taken_back.first_ply,
    }


def save(connection: Connection, write: TableWrite) -> None:
    """`write` through SQLAlchemy, in the caller's transaction (raising rolls it back)."""
    for number, (statement, parameters) in enumerate(steps(write, connection.dialect.name)):
        result = connection.execute(statement, parameters)
        if number == 0 and result.rowcount != 1:
            raise StaleVersionError(write.table_id)
