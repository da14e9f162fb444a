"""A table's decisions, as a pure function like the rules library: a table's record and a command
in, the new record and the events out.

`decide(record, command, by, now)` returns a `Decision` (the record one version on, its events, and
what the move log gains or loses), or raises `Refused` having changed nothing. It knows nothing
of asyncio, storage, pub/sub or the web; the actor (`actor.Table`) does the I/O around it: load,
decide, save, publish, schedule. Rematch, claim, takeback, clock and resign are small pieces
beside it (`rematch`, `claim`, `takeback`, `clock`, `resign`); seats and moves are here.
"""

from __future__ import annotations

import dataclasses

from tictactoe import Game, IllegalMoveError
from tictactoe.server.storage import MoveRecord, SeatRecord, TableRecord
from tictactoe.server.table.claim import ClaimWindow, claim_win
from tictactoe.server.table.clock import Clock, time_out
from tictactoe.server.table.commands import (
    AnswerDraw,
    AnswerTakeback,
    AskRematch,
    AskTakeback,
    ClaimWin,
    Command,
    OfferDraw,
    PlayMove,
    Refused,
    Resign,
    SetName,
    StaleCommand,
    StopWaiting,
    TakeSeat,
    TimeOut,
)
from tictactoe.server.table.draw import answer_draw, offer_draw
from tictactoe.server.table.events import Decision, Event, stamped
from tictactoe.server.table.game import build_game, finish
from tictactoe.server.table.lobby import stop_waiting
from tictactoe.server.table.rematch import ask_rematch
from tictactoe.server.table.resign import resign
from tictactoe.server.table.seats import (
    MARKS,
    Mark,
    mark_of,
    members,
    named,
    other,
    person_of_client,
    seat,
    with_seat,
)
from tictactoe.server.table.takeback import answer_takeback, ask_takeback

# People a side may have at a team table (the seat holder and teammates): a table stays small.
MAX_TEAM_SIZE = 8


def decide(
    record: TableRecord,
    command: Command,
    by: str | None,
    now: float,
    *,
    game: Game | None = None,
    claim: ClaimWindow | None = None,
) -> Decision:
    """The table after `command` from `by` (a seat token hash, COMPUTER, or None) at time `now`.

    `game` is the rules' game for `record` (built from it when not given); `claim` is who could
    claim the win and from when (see `claim.claim_window`: it depends on who is connected, which
    the actor knows). Raises `Refused` (`StaleCommand` for a move pinned to an old version)."""
    if isinstance(command, TakeSeat):
        return take_seat(record, command, now)
    if isinstance(command, TimeOut):
        return time_out(record, now)
    mark = player_mark(record, by)
    if isinstance(command, AnswerDraw):
        return answer_draw(record, mark, command.accept, now, command.version)
    game = game if game is not None else build_game(record)
    one_device = record.opponent == "here"
    if one_device and not isinstance(command, SetName):
        # Both people share one screen: whoever's turn it is acts (the last mover takes back).
        turn: Mark = game.turn  # type: ignore[assignment]
        mark = other(turn) if isinstance(command, AskTakeback) else turn
    if isinstance(command, SetName):
        if one_device and command.side is not None:
            mark = command.side
        after = stamped(named(record, mark, command.name), now)
        return Decision(after, (Event("name-set", after.version, mark=mark),))
    if isinstance(command, OfferDraw):
        return offer_draw(record, mark, now)
    if isinstance(command, PlayMove):
        return play_move(record, game, mark, command, now)
    if isinstance(command, Resign):
        return resign(record, mark, now)
    if isinstance(command, ClaimWin):
        return claim_win(record, mark, now, claim)
    if isinstance(command, AskRematch):
        return ask_rematch(record, mark, now)
    if isinstance(command, AskTakeback):
        return ask_takeback(record, mark, now)
    if isinstance(command, AnswerTakeback):
        return answer_takeback(record, mark, command.accept, now)
    if isinstance(command, StopWaiting):
        return stop_waiting(record, mark, now)
    raise TypeError(f"unknown command {command!r}")


def player_mark(record: TableRecord, by: str | None) -> Mark:
    """The mark `by` plays; refuses strangers (401 without a token, 403 with someone else's)."""
    if by is None:
        raise Refused(401, "a seat token is needed to play", "no-token")
    mark = mark_of(record, by)
    if mark is None:
        raise Refused(403, "you do not sit at this table", "not-seated")
    return mark


