"""A rematch: once a game is over each side asks (the computer always agrees), and when both
have, the next game starts with the marks swapped and each person's score going with them."""

from __future__ import annotations

import dataclasses

from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.seats import Mark


def ask_rematch(record: TableRecord, mark: Mark, now: float) -> Decision:
    """`mark` asks for the next game; it starts at once if the other side asked (or is the
    computer)."""
    if record.result is None:
        raise Refused(409, "a rematch can be asked for once the game is over", "game-in-progress")
    after = stamped(
        dataclasses.replace(
            record,
            # One device: both people are at the screen, so one ask is both.
            rematch_x=record.rematch_x or mark == "x" or record.opponent == "here",
            rematch_o=record.rematch_o or mark == "o" or record.opponent == "here",
        ),
        now,
    )
    events = [Event("rematch-asked", after.version, mark=mark)]
    both = (after.rematch_x or after.x.computer) and (after.rematch_o or after.o.computer)
    if both:
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
        x=record.o,
        o=record.x,
        x_mates=record.o_mates,
        o_mates=record.x_mates,
        score_x=record.score_o,
        score_o=record.score_x,
        rematch_x=False,
        rematch_o=False,
        takeback_by=None,
        draw_offer=None,
    )
    return Clock(swapped, swapped.updated_at).reset()
