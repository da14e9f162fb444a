"""`max-2026`, the frozen `max` the ladder measures the next one against: it searches with the
settings `max` had at fe1d5e4 whatever `max` plays with now, keeps its own tree apart from
`max`'s, repeats itself with a seed and a fixed budget, and is not a level players can pick."""

from __future__ import annotations

import copy
import random
import time

import numpy as np
import pytest

import tictactoe
from tictactoe.engine import LEVELS, levels, max_2026, player, warm_up
from tictactoe.engine import ultimate_search as us
from tictactoe.engine import value_net as vn
from tictactoe.engine.levels import LEVELS as LEVEL_TABLE
from tictactoe.engine.position import ultimate_cell_name, ultimate_state


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    warm_up(("ultimate",))


def test_it_is_not_a_level() -> None:
    assert max_2026.NAME not in LEVELS
    assert all(entry["name"] != max_2026.NAME for entry in levels())


def test_a_fixed_budget_repeats_and_is_the_frozen_search() -> None:
    game = tictactoe.Game.from_record("ultimate", "e5 e4 d2")
    first = max_2026.max_2026_move(game, seed=7, iterations=3000)
    assert first == max_2026.max_2026_move(game, seed=7, iterations=3000)
    assert first in game.legal_moves()
    # The same search spelled out with the frozen settings and network chooses the same move.
    search_seed = random.Random(7).getrandbits(48)
    shipped = vn.weights()
    vn.use_weights(vn.Weights(max_2026.NETWORK))
    try:
        frozen = us.search(
            ultimate_state(game), iterations=3000, seed=search_seed, **max_2026.SETTINGS
        )
    finally:
        vn.use_weights(shipped)
    assert first == ultimate_cell_name(frozen.cell)


def test_it_and_the_net_levels_search_with_its_network_whatever_max_uses() -> None:
    """A network that answers 0.5 everywhere in `max`'s place changes neither `max-2026`'s move
    nor a `net` level's (their Elo was measured with the frozen network), and stays in place."""
    game = tictactoe.Game.from_record("ultimate", "e5 e4 d2 c4")
    level = next(lv for lv in LEVEL_TABLE if lv.kind == "net")
    before = max_2026.max_2026_move(game, seed=3, iterations=2000)
    level_before = player.best_move(game, level.name, seed=3)
    shipped = vn.weights()
    flat = copy.copy(vn.Weights(max_2026.NETWORK))
    flat.w3 = np.zeros_like(flat.w3)
    flat.b3 = 0.0
    vn.use_weights(flat)
    try:
        # The flat network does change the frozen search when it is the one in use.
        state = ultimate_state(game)
        seed = random.Random(3).getrandbits(48)
        flat_search = us.search(state, iterations=2000, seed=seed, **max_2026.SETTINGS)
        assert ultimate_cell_name(flat_search.cell) != before
        assert max_2026.max_2026_move(game, seed=3, iterations=2000) == before
        assert player.best_move(game, level.name, seed=3) == level_before
        assert vn.weights() is flat
    finally:
        vn.use_weights(shipped)


def test_it_takes_a_win_at_once() -> None:
    rng = random.Random(4)
    found = 0
    while found < 3:
        game = tictactoe.new_game("ultimate")
        while not game.is_over:
            wins = [m for m in game.legal_moves() if game.play(m).result == game.turn]
            if wins and len(wins) < len(game.legal_moves()):
                assert max_2026.max_2026_move(game, seed=1, iterations=500) in wins, game.record
                found += 1
                break
            game = game.play(rng.choice(game.legal_moves()))


def test_it_keeps_its_own_tree_apart_from_max() -> None:
    player._kept["max"].forget()
    max_2026._kept.forget()
    game = tictactoe.Game.from_record("ultimate", "e5 e4")
    ours = game.play(max_2026.max_2026_move(game, think_ms=40))
    frozen_tree = max_2026._kept._tree
    assert frozen_tree is not None
    deadline = time.perf_counter() + 0.04
    reply = player._max_search(ours, ultimate_state(ours), 40, None, 5, deadline)
    assert player._kept["max"]._tree is reply.tree is not frozen_tree
    theirs = ours.play(ultimate_cell_name(reply.cell))
    max_2026.max_2026_move(theirs, think_ms=40)
    # It continued its own tree below the two moves played (not `max`'s, not a new one).
    assert max_2026._kept._tree is frozen_tree
    assert max_2026._kept._tree.root_node != 0


def test_standard_boards_are_refused() -> None:
    with pytest.raises(ValueError, match="Ultimate only"):
        max_2026.max_2026_move(tictactoe.new_game("standard", size=3))


def test_a_finished_game_is_refused() -> None:
    won = tictactoe.Game.from_record("ultimate", "")
    rng = random.Random(2)
    while not won.is_over:
        won = won.play(rng.choice(won.legal_moves()))
    with pytest.raises(ValueError, match="over"):
        max_2026.max_2026_move(won, seed=1, iterations=100)
