"""A small learned policy for Ultimate: how likely the search is to pick each move (Numba).

`move_priors(s, cells, flags, n, ...)` writes into `out` a probability for each of the `n` legal
cells of state `s`: the softmax, over those cells, of a network with one hidden layer on the value
network's features (`value_net.active_features`), each cell's score plus a learned weight for
each thing the move itself does (`move_bits`: wins or blocks a small board, where it sends the
opponent), which a position's features alone cannot tell the output layer. `max` uses it for
PUCT priors (`mcts`): a move the network expects gets explored first. The weights are trained by
`training/policy_net.py` on the visit counts of `max`'s own self-play (recipe and seed there)
and shipped next to this module in `policy_net.npz`.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from tictactoe.engine.ultimate_kernel import BIG_X, CLOSED, FULL, THREATS, TURN, WINS, X_MASKS
from tictactoe.engine.value_net import FEATURES, W1_SCALE, active_features, fixed_point

HIDDEN = 128  # units of the hidden layer (`training/policy_net.py --hidden`)
CELLS = 81
MOVE_FEATURES = 7  # bits of `move_bits`

# What a move does (bits of `move_bits`), for the side that plays it.
WINS_BOARD = 1
WINS_GAME = 2
BLOCKS_BOARD = 4
SENDS_TO_FREE_CHOICE = 8
SENDS_TO_THEIR_WIN = 16  # a board where the opponent can win at once
SENDS_TO_THEIR_GAME_WIN = 32  # ... and that board would complete their big line
SENDS_TO_MY_WIN = 64  # a board where the mover can win at once (the opponent must answer it)

WEIGHTS_FILE = Path(__file__).with_name("policy_net.npz")


@njit(cache=True)
def move_bits(s: np.ndarray, cell: int) -> int:
    """What playing `cell` in state `s` does, as the bits above (`MOVE_FEATURES` of them)."""
    t = s[TURN]
    b = cell // 9
    p = cell - b * 9
    theirs_b = s[X_MASKS + (1 - t) * 9 + b]
    own = s[X_MASKS + t * 9 + b] | (1 << p)
    bits = 0
    won = WINS[own]
    if won:
        bits |= WINS_BOARD
        if WINS[s[BIG_X + t] | (1 << b)]:
            bits |= WINS_GAME
    if (THREATS[theirs_b] >> p) & 1:
        bits |= BLOCKS_BOARD
    if (s[CLOSED] >> p) & 1 or (p == b and (won or (own | theirs_b) == FULL)):
        return bits | SENDS_TO_FREE_CHOICE
    mine_p = own if p == b else s[X_MASKS + t * 9 + p]
    theirs_p = s[X_MASKS + (1 - t) * 9 + p]
    empty = FULL & ~(mine_p | theirs_p)
    if THREATS[theirs_p] & empty:
        bits |= SENDS_TO_THEIR_WIN
        if WINS[s[BIG_X + 1 - t] | (1 << p)]:
            bits |= SENDS_TO_THEIR_GAME_WIN
    if THREATS[mine_p] & empty:
        bits |= SENDS_TO_MY_WIN
    return bits


@njit(cache=True, fastmath=True)
def move_priors(
    s: np.ndarray,
    cells: np.ndarray,
    flags: np.ndarray,
    n: int,
    w1: np.ndarray,
    b1: np.ndarray,
    w2t: np.ndarray,
    b2: np.ndarray,
    wm: np.ndarray,
    active: np.ndarray,
    sums: np.ndarray,
    hidden: np.ndarray,
    out: np.ndarray,
) -> None:
    """Write the probability of each of the `n` cells in `cells` (the legal moves of `s`, and
    `flags` their `move_bits`, which the search needs too) into `out[:n]`. `w1` is the hidden
    layer in fixed point (int16, `W1_SCALE` a unit, as in `value_net.value`), `w2t` the output
    layer with one row per cell, `wm` the weight of each of `move_bits`' bits; `active`, `sums`
    (int32) and `hidden` (float32, a slot per hidden unit) are scratch."""
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
        bits = flags[i]
        for k in range(MOVE_FEATURES):
            if (bits >> k) & 1:
                a += wm[k]
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
    layer in fixed point, the output layer transposed, as float32, and the moves' own weights
    (`wm`; zeros for a file trained before them)."""

    def __init__(self, path: Path = WEIGHTS_FILE) -> None:
        with np.load(path) as data:
            self.w1 = fixed_point(data["w1"], path)
            self.b1 = np.ascontiguousarray(data["b1"], dtype=np.float32)
            self.w2t = np.ascontiguousarray(data["w2"].T, dtype=np.float32)
            self.b2 = np.ascontiguousarray(data["b2"], dtype=np.float32)
            own = data["wm"] if "wm" in data.files else np.zeros(MOVE_FEATURES)
            self.wm = np.ascontiguousarray(own, dtype=np.float32)
        if self.wm.shape != (MOVE_FEATURES,):
            raise ValueError(f"{path} has {self.wm.shape} move weights, not {MOVE_FEATURES}")
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
