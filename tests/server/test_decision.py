"""The table's decisions as a pure function, tried on random command sequences from both seats,
the computer and strangers (hypothesis): what is accepted, what is refused, and what each
accepted command does to the record."""

from __future__ import annotations

import dataclasses
import math

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.server.records import a_table

from tictactoe import Game
from tictactoe.server.storage import SeatRecord, Side, TableRecord
from tictactoe.server.table.claim import claim_window
from tictactoe.server.table.clock import Clock, side_to_move
from tictactoe.server.table.commands import (
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
    TakeSeat,
    TimeOut,
)
from tictactoe.server.table.decision import decide
from tictactoe.server.table.events import Decision
from tictactoe.server.table.game import build_game
from tictactoe.server.table.seats import COMPUTER, Mark, other, seat

ALICE, BOB, CAROL, STRANGER = "a" * 64, "b" * 64, "e" * 64, "5" * 64
ALICE_CLIENT, BOB_CLIENT = "c" * 64, "d" * 64


@st.composite
def tables(draw: st.DrawFn) -> TableRecord:
    """A fresh table: Alice holds x; o is free, or the computer's."""
    variant = draw(st.sampled_from(["standard", "standard", "ultimate"]))
    computer = draw(st.booleans())
    clock = draw(st.sampled_from([None, 5.0, 60.0]))
    return a_table(
        variant=variant,
        size=3 if variant == "standard" else 9,
        opponent="computer" if computer else "friend",
        x=Side(SeatRecord(ALICE, ALICE_CLIENT), time_left=clock),
        o=Side(SeatRecord(computer=True), time_left=clock) if computer else Side(time_left=clock),
        takebacks=draw(st.booleans()),
        teams=draw(st.booleans()) and not computer,
        clock_seconds=clock,
        clock_increment=draw(st.sampled_from([0.0, 2.0])) if clock else 0.0,
        created_at=1000.0,
        updated_at=1000.0,
    )


def person(record: TableRecord, mark: Mark) -> str | None:
    """Who plays `mark` (COMPUTER for the computer; None for a free seat)."""
    holder = seat(record, mark)
    return COMPUTER if holder.computer else holder.token_hash


def a_step(draw: st.DrawFn, record: TableRecord, game: Game) -> tuple[Command, str | None]:
    """A command and who sends it: mostly one that may be accepted, from the one who may send
    it; sometimes from anyone at all (the other side, the computer, a stranger, nobody)."""
    mover = side_to_move(record)
    legal = game.legal_moves() if not game.is_over else []
    move = draw(st.sampled_from(legal)) if legal and draw(st.integers(0, 9)) else "z9"
    version = draw(st.sampled_from([None, None, record.version, record.version - 1]))
    asker: Mark = record.takeback_by if record.takeback_by in ("x", "o") else mover  # type: ignore[assignment]
    either = draw(st.sampled_from(["x", "o"]))
    command, by = draw(
        st.sampled_from(
            [
                (PlayMove(move, version), person(record, mover)),
                (PlayMove(move, version), person(record, mover)),
                (PlayMove(move, version), person(record, mover)),
                (TakeSeat(draw(st.sampled_from([BOB, CAROL])), BOB_CLIENT), None),
                (Resign(), person(record, either)),
                (AskRematch(), person(record, either)),
                (ClaimWin(), person(record, either)),
                (AskTakeback(), person(record, other(mover))),
                (AnswerTakeback(draw(st.booleans())), person(record, other(asker))),
                (TimeOut(), COMPUTER),
                (OfferDraw(), person(record, either)),
                (SetName("Ana María"), person(record, either)),
            ]
        )
    )
    if draw(st.integers(0, 4)) == 0:
        by = draw(st.sampled_from([ALICE, BOB, CAROL, COMPUTER, STRANGER, None]))
    return command, by


