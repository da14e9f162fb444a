"""The computer player: `best_move` for every variant and level, on Numba kernels.

Layout: `ultimate_kernel` (bitboards, perft, playouts) and `ultimate_search` (MCTS with a solver,
the loop in `mcts`, guided by the learned `value_net` and `policy_net`) for Ultimate;
`standard_kernel` (alpha-beta solver) and `standard_player` for standard boards; `player` maps
levels to searches; `position` converts games to kernel states; `perft` counts through the kernels;
`analysis` scores positions for game reviews. The commands `tictactoe engine` (CodinGame protocol),
`play` (terminal game) and `bot` (a protocol program at a web table) live in the `*_command`
modules, with `progress` for their progress bars; `compiled_cache` says where the compiled kernels
are kept. Importing this package is cheap: Numba is loaded on the first call.
"""

from __future__ import annotations

from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tictactoe.rules import Game

from tictactoe.engine import compiled_cache
from tictactoe.engine.levels import NAMES as LEVELS
from tictactoe.engine.levels import levels

compiled_cache.use_folder()  # before any kernel is defined: see `compiled_cache`

__all__ = ["LEVELS", "best_move", "levels", "warm_up"]


def best_move(game: Game, level: str = "max", think_ms: int = 100, seed: int | None = None) -> str:
    """The computer's move in `game` at `level` (one of `LEVELS`, weakest first: `levels()`
    gives each one's Elo).

    `max` searches for `think_ms` milliseconds (less only when it has proven the result); the
    other levels search a fixed amount. The same `seed` gives the same move (a seeded `max`
    searches a fixed amount sized for `think_ms`, since a search cut by the clock can't repeat).

    >>> import tictactoe
    >>> best_move(tictactoe.Game.from_record("standard", "a1 a2 b1 b2"), seed=1)
    'c1'
    """
    from tictactoe.engine.player import best_move as choose

    return choose(game, level=level, think_ms=think_ms, seed=seed)


def warm_up(variants: tuple[str, ...] = ("ultimate", "standard")) -> None:
    """Load (or compile) the kernels now, so a first `best_move` stays within its time budget,
    and measure this machine's speed for seeded `max` searches (`player.calibrate`).

    Worth calling once in each worker process that will serve moves; `variants` limits it to
    the kernels a process will use (`tictactoe engine` plays Ultimate only).
    """
    import tictactoe
    from tictactoe.engine.player import calibrate

    games = {
        "ultimate": tictactoe.new_game("ultimate").play("e5"),
        "standard": tictactoe.new_game("standard", size=3).play("b2"),
    }
    if "ultimate" in variants:
        calibrate()
    for variant in variants:
        for level in LEVELS:
            best_move(games[variant], level=level, think_ms=5, seed=0)
