"""Train the value network of `tictactoe.engine.value_net` from self-play positions (NumPy only).

Recipe (what made the shipped `value_net.npz`, the fifth generation, together with the fifth
policy network: `training/policy_net.py`): self-play of `max` as it was at commit 127efaf (the
third-generation value network below, the third policy network, value share 0.7) searching
**8 000** iterations a move (where every earlier generation learned from 3 000), seeds 91 and 92
side by side, stopped after 5 600 games each (46 minutes of each core of this box; 522 667
positions), then the shipped network trained on for 12 epochs at a lower rate (about a minute):

    git worktree add /tmp/at-127efaf 127efaf   # `max` as it was then plays the games
    for s in 91 92; do
      (cd /tmp/at-127efaf && uv run --frozen python training/selfplay.py --player max \
        --games 5600 --iterations 8000 --seed $s --out /tmp/deep-$s.npz) &
    done; wait
    uv run --frozen python training/value_net.py /tmp/deep-9[12].npz --seed 1 --epochs 12 \
      --start /tmp/at-127efaf/src/tictactoe/engine/value_net.npz --rate 0.001

Held out (the last 52 266 positions, from seed 92): mean squared error 0.0246, where the third
generation gets 0.0248 on them. The two networks together play stronger than the third
generation's pair (bench/RESULTS.md, issue 24, ninth session).

The third generation (the shipped network from commit a90c571 to 127efaf): self-play of `max`
as it was at commit d537865 (the second-generation value network below, the third policy network,
value share 0.5) searching 3 000 iterations a move, 8 000 games for each of seeds 61 and 62
(about 27 minutes of each core of this box, side by side), then 12 epochs on their 747 641
positions (about two minutes):

    git worktree add /tmp/at-d537865 d537865   # `max` as it was then plays the games
    for s in 61 62; do
      (cd /tmp/at-d537865 && uv run --frozen python training/selfplay.py --player max \
        --games 8000 --iterations 3000 --seed $s --out /tmp/selfplay-$s.npz) &
    done; wait
    uv run --frozen python training/value_net.py /tmp/selfplay-6[12].npz --seed 1 --epochs 12

Held out (the last 74 764 positions, from seed 62): mean squared error 0.0312, where the second
generation gets 0.0316 on them (and a network with 128 units in its first layer 0.0309).

Tried and not shipped (bench/RESULTS.md, issue 24, fifth session): a fourth generation, from
16 000 games of the `max` of f10644c (seeds 71 and 72, as above) trained on from the shipped
network (`--start src/tictactoe/engine/value_net.npz --rate 0.001`), held out 0.0302 against the
shipped 0.0311, played no better (+6 Elo over 400 games at 10 000 iterations, level by the
clock); a new network on those games alone 0.0308.

The second generation (kept as `max_2026_value_net.npz`: the network of `max-2026` and of the
`net` levels, whose Elo was measured with it): self-play of `max` (its settings of the time:
value 0.5, expand 3, net_prior 0.8) searching 3 000 iterations a move with the first-generation
network (the one shipped at commit 94eadbb, itself trained on games of the plain search:
`--player plain --games 3000 --iterations 2000`, seeds 1 and 2, 8 epochs), then 12 epochs on its
546 802 positions (about an hour of one core for the games, a minute and a half for the
training):

    git show 94eadbb:src/tictactoe/engine/value_net.npz > /tmp/net-1.npz
    for s in 21 22 23; do
      uv run --frozen python training/selfplay.py --player max --net /tmp/net-1.npz \
        --games 4000 --iterations 3000 --seed $s --out /tmp/selfplay-$s.npz &
    done; wait
    uv run --frozen python training/value_net.py /tmp/selfplay-2[123].npz --seed 1 --epochs 12

Target: the mean of the game's result and the search's value of the move it chose, both for the
side to move (the result alone is noisy, the search's value alone is short-sighted; another mix
with `--outcome-share`, the result's share). Each batch
is turned by one of the board's eight symmetries (they act on the small boards and on the cells
inside them alike). Adam on the cross-entropy, a few epochs; the last tenth of the positions
(whole games of the last seed) is held out to report the error against.
"""

from __future__ import annotations

import argparse
import itertools
from pathlib import Path

import numpy as np

from tictactoe.engine import value_net as vn


def features(states: np.ndarray) -> np.ndarray:
    x = np.zeros((len(states), vn.FEATURES), dtype=np.uint8)
    active = np.empty(vn.MAX_ACTIVE, dtype=np.int64)
    for i, state in enumerate(states):
        n = vn.active_features(state, active)
        x[i, active[:n]] = 1
    return x


def initial_params(sizes: list[int], rng: np.random.Generator) -> dict[str, np.ndarray]:
    """Dense layers `w1, b1, w2, b2, …` between the `sizes` (He initialisation, zero biases)."""
    params = {}
    for i, (a, b) in enumerate(itertools.pairwise(sizes), start=1):
        params[f"w{i}"] = (rng.standard_normal((a, b)) * np.sqrt(2 / a)).astype(np.float32)
        params[f"b{i}"] = np.zeros(b, dtype=np.float32)
    return params


