"""Draws by agreement: one side offers, the other accepts (or the next move declines it). At one
device both people are at the screen, so an offer there is already an agreement."""

from __future__ import annotations

import dataclasses

from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.events import Event
from tictactoe.server.table.game import finish
from tictactoe.server.table.seats import Mark, other, seat


def offered(record: TableRecord, mark: Mark, now: float) -> tuple[TableRecord, list[Event]]:
    """`mark` offers a draw, or accepts the pending offer of the other side; the record comes
    back with its version and time still to be set by the caller."""
    if record.result is not None:
        raise Refused(409, "the game is already over")
    if not seat(record, other(mark)).taken:
        raise Refused(409, "nobody has taken the other seat yet")
    if record.draw_offer == mark:
        raise Refused(409, "you have offered a draw already", reason="draw-pending")
    version = record.version + 1
    if record.draw_offer == other(mark) or record.opponent == "here":
        return agreed(record, now)
    return dataclasses.replace(record, draw_offer=mark), [Event("draw-offered", version, mark=mark)]


def agreed(record: TableRecord, now: float) -> tuple[TableRecord, list[Event]]:
    """The game ends drawn by agreement; the score counts it as a draw."""
    record = finish(Clock(record, now).stopped(), "draw", "agreement")
    record = dataclasses.replace(record, draw_offer=None)
    return record, [Event("game-over", record.version + 1, result="draw", ended_by="agreement")]


def declined(record: TableRecord, by: Mark) -> tuple[TableRecord, list[Event]]:
    """The offer to `by` is turned down (the computer's answer; a person declines by moving)."""
    if record.draw_offer != other(by) or record.result is not None:
        raise Refused(409, "no draw is offered to you")
    return dataclasses.replace(record, draw_offer=None), [
        Event("draw-declined", record.version + 1, mark=by)
    ]
