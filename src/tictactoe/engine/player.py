"""What each level of the computer player runs (`levels.LEVELS` says which level is what).

- `max`: everything it has for `think_ms` (Ultimate: MCTS with the exact solver, each new leaf
  scored 70% by the value network and 30% by a fast informed playout, each new move's starting
  score mostly the network's value of where it leads (progressive bias), each move's exploration
  led by the policy network's prior (PUCT), a node expanded at its third visit, and the tree kept
  from move to move, compacted to the subtree played when it runs short of room;
  standard boards: `standard_player`, iterative-deepening alpha-beta that proves the result
  where it can).
- below it, from `master` down to `novice`: the same search for a fixed number of iterations, a
  plainer search, or one look at the board with more or fewer random taps (see `levels`).

Levels below `max` search a fixed amount, so they play the same on any machine and a seed makes
their choice repeatable. `max` is bounded by the clock; with a seed it runs a fixed budget of
iterations instead (a clock-bounded search cannot be repeated), sized for `think_ms` at the speed
`calibrate` measured on this machine when the engine warmed up: the same seed and budget always
choose the same, and the search takes about `think_ms` (more on a busy moment, less late in a
game, where iterations are cheaper). `baseline_move` is `max` as it was before the value network,
kept for the ladder (bench/ladder.py) to measure against.
"""

from __future__ import annotations

import random
import time
from typing import Any

import numpy as np

from tictactoe.engine import max_2026
from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine import ultimate_search as us
from tictactoe.engine.kept_tree import KeptTree
from tictactoe.engine.levels import NAMES, Level
from tictactoe.engine.levels import level as level_named
from tictactoe.engine.position import (
    ultimate_cell_name,
    ultimate_state,
)
from tictactoe.rules import Game

LEVELS = NAMES

# The share of a leaf's score `max` takes from the value network (the rest from a playout): 0.7
# since the third-generation network (0.5 before; bench/RESULTS.md, issue 24, fourth session).
MAX_VALUE_MIX = 0.7
# The rest of `max`'s settings (keywords of `ultimate_search.search`), tuned with bench/ladder.py
# (bench/RESULTS.md, issue 24: 20 virtual visits at each new move's starting score, where
# `max-2026` has 10, trust the network's first guess longer; the policy network's priors at
# weight 1 (PUCT), with less UCB exploration, 0.3, since the priors now spread the search; a
# draw stays half a point: contempt, a draw worth 0.4 to `max`, was tried and not better).
MAX_SETTINGS: dict[str, Any] = {
    "expand": 3,
    "net_prior": 0.8,
    "prior": 20,
    "policy_weight": 1.0,
    "exploration": 0.3,
}
# Every keyword of `max`'s search, the value share included (its fixed-budget searches use them).
MAX_SEARCH: dict[str, Any] = {"value_mix": MAX_VALUE_MIX, **MAX_SETTINGS}
# The fixed speed the baseline (`max` before the value network) sized its seeded searches for.
BASELINE_ITERATIONS_PER_MS = 300

_kept = {"max": KeptTree(), "baseline": KeptTree()}
_speed: list[float] = []  # iterations per ms of `max` on this machine, once measured


def calibrate(milliseconds: float = 40.0) -> float:
    """Measure how many iterations per millisecond `max` runs on this machine (a search from an
    early position for `milliseconds`, after a short one that loads the kernels), so a seeded
    `max` can size its fixed budget to take about `think_ms`. Kept for the process."""
    state = ultimate_state(Game.from_record("ultimate", "e5 e4"))
    us.search(state, deadline=time.perf_counter() + 0.002, seed=1, **MAX_SEARCH)
    began = time.perf_counter()
    result = us.search(state, deadline=began + milliseconds / 1000, seed=1, **MAX_SEARCH)
    rate = result.iterations / max((time.perf_counter() - began) * 1000, 1e-3)
    _speed[:] = [rate]
    return rate


def iterations_per_ms() -> float:
    """The speed `calibrate` measured (measuring it now if it has not yet)."""
    return _speed[0] if _speed else calibrate()


def best_move(game: Game, level: str = "max", think_ms: int = 100, seed: int | None = None) -> str:
    started = time.perf_counter()
    chosen = level_named(level)
    if game.is_over:
        raise ValueError("the game is over: there is no move to make")
    if think_ms <= 0:
        raise ValueError("think_ms must be positive")
    moves = game.legal_moves()
    if len(moves) == 1:
        return moves[0]
    rng = random.Random(seed)
    deadline = started + think_ms / 1000
    if game.variant == "ultimate":
        return _ultimate_move(game, chosen, think_ms, seed, rng, deadline)
    # Imported here: the standard kernels load eagerly (~0.1 s), which Ultimate never needs.
    from tictactoe.engine.standard_player import standard_move

    return standard_move(game, chosen, think_ms, seed, rng, deadline)


# -- Ultimate ---------------------------------------------------------------------------------


