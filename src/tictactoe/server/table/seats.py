"""Who sits where: the two marks, the computer's `by`, a side's members (the seat holder, then
teammates), and which mark a person (seat token hash) or a browser (cookie hash) plays."""

from __future__ import annotations

import dataclasses
import hmac

from tictactoe.server.storage import MARKS as MARKS
from tictactoe.server.storage import Mark as Mark
from tictactoe.server.storage import SeatRecord, TableRecord

# The `by` of the computer's own commands; a token hash is 64 hex digits, so it never collides.
COMPUTER = "computer"


def other(mark: Mark) -> Mark:
    """The opponent's mark.

    >>> other("x")
    'o'
    """
    return "o" if mark == "x" else "x"


def seat(record: TableRecord, mark: Mark) -> SeatRecord:
    """Who holds `mark`'s seat."""
    return record.side(mark).holder


def members(record: TableRecord, mark: Mark) -> tuple[SeatRecord, ...]:
    """Everyone playing `mark`: the seat holder, then (teams) the teammates in joining order."""
    return record.side(mark).members


def with_seat(record: TableRecord, mark: Mark, holder: SeatRecord) -> TableRecord:
    return record.replace_side(mark, holder=holder)


def mark_of(record: TableRecord, person: str | None) -> Mark | None:
    """The mark a person (seat token hash, or COMPUTER) plays in the current game."""
    if person is None:
        return None
    for mark in MARKS:
        for holder in members(record, mark):
            if person == COMPUTER:
                if holder.computer:
                    return mark
            elif holder.token_hash is not None and hmac.compare_digest(holder.token_hash, person):
                return mark
    return None


def person_of_client(record: TableRecord, client_hash: str | None) -> str | None:
    """The person (seat token hash) whose seat is bound to this browser cookie, if any."""
    if client_hash is None:
        return None
    for mark in MARKS:
        for holder in members(record, mark):
            if holder.client_hash is not None and hmac.compare_digest(
                holder.client_hash, client_hash
            ):
                return holder.token_hash
    return None


def named(record: TableRecord, mark: Mark, name: str) -> TableRecord:
    """The record with `mark`'s seat (a team: its side) called `name`."""
    return with_seat(record, mark, dataclasses.replace(seat(record, mark), name=name))
