"""Monte Carlo tree search for Ultimate: UCT with an exact solver, run in Numba in short chunks.

The tree lives in flat arrays (children of a node are contiguous). Proven results (a win, loss or
draw for the player who made a node's move) propagate up the tree the MCTS-Solver way, so forced
wins are played at once and lost moves are never chosen while a move that does not lose exists.
Python drives the search in chunks of iterations and watches the clock between them, because
Numba code cannot read a clock; a chunk lasts about a millisecond.
"""

from __future__ import annotations

import time
from dataclasses import dataclass

import numpy as np

from tictactoe.engine import policy_net as pn
from tictactoe.engine import value_net as vn
from tictactoe.engine.baseline_search import baseline_iterations
from tictactoe.engine.mcts import (
    LOSS,
    PROVEN_DRAW,
    SOLVER_EXACT,
    SOLVER_FIRST,
    SOLVER_OFF,
    UNKNOWN,
    WIN,
    run_iterations,
)
from tictactoe.engine.subtree import copy_subtree, subtree_size
from tictactoe.engine.ultimate_kernel import PLAYING, RESULT, play

__all__ = ["LOSS", "PROVEN_DRAW", "SOLVER_EXACT", "SOLVER_FIRST", "SOLVER_OFF", "UNKNOWN", "WIN"]

MAX_NODES = 6_000_000

# Progressive bias: how much better or worse than even a move looks before any search (winning
# a small board, blocking one, giving a free choice, sending to a board the opponent wins).
DEFAULT_BIAS = (0.2, 0.1, 0.15, 0.15)


class _NoNet(vn.Weights):
    """Stand-in weights for searches that use no value (`value_mix` 0): never evaluated."""

    def __init__(self) -> None:
        self.w1 = np.zeros((vn.FEATURES, 1), dtype=np.int16)
        self.b1 = np.zeros(1, dtype=np.float32)
        self.w2t = np.zeros((1, 1), dtype=np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)
        self.w3 = np.zeros(1, dtype=np.float32)
        self.b3 = 0.0


_NO_NET = _NoNet()


class _NoPolicy(pn.Weights):
    """Stand-in policy for searches without move priors (`policy_weight` 0): never evaluated."""

    def __init__(self) -> None:
        self.w1 = np.zeros((vn.FEATURES, 1), dtype=np.int16)
        self.b1 = np.zeros(1, dtype=np.float32)
        self.w2t = np.zeros((1, 1), dtype=np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)
        self.wm = np.zeros(pn.MOVE_FEATURES, dtype=np.float32)


_NO_POLICY = _NoPolicy()


