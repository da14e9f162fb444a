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
from numba import njit

from tictactoe.engine import value_net as vn
from tictactoe.engine.subtree import copy_subtree, subtree_size
from tictactoe.engine.ultimate_kernel import (
    BIG_X,
    CLOSED,
    DRAW,
    FULL,
    PLAYING,
    RESULT,
    STATE_SIZE,
    THREATS,
    TURN,
    WINS,
    X_MASKS,
    X_WON,
    careful_of,
    draw_is_certain,
    informed_playout,
    legal_moves,
    play,
    random_below,
    random_playout,
)
from tictactoe.engine.value_net import MAX_ACTIVE
from tictactoe.engine.value_net import value as net_value

# Proven results, from the point of view of the player who made the node's move.
UNKNOWN = 0
WIN = 1
LOSS = 2
PROVEN_DRAW = 3

MAX_NODES = 6_000_000

# Progressive bias: how much better or worse than even a move looks before any search (winning
# a small board, blocking one, giving a free choice, sending to a board the opponent wins).
DEFAULT_BIAS = (0.2, 0.1, 0.15, 0.15)


# Solver modes: off; the first solver, kept for the baseline player (it gave up on a node at its
# first unproven child, so a proven win for the side to move listed after it went unnoticed);
# exact (any proven winning child settles the node).
SOLVER_OFF = 0
SOLVER_FIRST = 1
SOLVER_EXACT = 2


@njit(cache=True)
def _settle(
    proven: np.ndarray, first_child: np.ndarray, child_count: np.ndarray, node: int, solver: int
) -> int:
    """What `node` is worth once a child of it got proven: a proven result, or UNKNOWN."""
    start = first_child[node]
    best = LOSS  # best result among the children, for the side to move at `node`
    unknown = False
    for c in range(start, start + child_count[node]):
        pc = proven[c]
        if pc == WIN:
            return LOSS
        if pc == UNKNOWN:
            if solver == SOLVER_FIRST:
                return UNKNOWN
            unknown = True
        if pc == PROVEN_DRAW:
            best = PROVEN_DRAW
    if unknown:
        return UNKNOWN
    if best == PROVEN_DRAW:
        return PROVEN_DRAW
    return WIN


@njit(cache=True)
def run_iterations(
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
    policy: int,
    solver: int,
    prior: int,
    bias: np.ndarray,
    value_mix: float,
    w1: np.ndarray,
    b1: np.ndarray,
    w2t: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: float,
) -> int:
    """Run up to `iterations` MCTS iterations on the tree; stop early once the root is proven.

    Returns the number of iterations run. `used[0]` is the number of nodes in use; `root_node`
    is the node of the position `root` (0 for a new tree; deeper when a tree is reused). A full
    tree stops growing and keeps refining the statistics of the nodes it has.

    `prior` > 0 starts each new child with that many virtual visits at a score guessed from the
    move itself (progressive bias): winning or blocking a small board looks good, sending the
    opponent to a free choice or to a board they can win at once looks bad. `bias` holds those
    four amounts (win, block, free choice, sent to a board they can win), added to 0.5.

    A new leaf is scored by the value network (weights `w1`...`b3`, see `value_net`) for a share
    `value_mix` of its reward and by a playout for the rest (0: playouts only, 1: no playouts).
    """
    capacity = visits.shape[0]
    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    hidden = np.empty((1, b1.shape[0]), dtype=np.float32)
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
                    break  # first visit: estimate this node by a playout
                n = legal_moves(s, buffer)
                if used[0] + n > capacity:
                    break
                start = used[0]
                used[0] += n
                # Shuffle so that ties and unvisited children are tried in a random order.
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
                    if solver > 0 and WINS[own] and WINS[big | (1 << b)]:
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
            # Select the child with the best upper confidence bound.
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
            elif solver > 0 and draw_is_certain(s):
                proven[node] = PROVEN_DRAW
        # Reward for the player who made the move into `node`.
        pn = proven[node]
        if pn == WIN:
            reward = 1.0
        elif pn == LOSS:
            reward = 0.0
        elif pn == PROVEN_DRAW:
            reward = 0.5
        else:
            mover = 1 - s[TURN]
            reward = 0.0
            if value_mix > 0.0:
                v = net_value(s, w1, b1, w2t, b2, w3, b3, active, hidden)
                reward = value_mix * (1.0 - v)
            if value_mix < 1.0:
                if policy == 0:
                    result = random_playout(s, rng)
                else:
                    result = informed_playout(s, rng, careful_of(policy))
                if result == DRAW:
                    reward += (1.0 - value_mix) * 0.5
                elif result - X_WON == mover:
                    reward += 1.0 - value_mix
        for d in range(depth, -1, -1):
            n_ = path[d]
            visits[n_] += 1
            value[n_] += reward
            reward = 1.0 - reward
        if solver > 0 and pn != UNKNOWN:
            for d in range(depth - 1, -1, -1):
                settled = _settle(proven, first_child, child_count, path[d], solver)
                if settled == UNKNOWN:
                    break
                proven[path[d]] = settled
    return done


