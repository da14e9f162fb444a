"""Ladder: the engine's levels against each other and against a plain UCT baseline, on Ultimate.

Each pairing plays random two-ply openings twice, colours swapped, under our rules (a game with
no possible big line is a draw). Prints each pairing's score and the Elo difference with a 95%
error bar.

    uv run --frozen python bench/ladder.py --games 100   # every level against the one below
    uv run --frozen python bench/ladder.py --pairs "mcts(c=0.5):mcts(c=1.0)" --think-ms 30

A player is a level (`tictactoe.engine.LEVELS`, `novice` to `max`), `random` (a legal move at
random: a newcomer tapping anywhere), `baseline` (`max` before the value network,
`player.baseline_move`), `max-2026` (`max` as it was on 2 December 2026, frozen in
`engine/max_2026.py`, its own kept tree; `max-2026(n=N)`: N iterations a move on a new tree), `uct`
(random playouts, no solver, the same time as `max`), `max(key=value,...)` (`max` with its own kept
tree and other settings: `v` share of the value network, `a` its minimax share
(`mcts.run_iterations`), `c` exploration, `style` playout bits (`fast_playout`), `policy`, `prior`,
`expand`, `d` a draw's score, `p` the network's share in a new child's starting score, `pw` the
weight of the policy network's move priors (PUCT, `mcts.run_iterations`), `t` a factor on its think
time, `net` a weights file for its network instead of the shipped one, `pnet` one for its policy
network, `n` a fixed number of iterations a move instead of the clock, on a new tree each move:
`max(n=50000)` is about what `max` searches in 100 ms of a free core, a yardstick that a busy
machine does not weaken), or `mcts(key=value,...)` with keys `c` (exploration), `policy` (0 random,
1 informed, 2 careful, 3 no free choices, 4 always takes small boards), `solver` (0 off, 1 the
baseline's, 2 exact), `prior` (virtual visits of the move heuristic) with its amounts `w`, `b`, `f`,
`s` (see `ultimate_search.DEFAULT_BIAS`) and `v` (share of a leaf's score from the value network),
for tuning `max`. `max`, `max(v=...)` and `baseline` keep their trees between moves (each its own);
`mcts(...)` players start afresh each move.
"""

from __future__ import annotations

import argparse
import itertools
import math
import random
import re
import time
from collections.abc import Callable
from pathlib import Path

import tictactoe
from tictactoe.engine import LEVELS, best_move, max_2026, player, warm_up
from tictactoe.engine import policy_net as pn
from tictactoe.engine import ultimate_search as us
from tictactoe.engine import value_net as vn
from tictactoe.engine.kept_tree import KeptTree
from tictactoe.engine.player import baseline_move
from tictactoe.engine.position import ultimate_cell_name, ultimate_state
from tictactoe.engine.progress import Progress

# The levels' own ladder (bench/RESULTS.md, issue 24): the lowest against random taps, each level
# against the one below it, and `max` as its search runs in 100 ms of a free core.
_RUNGS = ["random", *LEVELS[:-1], "max(n=50000)"]
DEFAULT_PAIRS = ",".join(f"{low}:{high}" for low, high in itertools.pairwise(_RUNGS))

Player = Callable[[tictactoe.Game, int], str]


