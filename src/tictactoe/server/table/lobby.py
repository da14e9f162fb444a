"""Open tables: which public tables are listed while they wait for someone, and which one a
visitor asking to "play someone now" is paired with. Pure: the caller says who is connected."""

from __future__ import annotations

import dataclasses
from collections.abc import Callable, Iterable
from typing import Any

from tictactoe.server.storage import TableRecord
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.seats import MARKS, Mark, other, seat

# The list shows this many tables at most, and one per creator's browser, so that one visitor
# cannot fill it however many tables they open.
LISTED = 30


def creator_mark(record: TableRecord) -> Mark | None:
    """The seated side of a table waiting for its second person (None: not waiting)."""
    taken = [mark for mark in MARKS if seat(record, mark).taken]
    return taken[0] if len(taken) == 1 else None


def settings(
    variant: str,
    size: int,
    line: int,
    teams: bool,
    takebacks: bool,
    clock_minutes: float | None,
    clock_increment: float,
) -> dict[str, Any]:
    """What a stranger chooses a table by (and what "play someone now" matches)."""
    return {
        "variant": variant,
        "size": size,
        "line": line,
        "teams": teams,
        "takebacks": takebacks,
        "clock_minutes": clock_minutes,
        "clock_increment": clock_increment if clock_minutes else 0.0,
    }


def settings_of(record: TableRecord) -> dict[str, Any]:
    """`settings` of a table as stored."""
    minutes = None if record.clock_seconds is None else record.clock_seconds / 60
    return settings(
        record.variant,
        record.size,
        record.line,
        record.teams,
        record.takebacks,
        minutes,
        record.clock_increment,
    )


def listed(
    records: Iterable[TableRecord],
    creator_here: Callable[[TableRecord], bool],
    address_of: Callable[[TableRecord], str | None] = lambda record: None,
) -> list[TableRecord]:
    """The open tables to show, newest first: public, waiting, their creator still connected, one
    per creator's browser and one per creator's address (where it is known)."""
    shown: list[TableRecord] = []
    creators: set[str] = set()
    for record in sorted(records, key=lambda r: r.created_at, reverse=True):
        mark = creator_mark(record)
        if not record.public or record.result is not None or mark is None:
            continue
        client, address = seat(record, mark).client_hash, address_of(record)
        who = {f"client:{client}"} if client is not None else set()
        if address is not None:
            who.add(f"address:{address}")
        if who & creators or not creator_here(record):
            continue
        creators |= who
        shown.append(record)
        if len(shown) == LISTED:
            break
    return shown


def stop_waiting(record: TableRecord, mark: Mark, now: float) -> Decision:
    """`mark`, alone at the table, stops waiting: the table is no longer public, so neither the
    list nor quick pairing offers it. Too late once someone has sat down (`seats-taken`)."""
    if seat(record, other(mark)).taken:
        raise Refused(409, "someone has taken the other seat: the game is on", "seats-taken")
    after = stamped(dataclasses.replace(record, public=False), now)
    return Decision(after, (Event("stopped-waiting", after.version, mark=mark),))


def partner_for(
    records: Iterable[TableRecord], wanted: dict[str, Any], client_hash: str | None
) -> list[TableRecord]:
    """The listed tables a visitor may be paired with, oldest first: the same settings, and not
    opened by the visitor's own browser."""
    mine = [
        record
        for record in records
        if settings_of(record) == wanted
        and (client_hash is None or _creator_client(record) != client_hash)
    ]
    return sorted(mine, key=lambda r: r.created_at)


def _creator_client(record: TableRecord) -> str | None:
    mark = creator_mark(record)
    return None if mark is None else seat(record, mark).client_hash
