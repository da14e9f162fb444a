"""The shipped policy network and the search's use of it: the priors of the legal moves add up to
one, its first choice is the search's far more often than chance, it barely changes when the
board is turned (it was trained on turned copies), and the search explores what the priors point
at and keeps each move's prior in its tree (also when the tree is compacted)."""

from __future__ import annotations

import numpy as np
from tests.engine.test_value_net import random_positions, turned

import tictactoe
from tictactoe.engine import policy_net as pn
from tictactoe.engine import ultimate_kernel as uk
from tictactoe.engine import ultimate_search as us
from tictactoe.engine import value_net as vn
from tictactoe.engine.position import ultimate_cell_name, ultimate_state


def priors(net: pn.Weights, state: np.ndarray) -> dict[int, float]:
    cells = np.empty(81, dtype=np.int64)
    n = uk.legal_moves(state, cells)
    out = np.empty(81, dtype=np.float32)
    scratch = (
        np.empty(vn.MAX_ACTIVE, dtype=np.int64),
        np.empty(pn.HIDDEN, dtype=np.int32),
        np.empty(pn.HIDDEN, dtype=np.float32),
    )
    flags = np.array([pn.move_bits(state, int(cell)) for cell in cells[:n]], dtype=np.int64)
    pn.move_priors(state, cells, flags, n, net.w1, net.b1, net.w2t, net.b2, net.wm, *scratch, out)
    return {int(cells[i]): float(out[i]) for i in range(n)}


def test_the_priors_of_the_legal_moves_add_up_to_one() -> None:
    net = pn.weights()
    for game in random_positions(50, 5):
        chances = priors(net, ultimate_state(game))
        assert abs(sum(chances.values()) - 1.0) < 1e-4
        assert all(p > 0 for p in chances.values())


def test_its_first_choice_is_the_search_s_far_more_often_than_chance() -> None:
    # (Positions with a move that wins the game at once are not in its training data: the
    # search proves them at its first iteration, before any visit.)
    net = pn.weights()
    agree = chance = 0.0
    for game in random_positions(60, 3):
        state = ultimate_state(game)
        chances = priors(net, state)
        if len(chances) < 3 or uk.winning_move(state) >= 0:
            continue
        searched = us.search(
            state, iterations=3000, seed=1, value_mix=0.5, prior=20, expand=3, net_prior=0.8
        )
        most = max(searched.children, key=lambda c: c[1])[0]
        agree += max(chances, key=lambda cell: chances[cell]) == most
        chance += 1 / len(chances)
    assert agree >= 2 * chance


def test_the_priors_barely_change_when_the_board_is_turned() -> None:
    net = pn.weights()
    differences = []
    for game in random_positions(30, 2):
        chances = priors(net, ultimate_state(game))
        for sigma in vn.symmetries()[1:]:
            other = priors(net, ultimate_state(turned(game, sigma)))
            for cell, p in chances.items():
                board, spot = divmod(cell, 9)
                differences.append(abs(other[int(sigma[board]) * 9 + int(sigma[spot])] - p))
    assert float(np.mean(differences)) < 0.03


def pointing_at(cell: int) -> pn.Weights:
    """A policy sure of one move: every other move gets almost nothing."""
    net = pn.Weights.__new__(pn.Weights)
    net.w1 = np.zeros((vn.FEATURES, pn.HIDDEN), dtype=np.int16)
    net.b1 = np.zeros(pn.HIDDEN, dtype=np.float32)
    net.w2t = np.zeros((pn.CELLS, pn.HIDDEN), dtype=np.float32)
    net.b2 = np.zeros(pn.CELLS, dtype=np.float32)
    net.wm = np.zeros(pn.MOVE_FEATURES, dtype=np.float32)
    net.b2[cell] = 10.0
    return net


def test_the_search_explores_the_move_the_priors_point_at() -> None:
    state = ultimate_state(tictactoe.Game.from_record("ultimate", "e5 e4"))
    plain = us.search(state, iterations=4000, seed=3, value_mix=0.5, prior=20, expand=3)
    least = min(plain.children, key=lambda c: c[1])[0]
    shipped = pn.use_weights(pointing_at(least))
    try:
        pointed = us.search(
            state, iterations=4000, seed=3, value_mix=0.5, prior=20, expand=3, policy_weight=2.0
        )
    finally:
        pn.use_weights(shipped)
    visits = {cell: n for cell, n, _, _ in pointed.children}
    assert visits[least] > 3 * min(plain.children, key=lambda c: c[1])[1]
    tree = pointed.tree
    start, count = int(tree.first_child[0]), int(tree.child_count[0])
    assert {int(tree.move[c]): round(float(tree.prob[c]), 3) for c in range(start, start + count)}[
        least
    ] == 1.0


