"""Table and game records as SQL rows and back (the columns of `schema`)."""

from __future__ import annotations

import dataclasses
from typing import Any

from tictactoe.server.storage import (
    MARKS,
    GameRecord,
    Mark,
    MoveRecord,
    PlayedSide,
    SeatRecord,
    Side,
    TableRecord,
)

# The record's fields kept in a column of the same name: all but the id, the moves and the sides.
_SAME_NAME = tuple(
    field.name
    for field in dataclasses.fields(TableRecord)
    if field.name not in ("id", "moves", "x", "o")
)


def mates_text(mates: tuple[SeatRecord, ...]) -> str:
    """Teammates as stored: `token_hash:client_hash` each (`-` for no cookie), by spaces.

    >>> mates_text((SeatRecord("a" * 4, None), SeatRecord("b" * 4, "c" * 4)))
    'aaaa:- bbbb:cccc'
    >>> mates_from_text(mates_text((SeatRecord("a" * 4, None),)))
    (SeatRecord(token_hash='aaaa', client_hash=None, computer=False, name=None),)
    """
    return " ".join(f"{mate.token_hash}:{mate.client_hash or '-'}" for mate in mates)


def mates_from_text(text: str | None) -> tuple[SeatRecord, ...]:
    mates = []
    for item in (text or "").split():
        token_hash, _, client = item.partition(":")
        mates.append(SeatRecord(token_hash, None if client == "-" else client))
    return tuple(mates)


def side_values(side: Side, mark: Mark) -> dict[str, Any]:
    """The columns of the row that keep one side: the one place that names them. (They kept
    the names they had before a side was one record, so no row had to change.)"""
    holder = side.holder
    return {
        f"{mark}_token_hash": holder.token_hash,
        f"{mark}_client_hash": holder.client_hash,
        f"{mark}_computer": holder.computer,
        f"{mark}_name": holder.name,
        f"{mark}_mates": mates_text(side.mates),
        f"{mark}_time": side.time_left,
        f"score_{mark}": side.score,
        f"rematch_{mark}": side.rematch,
    }


def side_from_row(row: Any, mark: Mark) -> Side:
    """The side `side_values` stored (booleans as SQLite may hand them back: 0 or 1)."""
    token_hash, client_hash, computer, name, mates, time_left, score, rematch = (
        getattr(row, column) for column in _SIDE_COLUMNS[mark]
    )
    return Side(
        SeatRecord(token_hash, client_hash, bool(computer), name),
        mates_from_text(mates),
        time_left,
        score,
        bool(rematch),
    )


# Each mark's side columns, in `side_values`'s order.
_SIDE_COLUMNS = {mark: tuple(side_values(Side(), mark)) for mark in MARKS}


def row_values(table: TableRecord) -> dict[str, Any]:
    """The table's row: every column but the id."""
    values = {name: getattr(table, name) for name in _SAME_NAME}
    values["record"] = " ".join(table.moves)
    values.update(side_values(table.x, "x"))
    values.update(side_values(table.o, "o"))
    return values


def changed_row_values(before: TableRecord, after: TableRecord) -> dict[str, Any]:
    """The columns of `after`'s row (`row_values`) whose values differ from `before`'s, worked
    out from the records' fields without building either row (a move changes three of ~40)."""
    changed = {
        name: value
        for name in _SAME_NAME
        if (value := getattr(after, name)) != getattr(before, name)
    }
    if after.moves != before.moves:
        changed["record"] = " ".join(after.moves)
    for mark in MARKS:
        side, old = after.side(mark), before.side(mark)
        if side is not old and side != old:
            old_values = side_values(old, mark)
            changed.update(
                (name, value)
                for name, value in side_values(side, mark).items()
                if value != old_values[name]
            )
    return changed


def record_from_row(row: Any) -> TableRecord:
    """The record `row_values` stored (`row`'s columns as attributes)."""
    return TableRecord(
        id=row.id,
        moves=tuple(row.record.split()),
        x=side_from_row(row, "x"),
        o=side_from_row(row, "o"),
        **{name: getattr(row, name) for name in _SAME_NAME},
    )


# The kept game's fields in a column of the same name: all but the moves and the sides.
_GAME_SAME_NAME = tuple(
    field.name for field in dataclasses.fields(GameRecord) if field.name not in ("moves", "x", "o")
)


def game_values(table: TableRecord) -> dict[str, Any]:
    """The row keeping the table's finished game (see `GameRecord.ended`)."""
    game = GameRecord.ended(table)
    values = {name: getattr(game, name) for name in _GAME_SAME_NAME}
    values["record"] = " ".join(game.moves)
    for mark, side in (("x", game.x), ("o", game.o)):
        values[f"{mark}_client_hash"] = side.client_hash
        values[f"{mark}_computer"] = side.computer
        values[f"{mark}_mates"] = " ".join(side.mates)
    return values


def game_from_row(row: Any) -> GameRecord:
    """The game `game_values` kept."""
    x, o = (
        PlayedSide(
            getattr(row, f"{mark}_client_hash"),
            bool(getattr(row, f"{mark}_computer")),
            tuple((getattr(row, f"{mark}_mates") or "").split()),
        )
        for mark in MARKS
    )
    return GameRecord(
        moves=tuple(row.record.split()),
        x=x,
        o=o,
        **{name: getattr(row, name) for name in _GAME_SAME_NAME},
    )


def move_values(move: MoveRecord) -> dict[str, Any]:
    """The row logging one move."""
    return {
        "table_id": move.table_id,
        "game_number": move.game_number,
        "ply": move.ply,
        "move": move.move,
        "played_at": move.played_at,
    }
