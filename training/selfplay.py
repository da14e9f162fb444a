"""Self-play games of the MCTS search, recorded as training positions for the value network.

Each game opens with 2 to 8 uniformly random plies, then both sides play the search with a fixed
number of iterations per move (seeded, so a seed gives the same games on any machine): `max`'s
own search (`--player max`: the value and policy networks of the moment, or those given, and its
settings) or the plain one
with playouts only (`--player plain`, what the first networks were trained on). Every
position after the opening is kept with the search's value of its chosen move and the game's
final result, both for the side to move, and the search's visits of each cell (81 counts, the
virtual visits of a new move's starting score taken off): the policy network's target
(`training/policy_net.py`).

    uv run --frozen python training/selfplay.py --games 2000 --seed 1 --out /tmp/selfplay-1.npz
"""

from __future__ import annotations

import argparse
import random
import time
from pathlib import Path
from typing import Any

import numpy as np

from tictactoe.engine import player
from tictactoe.engine import policy_net as pn
from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine import ultimate_search as us
from tictactoe.engine import value_net as vn

PLAYERS: dict[str, dict[str, Any]] = {
    "plain": {},
    "max": player.MAX_SEARCH,
}


def play_game(
    rng: random.Random, iterations: int, settings: dict[str, Any]
) -> tuple[list[np.ndarray], list[float], list[np.ndarray], int]:
    state = uk.new_state()
    cells = np.empty(81, dtype=np.int64)
    for _ in range(rng.randint(2, 8)):
        n = uk.legal_moves(state, cells)
        uk.play(state, int(cells[rng.randrange(n)]))
        if state[uk.RESULT] != uk.PLAYING:
            return [], [], [], int(state[uk.RESULT])
    positions: list[np.ndarray] = []
    values: list[float] = []
    visits: list[np.ndarray] = []
    virtual = int(settings.get("prior", 10))
    while state[uk.RESULT] == uk.PLAYING:
        result = us.search(state, iterations=iterations, seed=rng.getrandbits(48), **settings)
        positions.append(state.copy())
        values.append(result.value)
        counts = np.zeros(81, dtype=np.int32)
        for cell, n, _, _ in result.children:
            counts[cell] = max(n - virtual, 0)
        visits.append(counts)
        uk.play(state, result.cell)
    return positions, values, visits, int(state[uk.RESULT])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--games", type=int, default=2000)
    parser.add_argument("--iterations", type=int, default=1500, help="search iterations a move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--player", choices=sorted(PLAYERS), default="max")
    parser.add_argument("--net", help="value network weights for `max` (default: the shipped ones)")
    parser.add_argument("--policy", help="policy network weights for `max` (default: the shipped)")
    parser.add_argument("--out", required=True)
    args = parser.parse_args()
    if args.net:
        vn.use_weights(vn.Weights(Path(args.net)))
    if args.policy:
        pn.use_weights(pn.Weights(Path(args.policy)))
    rng = random.Random(args.seed)
    states, values, outcomes, visits = [], [], [], []
    began = time.perf_counter()
    for game in range(args.games):
        positions, searched, counts, result = play_game(rng, args.iterations, PLAYERS[args.player])
        visits.extend(counts)
        for state, value in zip(positions, searched, strict=True):
            mover = int(state[uk.TURN])
            outcome = 0.5 if result == uk.DRAW else float(result - uk.X_WON == mover)
            states.append(state)
            values.append(value)
            outcomes.append(outcome)
        if game % 100 == 99:
            print(f"{game + 1} games, {len(states)} positions, {time.perf_counter() - began:.0f} s")
            save(args.out, states, values, outcomes, visits)
    save(args.out, states, values, outcomes, visits)


def save(
    out: str,
    states: list[np.ndarray],
    values: list[float],
    outcomes: list[float],
    visits: list[np.ndarray],
) -> None:
    np.savez_compressed(
        out,
        states=np.array(states),
        values=np.array(values),
        outcomes=np.array(outcomes),
        visits=np.array(visits, dtype=np.int32).reshape(-1, 81),
    )


if __name__ == "__main__":
    main()
