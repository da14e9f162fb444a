"""What can be asked of a table, and the refusal when it cannot be done."""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

from tictactoe.server.table.reasons import Reason
from tictactoe.server.table.seats import Mark

# Quick reactions, the only words players can send each other (translated by each viewer's page).
REACTIONS = ("good-move", "wow", "good-game", "oops", "thinking")


class Refused(Exception):
    """A command the table turns down: `status` is the HTTP status of the contract, `reason` the
    stable code a program acts on (`messages.REASONS`), `message` the words for a person."""

    def __init__(
        self,
        status: int,
        message: str,
        reason: Reason,
        table: dict[str, Any] | None = None,
    ) -> None:
        super().__init__(message)
        self.status = status
        self.message = message
        self.reason = reason
        # For a stale version: the fresh table, so the caller can catch up at once.
        self.table = table


class StaleCommand(Refused):
    """A command pinned to a version the table has moved past (409); the actor adds the table."""


@dataclass(frozen=True, slots=True)
class PlayMove:
    move: str
    version: int | None = None


@dataclass(frozen=True, slots=True)
class Resign:
    pass


@dataclass(frozen=True, slots=True)
class AskRematch:
    pass


@dataclass(frozen=True, slots=True)
class ClaimWin:
    pass


@dataclass(frozen=True, slots=True)
class TakeSeat:
    token_hash: str
    client_hash: str | None
    # Teams: the side to join (None: the free seat, else the side with fewer members).
    side: Mark | None = None


@dataclass(frozen=True, slots=True)
class AskTakeback:
    pass


@dataclass(frozen=True, slots=True)
class AnswerTakeback:
    accept: bool


@dataclass(frozen=True, slots=True)
class SetName:
    """A player names their seat (teams: their side); `name` is already cleaned (`clean_name`)."""

    name: str
    # One device: the side to name (both people share the browser's seats).
    side: Mark | None = None


@dataclass(frozen=True, slots=True)
class OfferDraw:
    """Offers a draw, or accepts the other side's pending offer."""


@dataclass(frozen=True, slots=True)
class AnswerDraw:
    """The computer's answer to a draw offered to it (sent by the table itself, as COMPUTER),
    pinned to the version it was decided at (None: any)."""

    accept: bool
    version: int | None = None


@dataclass(frozen=True, slots=True)
class StopWaiting:
    """The one person at an open table stops waiting for someone (quick pairing's Cancel): the
    table leaves the open list and is paired with nobody."""


@dataclass(frozen=True, slots=True)
class TimeOut:
    """The clock of the side to move has run out (sent by the table itself, as COMPUTER)."""


Command = (
    PlayMove
    | Resign
    | AskRematch
    | ClaimWin
    | TakeSeat
    | AskTakeback
    | AnswerTakeback
    | TimeOut
    | SetName
    | OfferDraw
    | AnswerDraw
    | StopWaiting
)
