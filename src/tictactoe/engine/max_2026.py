"""`max-2026`: `max` as it played on 2 December 2026 (commit fe1d5e4), frozen for the ladder.

The next `max` is measured against it (bench/ladder.py `max-2026`, bench/RESULTS.md, issue 24),
so every setting of its search is spelled out here rather than read from `player.MAX_SETTINGS`
or from `ultimate_search.search`'s defaults, which a stronger `max` may change. It keeps its own
tree between moves. It is not a level: players never see it.

Its network is the one shipped then, kept as `max_2026_value_net.npz` (`NETWORK`) when a
retrained one took its place in `value_net.npz`. The `net` levels search with it too
(`fixed_search`), so their Elo stands whatever network `max` ships with.
"""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import numpy as np

from tictactoe.engine import ultimate_search as us
from tictactoe.engine import value_net as vn
from tictactoe.engine.kept_tree import KeptTree
from tictactoe.engine.position import ultimate_cell_name, ultimate_state
from tictactoe.rules import Game

NAME = "max-2026"
NETWORK = Path(__file__).with_name("max_2026_value_net.npz")
# Every keyword of `ultimate_search.search` that `max` set or took by default at fe1d5e4.
SETTINGS: dict[str, Any] = {
    "exploration": 0.5,
    "policy": 1,
    "style": 0,
    "solver": us.SOLVER_EXACT,
    "prior": 10,
    "expand": 3,
    "bias": (0.2, 0.1, 0.15, 0.15),
    "value_mix": 0.5,
    "alpha": 0.0,
    "draw_score": 0.5,
    "net_prior": 0.8,
    "policy_weight": 0.0,  # it had no policy network (the option came later; 0 is its search)
    # Each new child valued from scratch, as then: the same values at that time's cost (sums
    # shared from the parent came later and made an iteration ~5% cheaper).
    "child_sums": False,
}

_kept = KeptTree()
_network: list[vn.Weights] = []


@contextmanager
def _its_network() -> Iterator[None]:
    """Searches inside use `max-2026`'s network (loaded once), then the one in use before."""
    if not _network:
        _network.append(vn.Weights(NETWORK))
    before = vn.weights()
    vn.use_weights(_network[0])
    try:
        yield
    finally:
        vn.use_weights(before)


def fixed_search(state: np.ndarray, iterations: int, seed: int) -> us.SearchResult:
    """`max-2026`'s search of kernel `state` for `iterations` on a new tree, with its network:
    repeatable with `seed` (the `net` levels play it)."""
    with _its_network():
        return us.search(state, iterations=iterations, seed=seed, **SETTINGS)


def max_2026_move(
    game: Game, think_ms: int = 100, seed: int | None = None, iterations: int | None = None
) -> str:
    """`max-2026`'s move in an Ultimate `game`: its search until `think_ms` has passed, its tree
    continued from its previous move; with `iterations`, that many on a new tree instead (a
    yardstick the load of the machine does not weaken), repeatable with `seed`."""
    started = time.perf_counter()
    if game.variant != "ultimate":
        raise ValueError(f"{NAME} plays Ultimate only")
    moves = game.legal_moves()  # none once the game is over: the search refuses it then
    if len(moves) == 1:
        return moves[0]
    state = ultimate_state(game)
    search_seed = random.Random(seed).getrandbits(48)
    if iterations is not None:
        return ultimate_cell_name(fixed_search(state, iterations, search_seed).cell)
    deadline = started + think_ms / 1000
    with _its_network():
        result = _kept.search(game, state, deadline, compact=True, seed=search_seed, **SETTINGS)
    return ultimate_cell_name(result.cell)
