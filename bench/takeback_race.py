"""Does the computer always answer? A takeback during its search, many times, at every level.

    uv run python bench/takeback_race.py [--tries 200] [--think-ms 50] [--seed 1]

In one process, with the real engine in its worker pool (as `tictactoe serve` runs it, workers
started with the process): at an Ultimate table against the computer with takebacks on, who
moves first drawn at random (as "first: random" does), the person moves, waits a random time (0
to `--most-ms`, so the takeback lands before, during or after the computer's search), takes the
move back (undone at once against the computer), plays another move, and waits for the
computer's answer (at most `--timeout` seconds). Every level of `tictactoe.engine.levels()`.
Prints, for each level, how many of the tries the computer answered, and the slowest answer.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import random
import time

from tictactoe.engine import levels
from tictactoe.server.pubsub.memory import MemoryPubSub
from tictactoe.server.settings import Settings
from tictactoe.server.storage.memory import MemoryStorage
from tictactoe.server.table.commands import AskTakeback, PlayMove, Refused
from tictactoe.server.table.computer import ComputerPlayer
from tictactoe.server.table.tables import TableOptions, Tables
from tictactoe.server.table.tokens import hash_secret


async def one_try(
    tables: Tables, level: str, rng: random.Random, args: argparse.Namespace
) -> float:
    """The seconds the computer took to answer the second move (inf: it never did)."""
    first = rng.choice(("me", "friend"))  # friend: the computer moves first
    created = await tables.create(
        TableOptions(
            variant="ultimate", opponent="computer", takebacks=True, level=level, first=first
        ),
        None,
    )
    table, me = created.table, hash_secret(created.token)
    while table.game.turn != table.mark_of(me):
        await table.wait_for_computer()
    await table.apply(PlayMove(rng.choice(table.game.legal_moves())), me)
    await asyncio.sleep(rng.uniform(0, args.most_ms / 1000))
    with contextlib.suppress(Refused):
        # Before or during the computer's search: our move goes; after it: its move and ours.
        await table.apply(AskTakeback(), me)
    while table.game.turn != table.mark_of(me):
        await table.wait_for_computer()
    started = time.perf_counter()
    await table.apply(PlayMove(rng.choice(table.game.legal_moves())), me)
    deadline = started + args.timeout
    while table.game.turn != table.mark_of(me) and table.record.result is None:
        if time.perf_counter() > deadline:
            queue = tables.computer.queue if tables.computer is not None else None
            print(
                f"  no answer at {level}: record {' '.join(table.record.moves)!r},"
                f" version {table.record.version}, jobs busy {table.side_jobs.busy},"
                f" queue running {queue.running if queue else '-'}"
                f" waiting {queue.waiting if queue else '-'}",
                flush=True,
            )
            table.close()
            return float("inf")
        await asyncio.sleep(0.01)
    table.close()
    return time.perf_counter() - started


async def main(args: argparse.Namespace) -> None:
    computer = ComputerPlayer(workers=1, think_ms=args.think_ms)
    settings = Settings(database_url="memory://", computer_least_think_seconds=args.least_think)
    tables = Tables(MemoryStorage(), MemoryPubSub(), settings, computer)
    rng = random.Random(args.seed)
    try:
        # As `tictactoe serve` does: the workers start (and load their kernels) with the process,
        # not at the first move (which then waited for that: the misses of earlier runs).
        started = time.perf_counter()
        await computer.start()
        print(f"workers started in {time.perf_counter() - started:.1f} s", flush=True)
        for level in args.levels or [level["name"] for level in levels()]:
            times = [await one_try(tables, level, rng, args) for _ in range(args.tries)]
            answered = [seconds for seconds in times if seconds != float("inf")]
            slowest = max(answered, default=float("nan")) * 1000
            print(
                f"{level}: the computer answered {len(answered)} of {len(times)} tries"
                f" (slowest {slowest:.0f} ms)",
                flush=True,
            )
    finally:
        computer.close()
        await tables.close()


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tries", type=int, default=200)
    parser.add_argument("--think-ms", type=int, default=50, help="the computer's time at max")
    parser.add_argument("--most-ms", type=float, default=300, help="the longest wait to take back")
    parser.add_argument("--timeout", type=float, default=30, help="an answer later is none")
    parser.add_argument("--levels", nargs="*", help="the levels to try (all when not given)")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--least-think", type=float, default=0.0, help="the computer's visible think (s)"
    )
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_arguments()))
