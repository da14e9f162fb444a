"""The shipped value network: it knows a position where the side to move wins at once is good for
it, it values a position about alike however the board is turned (it was trained on turned
copies), and a search can be pointed at other weights (what self-play of a new network uses)."""

from __future__ import annotations

import random

import numpy as np

import tictactoe
from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine import ultimate_search as us
from tictactoe.engine import value_net as vn
from tictactoe.engine.position import ultimate_cell_index, ultimate_cell_name, ultimate_state


def evaluate(net: vn.Weights, game: tictactoe.Game) -> float:
    scratch = (
        np.empty(vn.MAX_ACTIVE, dtype=np.int64),
        np.empty(vn.HIDDEN1, dtype=np.int32),
        np.empty(vn.HIDDEN1, dtype=np.float32),
    )
    state = ultimate_state(game)
    return float(vn.value(state, net.w1, net.b1, net.w2t, net.b2, net.w3, net.b3, *scratch))


def random_positions(count: int, seed: int) -> list[tictactoe.Game]:
    rng = random.Random(seed)
    found: list[tictactoe.Game] = []
    while len(found) < count:
        game = tictactoe.new_game("ultimate")
        for _ in range(rng.randrange(10, 60)):
            if game.is_over:
                break
            game = game.play(rng.choice(game.legal_moves()))
        if not game.is_over:
            found.append(game)
    return found


def turned(game: tictactoe.Game, sigma: np.ndarray) -> tictactoe.Game:
    """`game` replayed with every move turned by `sigma` (boards and cells alike)."""
    moves = []
    for move in game.moves:
        board, spot = divmod(ultimate_cell_index(move), 9)
        moves.append(ultimate_cell_name(int(sigma[board]) * 9 + int(sigma[spot])))
    return tictactoe.Game.from_record("ultimate", " ".join(moves))


def test_a_position_the_side_to_move_wins_at_once_looks_good_for_it() -> None:
    net = vn.weights()
    winning = [g for g in random_positions(1500, 1) if uk.winning_move(ultimate_state(g)) >= 0]
    assert len(winning) >= 20
    values = [evaluate(net, g) for g in winning]
    assert sum(v > 0.6 for v in values) >= 0.9 * len(values)


def test_the_value_barely_changes_when_the_board_is_turned() -> None:
    net = vn.weights()
    differences = []
    for game in random_positions(40, 2):
        v = evaluate(net, game)
        for sigma in vn.symmetries()[1:]:
            differences.append(abs(evaluate(net, turned(game, sigma)) - v))
    assert float(np.mean(differences)) < 0.05


def root_child_scores(state: np.ndarray) -> list[float]:
    """The network's score of each move at the root (for the side to move), from one iteration
    that expands the root."""
    tree = us.search(state, iterations=1, seed=1, value_mix=1.0, expand=3, net_prior=0.8).tree
    start, count = int(tree.first_child[0]), int(tree.child_count[0])
    return [float(tree.heur[c]) for c in range(start, start + count)]


def test_a_search_uses_the_weights_it_is_given() -> None:
    shipped = vn.weights()
    # A network that says every position is lost for the side to move: only its last bias set.
    hopeless = vn.Weights()
    hopeless.w1[:] = 0
    hopeless.b1[:] = 0
    hopeless.b3 = -30.0
    state = ultimate_state(tictactoe.Game.from_record("ultimate", "e5 e4"))
    try:
        vn.use_weights(hopeless)
        # Every move leaves the opponent lost: each scores a win for us.
        assert min(root_child_scores(state)) > 0.999
    finally:
        vn.use_weights(shipped)
    scores = root_child_scores(state)
    assert max(scores) < 0.9 and max(scores) - min(scores) > 0.01


def test_a_child_valued_from_its_parent_s_board_sums_gets_the_same_value_bit_for_bit() -> None:
    # The search values a node's children from sums taken once at the parent
    # (`children_boards`, then `child_value`): it must be `value` itself, not an approximation.
    net = vn.weights()
    boards = np.empty((9, vn.HIDDEN1), dtype=np.int32)
    total = np.empty(vn.HIDDEN1, dtype=np.int32)
    active = np.empty(vn.MAX_ACTIVE, dtype=np.int64)
    sums = np.empty(vn.HIDDEN1, dtype=np.int32)
    hidden = np.empty(vn.HIDDEN1, dtype=np.float32)
    cells = np.empty(81, dtype=np.int64)
    layers = (net.w1, net.b1, net.w2t, net.b2, net.w3, net.b3)
    checked = won_boards = 0
    for game in random_positions(300, 7):
        parent = ultimate_state(game)
        vn.children_boards(parent, net.w1, active, boards, total)
        for cell in cells[: uk.legal_moves(parent, cells)]:
            child = parent.copy()
            uk.play(child, int(cell))
            if child[uk.RESULT] != uk.PLAYING:
                continue
            expected = evaluate(
                net,
                tictactoe.Game.from_record(
                    "ultimate", " ".join([*game.moves, ultimate_cell_name(int(cell))])
                ),
            )
            got = vn.child_value(
                child, int(cell) // 9, boards, total, *layers, active, sums, hidden
            )
            assert got == expected, (game.moves, int(cell))
            checked += 1
            won_boards += child[uk.CLOSED] != parent[uk.CLOSED]
    assert checked > 2000 and won_boards > 50  # closing a small board (and so the big line) too
