"""What happened at a table: the events a command produced."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Literal

from tictactoe.server.table.seats import Mark


@dataclass(frozen=True, slots=True)
class Event:
    """Something that happened at the table; `version` is the table's version after it."""

    kind: Literal[
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
    ]
    version: int
    mark: Mark | None = None
    move: str | None = None
    result: str | None = None
    ended_by: str | None = None
