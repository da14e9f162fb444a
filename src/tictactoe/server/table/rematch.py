"""A rematch: once a game is over each side asks (the computer always agrees), and when both
have, the next game starts with the marks swapped: each side (its people, score and team)
plays the other mark."""

from __future__ import annotations

import dataclasses

from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.seats import MARKS, Mark


def ask_rematch(record: TableRecord, mark: Mark, now: float) -> Decision:
    """`mark` asks for the next game; it starts at once if the other side asked (or is the
    computer)."""
    if record.result is None:
        raise Refused(409, "a rematch can be asked for once the game is over", "game-in-progress")
    # One device: both people are at the screen, so one ask is both.
    askers = MARKS if record.opponent == "here" else (mark,)
    for asker in askers:
        record = record.replace_side(asker, rematch=True)
    after = stamped(record, now)
    events = [Event("rematch-asked", after.version, mark=mark)]
    if all(side.rematch or side.holder.computer for side in (after.x, after.o)):
        after = start_rematch(after)
        events.append(Event("game-started", after.version))
    return Decision(after, tuple(events))


def start_rematch(record: TableRecord) -> TableRecord:
    """The next game at the table: the marks swap, and each person's score goes with them, so
    whoever was O moves first as X with the same seat token."""
    swapped = dataclasses.replace(
        record,
        game_number=record.game_number + 1,
        moves=(),
        result=None,
        ended_by=None,
        x=dataclasses.replace(record.o, rematch=False),
        o=dataclasses.replace(record.x, rematch=False),
        takeback_by=None,
        draw_offer=None,
    )
    return Clock(swapped, swapped.updated_at).reset()