def test_a_compacted_tree_keeps_each_move_s_prior() -> None:
    game = tictactoe.Game.from_record("ultimate", "e5 e4")
    result = us.search(ultimate_state(game), iterations=5000, seed=1, policy_weight=1.0)
    tree = result.tree
    ours = result.cell
    first = int(tree.first_child[0])
    node = next(c for c in range(first, first + int(tree.child_count[0])) if tree.move[c] == ours)
    replies = range(
        int(tree.first_child[node]), int(tree.first_child[node]) + int(tree.child_count[node])
    )
    reply = max(replies, key=lambda c: tree.visits[c])
    position = game.play(ultimate_cell_name(ours)).play(ultimate_cell_name(int(tree.move[reply])))
    start, count = int(tree.first_child[reply]), int(tree.child_count[reply])
    before = {int(tree.move[c]): float(tree.prob[c]) for c in range(start, start + count)}
    assert tree.descend([ours, int(tree.move[reply])], ultimate_state(position))
    compact = tree.compacted(1000)
    start, count = int(compact.first_child[0]), int(compact.child_count[0])
    after = {int(compact.move[c]): float(compact.prob[c]) for c in range(start, start + count)}
    assert after == before
    assert abs(sum(after.values()) - 1.0) < 1e-4


def _line_through(marks: int, empty: int) -> bool:
    """Whether a player holding `marks` on a small board completes a line with one `empty` cell."""
    return any(bin(line & ~marks).count("1") == 1 and line & ~marks & empty for line in uk.LINES)


def _what_the_move_does(state: np.ndarray, cell: int) -> int:
    """`move_bits` worked out the slow way: play the move, then look at the board it left."""
    t = int(state[uk.TURN])
    board, spot = divmod(cell, 9)
    after = state.copy()
    uk.play(after, cell)
    bits = 0
    if (int(after[uk.BIG_X + t]) >> board) & 1:
        bits |= pn.WINS_BOARD
    if after[uk.RESULT] == uk.X_WON + t:
        bits |= pn.WINS_GAME
    theirs = int(state[uk.X_MASKS + (1 - t) * 9 + board])
    if any((theirs | (1 << spot)) & line == line for line in uk.LINES):
        bits |= pn.BLOCKS_BOARD
    if after[uk.RESULT] != uk.PLAYING:
        return bits  # the game is over: it sends nobody anywhere
    if after[uk.SENT] < 0:
        return bits | pn.SENDS_TO_FREE_CHOICE
    cells = np.empty(81, dtype=np.int64)
    for answer in cells[: uk.legal_moves(after, cells)]:
        reply = after.copy()
        uk.play(reply, int(answer))
        if (int(reply[uk.BIG_X + 1 - t]) >> spot) & 1:
            bits |= pn.SENDS_TO_THEIR_WIN
            if reply[uk.RESULT] == uk.X_WON + 1 - t:
                bits |= pn.SENDS_TO_THEIR_GAME_WIN
    mine = int(after[uk.X_MASKS + t * 9 + spot])
    empty = uk.FULL & ~(mine | int(after[uk.X_MASKS + (1 - t) * 9 + spot]))
    if _line_through(mine, empty):
        bits |= pn.SENDS_TO_MY_WIN
    return bits


def test_what_a_move_does_is_what_playing_it_shows() -> None:
    cells = np.empty(81, dtype=np.int64)
    seen = 0
    for game in random_positions(300, 7):
        state = ultimate_state(game)
        for cell in cells[: uk.legal_moves(state, cells)]:
            bits = pn.move_bits(state, int(cell))
            expected = _what_the_move_does(state, int(cell))
            after = state.copy()
            uk.play(after, int(cell))
            if after[uk.RESULT] != uk.PLAYING:  # where it would send is not compared
                bits &= pn.WINS_BOARD | pn.WINS_GAME | pn.BLOCKS_BOARD
            assert bits == expected, (game.record, ultimate_cell_name(int(cell)))
            seen |= bits
    assert seen == (1 << pn.MOVE_FEATURES) - 1  # every bit was met at least once
