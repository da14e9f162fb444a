"""The search of the `baseline` player, frozen: `max` as it was before issue 15 (commit 1bc6c04).

A copy of that search's loop and playout, so that `ultimate_search` can change (faster loops, a
new playout, the value network) while the ladder keeps measuring against the same opponent:
UCT with progressive bias, the first solver (it gives a node up at its first unproven child)
and the informed playout. Same tree arrays as `ultimate_search.Tree`.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tictactoe.engine.ultimate_kernel import (
    BIG_X,
    CLOSED,
    DRAW,
    FULL,
    NTH_BIT,
    PLAYING,
    POPCOUNT,
    RESULT,
    SENT,
    STATE_SIZE,
    THREATS,
    TURN,
    WINS,
    X_MASKS,
    X_WON,
    draw_is_certain,
    legal_moves,
    play,
    random_below,
    random_move,
    winning_move,
)

UNKNOWN = 0
WIN = 1
LOSS = 2
PROVEN_DRAW = 3


@njit(cache=True)
def baseline_playout(s: np.ndarray, rng: np.ndarray) -> int:
    """The informed playout as it was: a game-winning move when there is one, else (sent to a
    board it can win) that small board three times in four, else a random move."""
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
                if hits and random_below(rng, 4) != 0:
                    cell = b * 9 + NTH_BIT[hits, random_below(rng, POPCOUNT[hits])]
                else:
                    cell = b * 9 + NTH_BIT[empty, random_below(rng, POPCOUNT[empty])]
            else:
                cell = random_move(s, rng)
        play(s, cell)
        if s[CLOSED] != closed_before:
            closed_before = s[CLOSED]
            if s[RESULT] == PLAYING and draw_is_certain(s):
                return DRAW
    return s[RESULT]


@njit(cache=True)
def _settle_first(
    proven: np.ndarray, first_child: np.ndarray, child_count: np.ndarray, node: int
) -> int:
    start = first_child[node]
    best = LOSS
    for c in range(start, start + child_count[node]):
        pc = proven[c]
        if pc == WIN:
            return LOSS
        if pc == UNKNOWN:
            return UNKNOWN
        if pc == PROVEN_DRAW:
            best = PROVEN_DRAW
    return PROVEN_DRAW if best == PROVEN_DRAW else WIN


@njit(cache=True)
def baseline_iterations(
    root: np.ndarray,
    first_child: np.ndarray,
    child_count: np.ndarray,
    move: np.ndarray,
    visits: np.ndarray,
    value: np.ndarray,
    proven: np.ndarray,
    used: np.ndarray,
    rng: np.ndarray,
    root_node: int,
    iterations: int,
    exploration: float,
    prior: int,
    bias: np.ndarray,
) -> int:
    """Up to `iterations` iterations of the baseline's search (see `ultimate_search`)."""
    capacity = visits.shape[0]
    s = np.empty(STATE_SIZE, dtype=np.int64)
    path = np.empty(128, dtype=np.int64)
    buffer = np.empty(81, dtype=np.int64)
    done = 0
    while done < iterations and proven[root_node] == UNKNOWN:
        done += 1
        s[:] = root
        node = root_node
        depth = 0
        path[0] = root_node
        while proven[node] == UNKNOWN:
            if child_count[node] == 0:
                if node != root_node and visits[node] <= prior:
                    break
                n = legal_moves(s, buffer)
                if used[0] + n > capacity:
                    break
                start = used[0]
                used[0] += n
                for i in range(n - 1, 0, -1):
                    j = random_below(rng, i + 1)
                    buffer[i], buffer[j] = buffer[j], buffer[i]
                t = s[TURN]
                big = s[BIG_X + t]
                closed = s[CLOSED]
                wins_now = False
                for i in range(n):
                    c = start + i
                    cell = buffer[i]
                    move[c] = cell
                    visits[c] = 0
                    value[c] = 0.0
                    child_count[c] = 0
                    proven[c] = UNKNOWN
                    b = cell // 9
                    p = cell - b * 9
                    mine = s[X_MASKS + t * 9 + b]
                    own = mine | (1 << p)
                    if WINS[own] and WINS[big | (1 << b)]:
                        proven[c] = WIN
                        wins_now = True
                    if prior > 0:
                        theirs_b = s[X_MASKS + (1 - t) * 9 + b]
                        q = 0.5
                        if WINS[own]:
                            q += bias[0]
                        elif (THREATS[theirs_b] >> p) & 1:
                            q += bias[1]
                        target_closed = (closed >> p) & 1 or (
                            p == b and (WINS[own] or (own | theirs_b) == FULL)
                        )
                        if target_closed:
                            q -= bias[2]
                        else:
                            theirs = s[X_MASKS + (1 - t) * 9 + p]
                            empty = FULL & ~(theirs | s[X_MASKS + t * 9 + p])
                            if p == b:
                                empty &= ~(1 << p)
                            if THREATS[theirs] & empty:
                                q -= bias[3]
                        visits[c] = prior
                        value[c] = prior * q
                first_child[node] = start
                child_count[node] = n
                if wins_now:
                    proven[node] = LOSS
                    break
            start = first_child[node]
            log_n = np.log(max(visits[node], 1))
            best = -1
            best_score = -1.0
            for c in range(start, start + child_count[node]):
                if proven[c] == LOSS:
                    continue
                vc = visits[c]
                if vc == 0:
                    best = c
                    break
                score = value[c] / vc + exploration * np.sqrt(log_n / vc)
                if score > best_score:
                    best_score = score
                    best = c
            if best < 0:
                break
            play(s, move[best])
            node = best
            depth += 1
            path[depth] = node
            if s[RESULT] != PLAYING:
                proven[node] = PROVEN_DRAW if s[RESULT] == DRAW else WIN
            elif draw_is_certain(s):
                proven[node] = PROVEN_DRAW
        pn = proven[node]
        if pn == WIN:
            reward = 1.0
        elif pn == LOSS:
            reward = 0.0
        elif pn == PROVEN_DRAW:
            reward = 0.5
        else:
            mover = 1 - s[TURN]
            result = baseline_playout(s, rng)
            if result == DRAW:
                reward = 0.5
            elif result - X_WON == mover:
                reward = 1.0
            else:
                reward = 0.0
        for d in range(depth, -1, -1):
            n_ = path[d]
            visits[n_] += 1
            value[n_] += reward
            reward = 1.0 - reward
        if pn != UNKNOWN:
            for d in range(depth - 1, -1, -1):
                settled = _settle_first(proven, first_child, child_count, path[d])
                if settled == UNKNOWN:
                    break
                proven[path[d]] = settled
    return done
