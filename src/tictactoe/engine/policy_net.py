"""A small learned policy for Ultimate: how likely the search is to pick each move (Numba).

`move_priors(s, cells, n, ...)` writes into `out` a probability for each of the `n` legal cells
of state `s`: the softmax, over those cells, of a network with one hidden layer on the value
network's features (`value_net.active_features`). `max` uses it for PUCT priors (`mcts`): a
move the network expects gets explored first. The weights are trained by
`training/policy_net.py` on the visit counts of `max`'s own self-play (recipe and seed there)
and shipped next to this module in `policy_net.npz`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from tictactoe.engine.value_net import FEATURES, W1_SCALE, active_features, fixed_point

HIDDEN = 128  # units of the hidden layer (`training/policy_net.py --hidden`)
CELLS = 81

WEIGHTS_FILE = Path(__file__).with_name("policy_net.npz")


@njit(cache=True, fastmath=True)
def move_priors(
    s: np.ndarray,
    cells: np.ndarray,
    n: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2t: np.ndarray,
    b2: np.ndarray,
    active: np.ndarray,
    sums: np.ndarray,
    hidden: np.ndarray,
    out: np.ndarray,
) -> None:
    """Write the probability of each of the `n` cells in `cells` (the legal moves of `s`) into
    `out[:n]`. `w1` is the hidden layer in fixed point (int16, `W1_SCALE` a unit, as in
    `value_net.value`), `w2t` the output layer with one row per cell; `active`, `sums` (int32)
    and `hidden` (float32, a slot per hidden unit) are scratch."""
    count = active_features(s, active)
    for j in range(HIDDEN):
        sums[j] = 0
    for i in range(count):
        row = active[i]
        for j in range(HIDDEN):
            sums[j] += w1[row, j]
    for j in range(HIDDEN):
        hidden[j] = max(sums[j] * np.float32(1.0 / W1_SCALE) + b1[j], np.float32(0.0))
    top = np.float32(-1e30)
    for i in range(n):
        cell = cells[i]
        a = b2[cell]
        for j in range(HIDDEN):
            a += w2t[cell, j] * hidden[j]
        out[i] = a
        if a > top:
            top = a
    total = np.float32(0.0)
    for i in range(n):
        out[i] = np.exp(out[i] - top)
        total += out[i]
    for i in range(n):
        out[i] /= total


class Weights:
    """The policy's weights, loaded once from `policy_net.npz` (trained in float32): the hidden
    layer in fixed point, the output layer transposed, as float32."""

    def __init__(self, path: Path = WEIGHTS_FILE) -> None:
        with np.load(path) as data:
            self.w1 = fixed_point(data["w1"], path)
            self.b1 = np.ascontiguousarray(data["b1"], dtype=np.float32)
            self.w2t = np.ascontiguousarray(data["w2"].T, dtype=np.float32)
            self.b2 = np.ascontiguousarray(data["b2"], dtype=np.float32)
        if self.w1.shape != (FEATURES, HIDDEN) or self.w2t.shape != (CELLS, HIDDEN):
            raise ValueError(
                f"{path} has layers {self.w1.shape} and {self.w2t.shape[::-1]}, "
                f"not {(FEATURES, HIDDEN)} and {(HIDDEN, CELLS)}"
            )


_loaded: Weights | None = None


def weights() -> Weights:
    global _loaded
    if _loaded is None:
        _loaded = Weights()
    return _loaded


def use_weights(net: Weights | None) -> Weights | None:
    """Search with `net` from now on in this process instead of the shipped weights (for
    tuning and self-play with a policy that is not shipped yet; None: the shipped ones, loaded
    when next needed). Returns the weights used until now, to put back."""
    global _loaded
    before, _loaded = _loaded, net
    return before
