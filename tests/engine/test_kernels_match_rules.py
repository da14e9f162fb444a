"""The kernels against the rules library: perft counts, and thousands of random games compared
move for move (legal moves, states, results)."""

from __future__ import annotations

import random
from pathlib import Path

import numpy as np
import pytest

import tictactoe
from tictactoe.engine import standard_kernel as sk
from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine.perft import perft
from tictactoe.engine.position import (
    standard_cell_index,
    standard_cell_name,
    standard_masks,
    ultimate_cell_index,
    ultimate_cell_name,
    ultimate_state,
)
from tictactoe.rules.perft import perft as rules_perft

TESTS = Path(__file__).parent.parent
RESULTS = {uk.PLAYING: None, uk.X_WON: "x", uk.O_WON: "o", uk.DRAW: "draw"}
STANDARD_SHAPES = [(3, 3), (4, 3), (4, 4), (5, 3), (5, 4), (5, 5)]


def rows(path: Path) -> list[list[str]]:
    lines = path.read_text().splitlines()
    return [line.split() for line in lines if line.strip() and not line.startswith("#")]


def start(variant: str, size: str, line: str) -> tictactoe.Game:
    if variant == "ultimate":
        return tictactoe.new_game("ultimate")
    return tictactoe.new_game("standard", size=int(size), line=int(line))


@pytest.mark.parametrize(
    ("variant", "size", "line", "depth", "count"),
    rows(TESTS / "rules" / "perft.txt") + rows(TESTS / "engine" / "perft.txt"),
)
def test_kernel_perft_matches_the_known_count(
    variant: str, size: str, line: str, depth: str, count: str
) -> None:
    assert perft(start(variant, size, line), int(depth)) == int(count)


@pytest.mark.parametrize(("size", "line"), STANDARD_SHAPES)
def test_standard_kernel_perft_matches_the_rules_library(size: int, line: int) -> None:
    game = tictactoe.new_game("standard", size=size, line=line)
    for depth in range(1, 5 if size < 5 else 4):
        assert perft(game, depth) == rules_perft(game, depth)


def test_ultimate_kernel_perft_matches_the_rules_library_from_midgame_positions() -> None:
    rng = random.Random(7)
    for _ in range(20):
        game = tictactoe.new_game("ultimate")
        for _ in range(rng.randrange(10, 50)):
            if game.is_over:
                break
            game = game.play(rng.choice(game.legal_moves()))
        for depth in (1, 2, 3):
            assert perft(game, depth) == rules_perft(game, depth), game.position()


def kernel_ultimate_moves(s: np.ndarray) -> list[str]:
    cells = np.empty(81, dtype=np.int64)
    n = uk.legal_moves(s, cells)
    assert n == uk.legal_count(s)
    return sorted(ultimate_cell_name(int(c)) for c in cells[:n])


def test_ultimate_kernel_plays_thousands_of_random_games_like_the_rules_library() -> None:
    rng = random.Random(2026)
    for _ in range(2000):
        game = tictactoe.new_game("ultimate")
        s = uk.new_state()
        while True:
            assert kernel_ultimate_moves(s) == game.legal_moves()
            assert RESULTS[int(s[uk.RESULT])] == game.result
            if game.is_over:
                break
            move = rng.choice(game.legal_moves())
            game = game.play(move)
            uk.play(s, ultimate_cell_index(move))
        # The state read back from the final position code is the one the kernel built.
        again = tictactoe.Game.from_position("ultimate", game.position())
        assert ultimate_state(again).tolist() == s.tolist()


def test_ultimate_state_from_a_position_code_matches_the_played_state() -> None:
    rng = random.Random(11)
    for _ in range(300):
        game = tictactoe.new_game("ultimate")
        s = uk.new_state()
        for _ in range(rng.randrange(0, 60)):
            if game.is_over:
                break
            move = rng.choice(game.legal_moves())
            game = game.play(move)
            uk.play(s, ultimate_cell_index(move))
        again = tictactoe.Game.from_position("ultimate", game.position())
        assert ultimate_state(again).tolist() == s.tolist()


