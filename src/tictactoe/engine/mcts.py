"""The MCTS loop of `max` (Numba): UCT with progressive bias and learned move priors (PUCT), an
exact solver, a learned value.

The tree lives in flat arrays (children of a node are contiguous); `ultimate_search` owns them
and drives this loop in chunks between looks at the clock. Proven results (a win, loss or draw
for the player who made a node's move) propagate up the tree the MCTS-Solver way, so forced wins
are played at once and lost moves are never chosen while a move that does not lose exists.
"""

from __future__ import annotations

import numpy as np
from numba import njit

from tictactoe.engine.fast_playout import fast_playout
from tictactoe.engine.policy_net import (
    BLOCKS_BOARD,
    SENDS_TO_FREE_CHOICE,
    SENDS_TO_THEIR_WIN,
    WINS_BOARD,
    WINS_GAME,
    move_bits,
    move_priors,
)
from tictactoe.engine.policy_net import HIDDEN as POLICY_HIDDEN
from tictactoe.engine.ultimate_kernel import (
    DRAW,
    PLAYING,
    RESULT,
    STATE_SIZE,
    TURN,
    X_WON,
    careful_of,
    draw_is_certain,
    informed_playout,
    legal_moves,
    play,
    random_below,
    random_playout,
)
from tictactoe.engine.value_net import HIDDEN1, MAX_ACTIVE, child_value, children_boards
from tictactoe.engine.value_net import value as net_value

