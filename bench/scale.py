"""The load of bench/server.py against the embedded setup and the scale-out one, side by side.

    uv run python bench/scale.py [--tables 300] [--rate 300] [--seconds 10] [--flood 3000]
                                 [--flood-tables N] [--processes 2] [--generators 4]
                                 [--only-scale-out] [--kill-one]

Three setups, all up at once, driven by bench/server.py's load generators (bench/load.py): one
process on SQLite; one process on PostgreSQL + Redis; `--processes` processes on PostgreSQL +
Redis, each player's socket on a random one of them (so most moves cross from one process to
another through Redis). PostgreSQL (its default, durable settings) and Redis are private servers
started here on free ports, like the tests' (tests/scaleout/services.py). Each setup has two sets
of tables: one offered `--rate` moves/s (latency under a sustained load), one flooded with
`--flood` moves/s (the throughput it can reach). Only one set plays at a time, in rounds that
rotate through all of them, so that other work on a shared machine falls on each alike. Prints
moves/s, p99 and the longest loop stall for each, and the growth from one process to several.

With `--kill-one`, one process of the last setup is killed (SIGKILL) halfway through the flooded
set's last round; its players' sockets drop, the others play on. Then every table's state as the
database has it is compared with the newest its players were sent (a frame goes out only after
its commit): a move any player saw is a move the database must have.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import signal
import sys
import tempfile
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path[:0] = [str(ROOT), str(ROOT / "bench")]

import httpx  # noqa: E402
from tests.scaleout.services import PostgresCluster, RedisServer  # noqa: E402

import load  # noqa: E402  (bench/load.py)
import processes as started_processes  # noqa: E402  (bench/processes.py)
import server as bench  # noqa: E402  (bench/server.py: the generators and the measuring)


async def setup_targets(
    name: str,
    database: str,
    redis: str | None,
    processes: int,
    args: argparse.Namespace,
    generators: bench.Generators,
    folder: str,
    started: list[Any],
) -> list[bench.Target]:
    """Starts the setup's processes and has the generators connect two sets of players: one
    pacing itself to the sustained rate, one flooding. Each socket goes to a random process."""
    ports = [started_processes.free_port() for _ in range(processes)]
    monitors = [f"{folder}/{port}.jsonl" for port in ports]
    servers = [
        started_processes.spawn(
            bench.watched_server(port, database, monitor, redis),
            bench.server_environment(args.tables + (args.flood_tables or args.tables)),
            log=f"{folder}/{port}.log",
        )
        for port, monitor in zip(ports, monitors, strict=True)
    ]
    started.extend(servers)
    for port, process in zip(ports, servers, strict=True):
        started_processes.wait_until_up(port, process)
    bases = [f"http://127.0.0.1:{port}" for port in ports]
    for base in bases:
        await bench.warm_up(base)
    sockets = [base.replace("http", "ws", 1) for base in bases]
    pids = [process.pid for process in servers]
    targets = []
    for label, rate, tables in (
        ("sustained", args.rate, args.tables),
        ("flooded", args.flood, args.flood_tables or args.tables),
    ):
        target = bench.Target(f"{name}|{label}", pids, monitors, tables)
        target.ports = ports
        targets.append(
            await bench.start_target(generators, target, "server", bases[0], sockets, rate)
        )
    return targets


async def main(args: argparse.Namespace) -> None:
    started_processes.raise_file_limit()
    started: list[Any] = []
    targets: list[bench.Target] = []
    generators = bench.Generators(args.generators)
    cluster, redis = PostgresCluster(durable=True), RedisServer()
    setups = setup_names(args.processes)
    with tempfile.TemporaryDirectory() as folder:
        try:
            await generators.start()
            cluster.start()
            redis.start()
            plans = [
                (setups[0], f"sqlite:///{folder}/bench.db", None, 1),
                (setups[1], cluster.new_database(), redis.url, 1),
                (setups[2], cluster.new_database(), redis.url, args.processes),
            ]
            if args.only_scale_out:
                plans = plans[2:]
            for name, database, redis_url, processes in plans:
                targets += await setup_targets(
                    name, database, redis_url, processes, args, generators, folder, started
                )
            # Rounds rotate through the targets, so that other work on a shared machine falls
            # on every setup alike; only one target plays at a time.
            victim = targets[-1]  # the last setup's flooded set
            for round_number in range(1, args.rounds + 1):
                shift = round_number % len(targets)
                for target in targets[shift:] + targets[:shift]:
                    seconds = args.seconds / args.rounds
                    if args.kill_one and target is victim and round_number == args.rounds:
                        kill_later(target.pids[-1], 0.5 + args.warmup + seconds / 2)
                    await bench.play_round(generators, target, round_number, args.warmup, seconds)
            results = {target.name: bench.report(target) for target in targets}
            if args.kill_one:
                survivor = f"http://127.0.0.1:{victim.ports[0]}"
                await check_nothing_acknowledged_was_lost(generators, victim, survivor)
            await generators.close()
        except BaseException:
            bench.show_logs(folder)
            raise
        finally:
            for process in started:
                started_processes.stop(process)
            for generator in generators.processes:
                if generator.returncode is None:
                    generator.kill()
            redis.stop()
            cluster.remove()

    print()
    header = ("setup", "sustained moves/s", "p99 ms", "flooded moves/s", "p99 ms", "stall ms")
    print(
        f"{header[0]:<34} {header[1]:>18} {header[2]:>8} {header[3]:>16} {header[4]:>8} "
        f"{header[5]:>9}"
    )
    for name in setups[2:] if args.only_scale_out else setups:
        sustained, flooded = results[f"{name}|sustained"], results[f"{name}|flooded"]
        stall = max(sustained["stall_ms"], flooded["stall_ms"])
        print(
            f"{name:<34} {sustained['moves_per_s']:>18.0f} {sustained['p99_ms']:>8.1f} "
            f"{flooded['moves_per_s']:>16.0f} {flooded['p99_ms']:>8.1f} {stall:>9.1f}"
        )
    if args.only_scale_out:
        return
    one = results[f"{setups[1]}|flooded"]["moves_per_s"]
    many = results[f"{setups[2]}|flooded"]["moves_per_s"]
    print(
        f"throughput from 1 to {args.processes} processes (PostgreSQL + Redis, flooded): "
        f"x{many / one:.2f}"
    )


def kill_later(pid: int, delay: float) -> None:
    def kill() -> None:
        print(f"killing process {pid} (SIGKILL)", flush=True)
        os.kill(pid, signal.SIGKILL)

    asyncio.get_running_loop().call_later(delay, kill)


async def check_nothing_acknowledged_was_lost(
    generators: bench.Generators, target: bench.Target, base: str
) -> None:
    """Every table's stored (game, plies) is at least the newest its players were sent."""
    answers = await generators.ask(
        [{"cmd": "acknowledged", "target": target.name}] * len(generators.processes)
    )
    acknowledged = {table: tuple(state) for answer in answers for table, state in answer.items()}
    lost = []
    async with httpx.AsyncClient(base_url=base, timeout=60) as client:

        async def stored(table: str) -> tuple[int, int]:
            body = (await client.get(f"/api/tables/{table}")).json()
            return body["game"], len(body["moves"])

        states = await load.gather_limited([stored(table) for table in acknowledged], 20)
    for (table, seen), state in zip(acknowledged.items(), states, strict=True):
        if state < seen:
            lost.append((table, seen, state))
    plies = sum(ply for _, ply in acknowledged.values())
    print(
        f"after SIGKILL: {len(acknowledged)} tables checked ({plies} plies of their current "
        f"games acknowledged): {len(lost)} with an acknowledged move missing {lost[:5]}",
        flush=True,
    )