def test_random_playouts_end_with_a_result_the_rules_library_agrees_with() -> None:
    # Random playouts in the kernel, replayed through the rules library.
    rng = np.ones(1, dtype=np.uint64)
    for seed in range(300):
        rng[0] = np.uint64(seed * 2 + 1)
        s = uk.new_state()
        game = tictactoe.new_game("ultimate")
        while s[uk.RESULT] == uk.PLAYING:
            cell = uk.random_move(s, rng)
            uk.play(s, cell)
            game = game.play(ultimate_cell_name(cell))
        assert RESULTS[int(s[uk.RESULT])] == game.result


@pytest.mark.parametrize(("size", "line"), STANDARD_SHAPES)
def test_standard_kernel_sees_the_same_lines_and_threats_as_the_rules_library(
    size: int, line: int
) -> None:
    rng = random.Random(size * 10 + line)
    lines, _ = sk.tables(size, line)
    for _ in range(300):
        game = tictactoe.new_game("standard", size=size, line=line)
        while not game.is_over:
            x, o = standard_masks(game)
            me, other = (x, o) if game.turn == "x" else (o, x)
            mine, _ = sk.threats(me, other, lines, line)
            for move in game.legal_moves():
                wins = game.play(move).result == game.turn
                assert wins == bool(mine >> standard_cell_index(move, size) & 1)
            game = game.play(rng.choice(game.legal_moves()))
        x, o = standard_masks(game)
        assert sk.has_line(x, lines) == (game.result == "x")
        assert sk.has_line(o, lines) == (game.result == "o")


def test_cell_names_round_trip() -> None:
    assert [ultimate_cell_index(ultimate_cell_name(c)) for c in range(81)] == list(range(81))
    for size in (3, 4, 5):
        cells = range(size * size)
        assert [standard_cell_index(standard_cell_name(c, size), size) for c in cells] == list(
            cells
        )


def test_the_inlined_random_playout_plays_the_same_games_as_random_move() -> None:
    fast_rng = np.ones(1, dtype=np.uint64)
    slow_rng = np.ones(1, dtype=np.uint64)
    for seed in range(500):
        fast_rng[0] = slow_rng[0] = np.uint64(seed * 2 + 1)
        fast = uk.new_state()
        slow = uk.new_state()
        result = uk.random_playout(fast, fast_rng)
        while slow[uk.RESULT] == uk.PLAYING:
            uk.play(slow, uk.random_move(slow, slow_rng))
        assert result == slow[uk.RESULT]
        assert fast[: uk.O_MASKS + 9].tolist() == slow[: uk.O_MASKS + 9].tolist()


BIG_LINES = [(0, 1, 2), (3, 4, 5), (6, 7, 8), (0, 3, 6), (1, 4, 7), (2, 5, 8), (0, 4, 8), (2, 4, 6)]


def test_a_draw_is_certain_exactly_when_no_big_line_is_still_open_to_either_side() -> None:
    rng = random.Random(9)
    games_with_a_certain_draw = 0
    for _ in range(400):
        game = tictactoe.new_game("ultimate")
        ever_certain = False
        while not game.is_over:
            boards = game.boards()  # type: ignore[attr-defined]
            open_to = {
                mark: any(all(boards[b] in (None, mark) for b in line) for line in BIG_LINES)
                for mark in ("x", "o")
            }
            certain = bool(uk.draw_is_certain(ultimate_state(game)))
            assert certain == (not open_to["x"] and not open_to["o"])
            ever_certain = ever_certain or certain
            game = game.play(rng.choice(game.legal_moves()))
        if ever_certain:
            games_with_a_certain_draw += 1
            assert game.result == "draw"
    assert games_with_a_certain_draw > 0
