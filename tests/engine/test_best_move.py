"""What `best_move` promises: legal moves at every level, perfect play where the game is solved
in time, repeatable choices with a seed (how long `max` thinks is tested by the search's own
clock in tests/engine/test_max_search.py)."""

from __future__ import annotations

import random
import subprocess
import sys
from concurrent.futures import ThreadPoolExecutor

import pytest

import tictactoe
from tictactoe.engine import LEVELS, best_move, warm_up

VARIANTS = [
    ("ultimate", {}),
    ("standard", {"size": 3}),
    ("standard", {"size": 4, "line": 3}),
    ("standard", {"size": 4}),
    ("standard", {"size": 5}),
    ("standard", {"size": 5, "line": 3}),
]


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    warm_up()


def never_loses(game: tictactoe.Game, engine_side: str, cache: dict[str, str]) -> None:
    """Walk every sequence of opponent moves; the engine (seeded) answers each position."""
    if game.is_over:
        assert game.result in (engine_side, "draw"), game.record
        return
    if game.turn == engine_side:
        key = game.position()
        if key not in cache:
            cache[key] = best_move(game, "max", think_ms=100, seed=0)
        never_loses(game.play(cache[key]), engine_side, cache)
        return
    for move in game.legal_moves():
        never_loses(game.play(move), engine_side, cache)


@pytest.mark.parametrize("engine_side", ["x", "o"])
def test_max_never_loses_standard_3x3_against_any_sequence(engine_side: str) -> None:
    never_loses(tictactoe.new_game("standard", size=3), engine_side, {})


def always_wins(game: tictactoe.Game, cache: dict[str, str]) -> None:
    if game.is_over:
        assert game.result == "x", game.record
        return
    if game.turn == "x":
        key = game.position()
        if key not in cache:
            cache[key] = best_move(game, "max", think_ms=100, seed=0)
        always_wins(game.play(cache[key]), cache)
        return
    for move in game.legal_moves():
        always_wins(game.play(move), cache)


def test_max_as_x_wins_4x4_three_in_a_row_against_any_defence() -> None:
    always_wins(tictactoe.new_game("standard", size=4, line=3), {})


@pytest.mark.parametrize(("variant", "settings"), VARIANTS)
@pytest.mark.parametrize("level", LEVELS)
def test_the_same_seed_gives_the_same_move(
    variant: str, settings: dict[str, int], level: str
) -> None:
    game = tictactoe.Game.from_record(variant, "", **settings)
    for move in game.legal_moves()[:3]:
        after = game.play(move)
        first = best_move(after, level, think_ms=20, seed=42)
        assert first in after.legal_moves()
        assert all(best_move(after, level, think_ms=20, seed=42) == first for _ in range(2))


@pytest.mark.parametrize(("variant", "settings"), VARIANTS)
@pytest.mark.parametrize("level", LEVELS)
def test_every_level_plays_legal_moves_to_the_end_of_a_game(
    variant: str, settings: dict[str, int], level: str
) -> None:
    game = tictactoe.new_game(variant, **settings)
    while not game.is_over:
        game = game.play(best_move(game, level, think_ms=5))
    assert game.result in ("x", "o", "draw")


def positions_with_a_winning_move(count: int) -> list[tictactoe.Game]:
    """Positions from random games where the side to move can win the whole game at once, and
    not with every move."""
    rng = random.Random(5)
    found: list[tictactoe.Game] = []
    while len(found) < count:
        game = tictactoe.new_game("ultimate")
        while not game.is_over:
            moves = game.legal_moves()
            winning = [m for m in moves if game.play(m).result == game.turn]
            if winning and len(winning) < len(moves):
                found.append(game)
                break
            game = game.play(rng.choice(moves))
    return found


def test_hard_and_max_take_a_win_of_the_whole_game() -> None:
    for game in positions_with_a_winning_move(10):
        for level in ("hard", "max"):
            move = best_move(game, level, think_ms=20, seed=1)
            assert game.play(move).result == game.turn, game.position()


def test_max_blocks_a_standard_threat() -> None:
    game = tictactoe.Game.from_record("standard", "a1 b2 c3 a3")  # O threatens a3-b2-c1
    assert best_move(game, "max", think_ms=50) == "c1"


@pytest.mark.parametrize("level", ["strongest", "Max", ""])
def test_an_unknown_level_is_refused(level: str) -> None:
    with pytest.raises(ValueError, match="level"):
        best_move(tictactoe.new_game("ultimate"), level)


def test_a_finished_game_has_no_best_move() -> None:
    game = tictactoe.Game.from_record("standard", "a1 b1 a2 b2 a3")
    with pytest.raises(ValueError, match="over"):
        best_move(game)


def test_kernels_load_from_the_numba_cache_in_fresh_processes() -> None:
    # The second process loads what the first one compiled and cached; a kernel that caches badly
    # (recursion) crashes only there.
    code = (
        "import tictactoe; from tictactoe.engine import best_move\n"
        "for size, line in ((3, 3), (4, 3), (5, 4)):\n"
        "    best_move(tictactoe.new_game('standard', size=size, line=line), think_ms=20)\n"
        "print(best_move(tictactoe.new_game('ultimate'), think_ms=20))\n"
    )
    for _ in range(2):
        done = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True)
        assert done.returncode == 0, done.stderr
        assert done.stdout.strip() in tictactoe.new_game("ultimate").legal_moves()


@pytest.mark.parametrize(("weaker", "stronger"), [("easy", "medium"), ("medium", "hard")])
def test_each_level_beats_the_one_below_in_a_short_match(weaker: str, stronger: str) -> None:
    # Seeded levels below max are deterministic, so this match always plays out the same way.
    points = 0.0
    for game_number in range(6):
        stronger_mark = "x" if game_number % 2 == 0 else "o"
        game = tictactoe.new_game("ultimate")
        ply = 0
        while not game.is_over:
            level = stronger if game.turn == stronger_mark else weaker
            game = game.play(best_move(game, level, seed=game_number * 1000 + ply))
            ply += 1
        points += 1.0 if game.result == stronger_mark else 0.5 if game.result == "draw" else 0.0
    assert points >= 4.5


def test_searches_in_several_threads_at_once_all_answer_legally() -> None:
    games = [tictactoe.Game.from_record("ultimate", record) for record in ("e5 e4", "a1", "")]
    with ThreadPoolExecutor(max_workers=3) as pool:
        moves = list(pool.map(lambda g: best_move(g, "max", think_ms=30), games * 2))
    assert all(move in game.legal_moves() for move, game in zip(moves, games * 2, strict=True))


def test_standard_searches_in_threads_at_once_keep_their_own_rules() -> None:
    # 4×4 with 3 in a row is a win for X, with 4 in a row a draw: the same marks, other values.
    shapes = [(4, 3), (4, 4)] * 3
    with ThreadPoolExecutor(max_workers=6) as pool:
        moves = list(
            pool.map(
                lambda shape: best_move(
                    tictactoe.new_game("standard", size=shape[0], line=shape[1]), "max", 50
                ),
                shapes,
            )
        )
    empty_4x4 = tictactoe.new_game("standard", size=4).legal_moves()
    assert all(move in empty_4x4 for move in moves)
    # And the 4×4 three-in-a-row win still holds in a thread of its own afterwards.
    with ThreadPoolExecutor(max_workers=1) as pool:
        pool.submit(always_wins, tictactoe.new_game("standard", size=4, line=3), {}).result()
