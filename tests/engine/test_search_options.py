"""The search's tuning options: a node gets children only at its `expand`-th visit, and with
`alpha` every node's backed-up network value is the minimax of its children's."""

from __future__ import annotations

import numpy as np

import tictactoe
from tictactoe.engine import ultimate_search as us
from tictactoe.engine.position import ultimate_state

MIDGAME = "i8 h5 e6 f9 g7 c2 h4 d1 a3 a8 b6 f8"


def child_values(tree: us.Tree, node: int) -> list[float]:
    start, count = int(tree.first_child[node]), int(tree.child_count[node])
    known = {us.WIN: 1.0, us.LOSS: 0.0, us.PROVEN_DRAW: 0.5}
    out = []
    for c in range(start, start + count):
        value = known.get(int(tree.proven[c]), float(tree.heur[c]))
        if value >= 0:
            out.append(value)
    return out


def test_a_node_gets_children_only_at_its_expand_th_visit() -> None:
    state = ultimate_state(tictactoe.Game.from_record("ultimate", MIDGAME))
    for expand in (1, 3):
        tree = us.search(state, iterations=5_000, seed=2, expand=expand, value_mix=0.5).tree
        used = int(tree.used[0])
        inner = [n for n in range(1, used) if tree.child_count[n] > 0]
        assert inner
        # Children start with `prior` (10) virtual visits; expanding takes `expand` real ones,
        # and the visit that expands it adds one more.
        assert min(int(tree.visits[n]) for n in inner) >= 10 + expand
        leaves = [n for n in range(1, used) if tree.child_count[n] == 0 and tree.proven[n] == 0]
        assert max(int(tree.visits[n]) for n in leaves) <= 10 + expand


def test_backed_up_network_values_are_the_minimax_of_the_children() -> None:
    state = ultimate_state(tictactoe.Game.from_record("ultimate", MIDGAME))
    result = us.search(state, iterations=20_000, seed=3, value_mix=0.5, alpha=0.4)
    tree = result.tree
    checked = 0
    for node in range(int(tree.used[0])):
        values = child_values(tree, node)
        if tree.child_count[node] and values and tree.proven[node] == us.UNKNOWN:
            assert np.float32(1.0 - max(values)) == tree.heur[node]
            checked += 1
    assert checked > 100