def adam_step(
    params: dict[str, np.ndarray],
    grads: dict[str, np.ndarray],
    moments: dict[str, tuple[np.ndarray, np.ndarray]],
    step: int,
    rate: float,
    decay: float,
) -> None:
    """One Adam update of `params` in place (with weight decay `decay`; `step` counts from 1)."""
    for k, g in grads.items():
        m, v = moments[k]
        g = g + decay * params[k]
        m *= 0.9
        m += 0.1 * g
        v *= 0.999
        v += 0.001 * g * g
        m_hat = m / (1 - 0.9**step)
        v_hat = v / (1 - 0.999**step)
        params[k] -= (rate * m_hat / (np.sqrt(v_hat) + 1e-8)).astype(np.float32)


def train(
    x: np.ndarray, y: np.ndarray, x_val: np.ndarray, y_val: np.ndarray, args: argparse.Namespace
) -> dict[str, np.ndarray]:
    rng = np.random.default_rng(args.seed)
    params = initial_params([vn.FEATURES, args.hidden, args.hidden2, 1], rng)
    if args.start:
        params = load(Path(args.start))
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    perms = [vn.feature_permutation(sigma) for sigma in vn.symmetries()]
    inverse = [np.argsort(p) for p in perms]
    step = 0
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        rate = args.rate * (0.5 ** max(0, epoch - args.epochs // 2))
        for start in range(0, len(x), args.batch):
            rows = order[start : start + args.batch]
            # Turning the board moves feature f to perm[f]: the turned position's features are
            # the original's read through the inverse permutation.
            xb = x[rows][:, inverse[rng.integers(8)]].astype(np.float32)
            yb = y[rows, None]
            z1 = xb @ params["w1"] + params["b1"]
            a1 = np.maximum(z1, 0)
            z2 = a1 @ params["w2"] + params["b2"]
            a2 = np.maximum(z2, 0)
            p = 1 / (1 + np.exp(-(a2 @ params["w3"] + params["b3"])))
            d3 = (p - yb) / len(rows)
            d2 = (d3 @ params["w3"].T) * (z2 > 0)
            d1 = (d2 @ params["w2"].T) * (z1 > 0)
            grads = {
                "w3": a2.T @ d3,
                "b3": d3.sum(0),
                "w2": a1.T @ d2,
                "b2": d2.sum(0),
                "w1": xb.T @ d1,
                "b1": d1.sum(0),
            }
            step += 1
            adam_step(params, grads, moments, step, rate, args.decay)
        print(
            f"epoch {epoch + 1}: train {loss(params, x[:50000], y[:50000]):.4f}"
            f" held out {loss(params, x_val, y_val):.4f}"
        )
    return params


def load(path: Path) -> dict[str, np.ndarray]:
    """Weights written by this script, in the shapes `train` uses."""
    with np.load(path) as data:
        params = {k: data[k].astype(np.float32) for k in data.files}
    params["w3"], params["b3"] = params["w3"][:, None], params["b3"][None]
    return params


def predict(params: dict[str, np.ndarray], x: np.ndarray) -> np.ndarray:
    a1 = np.maximum(x.astype(np.float32) @ params["w1"] + params["b1"], 0)
    a2 = np.maximum(a1 @ params["w2"] + params["b2"], 0)
    return (1 / (1 + np.exp(-(a2 @ params["w3"] + params["b3"]))))[:, 0]


def loss(params: dict[str, np.ndarray], x: np.ndarray, y: np.ndarray) -> float:
    """Mean squared error of the predicted score."""
    return float(np.mean((predict(params, x) - y) ** 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help="files written by training/selfplay.py")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=64)
    parser.add_argument("--hidden2", type=int, default=32)
    parser.add_argument("--epochs", type=int, default=8)
    parser.add_argument("--batch", type=int, default=256)
    parser.add_argument("--rate", type=float, default=0.002)
    parser.add_argument("--decay", type=float, default=1e-5)
    parser.add_argument(
        "--outcome-share",
        type=float,
        default=0.5,
        help="the game's result's share of the target (the rest: the search's value)",
    )
    parser.add_argument("--start", help="weights to train on from (default: a new network)")
    parser.add_argument("--out", default=str(vn.WEIGHTS_FILE))
    args = parser.parse_args()
    share = args.outcome_share
    states, targets = [], []
    for name in args.data:
        with np.load(name) as data:
            states.append(data["states"])
            targets.append(share * data["outcomes"] + (1 - share) * data["values"])
    x = features(np.concatenate(states))
    y = np.concatenate(targets).astype(np.float32)
    held = len(x) // 10
    print(f"{len(x)} positions, {held} held out; always 0.5: {np.mean((y[-held:] - 0.5) ** 2):.4f}")
    if vn.WEIGHTS_FILE.exists():
        shipped_loss = loss(load(vn.WEIGHTS_FILE), x[-held:], y[-held:])
        print(f"the shipped network on the held-out positions: {shipped_loss:.4f}")
    params = train(x[:-held], y[:-held], x[-held:], y[-held:], args)
    # The engine keeps the first layer in fixed point (`value_net.W1_SCALE`): clamp the rare
    # weight beyond its range (about ±2) rather than refuse the network.
    limit = np.iinfo(np.int16).max / vn.W1_SCALE
    clamped = int((np.abs(params["w1"]) > limit).sum())
    if clamped:
        print(f"{clamped} first-layer weights clamped to ±{limit:.4f}")
    np.savez_compressed(
        Path(args.out),
        w1=np.clip(params["w1"], -limit, limit),
        b1=params["b1"],
        w2=params["w2"],
        b2=params["b2"],
        w3=params["w3"][:, 0],
        b3=params["b3"][0],
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