class Tree:
    """A search tree in flat arrays, kept so that a later search can continue below its root."""

    def __init__(self, root: np.ndarray, capacity: int) -> None:
        self.first_child = np.empty(capacity, dtype=np.int32)
        self.child_count = np.empty(capacity, dtype=np.int32)
        self.move = np.empty(capacity, dtype=np.int16)
        self.visits = np.empty(capacity, dtype=np.int32)
        self.value = np.empty(capacity, dtype=np.float32)
        self.proven = np.empty(capacity, dtype=np.int8)
        self.heur = np.empty(capacity, dtype=np.float32)  # see `mcts.run_iterations`
        self.prob = np.empty(capacity, dtype=np.float32)  # the policy's prior of each move
        self.first_child[0] = self.child_count[0] = self.visits[0] = self.proven[0] = 0
        self.value[0] = 0.0
        self.heur[0] = -1.0
        self.prob[0] = 0.0
        self.used = np.ones(1, dtype=np.int64)
        self.root_node = 0
        self.root = root.copy()

    @property
    def room(self) -> int:
        return self.visits.shape[0] - int(self.used[0])

    def compacted(self, room: int) -> Tree:
        """A new tree holding only the subtree under the root, with `room` more nodes free
        (at most `MAX_NODES` in all: a larger subtree is kept whole and has no room left)."""
        size = subtree_size(self.child_count, self.first_child, self.root_node)
        tree = Tree(self.root, max(size, min(size + room, MAX_NODES)))
        tree.used[0] = copy_subtree(
            self.first_child,
            self.child_count,
            self.move,
            self.visits,
            self.value,
            self.proven,
            self.heur,
            self.prob,
            self.root_node,
            tree.first_child,
            tree.child_count,
            tree.move,
            tree.visits,
            tree.value,
            tree.proven,
            tree.heur,
            tree.prob,
        )
        return tree

    def descend(self, cells: list[int], position: np.ndarray) -> bool:
        """Move the root down along `cells` (kernel cells); True when the tree holds that line
        of play, it leads to `position`, and the new root has been searched (has children)."""
        node = self.root_node
        state = self.root.copy()
        for cell in cells:
            start, count = int(self.first_child[node]), int(self.child_count[node])
            children = [c for c in range(start, start + count) if self.move[c] == cell]
            if not children:
                return False
            node = children[0]
            play(state, cell)
        if not np.array_equal(state, position) or self.child_count[node] == 0:
            return False
        self.root_node, self.root = node, state
        return True

    def run(
        self,
        iterations: int,
        rng: np.ndarray,
        exploration: float,
        policy: int,
        style: int,
        solver: int,
        prior: int,
        expand: int,
        bias: np.ndarray,
        value_mix: float,
        alpha: float,
        draw_score: float,
        net_prior: float,
        net: vn.Weights | None,
        policy_weight: float = 0.0,
        priors: pn.Weights | None = None,
        child_sums: bool = True,
    ) -> int:
        if solver == SOLVER_FIRST:  # the baseline's search, frozen (`baseline_search`)
            if policy != 1 or style or value_mix:
                raise ValueError("the first solver runs only in the baseline's own search")
            return baseline_iterations(
                self.root,
                self.first_child,
                self.child_count,
                self.move,
                self.visits,
                self.value,
                self.proven,
                self.used,
                rng,
                self.root_node,
                iterations,
                exploration,
                prior,
                bias,
            )
        if net is None:
            net = _NO_NET
        if priors is None or policy_weight <= 0.0:
            priors, policy_weight = _NO_POLICY, 0.0
        return run_iterations(
            self.root,
            self.first_child,
            self.child_count,
            self.move,
            self.visits,
            self.value,
            self.proven,
            self.heur,
            self.prob,
            self.used,
            rng,
            self.root_node,
            iterations,
            exploration,
            policy,
            style,
            solver,
            prior,
            expand,
            bias,
            value_mix,
            alpha,
            draw_score,
            net_prior,
            net.w1,
            net.b1,
            net.w2t,
            net.b2,
            net.w3,
            net.b3,
            policy_weight,
            priors.w1,
            priors.b1,
            priors.w2t,
            priors.b2,
            priors.wm,
            child_sums,
        )

    def result(
        self, iterations: int, stopped: float = 0.0, last_chunk: float = 0.0
    ) -> SearchResult:
        root = self.root_node
        start = int(self.first_child[root])
        children = [
            (
                int(self.move[c]),
                int(self.visits[c]),
                float(self.value[c] / self.visits[c]) if self.visits[c] else 0.5,
                int(self.proven[c]),
            )
            for c in range(start, start + int(self.child_count[root]))
        ]

        # A proven win first; then the most visited move that is not a proven loss (a proven
        # draw counts as a half point); if every move loses, the one resisted longest with.
        def preference(child: tuple[int, int, float, int]) -> tuple[int, int, float]:
            _, n, mean, state = child
            rank = {WIN: 3, UNKNOWN: 1, PROVEN_DRAW: 1, LOSS: 0}[state]
            return (rank, n, mean)

        best = max(children, key=preference)
        return SearchResult(
            cell=best[0],
            iterations=iterations,
            value=best[2],
            proven=best[3],
            children=children,
            tree=self,
            stopped=stopped,
            last_chunk=last_chunk,
        )


