"""Forced wins in Ultimate within a number of moves, searched exactly (Numba): the proofs behind
the puzzles. `wins_within(s, n)` says whether the side to move can win the game with at most `n`
of its own moves against any defence; the search is plain AND-OR with a node budget, so an answer
is a proof, and a budget spent is said as such rather than guessed.

>>> import tictactoe
>>> from tictactoe.engine.position import ultimate_state
>>> code = ("o....x.oo/o.ooxx.xo/.x.o..x.o/..xx..xox/..xxo.xoo/.oxoooo.o/.x.xoooxx/oxx.xx.ox/"
...         ".x...x.o. x g3")
>>> s = ultimate_state(tictactoe.Game.from_position("ultimate", code))
>>> wins_within(s, 1), wins_within(s, 2)
(0, 1)
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tictactoe.engine.ultimate_kernel import (
    PLAYING,
    RESULT,
    STATE_SIZE,
    TURN,
    X_WON,
    draw_is_certain,
    legal_moves,
    play,
)

WIN = 1
NO_WIN = 0
OUT_OF_BUDGET = -1


@njit(cache=True)
def _wins(s: np.ndarray, n: int, budget: np.ndarray) -> int:
    """WIN if the side to move wins within `n` own moves, NO_WIN if not, OUT_OF_BUDGET."""
    if s[RESULT] != PLAYING or n <= 0 or draw_is_certain(s):
        return NO_WIN
    moves = np.empty(81, dtype=np.int64)
    count = legal_moves(s, moves)
    mover_won = X_WON + s[TURN]
    child = np.empty(STATE_SIZE, dtype=np.int64)
    for i in range(count):
        child[:] = s
        play(child, moves[i])
        if child[RESULT] == mover_won:
            return WIN
    if n == 1:
        return NO_WIN
    budget[0] -= count
    if budget[0] < 0:
        return OUT_OF_BUDGET
    replies = np.empty(81, dtype=np.int64)
    grandchild = np.empty(STATE_SIZE, dtype=np.int64)
    for i in range(count):
        child[:] = s
        play(child, moves[i])
        if child[RESULT] != PLAYING:
            continue  # a draw: no win this way
        reply_count = legal_moves(child, replies)
        every_reply_loses = True
        for j in range(reply_count):
            grandchild[:] = child
            play(grandchild, replies[j])
            if grandchild[RESULT] != PLAYING:
                every_reply_loses = False
                break
            answer = _wins(grandchild, n - 1, budget)
            if answer == OUT_OF_BUDGET:
                return OUT_OF_BUDGET
            if answer == NO_WIN:
                every_reply_loses = False
                break
        if every_reply_loses:
            return WIN
    return NO_WIN


def wins_within(s: np.ndarray, n: int, budget: int = 2_000_000) -> int:
    """WIN (1), NO_WIN (0) or OUT_OF_BUDGET (-1): can the side to move of state `s` win within
    `n` of its own moves against any defence, searching at most about `budget` nodes?"""
    return int(_wins(s, n, np.array([budget], dtype=np.int64)))


def after(s: np.ndarray, *cells: int) -> np.ndarray:
    """A copy of state `s` with `cells` played in turn."""
    child = s.copy()
    for cell in cells:
        play(child, cell)
    return child


def legal_cells(s: np.ndarray) -> list[int]:
    """The legal cells of state `s`, in increasing order."""
    out = np.empty(81, dtype=np.int64)
    return [int(c) for c in out[: legal_moves(s, out)]]


def mover_won(s: np.ndarray, mover: int) -> bool:
    """Has `mover` (0 = X, 1 = O) won the game in state `s`?"""
    return bool(s[RESULT] == X_WON + mover)
