"""Perft through the kernels: the same counts as `tictactoe.rules.perft`, fast enough for depth 8.

>>> import tictactoe
>>> perft(tictactoe.new_game("ultimate"), 3), perft(tictactoe.new_game("standard", size=4), 2)
(6336, 240)
"""

from __future__ import annotations

from collections.abc import Callable
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tictactoe.rules import Game


def perft_by_move(game: Game, depth: int, on_move: Callable[[str, int], None] | None = None) -> int:
    """`perft`, one legal move at a time (calling `on_move(move, count)` after each), so that
    long counts can show their progress."""
    if depth < 1 or game.is_over:
        return perft(game, depth)
    total = 0
    for move in game.legal_moves():
        count = perft(game.play(move), depth - 1)
        total += count
        if on_move is not None:
            on_move(move, count)
    return total


def perft(game: Game, depth: int) -> int:
    """The number of move sequences of exactly `depth` plies from `game` (games that end sooner
    are not counted)."""
    if depth < 0:
        raise ValueError(f"depth is 0 or more, not {depth}")
    if depth == 0:
        return 1
    if game.is_over:
        return 0
    if game.variant == "ultimate":
        from tictactoe.engine import ultimate_kernel
        from tictactoe.engine.position import ultimate_state

        return int(ultimate_kernel.perft(ultimate_state(game), depth))
    from tictactoe.engine import standard_kernel
    from tictactoe.engine.position import standard_masks

    x, o = standard_masks(game)
    me, other = (x, o) if game.turn == "x" else (o, x)
    lines, _ = standard_kernel.tables(game.size, game.line)
    full = (1 << game.size * game.size) - 1
    return int(standard_kernel.perft(me, other, depth, full, lines))