class _NoNet(vn.Weights):
    """Stand-in weights for searches that use no value (`value_mix` 0): never evaluated."""

    def __init__(self) -> None:
        self.w1 = np.zeros((vn.FEATURES, 1), dtype=np.float32)
        self.b1 = np.zeros(1, dtype=np.float32)
        self.w2t = np.zeros((1, 1), dtype=np.float32)
        self.b2 = np.zeros(1, dtype=np.float32)
        self.w3 = np.zeros(1, dtype=np.float32)
        self.b3 = 0.0


_NO_NET = _NoNet()


class Tree:
    """A search tree in flat arrays, kept so that a later search can continue below its root."""

    def __init__(self, root: np.ndarray, capacity: int) -> None:
        self.first_child = np.empty(capacity, dtype=np.int32)
        self.child_count = np.empty(capacity, dtype=np.int32)
        self.move = np.empty(capacity, dtype=np.int16)
        self.visits = np.empty(capacity, dtype=np.int32)
        self.value = np.empty(capacity, dtype=np.float32)
        self.proven = np.empty(capacity, dtype=np.int8)
        self.first_child[0] = self.child_count[0] = self.visits[0] = self.proven[0] = 0
        self.value[0] = 0.0
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
            self.root_node,
            tree.first_child,
            tree.child_count,
            tree.move,
            tree.visits,
            tree.value,
            tree.proven,
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
        solver: int,
        prior: int,
        bias: np.ndarray,
        value_mix: float,
        net: vn.Weights | None,
    ) -> int:
        if net is None:
            net = _NO_NET
        return run_iterations(
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
            policy,
            solver,
            prior,
            bias,
            value_mix,
            net.w1,
            net.b1,
            net.w2t,
            net.b2,
            net.w3,
            net.b3,
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
    solver: int = SOLVER_EXACT,
    prior: int = 10,
    bias: tuple[float, float, float, float] = DEFAULT_BIAS,
    value_mix: float = 0.0,
    tree: Tree | None = None,
) -> SearchResult:
    """Search from `root` for `iterations`, or until `deadline` (a `time.perf_counter()` value).

    With both given, whichever comes first ends the search. The game must not be over. `tree`
    continues an earlier search whose root has been moved to `root` (see `Tree.descend`).
    `solver` is one of the SOLVER_* modes (a bool: off or exact). The defaults, with
    `value_mix`, are what `max` plays with, tuned with bench/ladder.py (see bench/RESULTS.md).
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
    net = vn.weights() if value_mix > 0 else None
    rng = np.empty(1, dtype=np.uint64)
    rng[0] = np.uint64((seed * 0x9E3779B97F4A7C15 & 0xFFFFFFFFFFFFFFFF) | 1)
    total = 0
    took = 0.0
    if deadline is None:
        assert iterations is not None
        total = tree.run(
            iterations, rng, exploration, policy, solver, prior, bias_array, value_mix, net
        )
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
            total += tree.run(
                chunk, rng, exploration, policy, solver, prior, bias_array, value_mix, net
            )
            took = time.perf_counter() - started
            # Aim for chunks of about a millisecond, and never run one past the deadline.
            rate = chunk / max(took, 1e-6)
            left = deadline - time.perf_counter()
            chunk = int(max(1, min(rate * 0.001, rate * left * 0.8)))
    return tree.result(total, time.perf_counter(), took)
