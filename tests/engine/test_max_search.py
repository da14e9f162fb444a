"""The strongest Ultimate search: the solver proves short wins, a kept tree continues below the
moves played (and keeps the right subtree when it is compacted), each player keeps its own tree,
the clock-bounded search stops at the first chunk past its deadline (by its own clock), and a
seeded `max` sizes its budget from the speed measured on this machine."""

from __future__ import annotations

import random
import time

import numpy as np
import pytest

import tictactoe
from tictactoe.engine import player, warm_up
from tictactoe.engine import ultimate_search as us
from tictactoe.engine.kept_tree import KeptTree
from tictactoe.engine.position import ultimate_cell_name, ultimate_state


@pytest.fixture(scope="module", autouse=True)
def compiled_kernels() -> None:
    warm_up(("ultimate",))


def wins_at_once(game: tictactoe.Game) -> list[str]:
    return [m for m in game.legal_moves() if game.play(m).result == game.turn]


def forcing_moves(game: tictactoe.Game) -> list[str]:
    """Moves after which every reply leaves the mover a win of the whole game at once."""
    found = []
    for move in game.legal_moves():
        after = game.play(move)
        if after.is_over:
            continue
        if all(
            not after.play(reply).is_over and wins_at_once(after.play(reply))
            for reply in after.legal_moves()
        ):
            found.append(move)
    return found


def positions_won_in_three_plies(count: int) -> list[tuple[tictactoe.Game, list[str]]]:
    """Positions from random games with no win at once but a move that forces one next turn."""
    rng = random.Random(8)
    found: list[tuple[tictactoe.Game, list[str]]] = []
    while len(found) < count:
        game = tictactoe.new_game("ultimate")
        while not game.is_over:
            if len(game.moves) > 20 and not wins_at_once(game):
                forcing = forcing_moves(game)
                if forcing and len(forcing) < len(game.legal_moves()):
                    found.append((game, forcing))
                    break
            game = game.play(rng.choice(game.legal_moves()))
    return found


def test_the_solver_proves_a_win_three_plies_ahead() -> None:
    for game, forcing in positions_won_in_three_plies(4):
        result = us.search(ultimate_state(game), iterations=50_000, seed=3, value_mix=0.5)
        # Proven (so it stopped before its budget): the forcing move, or another that wins too.
        assert result.proven == us.WIN, game.record
        assert result.iterations < 50_000
        proven = {c for c, _, _, state in result.children if state == us.WIN}
        assert result.cell in proven and forcing


def subtree(tree: us.Tree, node: int) -> list[tuple[int, int, float, int, int]]:
    """The subtree under `node`, depth first: (move, visits, value, proven, children)."""
    out = []
    stack = [node]
    while stack:
        n = stack.pop()
        count = int(tree.child_count[n])
        out.append(
            (
                int(tree.move[n]),
                int(tree.visits[n]),
                float(tree.value[n]),
                int(tree.proven[n]),
                count,
            )
        )
        stack.extend(range(int(tree.first_child[n]), int(tree.first_child[n]) + count))
    return out


def test_a_compacted_tree_holds_exactly_the_subtree_below_the_moves_played() -> None:
    game = tictactoe.Game.from_record("ultimate", "e5 e4")
    result = us.search(ultimate_state(game), iterations=20_000, seed=1)
    tree = result.tree
    # Our most visited move, then the opponent's most visited reply to it.
    ours = max(result.children, key=lambda c: c[1])[0]
    after = game.play(ultimate_cell_name(ours))
    first = int(tree.first_child[0])
    node = next(c for c in range(first, first + int(tree.child_count[0])) if tree.move[c] == ours)
    replies = range(
        int(tree.first_child[node]), int(tree.first_child[node]) + int(tree.child_count[node])
    )
    reply = int(tree.move[max(replies, key=lambda c: tree.visits[c])])
    position = after.play(ultimate_cell_name(reply))
    assert tree.descend([ours, reply], ultimate_state(position))
    kept = subtree(tree, tree.root_node)
    compact = tree.compacted(10_000)
    assert compact.root_node == 0 and np.array_equal(compact.root, ultimate_state(position))
    assert int(compact.used[0]) == len(kept) < int(tree.used[0])
    assert compact.room >= 10_000
    assert subtree(compact, 0) == kept
    # The compacted tree searches on from there like the original would.
    again = us.search(ultimate_state(position), iterations=500, seed=2, tree=compact)
    assert again.tree is compact
    assert int(compact.visits[0]) == kept[0][1] + 500