def setup_names(processes: int) -> tuple[str, str, str]:
    return (
        "1 process, SQLite",
        "1 process, PostgreSQL + Redis",
        f"{processes} processes, PostgreSQL + Redis",
    )


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=300)
    parser.add_argument("--rate", type=float, default=300, help="sustained moves/s offered")
    parser.add_argument("--flood", type=float, default=3000, help="flooded moves/s offered")
    parser.add_argument("--seconds", type=float, default=10, help="measured time per target")
    parser.add_argument("--rounds", type=int, default=2, help="rotations through the targets")
    parser.add_argument(
        "--warmup",
        type=float,
        help="seconds played before measuring, each round (default: one sustained think time, "
        "tables / rate, at least 2)",
    )
    parser.add_argument(
        "--flood-tables", type=int, help="tables of the flooded set (default: --tables)"
    )
    parser.add_argument("--processes", type=int, default=2, help="processes of the last setup")
    parser.add_argument(
        "--only-scale-out",
        action="store_true",
        help="only the last setup (--processes processes on PostgreSQL + Redis)",
    )
    parser.add_argument("--generators", type=int, default=4, help="load generator processes")
    parser.add_argument(
        "--kill-one",
        action="store_true",
        help="SIGKILL one process of the last setup mid-flood; check nothing acknowledged is lost",
    )
    args = parser.parse_args()
    args.warmup = bench.warmup_seconds(args)
    return args


if __name__ == "__main__":
    asyncio.run(main(parse_arguments()))
