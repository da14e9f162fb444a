"""Draws by agreement: one side offers, the other accepts (or the next move declines it). At one
device both people are at the screen, so an offer there is already an agreement."""

from __future__ import annotations

import dataclasses

from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import Refused, StaleCommand
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.game import finish
from tictactoe.server.table.seats import Mark, other, seat


def offer_draw(record: TableRecord, mark: Mark, now: float) -> Decision:
    """`mark` offers a draw, or accepts the pending offer of the other side."""
    if record.result is not None:
        raise Refused(409, "the game is already over", "game-over")
    if not seat(record, other(mark)).taken:
        raise Refused(409, "nobody has taken the other seat yet", "no-opponent")
    if record.draw_offer == mark:
        raise Refused(409, "you have offered a draw already", "draw-pending")
    if record.draw_offer == other(mark) or record.opponent == "here":
        return agreed(record, now)
    after = stamped(dataclasses.replace(record, draw_offer=mark), now)
    return Decision(after, (Event("draw-offered", after.version, mark=mark),))


def answer_draw(
    record: TableRecord, mark: Mark, accept: bool, now: float, version: int | None = None
) -> Decision:
    """The computer's answer (as `mark`) to the draw offered to it, decided at `version`."""
    if version is not None and version != record.version:
        raise StaleCommand(
            409, f"stale version {version}: the table is at {record.version}", "stale-version"
        )
    if accept and record.draw_offer == other(mark):
        return agreed(record, now)
    return declined(record, mark, now)


def agreed(record: TableRecord, now: float) -> Decision:
    """The game ends drawn by agreement; the score counts it as a draw."""
    ended = finish(Clock(record, now).stopped(), "draw", "agreement")
    after = stamped(dataclasses.replace(ended, draw_offer=None), now)
    event = Event("game-over", after.version, result="draw", ended_by="agreement")
    return Decision(after, (event,))


def declined(record: TableRecord, by: Mark, now: float) -> Decision:
    """The offer to `by` is turned down (the computer's answer; a person declines by moving)."""
    if record.draw_offer != other(by) or record.result is not None:
        raise Refused(409, "no draw is offered to you", "no-draw-offered")
    after = stamped(dataclasses.replace(record, draw_offer=None), now)
    return Decision(after, (Event("draw-declined", after.version, mark=by),))
