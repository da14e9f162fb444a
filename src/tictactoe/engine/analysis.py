"""The computer's opinion of a position, for looking back at a game: how good it is for X and the
move it would play, from the same searches `best_move` runs at `max` (MCTS with the solver for
Ultimate, iterative-deepening alpha-beta for standard boards).

>>> import tictactoe
>>> evaluate(tictactoe.Game.from_record("standard", "a1 a2 b1 b2"), think_ms=20)
Evaluation(score=1.0, proven='x', best_move='c1')
"""

from __future__ import annotations

import math
import random
import time
from dataclasses import dataclass

from tictactoe.rules import Game

# A standard search's line-counting score this far from even reads as about 0.76 (tanh(1)).
_STANDARD_SCALE = 400.0


@dataclass(frozen=True, slots=True)
class Evaluation:
    """`score` from X's point of view, -1 (O wins) to 1 (X wins); `proven` is the result when the
    search proved it ('x', 'o' or 'draw'), else None; `best_move` is None once the game is over."""

    score: float
    proven: str | None
    best_move: str | None


def evaluate(game: Game, think_ms: int = 100) -> Evaluation:
    """What the computer thinks of `game` after searching about `think_ms` milliseconds."""
    if game.result is not None:
        score = {"x": 1.0, "o": -1.0, "draw": 0.0}[game.result]
        return Evaluation(score, game.result, None)
    if think_ms <= 0:
        raise ValueError("think_ms must be positive")
    deadline = time.perf_counter() + think_ms / 1000
    if game.variant == "ultimate":
        score, proven, move = _ultimate(game, deadline)
    else:
        score, proven, move = _standard(game, deadline, think_ms)
    # The searches score for the side to move; the chart reads everything from X's side.
    sign = 1.0 if game.turn == "x" else -1.0
    outcome = None
    if proven is not None:
        outcome = "draw" if proven == 0 else (game.turn if proven > 0 else _other(game.turn))
    # (+ 0.0: an even score reads 0.0, never -0.0.)
    return Evaluation(round(sign * score, 3) + 0.0, outcome, move)


def _other(mark: str) -> str:
    return "o" if mark == "x" else "x"


def _ultimate(game: Game, deadline: float) -> tuple[float, int | None, str]:
    """(score for the side to move in -1..1, proven sign or None, best move)."""
    from tictactoe.engine import ultimate_search as us
    from tictactoe.engine.position import ultimate_cell_name, ultimate_state

    result = us.search(ultimate_state(game), deadline=deadline, seed=0)
    move = ultimate_cell_name(result.cell)
    if result.proven == us.WIN:
        return 1.0, 1, move
    if result.proven == us.LOSS:
        return -1.0, -1, move
    if result.proven == us.PROVEN_DRAW:
        return 0.0, 0, move
    return 2 * result.value - 1, None, move


def _standard(game: Game, deadline: float, think_ms: int) -> tuple[float, int | None, str]:
    from tictactoe.engine import standard_kernel as sk
    from tictactoe.engine.position import standard_cell_name
    from tictactoe.engine.standard_player import (
        STANDARD_NODES_PER_MS,
        StandardSearch,
        pick_best,
    )

    search = StandardSearch(game)
    scores = search.deepening(deadline, None)
    top = max(scores.values())
    proven: int | None = None
    if top > sk.PROVEN:
        proven = 1
    elif top < -sk.PROVEN:
        proven = -1
    else:
        # Searched to the last empty cell without a win or a loss found: a proven draw. The
        # deepening's table makes this last pass cheap; on big boards it may run out, and then
        # the estimate stands.
        exact = search.scores(search.empties, think_ms * STANDARD_NODES_PER_MS)
        if exact is not None:
            scores, top = exact, max(exact.values())
            proven = 1 if top > sk.PROVEN else -1 if top < -sk.PROVEN else 0
    # The same choice among equals as the player's, without its randomness.
    cell = pick_best(scores, game.size, game.line, random.Random(0))
    move = standard_cell_name(cell, game.size)
    if proven is not None:
        return float(proven), proven, move
    return math.tanh(top / _STANDARD_SCALE), None, move
