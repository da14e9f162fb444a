"""Copying the part of a search tree below one node into fresh arrays (Numba), so a search that
reuses its tree after a move keeps what it learned there and gets back the room the other
branches held."""

from __future__ import annotations

import numpy as np
from numba import njit


@njit(cache=True)
def copy_subtree(
    first_child: np.ndarray,
    child_count: np.ndarray,
    move: np.ndarray,
    visits: np.ndarray,
    value: np.ndarray,
    proven: np.ndarray,
    heur: np.ndarray,
    prob: np.ndarray,
    root_node: int,
    to_first_child: np.ndarray,
    to_child_count: np.ndarray,
    to_move: np.ndarray,
    to_visits: np.ndarray,
    to_value: np.ndarray,
    to_proven: np.ndarray,
    to_heur: np.ndarray,
    to_prob: np.ndarray,
) -> int:
    """Copy the subtree under `root_node` into the `to_*` arrays, its root at 0 and each node's
    children contiguous again (breadth first); return the number of nodes copied. The target
    must have room for the whole subtree."""
    # `source[i]` is the old node that new node i copies; new nodes are laid out in BFS order,
    # so the queue is the new arrays themselves.
    source = np.empty(to_visits.shape[0], dtype=np.int64)
    source[0] = root_node
    used = 1
    i = 0
    while i < used:
        old = source[i]
        to_move[i] = move[old]
        to_visits[i] = visits[old]
        to_value[i] = value[old]
        to_proven[i] = proven[old]
        to_heur[i] = heur[old]
        to_prob[i] = prob[old]
        n = child_count[old]
        to_child_count[i] = n
        to_first_child[i] = used if n > 0 else 0
        start = first_child[old]
        for k in range(n):
            source[used + k] = start + k
        used += n
        i += 1
    return used


@njit(cache=True)
def subtree_size(child_count: np.ndarray, first_child: np.ndarray, root_node: int) -> int:
    """How many nodes the subtree under `root_node` holds (itself included)."""
    stack = np.empty(256, dtype=np.int64)
    stack[0] = root_node
    top = 1
    size = 0
    while top > 0:
        top -= 1
        node = stack[top]
        size += 1
        n = child_count[node]
        if n > 0:
            if top + n > stack.shape[0]:
                bigger = np.empty(stack.shape[0] * 2 + n, dtype=np.int64)
                bigger[:top] = stack[:top]
                stack = bigger
            start = first_child[node]
            for k in range(n):
                stack[top + k] = start + k
            top += n
    return size
