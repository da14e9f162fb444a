"""The playout of `max`: the informed policy with the game in local variables (Numba).

Same idea as `ultimate_kernel.informed_playout` (take a move that wins the game; when sent to a
board it can win, usually win it; else a random move; a draw as soon as neither side can make a
big line), written as one loop that keeps the side to move, the board sent to, the closed and
won boards in registers and only the marks in the state array. About half again as fast, which
at a fixed think time is more iterations for the search.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tictactoe.engine.ultimate_kernel import (
    BIG_O,
    BIG_X,
    CLOSED,
    DRAW,
    FULL,
    LINE_POSSIBLE,
    NTH_BIT,
    O_WON,
    OPEN_CELLS,
    PLAYING,
    POPCOUNT,
    RESULT,
    SENT,
    THREATS,
    TURN,
    WINS,
    X_WON,
)

# `style` bits of `fast_playout`.
ALWAYS_WIN_BOARD = 1  # take a small board it can win every time (not three times in four)
BLOCK_BOARD = 2  # else, when the opponent could win this board, usually take that cell
NO_FREE_CHOICE = 4  # else, avoid sending the opponent to a closed board (a free choice)


@njit(cache=True, inline="always")
def _draw(x: np.uint64, n: int) -> tuple[np.uint64, int]:
    """One xorshift64* step: the new generator state and a uniform integer in [0, n)."""
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    r32 = int((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32))
    return x, (r32 * n) >> 32


@njit(cache=True)
def fast_playout(s: np.ndarray, rng: np.ndarray, style: int) -> int:
    """Play out from `s` with the informed policy (plus the `style` bits); return the result.

    `s` is scratch afterwards. `rng` is the one-slot generator state of `ultimate_kernel`.
    """
    result = s[RESULT]
    if result != PLAYING:
        return result
    t = s[TURN]
    sent = s[SENT]
    closed = s[CLOSED]
    big_x = s[BIG_X]
    big_o = s[BIG_O]
    open_cells = s[OPEN_CELLS]
    x = rng[0]
    while True:
        mine_big = big_x if t == 0 else big_o
        # A move that wins the game: an open board completing a big line, holding a cell that
        # completes a small one.
        cell = -1
        candidates = THREATS[mine_big] & ~closed
        if sent >= 0:
            candidates &= 1 << sent
        while candidates:
            b = POPCOUNT[(candidates & -candidates) - 1]
            candidates &= candidates - 1
            own = s[t * 9 + b]
            hits = THREATS[own] & ~(own | s[(1 - t) * 9 + b]) & FULL
            if hits:
                cell = b * 9 + NTH_BIT[hits, 0]
                break
        if cell < 0:
            if sent >= 0:
                b = sent
                own = s[t * 9 + b]
                theirs = s[(1 - t) * 9 + b]
                empty = FULL & ~(own | theirs)
                hits = THREATS[own] & empty
                choices = empty
                if hits:
                    if style & ALWAYS_WIN_BOARD:
                        choices = hits
                    else:
                        x, r = _draw(x, 4)
                        if r != 0:
                            choices = hits
                if choices == empty and style & BLOCK_BOARD:
                    blocks = THREATS[theirs] & empty
                    if blocks:
                        x, r = _draw(x, 4)
                        if r != 0:
                            choices = blocks
                if choices == empty and style & NO_FREE_CHOICE:
                    safe = empty & ~closed
                    if safe:
                        choices = safe
                x, r = _draw(x, POPCOUNT[choices])
                cell = b * 9 + NTH_BIT[choices, r]
            else:
                x, r = _draw(x, open_cells)
                for b in range(9):
                    if (closed >> b) & 1:
                        continue
                    empty = FULL & ~(s[b] | s[9 + b])
                    n = POPCOUNT[empty]
                    if r < n:
                        cell = b * 9 + NTH_BIT[empty, r]
                        break
                    r -= n
        b = cell // 9
        p = cell - b * 9
        own = s[t * 9 + b] | (1 << p)
        s[t * 9 + b] = own
        open_cells -= 1
        if WINS[own]:
            closed |= 1 << b
            open_cells -= 9 - POPCOUNT[own | s[(1 - t) * 9 + b]]
            if t == 0:
                big_x |= 1 << b
                if WINS[big_x]:
                    result = X_WON
                    break
            else:
                big_o |= 1 << b
                if WINS[big_o]:
                    result = O_WON
                    break
            if closed == FULL or (
                not LINE_POSSIBLE[closed & ~big_x] and not LINE_POSSIBLE[closed & ~big_o]
            ):
                result = DRAW
                break
        elif own | s[(1 - t) * 9 + b] == FULL:
            closed |= 1 << b
            if closed == FULL or (
                not LINE_POSSIBLE[closed & ~big_x] and not LINE_POSSIBLE[closed & ~big_o]
            ):
                result = DRAW
                break
        sent = -1 if (closed >> p) & 1 else p
        t = 1 - t
    rng[0] = x
    s[RESULT] = result
    return result


@njit(cache=True)
def fast_playout_batch(s0: np.ndarray, count: int, seed: int, style: int) -> np.ndarray:
    """Run `count` fast playouts from `s0`; how many ended X won / O won / draw (index 1..3)."""
    tally = np.zeros(4, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) | np.uint64(1)
    s = np.empty(s0.shape[0], dtype=np.int64)
    for _ in range(count):
        s[:] = s0
        tally[fast_playout(s, rng, style)] += 1
    return tally
