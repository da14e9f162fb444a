"""The computer's levels, weakest first, with their strength on an Elo scale.

Each level is what it does in Ultimate (`kind` and its amounts) and in standard Tic-Tac-Toe
(`depth`, `slips`, `sense`), and its Elo: measured on Ultimate with bench/ladder.py, each level
against the one below it and the lowest against a player who taps a random legal move (Elo 0),
the differences added up (bench/RESULTS.md has the games behind every figure). `max` is rated
at 100 ms a move on a free core (the ladder's `max(n=50000)`: a busy machine gives it less,
the site's 300 ms more). The four names of the first release (`easy`, `medium`, `hard`, `max`)
keep their strength; the others sit between and below them, so that each level is a step of
≈ 150–250 Elo above the one before.

Kinds of Ultimate player:
- `glance`: one look at the board (`player._beginner_ultimate_move`), taken with probability
  `sense`, else a random legal move: `novice` (a first-timer, who loses about a game in three
  to someone tapping at random) at 0.2, `easy` at 1.
- `playouts`: `iterations` of MCTS with random playouts, no solver, and now and then
  (`careless`) a random move among those it tried more than once.
- `search`: `iterations` of the MCTS with the exact solver and informed playouts (`hard`).
- `net`: the search `max` had when the levels were rated (`max_2026.fixed_search`: its settings
  and its value network, the solver) for a fixed `iterations`.
- `fixed`: `max`'s own search (its networks and settings) for a fixed `iterations`, a new tree
  each move (`master`: what `max` searches in a small part of its time).
- `max`: `max`'s search for the whole `think_ms`, its tree kept between moves.

Standard boards (`standard_player`): `glance` with the same `sense`, a search of `depth` plies
with a share `slips` of random moves, or `max`'s iterative deepening.
"""

from __future__ import annotations

from dataclasses import dataclass


@dataclass(frozen=True)
class Level:
    name: str
    elo: int
    kind: str  # glance, playouts, search, net, fixed or max (Ultimate)
    sense: float = 1.0  # glance: how often it looks at the board instead of tapping at random
    iterations: int = 0  # playouts, search, net, fixed
    careless: float = 0.0  # playouts: share of careless moves
    depth: int = 0  # standard: plies searched (0: `max`'s deepening, or a glance)
    slips: float = 0.0  # standard depth searches: share of random moves


LEVELS: tuple[Level, ...] = (
    Level("novice", 70, "glance", sense=0.2),
    Level("easy", 290, "glance", sense=1.0),
    Level("casual", 490, "playouts", iterations=120, careless=0.15, depth=1, slips=0.3),
    Level("medium", 650, "playouts", iterations=300, careless=0.1, depth=2, slips=0.15),
    Level("tricky", 840, "search", iterations=100, depth=2, slips=0.05),
    Level("tough", 1100, "search", iterations=800, depth=3),
    Level("hard", 1300, "search", iterations=3000, depth=4),
    Level("strong", 1460, "net", iterations=2000, depth=5),
    Level("expert", 1640, "net", iterations=8000, depth=6),
    Level("master", 1850, "fixed", iterations=8000, depth=7),
    Level("max", 2010, "max"),
)

BY_NAME = {level.name: level for level in LEVELS}
NAMES = tuple(level.name for level in LEVELS)


def level(name: str) -> Level:
    """The level called `name`; a ValueError naming the levels for any other name."""
    try:
        return BY_NAME[name]
    except KeyError:
        raise ValueError(f"unknown level {name!r}; the levels are {', '.join(NAMES)}") from None


def levels() -> list[dict[str, object]]:
    """Every level, weakest first, as `{"name", "elo"}`."""
    return [{"name": lv.name, "elo": lv.elo} for lv in LEVELS]
