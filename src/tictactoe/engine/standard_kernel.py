"""The standard Tic-Tac-Toe kernel (3×3 to 5×5, any line length): perft and an exact solver.

A position is two bitmasks over grid indices (`row_from_top * size + col`, at most 25 bits): the
marks of the side to move and of the other side. The search is negamax alpha-beta with a
transposition table keyed by the position itself, so it proves wins, losses and draws exactly
when it reaches the end, and falls back to a line-counting evaluation at its depth limit. Scores
are position-relative: `WIN - n` means a win in `n` plies from here.
"""

from __future__ import annotations

from functools import cache

import numpy as np
from numba import njit

WIN = 10_000
PROVEN = WIN - 100  # scores beyond ±PROVEN are proven results; evaluations stay well inside
TT_BITS = 20

EXACT = 0
LOWER = 1
UPPER = 2


@cache
def tables(size: int, line: int) -> tuple[np.ndarray, np.ndarray]:
    """The winning lines as bitmasks, and the cells in the order the search tries them (the
    cells on the most lines first)."""
    lines = []
    for row in range(size):
        for col in range(size):
            for dr, dc in ((0, 1), (1, 0), (1, 1), (1, -1)):
                end_r, end_c = row + dr * (line - 1), col + dc * (line - 1)
                if 0 <= end_r < size and 0 <= end_c < size:
                    mask = 0
                    for i in range(line):
                        mask |= 1 << ((row + dr * i) * size + col + dc * i)
                    lines.append(mask)
    on_lines = [sum(1 for m in lines if m >> cell & 1) for cell in range(size * size)]
    centre = (size - 1) / 2
    order = sorted(
        range(size * size),
        key=lambda c: (-on_lines[c], abs(c // size - centre) + abs(c % size - centre), c),
    )
    return np.array(lines, dtype=np.int64), np.array(order, dtype=np.int64)


@njit(cache=True)
def popcount(x: int) -> int:
    n = 0
    while x:
        x &= x - 1
        n += 1
    return n


@njit(cache=True)
def has_line(marks: int, lines: np.ndarray) -> bool:
    for i in range(lines.shape[0]):  # noqa: SIM110 (a plain loop compiles tighter in Numba)
        if marks & lines[i] == lines[i]:
            return True
    return False


@njit("int64(int64, int64, int64, int64, int64[::1])", cache=True)
def perft(me: int, other: int, depth: int, full: int, lines: np.ndarray) -> int:
    """Move sequences of `depth` plies from a position that is not over (games that end stop)."""
    if depth == 0:
        return 1
    empty = full & ~(me | other)
    if depth == 1:
        return popcount(empty)
    total = 0
    bits = empty
    while bits:
        bit = bits & -bits
        bits ^= bit
        mine = me | bit
        if not has_line(mine, lines) and mine | other != full:
            total += perft(other, mine, depth - 1, full, lines)  # a game over early counts 0
    return total


@njit(cache=True)
def threats(me: int, other: int, lines: np.ndarray, line: int) -> tuple[int, int]:
    """Cells where the side to move would complete a line, and where the other side would."""
    mine = 0
    theirs = 0
    for i in range(lines.shape[0]):
        m = lines[i]
        a = me & m
        b = other & m
        if b == 0 and a != 0 and popcount(a) == line - 1:
            mine |= m & ~a
        elif a == 0 and b != 0 and popcount(b) == line - 1:
            theirs |= m & ~b
    return mine, theirs


@njit(cache=True)
def evaluate(me: int, other: int, lines: np.ndarray) -> int:
    """Open lines, weighted by how far along they are: positive is good for the side to move."""
    score = 0
    for i in range(lines.shape[0]):
        m = lines[i]
        a = me & m
        b = other & m
        if b == 0 and a != 0:
            score += 1 << (3 * popcount(a))
        elif a == 0 and b != 0:
            score -= 1 << (3 * popcount(b))
    return max(-PROVEN // 2, min(PROVEN // 2, score))


# An explicit signature: Numba caches type-inferred recursive functions badly (the cached copy
# can crash when loaded in a new process), but recursion with a declared type is supported.
@njit(
    "int64(int64, int64, int64, int64, int64, int64, int64[::1], int64, int64[::1], int64[::1],"
    " int32[::1], int16[::1], int8[::1], int16[::1], int64[::1])",
    cache=True,
)
def negamax(
    me: int,
    other: int,
    depth: int,
    alpha: int,
    beta: int,
    full: int,
    lines: np.ndarray,
    line: int,
    order: np.ndarray,
    tt_key: np.ndarray,
    tt_value: np.ndarray,
    tt_depth: np.ndarray,
    tt_flag: np.ndarray,
    tt_move: np.ndarray,
    stats: np.ndarray,
) -> int:
    """Score of the position for the side to move (not over; the side to move has not won).

    `stats` = [nodes, node limit, aborted]; past the limit the search unwinds with garbage that
    the caller must discard (it checks `stats[2]`).
    """
    stats[0] += 1
    if stats[0] > stats[1]:
        stats[2] = 1
        return 0
    empty = full & ~(me | other)
    if empty == 0:
        return 0
    mine, theirs = threats(me, other, lines, line)
    if mine:
        return WIN - 1
    if theirs & (theirs - 1):
        return -(WIN - 2)  # two threats: one move cannot stop both
    if depth <= 0:
        return evaluate(me, other, lines)
    key = me | (other << 25)
    # Multiplicative hashing in wrapping int64 arithmetic; the mask keeps the slot in range.
    slot = ((key * 0x09E3779B97F4A7C1) >> 24) & ((1 << TT_BITS) - 1)
    tt_best = -1
    if tt_key[slot] == key:
        tt_best = tt_move[slot]
        if tt_depth[slot] >= depth:
            v = tt_value[slot]
            f = tt_flag[slot]
            if f == EXACT:
                return v
            if f == LOWER and v >= beta:
                return v
            if f == UPPER and v <= alpha:
                return v
    candidates = theirs if theirs else empty
    alpha0 = alpha
    best = -WIN
    best_move = -1
    n = order.shape[0]
    for i in range(-1, n):
        if i < 0:
            if tt_best < 0 or not (candidates >> tt_best) & 1:
                continue
            cell = tt_best
        else:
            cell = order[i]
            if cell == tt_best or not (candidates >> cell) & 1:
                continue
        v = -negamax(
            other,
            me | (1 << cell),
            depth - 1,
            -beta,
            -alpha,
            full,
            lines,
            line,
            order,
            tt_key,
            tt_value,
            tt_depth,
            tt_flag,
            tt_move,
            stats,
        )
        if stats[2]:
            return 0
        if v > PROVEN:
            v -= 1
        elif v < -PROVEN:
            v += 1
        if v > best:
            best = v
            best_move = cell
        if v > alpha:
            alpha = v
        if alpha >= beta:
            break
    tt_key[slot] = key
    tt_value[slot] = best
    tt_depth[slot] = depth
    tt_move[slot] = best_move
    tt_flag[slot] = UPPER if best <= alpha0 else (LOWER if best >= beta else EXACT)
    return best


@njit(cache=True)
def root_scores(
    me: int,
    other: int,
    depth: int,
    full: int,
    lines: np.ndarray,
    line: int,
    order: np.ndarray,
    tt_key: np.ndarray,
    tt_value: np.ndarray,
    tt_depth: np.ndarray,
    tt_flag: np.ndarray,
    tt_move: np.ndarray,
    stats: np.ndarray,
    scores: np.ndarray,
) -> None:
    """Exact score (to `depth`) of every legal move, written into `scores` by cell (others -WIN-1).

    Each move gets a full window so that equally good moves can be told apart from worse ones.
    """
    empty = full & ~(me | other)
    for cell in range(scores.shape[0]):
        scores[cell] = -WIN - 1
    for i in range(order.shape[0]):
        cell = order[i]
        if not (empty >> cell) & 1:
            continue
        mine = me | (1 << cell)
        if has_line(mine, lines):
            scores[cell] = WIN - 1
            continue
        if mine | other == full:
            scores[cell] = 0
            continue
        v = -negamax(
            other,
            mine,
            depth - 1,
            -WIN,
            WIN,
            full,
            lines,
            line,
            order,
            tt_key,
            tt_value,
            tt_depth,
            tt_flag,
            tt_move,
            stats,
        )
        if stats[2]:
            return
        if v > PROVEN:
            v -= 1
        elif v < -PROVEN:
            v += 1
        scores[cell] = v
