"""Train the policy network of `tictactoe.engine.policy_net` from self-play visits (NumPy only).

Recipe (what made the shipped `policy_net.npz`, the fifth generation): the third generation
(below) trained on for 12 epochs at a lower rate on the self-play games of `max` searching 8 000
iterations a move that made the fifth value network (`training/value_net.py`, seeds 91 and 92,
`max` of commit 127efaf; 518 844 positions with visits; about a minute):

    uv run --frozen python training/policy_net.py /tmp/deep-9[12].npz --epochs 12 \
      --start /tmp/at-127efaf/src/tictactoe/engine/policy_net.npz --rate 0.001

Held out (the last 51 884 positions, from seed 92): cross-entropy 1.517 against the visit shares
and the search's most visited move first in 60.2% of them, where the third generation gets
1.527 and 58.9% on them.

The third generation (shipped from commit c302306 to 127efaf): self-play of `max`, 3 000
iterations a move, recording the visits of each move (`training/selfplay.py`), 4 000 games for
each of three seeds: seeds 41 and 42 with `max` as it was at commit c399ec4 (the first policy
network, trained on the `max` before it, as described in that commit's version of this file),
seed 51 with the second network (trained as below on seeds 41 and 42 alone); then 24 epochs
on all three (554 565 positions with visits; each seed about 20 minutes of one core of this box,
the training about ten minutes):

    git show c399ec4:src/tictactoe/engine/policy_net.npz > /tmp/policy-1.npz
    for s in 41 42; do
      uv run --frozen python training/selfplay.py --player max --policy /tmp/policy-1.npz \
        --games 4000 --iterations 3000 --seed $s --out /tmp/selfplay-$s.npz &
    done; wait
    uv run --frozen python training/policy_net.py /tmp/selfplay-4[12].npz --out /tmp/policy-2.npz
    uv run --frozen python training/selfplay.py --player max --policy /tmp/policy-2.npz \
      --games 4000 --iterations 3000 --seed 51 --out /tmp/selfplay-51.npz
    uv run --frozen python training/policy_net.py /tmp/selfplay-4[12].npz /tmp/selfplay-51.npz

Held out (the last 55 456 positions, from seed 51): cross-entropy 1.540 against the visit shares,
and the network's first choice is the search's most visited move in 56.2% of them (the second
network, on seeds 41 and 42 with their last tenth held out: 1.577 and 53.0%; the first, without
the moves' own inputs, on its own data: 1.700 and 42.9%). The moves' own weights it learned
(`policy_net.move_bits`, in that order): wins a board +0.82, wins the game 0 (such positions
are proven before any visit, so never in the data), blocks +0.94, sends to a free choice −1.21,
to a board the opponent wins at once −0.10, one that would win them the game −1.82, to a board
the mover wins at once +0.15.

Target: the share of the search's visits each legal move got (its starting score's virtual
visits taken off); loss: the cross-entropy of the network's softmax over the legal moves. Each
batch is turned by one of the board's eight symmetries (features and cells alike). Adam, the
rate halved each epoch after the first half; the last tenth of the positions (whole games of
the last file) is held out to report the loss and how often the network's first choice is the
search's.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

import numpy as np
from numba import njit

from tictactoe.engine import policy_net as pn
from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine import value_net as vn

sys.path.insert(0, str(Path(__file__).parent))
from value_net import (  # the same features and optimiser as the value network
    adam_step,
    features,
    initial_params,
)


@njit(cache=True)
def legal_moves_and_bits(states: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    """Which cells are legal in each position, and what each legal move does (`move_bits`)."""
    masks = np.zeros((len(states), pn.CELLS), dtype=np.bool_)
    bits = np.zeros((len(states), pn.CELLS), dtype=np.uint8)
    cells = np.empty(81, dtype=np.int64)
    for i in range(len(states)):
        n = uk.legal_moves(states[i], cells)
        for k in range(n):
            masks[i, cells[k]] = True
            bits[i, cells[k]] = pn.move_bits(states[i], cells[k])
    return masks, bits


def cell_permutation(sigma: np.ndarray) -> np.ndarray:
    """Where each cell goes when the board is turned by `sigma` (boards and cells alike)."""
    return np.array([int(sigma[c // 9]) * 9 + int(sigma[c % 9]) for c in range(pn.CELLS)])


def move_matrix(bits: np.ndarray) -> np.ndarray:
    """`move_bits` of each cell of each position as 0/1 columns: shape (positions, 81, bits)."""
    return ((bits[:, :, None] >> np.arange(pn.MOVE_FEATURES)) & 1).astype(np.float32)


def forward(
    params: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray, moves: np.ndarray
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    z1 = x @ params["w1"] + params["b1"]
    a1 = np.maximum(z1, 0)
    logits = a1 @ params["w2"] + params["b2"] + moves @ params["wm"]
    logits = np.where(mask, logits, -1e9)
    logits -= logits.max(1, keepdims=True)
    p = np.exp(logits)
    p /= p.sum(1, keepdims=True)
    return z1, a1, p


def loss(
    params: dict[str, np.ndarray], x: np.ndarray, mask: np.ndarray, bits: np.ndarray, y: np.ndarray
) -> str:
    """Cross-entropy against the visit shares, and how often the first choices agree."""
    total, agree = 0.0, 0
    for start in range(0, len(x), 4096):
        rows = slice(start, start + 4096)
        moves = move_matrix(bits[rows])
        _, _, p = forward(params, x[rows].astype(np.float32), mask[rows], moves)
        total += float(-(y[rows] * np.log(p + 1e-9)).sum())
        agree += int((p.argmax(1) == y[rows].argmax(1)).sum())
    return f"{total / len(x):.4f} (first choice {agree / len(x):.1%})"


def train(
    data: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    held: tuple[np.ndarray, np.ndarray, np.ndarray, np.ndarray],
    args: argparse.Namespace,
) -> dict[str, np.ndarray]:
    x, mask, bits, y = data
    rng = np.random.default_rng(args.seed)
    params = initial_params([vn.FEATURES, args.hidden, pn.CELLS], rng)
    params["wm"] = np.zeros(pn.MOVE_FEATURES, dtype=np.float32)
    if args.start:
        params = load(Path(args.start))
    moments = {k: (np.zeros_like(v), np.zeros_like(v)) for k, v in params.items()}
    turns = [
        (np.argsort(vn.feature_permutation(sigma)), np.argsort(cell_permutation(sigma)))
        for sigma in vn.symmetries()
    ]
    step = 0
    for epoch in range(args.epochs):
        order = rng.permutation(len(x))
        rate = args.rate * (0.5 ** max(0, epoch - args.epochs // 2))
        for start in range(0, len(x), args.batch):
            rows = order[start : start + args.batch]
            features_back, cells_back = turns[rng.integers(8)]
            xb = x[rows][:, features_back].astype(np.float32)
            mb, yb = mask[rows][:, cells_back], y[rows][:, cells_back]
            moves = move_matrix(bits[rows][:, cells_back])
            z1, a1, p = forward(params, xb, mb, moves)
            d2 = (p - yb) / len(rows)
            d1 = (d2 @ params["w2"].T) * (z1 > 0)
            grads = {"w2": a1.T @ d2, "b2": d2.sum(0), "w1": xb.T @ d1, "b1": d1.sum(0)}
            grads["wm"] = np.einsum("pc,pck->k", d2, moves)
            step += 1
            adam_step(params, grads, moments, step, rate, args.decay)
        sample = slice(0, 50000)
        print(
            f"epoch {epoch + 1}: train"
            f" {loss(params, x[sample], mask[sample], bits[sample], y[sample])}"
            f" held out {loss(params, *held)}",
            flush=True,
        )
    return params


def load(path: Path) -> dict[str, np.ndarray]:
    """Weights written by this script, in the shapes `train` uses."""
    with np.load(path) as data:
        return {k: data[k].astype(np.float32) for k in ("w1", "b1", "w2", "b2", "wm")}


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("data", nargs="+", help="files written by training/selfplay.py")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--hidden", type=int, default=pn.HIDDEN)
    parser.add_argument("--epochs", type=int, default=24)
    parser.add_argument("--batch", type=int, default=512)
    parser.add_argument("--rate", type=float, default=0.005)
    parser.add_argument("--decay", type=float, default=1e-5)
    parser.add_argument("--start", help="weights to train on from (default: a new network)")
    parser.add_argument("--out", default=str(pn.WEIGHTS_FILE))
    args = parser.parse_args()
    states, visits = [], []
    for name in args.data:
        with np.load(name) as data:
            states.append(data["states"])
            visits.append(data["visits"])
    all_states = np.concatenate(states)
    counts = np.concatenate(visits).astype(np.float32)
    mask, bits = legal_moves_and_bits(all_states)
    keep = counts.sum(1) > 0
    x, mask, bits, counts = features(all_states[keep]), mask[keep], bits[keep], counts[keep]
    y = counts / counts.sum(1, keepdims=True)
    held = len(x) // 10
    uniform = mask[-held:] / mask[-held:].sum(1, keepdims=True)
    print(
        f"{len(x)} positions, {held} held out; uniform over the legal moves:"
        f" {float(-(y[-held:] * np.log(uniform + 1e-9)).sum(1).mean()):.4f}",
        flush=True,
    )
    held_out = (x[-held:], mask[-held:], bits[-held:], y[-held:])
    if pn.WEIGHTS_FILE.exists():
        print(f"the shipped network held out: {loss(load(pn.WEIGHTS_FILE), *held_out)}")
    params = train(
        (x[:-held], mask[:-held], bits[:-held], y[:-held]),
        held_out,
        args,
    )
    print("the moves' own weights:", np.round(params["wm"], 3))
    # The engine keeps the hidden layer in fixed point (`value_net.W1_SCALE`): clamp the rare
    # weight beyond its range (about ±2) rather than refuse the network.
    limit = np.iinfo(np.int16).max / vn.W1_SCALE
    clamped = int((np.abs(params["w1"]) > limit).sum())
    if clamped:
        print(f"{clamped} hidden-layer weights clamped to ±{limit:.4f}")
    np.savez_compressed(
        Path(args.out),
        w1=np.clip(params["w1"], -limit, limit),
        b1=params["b1"],
        w2=params["w2"],
        b2=params["b2"],
        wm=params["wm"],
    )
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
