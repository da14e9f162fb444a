"""A small learned value for Ultimate positions: binary features, two hidden layers, Numba.

`value(s, ...)` is the expected score (0..1) of the side to move in state `s`. Every feature is
0 or 1, so the first layer is the sum of the weight rows of the active features (a position has
about forty). The weights are trained by `training/value_net.py` from self-play games of the
search (recipe and seed there) and shipped next to this module in `value_net.npz`.

Features, from the side to move's point of view: for each small board, won by me / by them /
full without a winner, and while it is open, my marks, their marks, whether I have a cell that
wins it and whether they have; the board I am sent to (or a free choice); whether I can win the
game at once; whether either side has an open board that would complete its big line and a cell
there that wins it.
"""

from __future__ import annotations

from pathlib import Path

import numpy as np
from numba import njit

from tictactoe.engine.ultimate_kernel import (
    BIG_X,
    CLOSED,
    FULL,
    NTH_BIT,
    POPCOUNT,
    SENT,
    THREATS,
    TURN,
    WINS,
    X_MASKS,
    winning_move,
)

PER_BOARD = 23
SENT_FEATURES = 9 * PER_BOARD  # 9 boards, then "free choice" at +9
WIN_NOW = SENT_FEATURES + 10
MY_BIG_THREAT = WIN_NOW + 1
THEIR_BIG_THREAT = WIN_NOW + 2
FEATURES = WIN_NOW + 3
MAX_ACTIVE = 96
HIDDEN1 = 64  # units of the two hidden layers (`training/value_net.py --hidden/--hidden2`)
HIDDEN2 = 32
W1_SCALE = 16384  # the first layer's weights are stored as multiples of 1 / W1_SCALE

WEIGHTS_FILE = Path(__file__).with_name("value_net.npz")


@njit(cache=True)
def active_features(s: np.ndarray, out: np.ndarray) -> int:
    """Write the indices of the features that are 1 in state `s` into `out`; return how many."""
    t = s[TURN]
    n = 0
    for b in range(9):
        n = _board_features(s, b, t, out, n)
    return _whole_board_features(s, out, n)


@njit(cache=True, inline="always")
def _board_features(s: np.ndarray, b: int, t: int, out: np.ndarray, n: int) -> int:
    """Write small board `b`'s features, seen by side `t`, into `out` from `n`; return the new
    count. They depend on that board alone."""
    base = b * PER_BOARD
    if (s[BIG_X + t] >> b) & 1:
        out[n] = base
        return n + 1
    if (s[BIG_X + 1 - t] >> b) & 1:
        out[n] = base + 1
        return n + 1
    if (s[CLOSED] >> b) & 1:
        out[n] = base + 2
        return n + 1
    mine = s[X_MASKS + t * 9 + b]
    theirs = s[X_MASKS + (1 - t) * 9 + b]
    for k in range(POPCOUNT[mine]):
        out[n] = base + 3 + NTH_BIT[mine, k]
        n += 1
    for k in range(POPCOUNT[theirs]):
        out[n] = base + 12 + NTH_BIT[theirs, k]
        n += 1
    empty = FULL & ~(mine | theirs)
    if THREATS[mine] & empty:
        out[n] = base + 21
        n += 1
    if THREATS[theirs] & empty:
        out[n] = base + 22
        n += 1
    return n


@njit(cache=True, inline="always")
def _whole_board_features(s: np.ndarray, out: np.ndarray, n: int) -> int:
    """Write the features that depend on the whole board into `out` from `n` (where the side to
    move is sent, a win at once, an open small board with a winning cell that would complete
    either side's big line); return the new count."""
    t = s[TURN]
    big_me = s[BIG_X + t]
    big_them = s[BIG_X + 1 - t]
    done = big_me | big_them | s[CLOSED]
    my_big = False
    their_big = False
    for b in range(9):
        if (done >> b) & 1:
            continue
        mine = s[X_MASKS + t * 9 + b]
        theirs = s[X_MASKS + (1 - t) * 9 + b]
        empty = FULL & ~(mine | theirs)
        if THREATS[mine] & empty and WINS[big_me | (1 << b)]:
            my_big = True
        if THREATS[theirs] & empty and WINS[big_them | (1 << b)]:
            their_big = True
    sent = s[SENT]
    out[n] = SENT_FEATURES + (sent if sent >= 0 else 9)
    n += 1
    if winning_move(s) >= 0:
        out[n] = WIN_NOW
        n += 1
    if my_big:
        out[n] = MY_BIG_THREAT
        n += 1
    if their_big:
        out[n] = THEIR_BIG_THREAT
        n += 1
    return n


@njit(cache=True, fastmath=True)
def value(
    s: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2t: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: float,
    active: np.ndarray,
    sums: np.ndarray,
    hidden: np.ndarray,
) -> float:
    """Expected score of the side to move in `s`, 0..1. `w1` is the first layer in fixed point
    (int16, `W1_SCALE` a unit: half the memory of float32 and twice the lanes, which makes it
    the cheap part); `w2t` the second layer transposed, one row per unit. `active`, `sums`
    (int32) and `hidden` (float32, a slot per first-layer unit) are scratch."""
    n = active_features(s, active)
    for j in range(HIDDEN1):
        sums[j] = 0
    _add_rows(w1, active, n, sums)
    return _above_first_layer(sums, b1, w2t, b2, w3, b3, hidden)


