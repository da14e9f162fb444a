"""Property tests: random legal games checked against a plain reference implementation."""

from __future__ import annotations

from hypothesis import given, settings
from hypothesis import strategies as st
from tests.rules.reference import ReferenceStandard, ReferenceUltimate

from tictactoe import Game, IllegalMoveError, new_game
from tictactoe.rules.notation import cell_name

STANDARD_SETTINGS = [(3, 3), (4, 3), (4, 4), (5, 3), (5, 4), (5, 5)]
GARBAGE = ["", "e", "e55", "j1", "a0", "a10", "E5", " e5", None, 5]


def check_refusals(game: Game, reference_reason: object) -> None:
    """Every cell of the grid that is not legal is refused with the reference's reason, and the
    refusal leaves the game as it was."""
    before = game.position()
    legal = set(game.legal_moves())
    for index in range(game.size * game.size):
        name = cell_name(index, game.size)
        if name in legal:
            continue
        try:
            game.play(name)
        except IllegalMoveError as error:
            assert error.reason == reference_reason(name), name  # type: ignore[operator]
        else:
            raise AssertionError(f"{name} was accepted but is not in legal_moves()")
    for move in GARBAGE:
        try:
            game.play(move)  # type: ignore[arg-type]
        except IllegalMoveError as error:
            assert error.reason in ("malformed", "off-board")
        else:
            raise AssertionError(f"{move!r} was accepted")
    assert game.position() == before


def check_round_trips(game: Game) -> None:
    assert (
        Game.from_record(
            game.variant,
            game.record,
            size=game.size if game.variant == "standard" else None,
            line=game.line,
        ).position()
        == game.position()
    )
    again = Game.from_position(game.variant, game.position(), line=game.line)
    assert again.position() == game.position()
    assert again.legal_moves() == game.legal_moves()
    assert again.result == game.result


@settings(max_examples=150, deadline=None)
@given(st.data())
def test_random_ultimate_games_agree_with_the_reference(data: st.DataObject) -> None:
    game, reference = new_game("ultimate"), ReferenceUltimate()
    while True:
        assert set(game.legal_moves()) == reference.legal_moves()
        assert game.sent_to == reference.sent_to()
        assert game.boards() == [reference.board_state(b) for b in range(9)]
        assert game.result == reference.result
        if data.draw(st.integers(0, 9), label="check this ply") == 0 or game.result:
            check_refusals(game, reference.expected_reason)
            check_round_trips(game)
        if game.result is not None:
            assert game.legal_moves() == []
            break
        move = data.draw(st.sampled_from(game.legal_moves()), label="move")
        assert game.sends_to(move) == game.play(move).sent_to
        if data.draw(st.booleans(), label="ask for the position"):
            # A position asked for is patched into the next game's: it must stay the one
            # written from the marks (a game replayed from its moves, never asked before).
            game.position()
        after = game.play(move)
        replayed = new_game("ultimate")
        for earlier in after.moves:
            replayed = replayed.play(earlier)
        assert after.position() == replayed.position()
        assert after.moves == (*game.moves, move)
        reference.play(move)
        game = after


@settings(max_examples=150, deadline=None)
@given(st.sampled_from(STANDARD_SETTINGS), st.data())
def test_random_standard_games_agree_with_the_reference(
    size_line: tuple[int, int], data: st.DataObject
) -> None:
    size, line = size_line
    game, reference = new_game("standard", size=size, line=line), ReferenceStandard(size, line)
    while True:
        assert set(game.legal_moves()) == reference.legal_moves()
        assert game.result == reference.result
        refusal = "game-over" if game.result else "occupied"
        check_refusals(game, lambda name, refusal=refusal: refusal)
        check_round_trips(game)
        if game.result is not None:
            break
        move = data.draw(st.sampled_from(game.legal_moves()), label="move")
        game = game.play(move)
        reference.play(move)


@settings(max_examples=60, deadline=None)
@given(st.data())
def test_the_result_never_changes_once_set(data: st.DataObject) -> None:
    game = new_game("ultimate")
    while game.result is None:
        game = game.play(data.draw(st.sampled_from(game.legal_moves())))
    assert game.legal_moves() == []
    for move in ("e5", "a1", "i9"):
        try:
            game.play(move)
        except IllegalMoveError as error:
            assert error.reason in ("game-over", "occupied")
    assert Game.from_position("ultimate", game.position()).result == game.result


def test_play_leaves_the_game_it_was_called_on_unchanged() -> None:
    game = new_game("ultimate")
    before = game.position()
    game.play("e5")
    assert game.position() == before
    assert game.record == ""
