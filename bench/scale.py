"""The load of bench/server.py against the embedded setup and the scale-out one, side by side.

    uv run python bench/scale.py [--tables 300] [--rate 300] [--seconds 10] [--flood 3000]

Three setups, all up at once, driven by bench/server.py's players (imported): one process on
SQLite; one process on PostgreSQL + Redis; two processes on PostgreSQL + Redis, each player's
socket on a random one of them (so about half of all moves cross from one process to the other
through Redis). PostgreSQL (its default, durable settings) and Redis are private servers started
here on free ports, like the tests' (tests/scaleout/services.py). Each setup has two sets of
tables: one offered `--rate` moves/s (latency under a sustained load), one flooded with `--flood`
moves/s (the throughput it can reach). Only one set plays at a time, in rounds that rotate through
all of them, so that other work on a shared machine falls on each alike. Prints moves/s and p99 for
each, and the growth from one process to two.
"""

from __future__ import annotations

import argparse
import asyncio
import random
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

from tests.scaleout.services import PostgresCluster, RedisServer  # noqa: E402

import server as load  # noqa: E402  (bench/server.py: the players and the measuring)


def serve(port: int, database: str, redis: str | None) -> Any:
    command = [sys.executable, "-m", "tictactoe.cli", "serve", "--port", str(port)]
    command += ["--database", database] + (["--redis", redis] if redis else [])
    return load.spawn(command)


async def setup_targets(
    name: str,
    database: str,
    redis: str | None,
    processes: int,
    args: argparse.Namespace,
    started: list[Any],
) -> list[Any]:
    """Starts the setup's processes and connects two sets of players: one pacing itself to the
    sustained rate, one flooding. Each player's socket goes to a random process of the setup."""
    ports = [load.free_port() for _ in range(processes)]
    servers = [serve(port, database, redis) for port in ports]
    started.extend(servers)
    for port, process in zip(ports, servers, strict=True):
        load.wait_until_up(port, process)
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    for base in bases:
        await load.warm_up(base, base.replace("http", "ws", 1))
    baseline = load.rss_kib(servers[0].pid)
    chooser = random.Random(1)
    targets = []
    for label, rate in (("sustained", args.rate), ("flooded", args.flood)):
        seats = await load.server_seats(bases[0], args.tables, "ultimate")
        sockets = [
            (table, mark, f"{chooser.choice(bases).replace('http', 'ws', 1)}/api/tables/{table}/ws")
            for table, mark, _token in seats
        ]
        sockets = [
            (table, mark, f"{url}?token={token}")
            for (table, mark, url), (_, _, token) in zip(sockets, seats, strict=True)
        ]
        targets.append(
            await load.connect_players(
                f"{name}|{label}", servers[0].pid, sockets, load.ServerPlayer, rate, baseline
            )
        )
    return targets


async def main(args: argparse.Namespace) -> None:
    started: list[Any] = []
    targets: list[Any] = []
    cluster, redis = PostgresCluster(durable=True), RedisServer()
    try:
        with tempfile.TemporaryDirectory() as folder:
            cluster.start()
            redis.start()
            targets += await setup_targets(
                SETUPS[0], f"sqlite:///{folder}/bench.db", None, 1, args, started
            )
            targets += await setup_targets(
                SETUPS[1], cluster.new_database(), redis.url, 1, args, started
            )
            targets += await setup_targets(
                SETUPS[2], cluster.new_database(), redis.url, 2, args, started
            )
            # Rounds rotate through the targets, so that other work on a shared machine falls
            # on every setup alike; only one target plays at a time.
            for round_number in range(1, args.rounds + 1):
                shift = round_number % len(targets)
                for target in targets[shift:] + targets[:shift]:
                    await load.play_round(
                        target, round_number, args.warmup, args.seconds / args.rounds
                    )
            results = {target.name: load.report(target) for target in targets}
            for target in targets:
                await asyncio.gather(
                    *(ws.close() for ws in target.connections), return_exceptions=True
                )
    finally:
        for process in started:
            load.stop(process)
        redis.stop()
        cluster.remove()

    print()
    header = ("setup", "sustained moves/s", "p99 ms", "flooded moves/s", "p99 ms")
    print(f"{header[0]:<34} {header[1]:>18} {header[2]:>8} {header[3]:>16} {header[4]:>8}")
    for name in SETUPS:
        sustained, flooded = results[f"{name}|sustained"], results[f"{name}|flooded"]
        print(
            f"{name:<34} {sustained['moves_per_s']:>18.0f} {sustained['p99_ms']:>8.1f} "
            f"{flooded['moves_per_s']:>16.0f} {flooded['p99_ms']:>8.1f}"
        )
    one = results[f"{SETUPS[1]}|flooded"]["moves_per_s"]
    two = results[f"{SETUPS[2]}|flooded"]["moves_per_s"]
    print(f"throughput from 1 to 2 processes (PostgreSQL + Redis, flooded): x{two / one:.2f}")


SETUPS = (
    "1 process, SQLite",
    "1 process, PostgreSQL + Redis",
    "2 processes, PostgreSQL + Redis",
)


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--rate", type=float, default=300, help="sustained moves/s offered")
    parser.add_argument("--flood", type=float, default=3000, help="flooded moves/s offered")
    parser.add_argument("--seconds", type=float, default=10, help="measured time per target")
    parser.add_argument("--rounds", type=int, default=2, help="rotations through the targets")
    parser.add_argument(
        "--warmup", type=float, default=2, help="seconds played before measuring, each round"
    )
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_arguments()))
