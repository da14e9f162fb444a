"""The load of bench/server.py against the embedded setup and the scale-out one, side by side.

    uv run python bench/scale.py [--tables 300] [--rate 300] [--seconds 10] [--flood 3000]

Runs, one after the other, with the same players (bench/server.py's, imported): one process on
SQLite; one process on PostgreSQL + Redis; two processes on PostgreSQL + Redis, each player's
socket on a random one of them (so about half of all moves cross from one process to the other
through Redis). PostgreSQL (its default, durable settings) and Redis are private servers started
here on free ports, like the tests' (tests/scaleout/services.py). Each setup is measured twice:
at the offered `--rate` (latency under a sustained load) and flooded at `--flood` moves/s (the
throughput it can reach). Prints moves/s and p99 for each, and the growth from one process to two.
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


async def run_setup(
    name: str, database: str, redis: str | None, processes: int, args: argparse.Namespace
) -> dict[str, dict[str, float]]:
    ports = [load.free_port() for _ in range(processes)]
    servers = [serve(port, database, redis) for port in ports]
    figures: dict[str, dict[str, float]] = {}
    try:
        for port, process in zip(ports, servers, strict=True):
            load.wait_until_up(port, process)
        bases = [f"http://127.0.0.1:{port}" for port in ports]
        for base in bases:
            await load.warm_up(base, base.replace("http", "ws", 1))
        baseline = load.rss_kib(servers[0].pid)
        for label, rate in (("sustained", args.rate), ("flooded", args.flood)):
            # Fresh tables for each measurement, created through the first process.
            seats = await load.server_seats(bases[0], args.tables, "ultimate")
            chooser = random.Random(1)
            sockets = [
                (
                    table,
                    mark,
                    f"{chooser.choice(bases).replace('http', 'ws', 1)}"
                    f"/api/tables/{table}/ws?token={token}",
                )
                for table, mark, token in seats
            ]
            run_args = argparse.Namespace(**{**vars(args), "rate": rate})
            figures[label] = await load.drive(
                f"{name} {label}"[:40],
                servers[0].pid,
                sockets,
                load.ServerPlayer,
                run_args,
                baseline,
            )
    finally:
        for process in servers:
            load.stop(process)
    return figures


async def main(args: argparse.Namespace) -> None:
    results: dict[str, dict[str, dict[str, float]]] = {}
    with tempfile.TemporaryDirectory() as folder:
        results["1 process, SQLite"] = await run_setup(
            "sqlite x1", f"sqlite:///{folder}/bench.db", None, 1, args
        )
    cluster, redis = PostgresCluster(durable=True), RedisServer()
    try:
        cluster.start()
        redis.start()
        for processes in (1, 2):
            results[
                f"{processes} process{'es' if processes > 1 else ''}, PostgreSQL + Redis"
            ] = await run_setup(
                f"pg+redis x{processes}",
                cluster.new_database(),
                redis.url,
                processes,
                args,
            )
    finally:
        redis.stop()
        cluster.remove()

    print()
    header = ("setup", "sustained moves/s", "p99 ms", "flooded moves/s", "p99 ms")
    print(f"{header[0]:<34} {header[1]:>18} {header[2]:>8} {header[3]:>16} {header[4]:>8}")
    for name, figures in results.items():
        sustained, flooded = figures["sustained"], figures["flooded"]
        print(
            f"{name:<34} {sustained['moves_per_s']:>18.0f} {sustained['p99_ms']:>8.1f} "
            f"{flooded['moves_per_s']:>16.0f} {flooded['p99_ms']:>8.1f}"
        )
    one = results["1 process, PostgreSQL + Redis"]["flooded"]["moves_per_s"]
    two = results["2 processes, PostgreSQL + Redis"]["flooded"]["moves_per_s"]
    print(f"throughput from 1 to 2 processes (PostgreSQL + Redis, flooded): x{two / one:.2f}")


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--rate", type=float, default=300, help="sustained moves/s offered")
    parser.add_argument("--flood", type=float, default=3000, help="flooded moves/s offered")
    parser.add_argument("--seconds", type=float, default=10, help="measured time per run")
    parser.add_argument("--warmup", type=float, default=3, help="seconds played before measuring")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_arguments()))
