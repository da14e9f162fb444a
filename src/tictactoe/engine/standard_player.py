"""What the levels play on standard boards: `max`'s iterative-deepening alpha-beta (it proves
the result where it can), a fixed-depth search with a share of random slips, or a beginner's
glance (`levels` says which level does what). Kept apart from `player` so that Ultimate alone
(`tictactoe engine`) never loads the standard kernels."""

from __future__ import annotations

import random
import threading
import time

import numpy as np

from tictactoe.engine import standard_kernel as sk
from tictactoe.engine.levels import Level
from tictactoe.engine.position import standard_cell_name, standard_masks
from tictactoe.rules import Game

STANDARD_NODES_PER_MS = 3000


class _Table:
    """A transposition table per board size, kept between calls and cleared at the start of each
    (so every call is independent and a seeded one repeatable)."""

    def __init__(self) -> None:
        n = 1 << sk.TT_BITS
        self.key = np.full(n, -1, dtype=np.int64)
        self.value = np.zeros(n, dtype=np.int32)
        self.depth = np.zeros(n, dtype=np.int16)
        self.flag = np.zeros(n, dtype=np.int8)
        self.move = np.zeros(n, dtype=np.int16)

    def arrays(self) -> tuple[np.ndarray, ...]:
        return self.key, self.value, self.depth, self.flag, self.move


# One table per board shape (the same marks mean different things with another line length) and
# per thread (a search clears and fills its table between kernel calls, where threads interleave).
_tables = threading.local()


def _table_for(size: int, line: int) -> _Table:
    tables: dict[tuple[int, int], _Table] = _tables.__dict__.setdefault("by_shape", {})
    return tables.setdefault((size, line), _Table())


class StandardSearch:
    """Alpha-beta searches of one standard position, sharing one transposition table."""

    def __init__(self, game: Game) -> None:
        self.size, self.line = game.size, game.line
        self.lines, self.order = sk.tables(self.size, self.line)
        x, o = standard_masks(game)
        self.me, self.other = (x, o) if game.turn == "x" else (o, x)
        self.full = (1 << self.size * self.size) - 1
        self.empties = self.size * self.size - bin(x | o).count("1")
        self.table = _table_for(self.size, self.line)
        self.table.key.fill(-1)
        self.nodes = 0

    def scores(self, depth: int, node_limit: int = 1 << 40) -> dict[int, int] | None:
        """Score of every legal move searched `depth` plies deep (WIN - n: a proven win in n
        plies, -(WIN - n) a proven loss), or None when the node limit ran out first."""
        stats = np.array([0, node_limit, 0], dtype=np.int64)
        scores = np.zeros(self.size * self.size, dtype=np.int64)
        sk.root_scores(
            self.me,
            self.other,
            depth,
            self.full,
            self.lines,
            self.line,
            self.order,
            *self.table.arrays(),
            stats,
            scores,
        )
        self.nodes += int(stats[0])
        if stats[2]:
            return None
        return {cell: int(v) for cell, v in enumerate(scores) if v >= -sk.WIN}

    def deepening(self, deadline: float | None, budget: int | None) -> dict[int, int]:
        """Deepen until the result is proven, the board is searched to the end, or the clock
        (`deadline`) or node `budget` runs out; the scores of the deepest search completed."""
        best = self.scores(1)
        assert best is not None
        rate = 2000.0  # nodes per ms, refined as we go
        for depth in range(2, self.empties + 1):
            values = best.values()
            if max(values) > sk.PROVEN or all(abs(v) > sk.PROVEN for v in values):
                break
            if budget is not None:
                limit = budget - self.nodes
            else:
                assert deadline is not None
                limit = int((deadline - time.perf_counter()) * 1000 * rate)
            if limit <= 0:
                break
            before, started = self.nodes, time.perf_counter()
            scores = self.scores(depth, limit)
            if scores is None:
                break
            rate = max(
                rate, (self.nodes - before) / max((time.perf_counter() - started) * 1000, 0.01)
            )
            best = scores
        return best


def standard_move(
    game: Game, level: Level, think_ms: int, seed: int | None, rng: random.Random, deadline: float
) -> str:
    size = game.size
    if level.kind == "glance":
        if level.sense < 1 and rng.random() >= level.sense:
            return rng.choice(game.legal_moves())
        return standard_cell_name(_beginner_standard_move(game, rng), size)
    search = StandardSearch(game)
    if level.kind != "max":
        scores = search.scores(level.depth)
        assert scores is not None
        if rng.random() < level.slips:
            return standard_cell_name(rng.choice(sorted(scores)), size)
        return standard_cell_name(pick_best(scores, size, game.line, rng), size)
    if seed is None:
        scores = search.deepening(deadline, None)
    else:
        scores = search.deepening(None, int(think_ms * STANDARD_NODES_PER_MS))
    return standard_cell_name(pick_best(scores, size, game.line, rng), size)


def pick_best(scores: dict[int, int], size: int, line: int, rng: random.Random) -> int:
    """A best-scoring move; among equals, one on the most lines (a centre or a corner before an
    edge, as a person would), then at random."""
    top = max(scores.values())
    lines, _ = sk.tables(size, line)
    reach = {cell: sum(1 for m in lines if int(m) >> cell & 1) for cell in scores}
    best = [cell for cell, v in scores.items() if v == top]
    most = max(reach[cell] for cell in best)
    return rng.choice(sorted(cell for cell in best if reach[cell] == most))


def _beginner_standard_move(game: Game, rng: random.Random) -> int:
    """Takes a win it sees most of the time, blocks a threat it notices half the time, else a
    random cell, drawn to the cells on many lines (the centre, the corners) as people are."""
    size, line = game.size, game.line
    lines, _ = sk.tables(size, line)
    x, o = standard_masks(game)
    me, other = (x, o) if game.turn == "x" else (o, x)
    mine, theirs = sk.threats(me, other, lines, line)
    empty = [c for c in range(size * size) if not (me | other) >> c & 1]
    if mine and rng.random() < 0.8:
        return rng.choice([c for c in empty if mine >> c & 1])
    if theirs and rng.random() < 0.5:
        return rng.choice([c for c in empty if theirs >> c & 1])
    weights = [sum(1 for m in lines if int(m) >> c & 1) for c in empty]
    return rng.choices(empty, weights=weights)[0]
