"""Who sits where: the two marks, the computer's `by`, and a side's members (the seat holder, then
teammates)."""

from __future__ import annotations

import dataclasses
from typing import Literal

from tictactoe.server.storage import SeatRecord, TableRecord

Mark = Literal["x", "o"]
MARKS: tuple[Mark, Mark] = ("x", "o")
# The `by` of the computer's own commands; a token hash is 64 hex digits, so it never collides.
COMPUTER = "computer"


def other(mark: Mark) -> Mark:
    """The opponent's mark.

    >>> other("x")
    'o'
    """
    return "o" if mark == "x" else "x"


def seat(record: TableRecord, mark: Mark) -> SeatRecord:
    return record.x if mark == "x" else record.o


def members(record: TableRecord, mark: Mark) -> tuple[SeatRecord, ...]:
    """Everyone playing `mark`: the seat holder, then (teams) the teammates in joining order."""
    holder = seat(record, mark)
    mates = record.x_mates if mark == "x" else record.o_mates
    return (holder, *mates) if holder.taken else mates


def with_seat(record: TableRecord, mark: Mark, holder: SeatRecord) -> TableRecord:
    return (
        dataclasses.replace(record, x=holder)
        if mark == "x"
        else dataclasses.replace(record, o=holder)
    )


def named(record: TableRecord, mark: Mark, name: str) -> TableRecord:
    """The record with `mark`'s seat (a team: its side) called `name`."""
    return with_seat(record, mark, dataclasses.replace(seat(record, mark), name=name))