@dataclass(frozen=True)
class SearchResult:
    """The chosen cell and what the search knows about the root's children."""

    cell: int
    iterations: int
    value: float  # expected score of the chosen move for the side to move, 0..1
    proven: int  # UNKNOWN, WIN, LOSS or PROVEN_DRAW for the chosen move
    children: list[tuple[int, int, float, int]]  # (cell, visits, mean score, proven)
    tree: Tree  # to continue from later (see `Tree.descend`)
    # The search's own clock (`time.perf_counter()`): when it stopped, and how long its last
    # chunk of iterations took (a clock-bounded search stops at the first chunk past its
    # deadline, and plans each chunk to end before it).
    stopped: float = 0.0
    last_chunk: float = 0.0


def nodes_needed(iterations: int | None, deadline: float | None) -> int:
    """Room a search for `iterations` or until `deadline` may fill (generously)."""
    if iterations is not None:
        return iterations * 12 + 100
    assert deadline is not None
    return int(max(deadline - time.perf_counter(), 0.001) * 3_000_000) + 1000


def search(
    root: np.ndarray,
    *,
    iterations: int | None = None,
    deadline: float | None = None,
    seed: int = 0,
    exploration: float = 0.5,
    policy: int = 1,
    style: int = 0,
    solver: int = SOLVER_EXACT,
    prior: int = 10,
    expand: int = 1,
    bias: tuple[float, float, float, float] = DEFAULT_BIAS,
    value_mix: float = 0.0,
    alpha: float = 0.0,
    draw_score: float = 0.5,
    net_prior: float = 0.0,
    policy_weight: float = 0.0,
    child_sums: bool = True,
    tree: Tree | None = None,
) -> SearchResult:
    """Search from `root` for `iterations`, or until `deadline` (a `time.perf_counter()` value).

    With both given, whichever comes first ends the search. The game must not be over. `tree`
    continues an earlier search whose root has been moved to `root` (see `Tree.descend`).
    `solver` is one of the SOLVER_* modes (a bool: off or exact). `policy_weight` > 0 adds the
    policy network's move priors (PUCT, see `mcts.run_iterations`). `child_sums` values new
    children from first-layer sums shared with their parent (the same values, faster; `max-2026`
    turns it off to keep its old cost). `max` plays with these and `player.MAX_SETTINGS`, tuned
    with bench/ladder.py (see bench/RESULTS.md).
    """
    solver = int(solver) * SOLVER_EXACT if isinstance(solver, bool) else int(solver)
    if iterations is None and deadline is None:
        raise ValueError("give an iteration budget, a deadline or both")
    if root[RESULT] != PLAYING:
        raise ValueError("the game is over")
    needed = nodes_needed(iterations, deadline)
    if tree is None or tree.room < needed:
        # Room for a few searches, so that the next move can reuse this tree.
        tree = Tree(root, min(needed * (1 if iterations is not None else 3), MAX_NODES))
    bias_array = np.array(bias, dtype=np.float64)
    if not 0.0 <= value_mix <= 1.0:
        raise ValueError("value_mix must be between 0 and 1")
    net = vn.weights() if value_mix > 0 or net_prior > 0 else None
    priors = pn.weights() if policy_weight > 0 else None
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64((seed * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF) | 1)
    settings = (
        rng,
        exploration,
        policy,
        style,
        solver,
        prior,
        expand,
        bias_array,
        value_mix,
        alpha,
        draw_score,
        net_prior,
        net,
        policy_weight,
        priors,
        child_sums,
    )
    total = 0
    took = 0.0

    def run(count: int) -> int:
        """`count` more iterations with this search's settings; how many ran."""
        ran: int = tree.run(count, *settings)
        return ran

    if deadline is None:
        assert iterations is not None
        total = run(iterations)
    else:
        chunk = 32
        while tree.proven[tree.root_node] == UNKNOWN:
            if iterations is not None:
                chunk = min(chunk, iterations - total)
                if chunk <= 0:
                    break
            started = time.perf_counter()
            if started >= deadline and total > 0:  # one iteration at least: it expands the root
                break
            total += run(chunk)
            took = time.perf_counter() - started
            # Aim for chunks of about a millisecond, and never run one past the deadline.
            rate = chunk / max(took, 1e-6)
            left = deadline - time.perf_counter()
            chunk = int(max(1, min(rate * 0.001, rate * left * 0.8)))
    return tree.result(total, time.perf_counter(), took)
