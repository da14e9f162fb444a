"""A save's changed columns, worked out from the records, are exactly the columns whose values
differ between the two rows (a changed seat brings all of its columns)."""

from __future__ import annotations

import dataclasses
from typing import Any

from hypothesis import given
from hypothesis import strategies as st
from tests.server.records import a_table

from tictactoe.server.storage import SeatRecord, TableRecord
from tictactoe.server.storage.rows import changed_row_values, row_values

seats = st.builds(
    SeatRecord,
    st.sampled_from([None, "a" * 64, "b" * 64]),
    st.sampled_from([None, "c" * 64]),
    st.booleans(),
    st.sampled_from([None, "Ana", "Βασίλης"]),
)
# A value for any field, of the kind the field holds.
CHANGES: dict[str, Any] = {
    "moves": st.lists(st.sampled_from(["e5", "e4", "a1"]), max_size=4).map(tuple),
    "x": seats,
    "o": seats,
    "x_mates": st.lists(seats.filter(lambda s: s.token_hash is not None), max_size=2).map(tuple),
    "o_mates": st.lists(seats.filter(lambda s: s.token_hash is not None), max_size=2).map(tuple),
    "result": st.sampled_from([None, "x", "draw"]),
    "version": st.integers(1, 5),
    "updated_at": st.floats(1, 3),
    "score_x": st.integers(0, 2),
    "draw_offer": st.sampled_from([None, "o"]),
    "takeback_by": st.sampled_from([None, "x"]),
    "clock_since": st.sampled_from([None, 2.5]),
    "x_time": st.sampled_from([None, 30.0]),
    "code": st.sampled_from(["ABCDEF", "GHJKMN"]),
    "public": st.booleans(),
    "rematch_o": st.booleans(),
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
    changed = changed_row_values(before, after)
    differing = {name for name in new if new[name] != old[name]}
    assert differing <= set(changed)
    assert all(changed[name] == new[name] for name in changed)
    # Beyond what differs, only the columns of a seat that changed as a whole.
    for name in set(changed) - differing:
        mark = name[0]
        assert name[1] == "_" and getattr(before, mark) != getattr(after, mark), name


def other_value(name: str, value: Any) -> Any:
    """A value for the field `name` that differs from `value`, of a kind its row can store."""
    if name in ("x", "o"):
        return SeatRecord("1" * 64, "2" * 64, True, "Ana")
    if name.endswith("_mates"):
        return (SeatRecord("5" * 64),)
    if name == "moves":
        return ("e5",)
    if isinstance(value, bool):
        return not value
    if isinstance(value, int | float):
        return value + 1
    return "changed"


def test_every_column_of_a_row_can_be_found_changed() -> None:
    """A column added to the row but not to `changed_row_values` would never be saved: change
    every field, and every column must come out changed."""
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
