"""The Ultimate Tic-Tac-Toe kernel: bitboard state, move generation, perft and playouts (Numba).

A state is one int64 array of `STATE_SIZE` slots (layout below). Cells are numbered board-major:
`cell = board * 9 + position`, both 0..8 row-major from the top-left, so a move's position is also
the board it sends the opponent to. Everything here is `@njit(cache=True)` and allocation-free in
its loops; `tictactoe.engine.position` converts to and from `tictactoe.Game`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

# State layout: marks of X on each small board, marks of O, boards won by X / by O, closed boards
# (won or full), side to move (0 = X, 1 = O), board the side to move is sent to (-1 = free), result
# (0 playing, 1 X won, 2 O won, 3 draw), empty cells in open boards (= legal moves when free), ply.
X_MASKS = 0
O_MASKS = 9
BIG_X = 18
BIG_O = 19
CLOSED = 20
TURN = 21
SENT = 22
RESULT = 23
OPEN_CELLS = 24
PLY = 25
STATE_SIZE = 26

PLAYING = 0
X_WON = 1
O_WON = 2
DRAW = 3

FULL = 511

# The eight lines of a 3×3 board as 9-bit masks (bit = row * 3 + col).
LINES = np.array([0x007, 0x038, 0x1C0, 0x049, 0x092, 0x124, 0x111, 0x054], dtype=np.int64)


def _tables() -> tuple[np.ndarray, ...]:
    wins = np.zeros(512, dtype=np.uint8)
    popcount = np.zeros(512, dtype=np.int64)
    nth_bit = np.zeros((512, 9), dtype=np.int64)
    threats = np.zeros(512, dtype=np.int64)
    line_possible = np.zeros(512, dtype=np.uint8)
    for mask in range(512):
        wins[mask] = any(mask & line == line for line in LINES)
        bits = [bit for bit in range(9) if mask >> bit & 1]
        popcount[mask] = len(bits)
        for rank, bit in enumerate(bits):
            nth_bit[mask, rank] = bit
        # Cells that would complete a line for a player holding `mask` (callers check occupancy).
        for bit in range(9):
            if not mask >> bit & 1 and any((mask | 1 << bit) & line == line for line in LINES):
                threats[mask] |= 1 << bit
        # `mask` = boards closed against a player: can that player still make a big line?
        line_possible[mask] = any(line & mask == 0 for line in LINES)
    return wins, popcount, nth_bit, threats, line_possible


WINS, POPCOUNT, NTH_BIT, THREATS, LINE_POSSIBLE = _tables()


@njit(cache=True)
def new_state() -> np.ndarray:
    """The start position: X to move anywhere."""
    s = np.zeros(STATE_SIZE, dtype=np.int64)
    s[SENT] = -1
    s[OPEN_CELLS] = 81
    return s


@njit(cache=True)
def play(s: np.ndarray, cell: int) -> None:
    """Play `cell` (assumed legal) for the side to move, in place."""
    t = s[TURN]
    b = cell // 9
    p = cell - b * 9
    own = s[X_MASKS + t * 9 + b] | (1 << p)
    s[X_MASKS + t * 9 + b] = own
    occupied = own | s[X_MASKS + (1 - t) * 9 + b]
    s[OPEN_CELLS] -= 1
    if WINS[own]:
        big = s[BIG_X + t] | (1 << b)
        s[BIG_X + t] = big
        s[CLOSED] |= 1 << b
        s[OPEN_CELLS] -= 9 - POPCOUNT[occupied]
        if WINS[big]:
            s[RESULT] = X_WON + t
    elif occupied == FULL:
        s[CLOSED] |= 1 << b
    if s[RESULT] == PLAYING and s[CLOSED] == FULL:
        s[RESULT] = DRAW
    s[SENT] = -1 if (s[CLOSED] >> p) & 1 else p
    s[TURN] = 1 - t
    s[PLY] += 1


@njit(cache=True)
def legal_count(s: np.ndarray) -> int:
    """How many legal moves the side to move has (0 once the game is over)."""
    if s[RESULT] != PLAYING:
        return 0
    b = s[SENT]
    if b >= 0:
        return POPCOUNT[FULL & ~(s[X_MASKS + b] | s[O_MASKS + b])]
    return s[OPEN_CELLS]


@njit(cache=True)
def legal_moves(s: np.ndarray, out: np.ndarray) -> int:
    """Write the legal cells into `out` in increasing order; return how many."""
    n = 0
    if s[RESULT] != PLAYING:
        return 0
    sent = s[SENT]
    closed = s[CLOSED]
    for b in range(9):
        if (sent >= 0 and b != sent) or (closed >> b) & 1:
            continue
        empty = FULL & ~(s[X_MASKS + b] | s[O_MASKS + b])
        for k in range(POPCOUNT[empty]):
            out[n] = b * 9 + NTH_BIT[empty, k]
            n += 1
    return n


@njit(cache=True)
def draw_is_certain(s: np.ndarray) -> bool:
    """Neither side can make a big line any more: the game can only end in a draw."""
    closed = s[CLOSED]
    return not LINE_POSSIBLE[closed & ~s[BIG_X]] and not LINE_POSSIBLE[closed & ~s[BIG_O]]


@njit(cache=True)
def perft(s0: np.ndarray, depth: int) -> int:
    """Number of move sequences of `depth` plies from `s0` (games that end earlier stop there)."""
    if depth == 0:
        return 1
    if depth == 1:
        return legal_count(s0)
    stack = np.empty((depth, STATE_SIZE), dtype=np.int64)
    moves = np.empty((depth, 81), dtype=np.int64)
    counts = np.zeros(depth, dtype=np.int64)
    next_index = np.zeros(depth, dtype=np.int64)
    stack[0, :] = s0
    counts[0] = legal_moves(stack[0], moves[0])
    total = 0
    d = 0
    while d >= 0:
        if next_index[d] >= counts[d]:
            d -= 1
            continue
        cell = moves[d, next_index[d]]
        next_index[d] += 1
        child = stack[d + 1]
        child[:] = stack[d]
        play(child, cell)
        if d + 2 == depth:
            total += legal_count(child)  # bulk-count the last ply
        else:
            d += 1
            counts[d] = legal_moves(child, moves[d])
            next_index[d] = 0
    return total


@njit(cache=True)
def next_random(rng: np.ndarray) -> int:
    """xorshift64*: 32 random bits. `rng` is a one-slot uint64 array holding the generator state."""
    x = rng[0]
    x ^= x >> np.uint64(12)
    x ^= x << np.uint64(25)
    x ^= x >> np.uint64(27)
    rng[0] = x
    return int((x * np.uint64(0x2545F4914F6CDD1D)) >> np.uint64(32))


@njit(cache=True)
def random_below(rng: np.ndarray, n: int) -> int:
    """Uniform integer in [0, n) for small n (multiply-shift, no division)."""
    return (next_random(rng) * n) >> 32


@njit(cache=True)
def random_move(s: np.ndarray, rng: np.ndarray) -> int:
    """A uniformly random legal cell (the game must not be over)."""
    b = s[SENT]
    if b >= 0:
        empty = FULL & ~(s[X_MASKS + b] | s[O_MASKS + b])
        return b * 9 + NTH_BIT[empty, random_below(rng, POPCOUNT[empty])]
    r = random_below(rng, s[OPEN_CELLS])
    closed = s[CLOSED]
    for b in range(9):
        if (closed >> b) & 1:
            continue
        empty = FULL & ~(s[X_MASKS + b] | s[O_MASKS + b])
        n = POPCOUNT[empty]
        if r < n:
            return b * 9 + NTH_BIT[empty, r]
        r -= n
    return -1  # unreachable while OPEN_CELLS is right


@njit(cache=True)
def winning_move(s: np.ndarray) -> int:
    """A legal cell that wins the whole game at once for the side to move, or -1."""
    t = s[TURN]
    candidates = THREATS[s[BIG_X + t]] & ~s[CLOSED]  # open boards that would complete a big line
    sent = s[SENT]
    if sent >= 0:
        candidates &= 1 << sent
    while candidates:
        b = POPCOUNT[(candidates & -candidates) - 1]
        candidates &= candidates - 1
        own = s[X_MASKS + t * 9 + b]
        hits = THREATS[own] & ~(own | s[X_MASKS + (1 - t) * 9 + b]) & FULL
        if hits:
            return b * 9 + NTH_BIT[hits, 0]
    return -1


@njit(cache=True)
def random_playout(s: np.ndarray, rng: np.ndarray) -> int:
    """Play uniformly random moves in place until the game ends; return the result.

    The hot loop of the plain search: `play` and `random_move` inlined by hand, with the
    generator and the big-board masks in local variables rather than in arrays. It draws the
    same random numbers as `random_move`, so the two play the same games; `s` is scratch
    afterwards (only its marks and result are kept up to date).
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
    multiplier = np.uint64(0x2545F4914F6CDD1D)
    while True:
        x ^= x >> np.uint64(12)
        x ^= x << np.uint64(25)
        x ^= x >> np.uint64(27)
        r32 = int((x * multiplier) >> np.uint64(32))
        if sent >= 0:
            b = sent
            empty = FULL & ~(s[b] | s[9 + b])
            p = NTH_BIT[empty, (r32 * POPCOUNT[empty]) >> 32]
        else:
            r = (r32 * open_cells) >> 32
            b = 0
            p = 0
            for b in range(9):
                if (closed >> b) & 1:
                    continue
                empty = FULL & ~(s[b] | s[9 + b])
                n = POPCOUNT[empty]
                if r < n:
                    p = NTH_BIT[empty, r]
                    break
                r -= n
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
            if closed == FULL:
                result = DRAW
                break
        elif own | s[(1 - t) * 9 + b] == FULL:
            closed |= 1 << b
            if closed == FULL:
                result = DRAW
                break
        sent = -1 if (closed >> p) & 1 else p
        t = 1 - t
    rng[0] = x
    s[RESULT] = result
    return result