def check_accepted(before: TableRecord, decision: Decision, now: float) -> None:
    after = decision.record
    assert after.version == before.version + 1
    assert decision.events and all(event.version == after.version for event in decision.events)
    kinds = [event.kind for event in decision.events]
    if "game-started" in kinds:
        # The marks swap and each side (its people, teammates and score) goes with them.
        for mark, was in (("x", before.o), ("o", before.x)):
            side = after.side(mark)
            assert (side.holder, side.mates, side.score) == (was.holder, was.mates, was.score)
            assert not side.rematch
        assert after.draws == before.draws
        assert after.game_number == before.game_number + 1 and after.moves == ()
    else:
        assert after.game_number == before.game_number
        # The clock never runs for the side not to move: its time is what it was.
        idle = other(side_to_move(before))
        assert math.isclose(Clock(after, now).left(idle), Clock(before, now).left(idle))
    if "moved" in kinds:
        assert before.result is None
        assert after.moves[:-1] == before.moves and decision.move is not None
    if before.result is not None:
        assert "moved" not in kinds and "taken-back" not in kinds


def check_clock_idle_side(record: TableRecord, now: float, later: float) -> None:
    """As time passes, only the side to move loses time, and only while the game is on."""
    running = Clock(record, now).running
    assert running is None or (running == side_to_move(record) and record.result is None)
    for mark in ("x", "o"):
        earlier_left, later_left = Clock(record, now).left(mark), Clock(record, later).left(mark)
        if mark != running:
            assert earlier_left == later_left
        else:
            assert later_left <= earlier_left


@settings(max_examples=120, deadline=None)
@given(st.data(), tables())
def test_random_command_sequences(data: st.DataObject, record: TableRecord) -> None:
    now = 1000.0
    history = [record]  # every accepted record, in order
    accepted = 0
    for _ in range(data.draw(st.integers(5, 50))):
        now += data.draw(st.sampled_from([0.0, 0.5, 3.0, 30.0]))
        game = build_game(record)
        command, by = a_step(data.draw, record, game)
        # Who is away is the actor's to know: here, anyone may have left at any time.
        away = data.draw(st.one_of(st.none(), st.floats(900.0, now)))
        claim = claim_window(
            record,
            game,
            lambda _mark, away=away: away,
            data.draw(st.floats(900.0, now)),
            data.draw(st.sampled_from([0.0, 60.0])),
        )
        snapshot = dataclasses.replace(record)
        try:
            decision = decide(record, command, by, now, game=game, claim=claim)
        except Refused as refusal:
            # A refused command changes nothing, and says why in the contract's terms.
            assert record == snapshot
            assert refusal.status in (401, 403, 409, 422)
            if isinstance(refusal, StaleCommand):
                assert isinstance(command, PlayMove) and command.version != record.version
            if isinstance(command, PlayMove) and record.result is not None:
                assert refusal.status in (401, 403, 409, 422)
            continue
        # A finished game accepts no move.
        assert not (isinstance(command, PlayMove) and record.result is not None)
        check_accepted(record, decision, now)
        if any(event.kind == "taken-back" for event in decision.events):
            # An accepted takeback returns to the record from before the undone moves.
            earlier = next(
                old
                for old in reversed(history)
                if old.game_number == record.game_number and old.moves == decision.record.moves
            )
            assert build_game(decision.record).position() == build_game(earlier).position()
            assert decision.record.result is None and decision.record.takeback_by is None
        check_clock_idle_side(decision.record, now, now + 1.5)
        record = decision.record
        history.append(record)
        accepted += 1
    assert history[-1].version == history[0].version + accepted


def test_a_finished_game_refuses_every_move() -> None:
    record = a_table(variant="standard", size=3, o=Side(SeatRecord(BOB, BOB_CLIENT)))
    for move, by in [("b2", ALICE), ("a1", BOB), ("c3", ALICE)]:
        record = decide(record, PlayMove(move), by, 1000.0).record
    record = decide(record, Resign(), BOB, 1000.0).record
    assert (record.result, record.ended_by, record.x.score) == ("x", "resign", 1)
    for move in build_game(record).legal_moves():
        for by in (ALICE, BOB):
            try:
                decide(record, PlayMove(move), by, 1001.0)
            except Refused as refusal:
                assert refusal.status == 422 and refusal.reason == "game-over"
            else:
                raise AssertionError("a move was accepted after the game ended")


def test_a_stale_version_is_refused_as_stale() -> None:
    record = a_table(variant="standard", size=3, o=Side(SeatRecord(BOB, BOB_CLIENT)), version=4)
    try:
        decide(record, PlayMove("b2", version=3), ALICE, 1000.0)
    except StaleCommand as stale:
        assert stale.status == 409 and "version 4" in stale.message
    else:
        raise AssertionError("a stale move was accepted")