def make_player(spec: str, think_ms: int) -> Player:
    if spec in LEVELS:
        return lambda game, seed: best_move(game, spec, think_ms=think_ms)
    if spec == "random":
        return lambda game, seed: random.Random(seed).choice(game.legal_moves())
    if spec == "baseline":
        return lambda game, seed: baseline_move(game, think_ms=think_ms)
    if spec == max_2026.NAME:
        return lambda game, seed: max_2026.max_2026_move(game, think_ms=think_ms)
    if spec.startswith(f"{max_2026.NAME}(n=") and spec.endswith(")"):
        count = int(spec[len(max_2026.NAME) + 3 : -1])
        return lambda game, seed: max_2026.max_2026_move(game, seed=seed, iterations=count)
    if spec.startswith("max(") and spec.endswith(")"):
        # `max` with other settings, keeping its own tree between moves.
        options = dict(item.split("=") for item in spec[4:-1].split(",") if item)
        mix = float(options.pop("v", player.MAX_VALUE_MIX))
        scale = float(options.pop("t", 1.0))
        net = vn.Weights(Path(options.pop("net"))) if "net" in options else None
        priors = pn.Weights(Path(options.pop("pnet"))) if "pnet" in options else None
        fixed = int(options.pop("n", 0))
        names = {"c": "exploration", "a": "alpha", "policy": "policy", "style": "style"}
        names.update(prior="prior", expand="expand", d="draw_score", p="net_prior")
        names.update(pw="policy_weight")
        floats = {"c", "a", "d", "p", "pw"}
        settings = {names[k]: (float(v) if k in floats else int(v)) for k, v in options.items()}
        kept = KeptTree()

        def max_with(game: tictactoe.Game, seed: int) -> str:
            deadline = time.perf_counter() + think_ms * scale / 1000
            state = ultimate_state(game)
            shipped = vn.weights()
            vn.use_weights(net or shipped)
            shipped_priors = pn.use_weights(priors) if priors else None
            try:
                if fixed:  # a fixed number of iterations, a new tree each move
                    options = {**player.MAX_SETTINGS, **settings}
                    result = us.search(state, iterations=fixed, seed=seed, value_mix=mix, **options)
                else:
                    result = player._max_search(
                        game, state, think_ms, None, seed, deadline, mix, kept, **settings
                    )
            finally:
                vn.use_weights(shipped)
                if priors:
                    pn.use_weights(shipped_priors)
            return ultimate_cell_name(result.cell)

        return max_with
    if spec == "uct":
        spec = "mcts(c=0.7,policy=0,solver=0,prior=0)"
    if spec.startswith("mcts(") and spec.endswith(")"):
        options = dict(item.split("=") for item in spec[5:-1].split(",") if item)
        c = float(options.get("c", 0.5))
        policy = int(options.get("policy", "1"))
        solver = int(options.get("solver", "2"))
        prior = int(options.get("prior", "10"))
        mix = float(options.get("v", "0"))
        amounts = zip("wbfs", us.DEFAULT_BIAS, strict=True)
        w, b, f, s = (float(options.get(key, default)) for key, default in amounts)

        def play(game: tictactoe.Game, seed: int) -> str:
            deadline = time.perf_counter() + think_ms / 1000
            result = us.search(
                ultimate_state(game),
                deadline=deadline,
                seed=seed,
                exploration=c,
                policy=policy,
                solver=solver,
                prior=prior,
                bias=(w, b, f, s),
                value_mix=mix,
            )
            return ultimate_cell_name(result.cell)

        return play
    raise SystemExit(f"unknown player {spec!r}")


def play_game(x: Player, o: Player, opening: list[str], rng: random.Random) -> str:
    game = tictactoe.Game.from_record("ultimate", " ".join(opening))
    while not game.is_over:
        mover = x if game.turn == "x" else o
        game = game.play(mover(game, rng.getrandbits(32)))
    assert game.result is not None
    return game.result


def elo(score: float, games: int, points: list[float]) -> tuple[float, float, float]:
    """Elo difference for a score fraction, with a 95% interval from the per-game variance."""

    def to_elo(p: float) -> float:
        p = min(max(p, 0.5 / games), 1 - 0.5 / games)
        return -400 * math.log10(1 / p - 1)

    mean = score
    variance = sum((p - mean) ** 2 for p in points) / max(len(points) - 1, 1)
    margin = 1.96 * math.sqrt(variance / len(points))
    return to_elo(mean), to_elo(mean - margin), to_elo(mean + margin)


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--pairs", default=DEFAULT_PAIRS, help="A:B pairings, comma-separated")
    parser.add_argument("--games", type=int, default=20, help="games per pairing (even)")
    parser.add_argument("--think-ms", type=int, default=100)
    parser.add_argument("--seed", type=int, default=1)
    args = parser.parse_args()
    warm_up()
    rng = random.Random(args.seed)
    # Commas inside mcts(...) belong to the player, not to the list of pairings.
    pairs = [pair.split(":") for pair in re.split(r",(?![^()]*\))", args.pairs)]
    rows = []
    for a_spec, b_spec in pairs:
        a, b = make_player(a_spec, args.think_ms), make_player(b_spec, args.think_ms)
        points: list[float] = []  # B's points per game
        wins = draws = losses = 0
        with Progress(f"{b_spec} vs {a_spec}", total=args.games) as progress:
            for _ in range(args.games // 2):
                start = tictactoe.new_game("ultimate")
                first = rng.choice(start.legal_moves())
                second = rng.choice(start.play(first).legal_moves())
                for b_is_x in (True, False):
                    x, o = (b, a) if b_is_x else (a, b)
                    result = play_game(x, o, [first, second], rng)
                    b_mark = "x" if b_is_x else "o"
                    point = 0.5 if result == "draw" else float(result == b_mark)
                    points.append(point)
                    wins += point == 1.0
                    draws += point == 0.5
                    losses += point == 0.0
                    progress.advance(note=f"{sum(points)}/{len(points)}")
        score = sum(points) / len(points)
        diff, low, high = elo(score, len(points), points)
        rows.append((b_spec, a_spec, wins, draws, losses, score, diff, low, high))
    print(f"ladder: {args.games} games per pairing, {args.think_ms} ms a move, seed {args.seed}")
    print(f"{'player':<32} {'opponent':<32} {'W-D-L':>9} {'score':>6}  Elo (95%)")
    for b_spec, a_spec, w, d, l_, score, diff, low, high in rows:
        print(
            f"{b_spec:<32} {a_spec:<32} {f'{w}-{d}-{l_}':>9} {score:6.1%}"
            f"  {diff:+5.0f} [{low:+.0f}, {high:+.0f}]"
        )


if __name__ == "__main__":
    main()