@njit(cache=True)
def informed_playout(s: np.ndarray, rng: np.ndarray, careful: int = 0) -> int:
    """Play out in place with a cheap policy; return the result (DRAW as soon as it is certain).

    The policy takes a game-winning move whenever there is one and otherwise, when sent to a
    board it can win, usually takes that small board; else it moves at random. Both are what a
    random-playout engine gets most wrong: random playouts let wins slip past and overvalue
    positions that are lost in one move. `careful` 1 also avoids, when it can, sending the
    opponent to a board they can win at once or to a closed board (a free choice); 2 avoids
    only closed boards (one mask test); 3 always takes a small board it can win.
    """
    closed_before = s[CLOSED]
    while s[RESULT] == PLAYING:
        cell = winning_move(s)
        if cell < 0:
            b = s[SENT]
            if b >= 0:
                t = s[TURN]
                own = s[X_MASKS + t * 9 + b]
                empty = FULL & ~(own | s[X_MASKS + (1 - t) * 9 + b])
                hits = THREATS[own] & empty
                if hits and (careful == 3 or random_below(rng, 4) != 0):
                    cell = b * 9 + NTH_BIT[hits, random_below(rng, POPCOUNT[hits])]
                else:
                    choices = empty
                    if careful == 2:
                        safe = empty & ~s[CLOSED]
                        if safe:
                            choices = safe
                    elif careful == 1:
                        closed = s[CLOSED]
                        safe = 0
                        for q in range(9):
                            if (empty >> q) & 1 and not (closed >> q) & 1:
                                theirs = s[X_MASKS + (1 - t) * 9 + q]
                                open_q = FULL & ~(theirs | s[X_MASKS + t * 9 + q])
                                if q == b:
                                    open_q &= ~(1 << q)  # our move fills that cell first
                                if not THREATS[theirs] & open_q:
                                    safe |= 1 << q
                        if safe:
                            choices = safe
                    cell = b * 9 + NTH_BIT[choices, random_below(rng, POPCOUNT[choices])]
            else:
                cell = random_move(s, rng)
        play(s, cell)
        if s[CLOSED] != closed_before:
            closed_before = s[CLOSED]
            if s[RESULT] == PLAYING and draw_is_certain(s):
                return DRAW
    return s[RESULT]


@njit(cache=True)
def careful_of(policy: int) -> int:
    """The `careful` argument of `informed_playout` for a search policy number (1 to 4)."""
    return policy - 1 if policy >= 2 else 0


@njit(cache=True)
def playout_batch(s0: np.ndarray, count: int, seed: int, policy: int) -> np.ndarray:
    """Run `count` playouts from `s0` (policy 0 random, 1 informed, 2 careful, 3 informed and
    never sending to a closed board, 4 informed and always taking small boards); return how many
    ended X won / O won / draw (index 1..3)."""
    tally = np.zeros(4, dtype=np.int64)
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64(seed) * np.uint64(0x9E3779B97F4A7C15) | np.uint64(1)
    s = np.empty(STATE_SIZE, dtype=np.int64)
    for _ in range(count):
        s[:] = s0
        if policy:
            tally[informed_playout(s, rng, careful_of(policy))] += 1
        else:
            tally[random_playout(s, rng)] += 1
    return tally