def _ultimate_move(
    game: Game, level: Level, think_ms: int, seed: int | None, rng: random.Random, deadline: float
) -> str:
    state = ultimate_state(game)
    if level.kind == "glance":
        if level.sense < 1 and rng.random() >= level.sense:
            return rng.choice(game.legal_moves())
        return ultimate_cell_name(_beginner_ultimate_move(state, rng))
    search_seed = rng.getrandbits(48)
    if level.kind == "playouts":
        result = us.search(
            state,
            iterations=level.iterations,
            seed=search_seed,
            policy=0,
            solver=False,
            prior=0,
            exploration=1.0,
        )
        # Now and then a careless move: a random one among those the search tried more than once.
        if rng.random() < level.careless:
            tried = [c for c in result.children if c[1] > 1] or result.children
            return ultimate_cell_name(rng.choice(tried)[0])
        return ultimate_cell_name(result.cell)
    if level.kind == "search":
        result = us.search(state, iterations=level.iterations, seed=search_seed)
        return ultimate_cell_name(result.cell)
    if level.kind == "net":
        # The search and network `max` had when these levels were rated, so their Elo stands.
        result = max_2026.fixed_search(state, level.iterations, search_seed)
        return ultimate_cell_name(result.cell)
    if level.kind == "fixed":
        result = us.search(state, iterations=level.iterations, seed=search_seed, **MAX_SEARCH)
        return ultimate_cell_name(result.cell)
    return ultimate_cell_name(_max_search(game, state, think_ms, seed, search_seed, deadline).cell)


def _max_search(
    game: Game,
    state: np.ndarray,
    think_ms: int,
    seed: int | None,
    search_seed: int,
    deadline: float,
    value_mix: float = MAX_VALUE_MIX,
    kept: KeptTree | None = None,
    **settings: Any,
) -> us.SearchResult:
    """`max`: the value network mixed with playouts, for `think_ms`; the tree is kept for the
    next move (what it learned below the line played, compacted when room runs short). Seeded:
    a fixed budget of this machine's iterations for `think_ms` (see `calibrate`), fresh tree.
    `kept` and `settings` (keywords of `ultimate_search.search`) are for tuning (the ladder)."""
    options = {**MAX_SETTINGS, **settings}
    if seed is not None:
        budget = max(1, int(think_ms * iterations_per_ms()))
        return us.search(state, iterations=budget, seed=search_seed, value_mix=value_mix, **options)
    return (kept or _kept["max"]).search(
        game, state, deadline, compact=True, seed=search_seed, value_mix=value_mix, **options
    )


def baseline_move(game: Game, think_ms: int = 100, seed: int | None = None) -> str:
    """`baseline`: what `max` was before the value network (commit 1bc6c04), kept so the ladder
    can measure against it: playouts only, the first solver (which missed some proven wins),
    its tree kept when room allows, and a seeded search sized for 300 iterations a millisecond.
    Ultimate only."""
    started = time.perf_counter()
    if game.variant != "ultimate":
        raise ValueError("the baseline plays Ultimate only")
    moves = game.legal_moves()
    if len(moves) == 1:
        return moves[0]
    state = ultimate_state(game)
    search_seed = random.Random(seed).getrandbits(48)
    if seed is not None:
        budget = int(think_ms * BASELINE_ITERATIONS_PER_MS)
        result = us.search(state, iterations=budget, seed=search_seed, solver=us.SOLVER_FIRST)
    else:
        deadline = started + think_ms / 1000
        result = _kept["baseline"].search(
            game, state, deadline, compact=False, seed=search_seed, solver=us.SOLVER_FIRST
        )
    return ultimate_cell_name(result.cell)


def _beginner_ultimate_move(s: np.ndarray, rng: random.Random) -> int:
    """A plausible move that overlooks things: sees its own small wins more often than the
    opponent's, and rarely thinks about where it sends the opponent."""
    cells = np.empty(81, dtype=np.int64)
    n = uk.legal_moves(s, cells)
    t = int(s[uk.TURN])
    best, best_score = int(cells[0]), -1e9
    for cell in (int(c) for c in cells[:n]):
        board, spot = divmod(cell, 9)
        own = int(s[uk.X_MASKS + t * 9 + board])
        other = int(s[uk.X_MASKS + (1 - t) * 9 + board])
        score = rng.random() * 2.0
        if uk.THREATS[own] >> spot & 1 and rng.random() < 0.7:
            score += 3
        if uk.THREATS[other] >> spot & 1 and rng.random() < 0.4:
            score += 2
        if spot == 4:
            score += 0.5
        if not s[uk.CLOSED] >> spot & 1 and rng.random() < 0.3:
            sent_own = int(s[uk.X_MASKS + (1 - t) * 9 + spot])
            sent_other = int(s[uk.X_MASKS + t * 9 + spot]) | (1 << spot if spot == board else 0)
            if uk.THREATS[sent_own] & ~(sent_own | sent_other) & uk.FULL:
                score -= 2
        if score > best_score:
            best, best_score = cell, score
    return best