def play_move(
    record: TableRecord, game: Game, mark: Mark, command: PlayMove, now: float
) -> Decision:
    """`mark` plays `command.move`: the clock charges the mover, and the game may end."""
    if command.version is not None and command.version != record.version:
        raise StaleCommand(
            409,
            f"stale version {command.version}: the table is at version {record.version}",
            "stale-version",
        )
    if record.result is not None:
        ran_out = " on time" if record.ended_by == "time" else ""
        raise Refused(422, f"the game is over{ran_out}", "game-over")
    if game.turn != mark:
        raise Refused(403, f"it is {game.turn.upper()}'s turn, not yours", "not-your-turn")
    if not opponent_seated(record, mark):
        raise Refused(409, "nobody has taken the other seat yet: wait for them", "no-opponent")
    try:
        after_move = game.play(command.move)
    except IllegalMoveError as error:
        raise Refused(422, str(error), error.reason) from None
    # One version on (as `stamped` makes it, in the same copy of the record's ~40 fields).
    after = dataclasses.replace(
        Clock(record, now).after_move(mark),
        moves=(*record.moves, command.move),
        # A takeback request (or draw offer) lapses once another move is played.
        takeback_by=None,
        draw_offer=None,
        version=record.version + 1,
        updated_at=now,
    )
    events = [Event("moved", after.version, mark=mark, move=command.move)]
    # What the move let lapse, so that the asker's page can say so without comparing tables.
    if record.draw_offer is not None:
        asker = mark if record.draw_offer == mark else other(mark)
        events.append(Event("draw-lapsed", after.version, mark=asker))
    if record.takeback_by is not None:
        asker = mark if record.takeback_by == mark else other(mark)
        events.append(Event("takeback-lapsed", after.version, mark=asker))
    if after_move.result is not None:
        ended_by = "draw" if after_move.result == "draw" else "line"
        after = finish(Clock(after, now).stopped(), after_move.result, ended_by)
        events.append(
            Event("game-over", after.version, result=after.result, ended_by=after.ended_by)
        )
    move = MoveRecord(record.id, record.game_number, len(after.moves), command.move, now)
    return Decision(after, tuple(events), move=move, game=after_move)


def opponent_seated(record: TableRecord, mark: Mark) -> bool:
    """Whether `mark` has someone to play: the other seat is taken, or the table is played alone
    (against the computer, or both sides at one device)."""
    return record.opponent in ("computer", "here") or seat(record, other(mark)).taken


def take_seat(record: TableRecord, command: TakeSeat, now: float) -> Decision:
    """A newcomer sits down (the game may start: moves wait until both seats are taken)."""
    after = stamped(Clock(seated(record, command), now).started(), now)
    mark = mark_in(after, command.token_hash)
    return Decision(after, (Event("seat-taken", after.version, mark=mark),))


def seated(record: TableRecord, command: TakeSeat) -> TableRecord:
    """The record with the newcomer seated: in a free seat, or (teams) in a side. A browser holds
    one place at a table (decided here, under the table's serial owner, so that two joins at
    once from one browser cannot both pass)."""
    if command.client_hash is not None:
        held = mark_of(record, person_of_client(record, command.client_hash))
        if held is not None:
            raise Refused(
                409, f"you already sit at this table as {held.upper()}", reason="already-seated"
            )
    newcomer = SeatRecord(command.token_hash, command.client_hash)
    free = [mark for mark in MARKS if not seat(record, mark).taken]
    if command.side is not None and command.side in free:
        return with_seat(record, command.side, newcomer)
    if free and command.side is None:
        return with_seat(record, free[0], newcomer)
    if not record.teams or record.opponent == "computer":
        raise Refused(409, "both seats are taken; you can watch", "seats-taken")
    if not record.teams_open and record.moves:
        raise Refused(
            409,
            "this table's teams are closed while a game is played; join between games",
            "teams-closed",
        )
    fewer: Mark = min(MARKS, key=lambda mark: len(members(record, mark)))
    side: Mark = command.side if command.side is not None else fewer
    if len(members(record, side)) >= MAX_TEAM_SIZE:
        raise Refused(409, f"that side is full: at most {MAX_TEAM_SIZE} people a side", "side-full")
    if not seat(record, side).taken:
        return with_seat(record, side, newcomer)
    return record.replace_side(side, mates=(*record.side(side).mates, newcomer))


def mark_in(record: TableRecord, token_hash: str) -> Mark:
    """The mark of a seat token hash (which must be at the table)."""
    for mark in MARKS:
        if any(holder.token_hash == token_hash for holder in members(record, mark)):
            return mark
    raise LookupError(token_hash)
