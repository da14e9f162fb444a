"""Storage records for tests: a table as a store holds it, and the same table after a move."""

from __future__ import annotations

import dataclasses

from tictactoe.server.storage import MoveRecord, SeatRecord, Side, TableRecord


def a_table(table_id: str = "TableIdTableIdTableId1", **changes: object) -> TableRecord:
    record = TableRecord(
        id=table_id,
        variant="ultimate",
        size=9,
        line=3,
        opponent="friend",
        level=None,
        game_number=1,
        moves=(),
        result=None,
        ended_by=None,
        version=1,
        x=Side(SeatRecord("a" * 64, "c" * 64)),
        o=Side(),
        draws=0,
        created_at=1.0,
        updated_at=1.0,
    )
    return dataclasses.replace(record, **changes)  # type: ignore[arg-type]


def moved(table: TableRecord, move: str) -> tuple[TableRecord, MoveRecord]:
    after = dataclasses.replace(table, moves=(*table.moves, move), version=table.version + 1)
    return after, MoveRecord(table.id, table.game_number, len(after.moves), move, 2.0)