def continued(result: us.SearchResult) -> bool:
    """Whether the search's root held visits from an earlier search (a kept tree continued)."""
    return int(result.tree.visits[result.tree.root_node]) > result.iterations


def test_max_and_the_baseline_each_continue_their_own_tree() -> None:
    player._kept["max"].forget()
    player._kept["baseline"].forget()

    def max_search(game: tictactoe.Game) -> us.SearchResult:
        # A budget of iterations, not of wall time: on a busy machine 40 ms could give the first
        # search too few visits below the two moves for the second to find any.
        deadline = time.perf_counter() + 3600
        return player._max_search(
            game, ultimate_state(game), 40, None, 5, deadline, iterations=3000
        )

    game = tictactoe.Game.from_record("ultimate", "e5 e4")
    first = max_search(game)
    ours = game.play(ultimate_cell_name(first.cell))
    theirs = ours.play(player.baseline_move(ours, think_ms=40))
    baseline_tree = player._kept["baseline"]._tree
    assert baseline_tree is not None and baseline_tree is not first.tree
    second = max_search(theirs)
    # The new root already held the visits the first search gave it below the two moves.
    assert continued(second)
    assert player._kept["max"]._tree is second.tree
    assert player._kept["baseline"]._tree is baseline_tree
    # An unrelated position starts a new tree.
    other = max_search(tictactoe.Game.from_record("ultimate", "a1 a2"))
    assert other.tree is not second.tree
    assert int(other.tree.visits[other.tree.root_node]) == other.iterations


@pytest.mark.parametrize("draw_score", [0.5, 0.4])
def test_a_tree_that_counted_draws_for_one_side_is_never_continued_for_the_other(
    draw_score: float,
) -> None:
    # With contempt (a draw worth less than one half to the root's side) every value in the tree
    # belongs to that side: one move later the other side is to move, and it must start afresh.
    kept = KeptTree()

    def search(game: tictactoe.Game) -> us.SearchResult:
        deadline = time.perf_counter() + 3600
        settings = {**player.MAX_SEARCH, "draw_score": draw_score}
        return kept.search(
            game, ultimate_state(game), deadline, compact=True, seed=5, iterations=3000, **settings
        )

    game = tictactoe.Game.from_record("ultimate", "e5 e4")
    first = search(game)
    moved = game.play(ultimate_cell_name(first.cell))
    theirs = search(moved)  # the other side, one move later
    assert continued(theirs) == (draw_score == 0.5)
    # The same side two moves later continues its tree either way.
    kept.forget()
    search(game)
    assert continued(search(moved.play(ultimate_cell_name(theirs.cell))))


def test_a_clock_bounded_search_stops_at_the_first_chunk_past_its_deadline() -> None:
    # Measured in the search's own clock: it runs until the deadline, and the chunk that crossed
    # it started before the deadline, so it overshoots by less than that chunk's length.
    state = ultimate_state(tictactoe.Game.from_record("ultimate", "e5 e4"))
    for milliseconds in (20, 60):
        deadline = time.perf_counter() + milliseconds / 1000
        result = us.search(state, deadline=deadline, seed=4, value_mix=player.MAX_VALUE_MIX)
        assert result.proven == us.UNKNOWN
        assert deadline <= result.stopped <= deadline + result.last_chunk + 0.001


def test_a_seeded_max_sizes_its_budget_from_the_measured_speed(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    assert player.calibrate(10) > 0
    monkeypatch.setattr(player, "_speed", [123.0])
    game = tictactoe.Game.from_record("ultimate", "e5 e4")
    result = player._max_search(game, ultimate_state(game), 20, 1, 7, 0.0)
    assert result.iterations == 20 * 123
    again = player._max_search(game, ultimate_state(game), 20, 1, 7, 0.0)
    assert again.cell == result.cell and again.children == result.children