# Proven results, from the point of view of the player who made the node's move.
UNKNOWN = 0
WIN = 1
LOSS = 2
PROVEN_DRAW = 3

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
    heur: np.ndarray,
    prob: np.ndarray,
    used: np.ndarray,
    rng: np.ndarray,
    root_node: int,
    iterations: int,
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
    w1: np.ndarray,
    b1: np.ndarray,
    w2t: np.ndarray,
    b2: np.ndarray,
    w3: np.ndarray,
    b3: float,
    policy_weight: float,
    pw1: np.ndarray,
    pb1: np.ndarray,
    pw2t: np.ndarray,
    pb2: np.ndarray,
    pwm: np.ndarray,
    child_sums: bool = True,
) -> int:
    """Run up to `iterations` MCTS iterations on the tree; stop early once the root is proven.

    Returns the number of iterations run. `used[0]` is the number of nodes in use; `root_node`
    is the node of the position `root` (0 for a new tree; deeper when a tree is reused). A full
    tree stops growing and keeps refining the statistics of the nodes it has.

    `prior` > 0 starts each new child with that many virtual visits at a score guessed from the
    move itself (progressive bias): winning or blocking a small board looks good, sending the
    opponent to a free choice or to a board they can win at once looks bad. `bias` holds those
    four amounts (win, block, free choice, sent to a board they can win), added to 0.5. A node
    gets its children at its `expand`-th visit (after the virtual ones) and is a leaf till then.

    A new leaf is scored by the value network (weights `w1`...`b3`, see `value_net`) for a share
    `value_mix` of its reward and by a playout for the rest (0: playouts only, 1: no playouts):
    policy 0 random, 1 `fast_playout` with its `style` bits, 2 to 4 the slower informed variants.

    With `alpha` > 0 (and the network on) the search also backs up the network's values by
    minimax (implicit minimax backups, Lanctot et al. 2014): `heur[node]` is the best the
    network's values promise below `node` for the player who moved into it (-1: none yet), and
    a child's score mixes that, by `alpha`, with its mean reward.

    With `net_prior` > 0 each new child's starting score also takes that share from the network's
    value of the position it leads to (which its first visit then reuses). With `child_sums` the
    children's values start from first-layer sums taken once at the parent (the same values,
    faster: `value_net.child_value`); without, each is valued from scratch (`max-2026`'s cost).

    A draw scores `draw_score` for the side to move at the root (and the rest for the other):
    below one half the search plays for a win (contempt), at one half a draw is half a point.

    With `policy_weight` > 0 each new child also gets `prob[c]`, the policy network's probability
    of its move (weights `pw1`...`pwm`, see `policy_net`), and its score at selection the PUCT
    term `policy_weight * prob * sqrt(parent visits) / (1 + visits)` (AlphaZero's), so the moves
    the network expects are searched first and longest; 0 leaves the search as it was.
    """
    capacity = visits.shape[0]
    active = np.empty(MAX_ACTIVE, dtype=np.int64)
    sums = np.empty(HIDDEN1, dtype=np.int32)
    boards = np.empty((9, HIDDEN1), dtype=np.int32)  # see `value_net.children_boards`
    board_total = np.empty(HIDDEN1, dtype=np.int32)
    hidden = np.empty(HIDDEN1, dtype=np.float32)
    s = np.empty(STATE_SIZE, dtype=np.int64)
    child = np.empty(STATE_SIZE, dtype=np.int64)
    path = np.empty(128, dtype=np.int64)
    buffer = np.empty(81, dtype=np.int64)
    flags = np.empty(81, dtype=np.int64)  # `move_bits` of each cell in `buffer`
    priors = np.empty(81, dtype=np.float32)
    policy_sums = np.empty(POLICY_HIDDEN, dtype=np.int32)
    policy_hidden = np.empty(POLICY_HIDDEN, dtype=np.float32)
    done = 0
    while done < iterations and proven[root_node] == UNKNOWN:
        done += 1
        s[:] = root
        node = root_node
        depth = 0
        path[0] = root_node
        while proven[node] == UNKNOWN:
            if child_count[node] == 0:
                if node != root_node and visits[node] < prior + expand:
                    break  # one of its first `expand` visits: estimate this node as a leaf
                n = legal_moves(s, buffer)
                if used[0] + n > capacity:
                    break
                start = used[0]
                used[0] += n
                # Shuffle so that ties and unvisited children are tried in a random order.
                for i in range(n - 1, 0, -1):
                    j = random_below(rng, i + 1)
                    buffer[i], buffer[j] = buffer[j], buffer[i]
                if solver > 0 or prior > 0 or policy_weight > 0.0:  # their readers below
                    for i in range(n):
                        flags[i] = move_bits(s, buffer[i])
                if policy_weight > 0.0:
                    move_priors(
                        s,
                        buffer,
                        flags,
                        n,
                        pw1,
                        pb1,
                        pw2t,
                        pb2,
                        pwm,
                        active,
                        policy_sums,
                        policy_hidden,
                        priors,
                    )
                wins_now = False
                boards_ready = False
                for i in range(n):
                    c = start + i
                    cell = buffer[i]
                    bits = flags[i]
                    move[c] = cell
                    visits[c] = 0
                    value[c] = 0.0
                    child_count[c] = 0
                    proven[c] = UNKNOWN
                    heur[c] = -1.0
                    prob[c] = priors[i] if policy_weight > 0.0 else 0.0
                    if solver > 0 and bits & WINS_GAME:
                        proven[c] = WIN
                        wins_now = True
                    if prior > 0:
                        q = 0.5
                        if bits & WINS_BOARD:
                            q += bias[0]
                        elif bits & BLOCKS_BOARD:
                            q += bias[1]
                        if bits & SENDS_TO_FREE_CHOICE:
                            q -= bias[2]
                        elif bits & SENDS_TO_THEIR_WIN:
                            q -= bias[3]
                        if net_prior > 0.0 and proven[c] == UNKNOWN:
                            child[:] = s
                            play(child, cell)
                            if child[RESULT] == PLAYING:
                                if child_sums:
                                    # The children share eight small boards of nine: their
                                    # first layer starts from sums taken once.
                                    if not boards_ready:
                                        children_boards(s, w1, active, boards, board_total)
                                        boards_ready = True
                                    v = child_value(
                                        child,
                                        cell // 9,
                                        boards,
                                        board_total,
                                        w1,
                                        b1,
                                        w2t,
                                        b2,
                                        w3,
                                        b3,
                                        active,
                                        sums,
                                        hidden,
                                    )
                                else:
                                    v = net_value(
                                        child, w1, b1, w2t, b2, w3, b3, active, sums, hidden
                                    )
                                heur[c] = 1.0 - v
                                q += net_prior * (heur[c] - q)
                        visits[c] = prior
                        value[c] = prior * q
                first_child[node] = start
                child_count[node] = n
                if wins_now:
                    proven[node] = LOSS
                    break
            # Select the child with the best upper confidence bound.
            start = first_child[node]
            spread = np.float32(exploration * np.sqrt(np.log(max(visits[node], 1))))
            pull = np.float32(policy_weight * np.sqrt(max(visits[node], 1)))
            best = -1
            best_score = -1.0
            for c in range(start, start + child_count[node]):
                if proven[c] == LOSS:
                    continue
                vc = visits[c]
                if vc == 0:
                    if policy_weight <= 0.0:
                        best = c
                        break
                    score = 1e9 + prob[c]  # unvisited children first, the likeliest first
                    if score > best_score:
                        best_score = score
                        best = c
                    continue
                inverse = np.float32(1.0) / np.float32(vc)
                mean = value[c] * inverse
                if alpha > 0.0 and heur[c] >= 0.0:
                    mean += alpha * (heur[c] - mean)
                score = mean + spread * np.sqrt(inverse)
                if policy_weight > 0.0:
                    score += pull * prob[c] / (np.float32(1.0) + np.float32(vc))
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
        mover = 1 - s[TURN]
        draw = draw_score if mover == root[TURN] else 1.0 - draw_score
        pn = proven[node]
        if pn == WIN:
            reward = 1.0
        elif pn == LOSS:
            reward = 0.0
        elif pn == PROVEN_DRAW:
            reward = draw
        else:
            reward = 0.0
            if value_mix > 0.0:
                if heur[node] >= 0.0 and child_count[node] == 0:
                    v = 1.0 - heur[node]  # a leaf seen before: its value is known
                else:
                    v = net_value(s, w1, b1, w2t, b2, w3, b3, active, sums, hidden)
                    heur[node] = 1.0 - v
                reward = value_mix * (1.0 - v)
            if value_mix < 1.0:
                if policy == 0:
                    result = random_playout(s, rng)
                elif policy == 1:
                    result = fast_playout(s, rng, style)
                else:
                    result = informed_playout(s, rng, careful_of(policy))
                if result == DRAW:
                    reward += (1.0 - value_mix) * draw
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
        if alpha > 0.0:
            _back_up_minimax(heur, proven, first_child, child_count, path, depth)
    return done


@njit(cache=True)
def _back_up_minimax(
    heur: np.ndarray,
    proven: np.ndarray,
    first_child: np.ndarray,
    child_count: np.ndarray,
    path: np.ndarray,
    depth: int,
) -> None:
    """Recompute `heur` up the path from the leaf at `depth`, stopping where it is unchanged."""
    for d in range(depth - 1, -1, -1):
        node = path[d]
        start = first_child[node]
        best = -1.0
        for c in range(start, start + child_count[node]):
            pc = proven[c]
            if pc == WIN:
                h = 1.0
            elif pc == LOSS:
                h = 0.0
            elif pc == PROVEN_DRAW:
                h = 0.5
            else:
                h = heur[c]
            if h > best:
                best = h
        if best < 0.0:
            return
        if heur[node] == np.float32(1.0 - best):
            return
        heur[node] = 1.0 - best
