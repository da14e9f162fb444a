"""Table and game records as SQL rows and back (the columns of `schema`)."""

from __future__ import annotations

from typing import Any

from tictactoe.server.storage import GameRecord, MoveRecord, SeatRecord, TableRecord


def row_values(table: TableRecord) -> dict[str, Any]:
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
        "teams_open": table.teams_open,
        "takebacks": table.takebacks,
        "private": table.private,
        "clock_seconds": table.clock_seconds,
        "clock_increment": table.clock_increment,
        "x_time": table.x_time,
        "o_time": table.o_time,
        "clock_since": table.clock_since,
        "takeback_by": table.takeback_by,
        "x_mates": mates_text(table.x_mates),
        "o_mates": mates_text(table.o_mates),
        "start_position": table.start_position,
        "code": table.code,
        "public": table.public,
        "draw_offer": table.draw_offer,
        "tossed": table.tossed,
        "x_name": table.x.name,
        "o_name": table.o.name,
    }


# The record's fields stored as they are, in a column of the same name.
_SAME_NAME = (
    "variant",
    "size",
    "line",
    "opponent",
    "level",
    "game_number",
    "result",
    "ended_by",
    "version",
    "score_x",
    "score_o",
    "draws",
    "rematch_x",
    "rematch_o",
    "created_at",
    "updated_at",
    "teams",
    "teams_open",
    "takebacks",
    "private",
    "clock_seconds",
    "clock_increment",
    "x_time",
    "o_time",
    "clock_since",
    "takeback_by",
    "start_position",
    "code",
    "public",
    "draw_offer",
    "tossed",
)


def changed_row_values(before: TableRecord, after: TableRecord) -> dict[str, Any]:
    """The columns of `after`'s row (`row_values`) whose values differ from `before`'s, worked
    out from the records' fields without building either row (a move changes three of ~40);
    a seat that changed brings all of its columns."""
    changed = {
        name: value
        for name in _SAME_NAME
        if (value := getattr(after, name)) != getattr(before, name)
    }
    if after.moves != before.moves:
        changed["record"] = " ".join(after.moves)
    for mark, seat, old in (("x", after.x, before.x), ("o", after.o, before.o)):
        if seat != old:
            changed[f"{mark}_token_hash"] = seat.token_hash
            changed[f"{mark}_client_hash"] = seat.client_hash
            changed[f"{mark}_computer"] = seat.computer
            changed[f"{mark}_name"] = seat.name
    for name, mates, old_mates in (
        ("x_mates", after.x_mates, before.x_mates),
        ("o_mates", after.o_mates, before.o_mates),
    ):
        if mates != old_mates and (text := mates_text(mates)) != mates_text(old_mates):
            changed[name] = text
    return changed


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


def record_from_row(row: Any) -> TableRecord:
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
        x=SeatRecord(row.x_token_hash, row.x_client_hash, bool(row.x_computer), row.x_name),
        o=SeatRecord(row.o_token_hash, row.o_client_hash, bool(row.o_computer), row.o_name),
        score_x=row.score_x,
        score_o=row.score_o,
        draws=row.draws,
        rematch_x=bool(row.rematch_x),
        rematch_o=bool(row.rematch_o),
        created_at=row.created_at,
        updated_at=row.updated_at,
        teams=bool(row.teams),
        teams_open=bool(row.teams_open),
        takebacks=bool(row.takebacks),
        private=bool(row.private),
        clock_seconds=row.clock_seconds,
        clock_increment=row.clock_increment,
        x_time=row.x_time,
        o_time=row.o_time,
        clock_since=row.clock_since,
        takeback_by=row.takeback_by,
        x_mates=mates_from_text(row.x_mates),
        o_mates=mates_from_text(row.o_mates),
        start_position=row.start_position,
        code=row.code,
        public=bool(row.public),
        draw_offer=row.draw_offer,
        tossed=bool(row.tossed),
    )


def game_values(table: TableRecord) -> dict[str, Any]:
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


def game_from_row(row: Any) -> GameRecord:
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


def move_values(move: MoveRecord) -> dict[str, Any]:
    """The row logging one move."""
    return {
        "table_id": move.table_id,
        "game_number": move.game_number,
        "ply": move.ply,
        "move": move.move,
        "played_at": move.played_at,
    }
