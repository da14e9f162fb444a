"""`tictactoe engine`: play Ultimate over stdin/stdout in the CodinGame bot protocol.

Each turn the referee sends `opponentRow opponentCol` (`-1 -1` when we move first), the number of
valid actions, and one `row col` per valid action; we answer `row col`. Rows and columns are 0–8
from the top-left of the 9×9 grid. We keep our own game with the rules library, and check our
answer against the referee's list of valid actions (an arena with other rules still gets a legal
answer). Diagnostics go to stderr, as the arena expects.
"""

from __future__ import annotations

import argparse
import os
import sys
import time
from collections.abc import Callable
from typing import TextIO

from tictactoe.engine.levels import NAMES as LEVELS

HELP = "play Ultimate over stdin/stdout in the CodinGame bot protocol (for bot arenas)"

DEFAULT_THINK_MS = 90  # the arena allows 100 ms a turn; keep a margin for reading and writing
# The arena allows 1 000 ms for the first answer; starting Python and loading the kernels count,
# so the first move thinks for what is left of that, less this margin (at least MIN_THINK_MS).
FIRST_TURN_MS = 1000
FIRST_TURN_MARGIN_MS = 150
MIN_THINK_MS = 10

_loaded_at = time.monotonic()


def since_start_ms() -> float:
    """Milliseconds since this process started (from /proc on Linux; elsewhere, since this
    module was imported, which misses only the interpreter's own start)."""
    try:
        with open("/proc/self/stat") as stat:
            fields = stat.read().rsplit(")", 1)[1].split()
        with open("/proc/uptime") as uptime:
            now = float(uptime.read().split()[0])
        started = int(fields[19]) / os.sysconf("SC_CLK_TCK")  # field 22 of stat: starttime
        return max(0.0, (now - started) * 1000)
    except (OSError, ValueError, IndexError):
        return (time.monotonic() - _loaded_at) * 1000


def first_turn_ms(think_ms: int, started_ms_ago: float) -> int:
    """How long the first move may think: `think_ms`, or less when the process started
    `started_ms_ago` (starting, loading the kernels and reading the turn count against the
    first turn's 1 000 ms), but never under `MIN_THINK_MS`.

    >>> first_turn_ms(90, 300.0), first_turn_ms(900, 300.0), first_turn_ms(90, 2000.0)
    (90, 550, 10)
    """
    left = FIRST_TURN_MS - FIRST_TURN_MARGIN_MS - started_ms_ago
    return int(max(MIN_THINK_MS, min(think_ms, left)))


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--think-ms",
        type=int,
        default=DEFAULT_THINK_MS,
        help=f"time to think per move in ms (default {DEFAULT_THINK_MS})",
    )
    parser.add_argument(
        "--level",
        choices=LEVELS,
        default="max",
        help="playing strength (default max)",
    )
    parser.add_argument("--seed", type=int, help="make the choices repeatable")


def cell_from_row_col(row: int, col: int) -> str:
    """`0 0` is `a9`, the top-left cell; `8 8` is `i1`.

    >>> cell_from_row_col(0, 0), cell_from_row_col(4, 4), cell_from_row_col(8, 8)
    ('a9', 'e5', 'i1')
    """
    return f"{chr(ord('a') + col)}{9 - row}"


def row_col_from_cell(cell: str) -> tuple[int, int]:
    """The inverse of `cell_from_row_col`.

    >>> row_col_from_cell("a9"), row_col_from_cell("i1")
    ((0, 0), (8, 8))
    """
    return 9 - int(cell[1:]), ord(cell[0]) - ord("a")


def warm_up(level: str, *, seeded: bool) -> None:
    """Load what the game will use before the first turn's search starts its clock (the arena
    gives the first turn more time; loading counts against it): the kernels of this one level,
    and, for a seeded `max` only, this machine's speed (`player.calibrate`, ~40 ms of search an
    unseeded `max` never needs). The engine's own `warm_up` does every level and both.

    Python's cyclic garbage collector is off meanwhile: importing NumPy and Numba and loading
    the cached kernels makes ~10^5 objects that all live as long as the process, and collecting
    them again and again on the way cost ~10% of the start. They are frozen out of later
    collections, which then see only what the game makes."""
    import gc

    gc.disable()
    try:
        import tictactoe
        from tictactoe.engine import best_move

        opening = tictactoe.new_game("ultimate").play("e5")
        best_move(opening, level, think_ms=5, seed=0 if seeded else None)
        gc.freeze()
    finally:
        gc.enable()


def play_protocol(
    stdin: TextIO,
    stdout: TextIO,
    *,
    think_ms: int,
    level: str,
    seed: int | None,
    since_start: Callable[[], float] = since_start_ms,
    clock: Callable[[], float] = time.perf_counter,
    choose: Callable[..., str] | None = None,
) -> int:
    """Play one game turn by turn until the referee stops talking. `since_start` (milliseconds
    since the process started) and `clock` (seconds) time each turn's budget, and `choose`
    (`engine.best_move` by default) makes the move; a test gives its own, so that what a turn
    may think does not depend on how busy the machine is."""
    import tictactoe
    from tictactoe.engine import best_move

    choose = choose or best_move

    warm_up(level, seeded=seed is not None)
    game = tictactoe.new_game("ultimate")
    turn = 0
    while True:
        header = stdin.readline()
        if not header:
            return 0
        arrived = clock()  # the arena's clock for this turn starts about now
        row, col = (int(v) for v in header.split())
        count = int(stdin.readline())
        valid = []
        for _ in range(count):
            r, c = (int(v) for v in stdin.readline().split())
            valid.append(cell_from_row_col(r, c))
        if row >= 0:
            game = game.play(cell_from_row_col(row, col))
        budget = first_turn_ms(think_ms, since_start()) if turn == 0 else think_ms
        # Reading the actions and following the opponent's move count against the turn too.
        budget = max(MIN_THINK_MS, budget - round((clock() - arrived) * 1000))
        move = choose(game, level, think_ms=budget, seed=None if seed is None else seed + turn)
        if valid and move not in valid:
            print(
                f"our move {move} is not among the referee's; playing {valid[0]}", file=sys.stderr
            )
            move = valid[0]
        game = game.play(move)
        r, c = row_col_from_cell(move)
        stdout.write(f"{r} {c}\n")
        stdout.flush()
        turn += 1


def run(args: argparse.Namespace) -> int:
    if args.think_ms <= 0:
        raise SystemExit("tictactoe engine: --think-ms must be positive")
    # The engine computes on one thread (Numba kernels), but NumPy's BLAS starts a thread per
    # core when imported: on this 2-core box ~0.1 s of the first turn's wall time and ~0.2 s of
    # processor time (bench/first_answer.py). NumPy is imported after this, in the warm-up.
    os.environ.setdefault("OPENBLAS_NUM_THREADS", "1")
    return play_protocol(
        sys.stdin, sys.stdout, think_ms=args.think_ms, level=args.level, seed=args.seed
    )
