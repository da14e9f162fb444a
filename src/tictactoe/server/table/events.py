"""What a decision produces: the events (explicit values, so a "what changed" frame can be built
from them), and the `Decision` that carries them with the new record and what the log gains or
loses."""

from __future__ import annotations

import dataclasses
from dataclasses import dataclass
from typing import Literal

from tictactoe import Game
from tictactoe.server.storage import MoveRecord, TableRecord, TakenBack
from tictactoe.server.table.seats import Mark

EventKind = Literal[
    "seat-taken",
    "moved",
    "game-over",
    "rematch-asked",
    "game-started",
    "takeback-asked",
    "taken-back",
    "takeback-declined",
    "name-set",
    "draw-offered",
    "draw-declined",
    "draw-lapsed",
    "takeback-lapsed",
    "stopped-waiting",
]


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table; `version` is the table's version after it.

    `mark` is who did it (seat-taken, moved, rematch-asked, name-set, draw-*, takeback-*: for
    taken-back, whose move was undone; for draw-lapsed and takeback-lapsed, whose offer or
    request a move let lapse), `move` the move played, `result`/`ended_by` how a game
    ended."""

    kind: EventKind
    version: int
    mark: Mark | None = None
    move: str | None = None
    result: str | None = None
    ended_by: str | None = None


@dataclass(frozen=True, slots=True)
class Decision:
    """An accepted command: the table's new record (one version on), what happened, the move to
    add to the log (if any) and the moves to take out of it (a takeback)."""

    record: TableRecord
    events: tuple[Event, ...]
    move: MoveRecord | None = None
    undone: TakenBack | None = None
    # The game after a move, so that the table's owner need not play the move again.
    game: Game | None = None


def stamped(record: TableRecord, now: float) -> TableRecord:
    """The record one version on, changed at `now`: every accepted command is one version."""
    return dataclasses.replace(record, version=record.version + 1, updated_at=now)
