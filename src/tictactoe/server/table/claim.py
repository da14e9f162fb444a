"""Claiming the win: the opponent of a player who is away on their turn may end the game, won,
once the player has been gone `claim_after` seconds (counted from when the turn began, if later).

Who is away is not stored (it says nothing once a process is gone): the actor knows it, and hands
the decision the moment the mover left."""

from __future__ import annotations

from collections.abc import Callable

from tictactoe import Game
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.game import finish, require_in_progress
from tictactoe.server.table.seats import Mark, other, seat

# Who could claim the win, and from when.
ClaimWindow = tuple[Mark, float]


def claim_window(
    record: TableRecord,
    game: Game,
    away_since: Callable[[Mark], float | None],
    turn_since: float,
    claim_after: float,
) -> ClaimWindow | None:
    """Who could claim, and from when: the opponent of a player away on their turn (not against
    the computer, and only once someone holds the opponent's seat)."""
    if record.result is not None or game.is_over:
        return None
    mover: Mark = game.turn  # type: ignore[assignment]
    away = away_since(mover)
    if away is None or seat(record, other(mover)).computer:
        return None
    if not seat(record, other(mover)).taken:
        return None
    return other(mover), max(away, turn_since) + claim_after


def claim_win(record: TableRecord, mark: Mark, now: float, window: ClaimWindow | None) -> Decision:
    """`mark` claims the win: accepted only inside the window."""
    require_in_progress(record)
    if window is None or window[0] != mark:
        raise Refused(
            403,
            "you can claim the win only while your opponent is away on their turn",
            "opponent-here",
        )
    if window[1] > now:
        raise Refused(
            403,
            f"your opponent may come back: you can claim in {window[1] - now:.0f} s",
            "claim-too-soon",
        )
    after = stamped(finish(Clock(record, now).stopped(), mark, "abandon"), now)
    return Decision(after, (Event("game-over", after.version, result=mark, ended_by="abandon"),))