@njit(cache=True, fastmath=True, inline="always")
def _above_first_layer(
    sums: np.ndarray,
    b1: np.ndarray,
    w2t: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: float,
    hidden: np.ndarray,
) -> float:
    """The network's value from its first layer's sums (`value` and `child_value` alike)."""
    for j in range(HIDDEN1):
        hidden[j] = max(sums[j] * np.float32(1.0 / W1_SCALE) + b1[j], np.float32(0.0))
    total = np.float32(b3)
    for k in range(HIDDEN2):
        a = b2[k]
        for j in range(HIDDEN1):
            a += w2t[k, j] * hidden[j]
        total += w3[k] * max(a, np.float32(0.0))
    return 1.0 / (1.0 + np.exp(-total))


@njit(cache=True, inline="always")
def _add_rows(w1: np.ndarray, rows: np.ndarray, n: int, acc: np.ndarray) -> None:
    """Adds the first-layer rows `rows[:n]` to `acc`. The layer sizes are compile-time
    constants: the loops unroll and stay in registers (twice as fast as sizes read from the
    arrays)."""
    for i in range(n):
        row = rows[i]
        for j in range(HIDDEN1):
            acc[j] += w1[row, j]


@njit(cache=True)
def children_boards(
    s: np.ndarray, w1: np.ndarray, active: np.ndarray, boards: np.ndarray, total: np.ndarray
) -> None:
    """Prepares `child_value` for the positions one move after `s`: `boards[b]` (int32, 9 ×
    `HIDDEN1`) gets small board `b`'s first-layer rows seen by the side to move after that move,
    `total` their sum. A move changes one small board; the other eight stay as they are.
    `active` is scratch."""
    t = 1 - s[TURN]
    for j in range(HIDDEN1):
        total[j] = 0
    for b in range(9):
        for j in range(HIDDEN1):
            boards[b, j] = 0
        _add_rows(w1, active, _board_features(s, b, t, active, 0), boards[b])
        for j in range(HIDDEN1):
            total[j] += boards[b, j]


@njit(cache=True, fastmath=True)
def child_value(
    child: np.ndarray,
    board: int,
    boards: np.ndarray,
    total: np.ndarray,
    w1: np.ndarray,
    b1: np.ndarray,
    w2t: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: float,
    active: np.ndarray,
    sums: np.ndarray,
    hidden: np.ndarray,
) -> float:
    """`value(child)` (the same number, bit for bit), for a `child` one move after the position
    `children_boards` prepared, the move made in small board `board`: the first layer is the
    prepared sum with that board's rows replaced, plus the rows that depend on the whole board."""
    for j in range(HIDDEN1):
        sums[j] = total[j] - boards[board, j]
    n = _board_features(child, board, child[TURN], active, 0)
    _add_rows(w1, active, _whole_board_features(child, active, n), sums)
    return _above_first_layer(sums, b1, w2t, b2, w3, b3, hidden)


def symmetries() -> list[np.ndarray]:
    """The eight symmetries of a 3×3 grid, each as a permutation of 0..8. Turning the whole
    board moves small board b to sigma[b] and, inside each, cell p to sigma[p]."""
    maps = []
    for turn in range(4):
        for mirror in (False, True):
            perm = []
            for r, c in ((r, c) for r in range(3) for c in range(3)):
                if mirror:
                    c = 2 - c
                for _ in range(turn):
                    r, c = c, 2 - r
                perm.append(r * 3 + c)
            maps.append(np.array(perm))
    return maps


def feature_permutation(sigma: np.ndarray) -> np.ndarray:
    """Where each feature goes when the board is turned by `sigma` (for training on turned
    copies of each position: the features of the turned position are `x[inverse]`)."""
    where = np.arange(FEATURES)
    for b in range(9):
        base, target = b * PER_BOARD, int(sigma[b]) * PER_BOARD
        for k in (0, 1, 2, 21, 22):
            where[base + k] = target + k
        for p in range(9):
            where[base + 3 + p] = target + 3 + int(sigma[p])
            where[base + 12 + p] = target + 12 + int(sigma[p])
        where[SENT_FEATURES + b] = SENT_FEATURES + int(sigma[b])
    return where


def fixed_point(w1: np.ndarray, path: Path) -> np.ndarray:
    """A first layer trained in float32 as int16 multiples of 1 / `W1_SCALE` (`ValueError` if a
    weight of the file `path` does not fit)."""
    scaled = np.round(w1 * W1_SCALE)
    if np.abs(scaled).max() > np.iinfo(np.int16).max:
        raise ValueError(f"{path}: a first-layer weight is too large for fixed point")
    return scaled.astype(np.int16)


class Weights:
    """The network's weights, loaded once from `value_net.npz` (trained in float32): the first
    layer in fixed point (see `value`), the rest as float32 arrays."""

    def __init__(self, path: Path = WEIGHTS_FILE) -> None:
        with np.load(path) as data:
            self.w1 = fixed_point(data["w1"], path)
            self.b1 = np.ascontiguousarray(data["b1"], dtype=np.float32)
            self.w2t = np.ascontiguousarray(data["w2"].T, dtype=np.float32)
            self.b2 = np.ascontiguousarray(data["b2"], dtype=np.float32)
            self.w3 = np.ascontiguousarray(data["w3"], dtype=np.float32)
            self.b3 = float(data["b3"])
        if self.w1.shape != (FEATURES, HIDDEN1) or self.w2t.shape != (HIDDEN2, HIDDEN1):
            raise ValueError(
                f"{path} has layers {self.w1.shape} and {self.w2t.shape[::-1]}, "
                f"not {(FEATURES, HIDDEN1)} and {(HIDDEN1, HIDDEN2)}"
            )


_loaded: Weights | None = None


def weights() -> Weights:
    global _loaded
    if _loaded is None:
        _loaded = Weights()
    return _loaded


def use_weights(net: Weights) -> None:
    """Search with `net` from now on in this process instead of the shipped weights (for
    training: self-play with a network that is not shipped yet)."""
    global _loaded
    _loaded = net
