"""`max-2026`: `max` as it played on 2 December 2026 (commit fe1d5e4), frozen for the ladder.

The next `max` is measured against it (bench/ladder.py `max-2026`, bench/RESULTS.md, issue 24),
so every setting of its search is spelled out here rather than read from `player.MAX_SETTINGS`
or from `ultimate_search.search`'s defaults, which a stronger `max` may change. It keeps its own
tree between moves. It is not a level: players never see it.

Its network is the one shipped then, `value_net.npz`; a retrained network must ship under
another name or leave a copy of that file for this player (`NETWORK`).
"""

from __future__ import annotations

import random
import time
from typing import Any

from tictactoe.engine import ultimate_search as us
from tictactoe.engine import value_net as vn
from tictactoe.engine.kept_tree import KeptTree
from tictactoe.engine.position import ultimate_cell_name, ultimate_state
from tictactoe.rules import Game

NAME = "max-2026"
NETWORK = vn.WEIGHTS_FILE
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
}

_kept = KeptTree()
_network: list[vn.Weights] = []


def _weights() -> vn.Weights:
    if not _network:
        _network.append(vn.weights() if NETWORK == vn.WEIGHTS_FILE else vn.Weights(NETWORK))
    return _network[0]


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
    shipped = vn.weights()
    vn.use_weights(_weights())
    try:
        if iterations is not None:
            result = us.search(state, iterations=iterations, seed=search_seed, **SETTINGS)
        else:
            deadline = started + think_ms / 1000
            result = _kept.search(game, state, deadline, compact=True, seed=search_seed, **SETTINGS)
    finally:
        vn.use_weights(shipped)
    return ultimate_cell_name(result.cell)
