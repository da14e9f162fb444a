"""A save's changed columns, worked out from the records, are exactly the columns whose values
differ between the two rows; a row read back is the record that was written."""

from __future__ import annotations

import dataclasses
from types import SimpleNamespace
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from tests.server.records import a_table

from tictactoe.server.storage import GameRecord, SeatRecord, Side, TableRecord
from tictactoe.server.storage.rows import (
    changed_row_values,
    game_from_row,
    game_values,
    record_from_row,
    row_values,
)

seats = st.builds(
    SeatRecord,
    st.sampled_from([None, "a" * 64, "b" * 64]),
    st.sampled_from([None, "c" * 64]),
    st.booleans(),
    st.sampled_from([None, "Ana", "Βασίλης"]),
)
# A teammate is a seat token and a browser cookie (no name, never the computer).
mates = st.builds(
    SeatRecord, st.sampled_from(["d" * 64, "e" * 64]), st.sampled_from([None, "f" * 64])
)
sides = st.builds(
    Side,
    seats,
    st.lists(mates, max_size=2).map(tuple),
    st.sampled_from([None, 30.0, 12.5]),
    st.integers(0, 2),
    st.booleans(),
)
# A value for any field, of the kind the field holds.
CHANGES: dict[str, Any] = {
    "moves": st.lists(st.sampled_from(["e5", "e4", "a1"]), max_size=4).map(tuple),
    "x": sides,
    "o": sides,
    "result": st.sampled_from([None, "x", "draw"]),
    "version": st.integers(1, 5),
    "updated_at": st.floats(1, 3),
    "draws": st.integers(0, 2),
    "draw_offer": st.sampled_from([None, "o"]),
    "takeback_by": st.sampled_from([None, "x"]),
    "clock_since": st.sampled_from([None, 2.5]),
    "code": st.sampled_from(["ABCDEF", "GHJKMN"]),
    "public": st.booleans(),
    "teams": st.booleans(),
    "level": st.sampled_from([None, "max"]),
}
records = st.fixed_dictionaries({}, optional=CHANGES).map(
    lambda changes: dataclasses.replace(a_table(), **changes)
)


@given(records, records)
def test_the_changed_columns_are_those_whose_values_differ(
    before: TableRecord, after: TableRecord
) -> None:
    old, new = row_values(before), row_values(after)
    assert changed_row_values(before, after) == {
        name: value for name, value in new.items() if value != old[name]
    }


@given(records)
def test_a_row_reads_back_as_the_record_written(table: TableRecord) -> None:
    row = SimpleNamespace(id=table.id, **row_values(table))
    assert record_from_row(row) == table


@given(records)
def test_a_kept_games_row_reads_back_as_the_game_that_ended(table: TableRecord) -> None:
    over = dataclasses.replace(table, result="o", ended_by="resign")
    game = game_from_row(SimpleNamespace(**game_values(over)))
    assert game == GameRecord.ended(over)
    assert game.o.clients == over.o.clients


def other_value(name: str, value: Any) -> Any:
    """A value for the field `name` that differs from `value`, of a kind its row can store."""
    if isinstance(value, Side):
        holder = SeatRecord("1" * 64, "2" * 64, True, "Ana")
        return Side(holder, (SeatRecord("5" * 64),), 12.5, value.score + 1, not value.rematch)
    if isinstance(value, SeatRecord):
        return SeatRecord("1" * 64, "2" * 64, True, "Ana")
    if name == "moves":
        return ("e5",)
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    return "changed"


def test_every_column_of_a_row_can_be_found_changed() -> None:
    """A column added to the row but not to `changed_row_values` would never be saved: change
    every field (every field of each side too), and every column must come out changed."""
    table = a_table()
    other = dataclasses.replace(
        table,
        **{
            field.name: other_value(field.name, getattr(table, field.name))
            for field in dataclasses.fields(TableRecord)
            if field.name != "id"
        },
    )
    assert set(changed_row_values(table, other)) == set(row_values(table))
