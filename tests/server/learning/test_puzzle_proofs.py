"""Every shipped puzzle re-verified from its proof data with the rules library alone (not the
engine that mined it): the line is legal and wins on the solver's last move, each step lists every
other legal move with a legal reply, and a plain exhaustive search proves the rest: the solution
wins in time against any defence, no other move does (after its stored refutation the solver no
longer wins in time), the defender's replies hold out longest, and no shorter win exists."""

from __future__ import annotations

import pytest

from tictactoe import Game
from tictactoe.server.learning.puzzles import Puzzle, all_puzzles

# The exhaustive search runs over every puzzle, in this many parts (a few seconds each).
PARTS = 8


def wins_within(game: Game, n: int) -> bool:
    """Can the side to move win within `n` of its own moves against any defence?"""
    solver = game.turn
    if game.result is not None or n <= 0:
        return False
    children = [game.play(move) for move in game.legal_moves()]
    if any(child.result == solver for child in children):
        return True
    return n > 1 and any(every_reply_loses(child, n - 1) for child in children)


def every_reply_loses(game: Game, n: int) -> bool:
    """After the solver's move: does the solver win within `n` more moves whatever the reply?"""
    if game.result is not None:
        return False
    return all(wins_within(game.play(reply), n) for reply in game.legal_moves())


def move_wins_within(game: Game, move: str, n: int) -> bool:
    child = game.play(move)
    return child.result == game.turn or (n > 1 and every_reply_loses(child, n - 1))


def test_there_are_at_least_a_thousand_puzzles_with_unique_ids() -> None:
    puzzles = all_puzzles()
    assert len(puzzles) >= 1000
    assert len({p.id for p in puzzles}) == len(puzzles)
    assert len({p.position for p in puzzles}) == len(puzzles)


@pytest.mark.parametrize("chunk", range(4))
def test_every_line_is_legal_wins_on_the_last_move_and_lists_every_other_move(chunk: int) -> None:
    for puzzle in all_puzzles()[chunk::4]:
        check_proof_shape(puzzle)


def check_proof_shape(puzzle: Puzzle) -> None:
    game = puzzle.start()
    solver = game.turn
    assert game.result is None, puzzle.id
    assert len(puzzle.line) == 2 * puzzle.win_in - 1, puzzle.id
    assert len(puzzle.refutations) == puzzle.win_in, puzzle.id
    for ply, move in enumerate(puzzle.line):
        assert game.result is None, puzzle.id
        if ply % 2 == 0:
            refuted = puzzle.refutations[ply // 2]
            legal = set(game.legal_moves())
            assert set(refuted) | {move} == legal and move not in refuted, puzzle.id
            for wrong, reply in refuted.items():
                after = game.play(wrong)
                assert after.result != solver, f"{puzzle.id}: {wrong} wins too"
                if reply:
                    assert reply in after.legal_moves(), puzzle.id
                else:
                    assert after.result is not None, puzzle.id
        game = game.play(move)
    assert game.result == solver, puzzle.id


@pytest.mark.parametrize("part", range(PARTS))
def test_every_puzzle_is_proven_again_by_exhaustive_search(part: int) -> None:
    for puzzle in all_puzzles()[part::PARTS]:
        try:
            prove_again(puzzle)
        except AssertionError as error:
            raise AssertionError(f"{puzzle.id}: {error}") from None


def prove_again(puzzle: Puzzle) -> None:
    game = puzzle.start()
    assert not wins_within(game, puzzle.win_in - 1), "a shorter win exists"
    for step in range(puzzle.win_in):
        left = puzzle.win_in - step
        solution = puzzle.line[2 * step]
        assert move_wins_within(game, solution, left), f"step {step + 1}: {solution} does not win"
        for wrong, reply in puzzle.refutations[step].items():
            if reply:
                refuted = game.play(wrong).play(reply)
                assert not wins_within(refuted, left - 1), f"{wrong} {reply}: still wins"
        game = game.play(solution)
        if step + 1 < puzzle.win_in:
            game = game.play(puzzle.line[2 * step + 1])
            # The defence holds out longest: the solver needs every move left.
            assert not wins_within(game, left - 2), "the defender's reply is not the longest"
