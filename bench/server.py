"""Load on one server process: N tables, two WebSocket players each, playing random legal moves.

    uv run python bench/server.py [--tables 1000] [--rate 600] [--seconds 20] [--generators 4]
    uv run python bench/server.py --tables 10000 --rate 500 --seconds 40   # a move every 20 s

Spawns `tictactoe serve` (SQLite in a temporary folder) and, in the same run, a bare WebSocket
relay (no rules, no storage: each message is forwarded to both sockets of its room), and drives
both with the same players and the same pace, in alternating rounds so that whatever else runs on
a shared machine weighs on both alike. The players run in `--generators` processes of their own
(bench/load.py), each with a share of the tables, so that the generator is not what limits the
server (each reports how late its own loop ran). Prints, for each: moves/s; the latency from a
move sent to the opponent receiving it (p50/p99); the process's processor time per move (less
sensitive to other work on the machine than latency); its memory per table (RSS growth / tables,
with both sockets open); its event loop's longest stall and its garbage collections while
measuring (bench/loop_monitor.py, from inside the process); and the ratios to the relay. Players
pace themselves (a random think time per move) so that all tables together offer `--rate`
moves/s: the figures are for a sustained load, not a flood that only measures queueing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from websockets.asyncio.client import connect

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import loop_monitor  # noqa: E402
from processes import (  # noqa: E402
    cpu_seconds,
    free_port,
    percentile,
    raise_file_limit,
    rss_kib,
    spawn,
    stop,
    wait_until_up,
)

# -- processes ------------------------------------------------------------------------------------


def server_environment(tables: int) -> dict[str, str]:
    """`tictactoe serve` with room for the bench's sockets and tables (all from this host)."""
    return {
        # Opening 20 000 sockets on a crowded machine, a handshake may wait longer than 10 s.
        "TICTACTOE_HEADER_TIMEOUT_SECONDS": "120",
        "TICTACTOE_MAX_CONNECTIONS": str(max(4096, 2 * tables + 1000)),
        "TICTACTOE_MAX_OPEN_TABLES": str(max(10_000, tables + 1000)),
    }


def watched_server(port: int, database: str, monitor: str, redis: str | None = None) -> list[str]:
    """The command running `tictactoe serve` with bench/loop_monitor.py watching it."""
    command = [sys.executable, str(BENCH / "loop_monitor.py"), monitor, "serve"]
    command += ["--port", str(port), "--database", database]
    return command + (["--redis", redis] if redis else [])


async def warm_up(base: str) -> None:
    """One game's worth of everything, so imports and caches are not counted as per-table memory."""
    import load

    seats = await load.server_seats(base, 2, "ultimate")
    for table, mark, token in seats:
        url = f"{base.replace('http', 'ws', 1)}/api/tables/{table}/ws?token={token}"
        async with connect(url) as ws:
            await ws.recv()
            if mark == "x":
                await ws.send('{"type":"move","move":"e5"}')
                await ws.recv()


# -- the generators -------------------------------------------------------------------------------


class Generators:
    """The load generator processes (bench/load.py), each playing a share of every target."""

    def __init__(self, count: int) -> None:
        self.count = count
        self.processes: list[asyncio.subprocess.Process] = []

    async def start(self) -> None:
        for _ in range(self.count):
            self.processes.append(
                await asyncio.create_subprocess_exec(
                    sys.executable,
                    str(BENCH / "load.py"),
                    stdin=asyncio.subprocess.PIPE,
                    stdout=asyncio.subprocess.PIPE,
                    limit=2**26,
                )
            )

    async def ask(self, commands: list[dict[str, Any]]) -> list[dict[str, Any]]:
        """Sends each process its command; their answers, in order."""

        async def one(process: asyncio.subprocess.Process, command: dict[str, Any]) -> Any:
            assert process.stdin is not None and process.stdout is not None
            process.stdin.write(json.dumps(command).encode() + b"\n")
            await process.stdin.drain()
            line = await process.stdout.readline()
            if not line:
                raise SystemExit("a load generator exited (see its error above)")
            return json.loads(line)

        return list(await asyncio.gather(*map(one, self.processes, commands)))

    async def close(self) -> None:
        if self.processes:
            await self.ask([{"cmd": "close"}] * self.count)
            await asyncio.gather(*(process.wait() for process in self.processes))


@dataclass
class Target:
    """One setup under load: its processes, and what was measured."""

    name: str
    pids: list[int]
    monitors: list[str]
    tables: int
    memory_kib_per_table: float = 0.0
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    measured_seconds: float = 0.0
    cpu_seconds: float = 0.0  # the processes' processor time while measuring
    spans: list[tuple[float, float]] = field(default_factory=list)
    generator_lag: float = 0.0
    generator_cpu: float = 0.0
    gaps: int = 0  # moved frames that did not follow the table their player held
    ports: list[int] = field(default_factory=list)


async def start_target(
    generators: Generators,
    target: Target,
    kind: str,
    base: str,
    sockets: list[str],
    rate: float,
    variant: str = "ultimate",
) -> Target:
    """Has the generators create the target's tables and open both sockets of each (spread over
    `sockets`, the bases of its processes' WebSocket URLs); then takes its memory per table."""
    baseline = sum(rss_kib(pid) for pid in target.pids)
    shares = [target.tables // generators.count] * generators.count
    shares[0] += target.tables - sum(shares)
    firsts = [sum(shares[:index]) for index in range(generators.count)]
    await generators.ask(
        [
            {
                "cmd": "setup",
                "target": target.name,
                "kind": kind,
                "base": base,
                "sockets": sockets,
                "tables": share,
                "first": first,
                "rate": rate * share / target.tables,
                "variant": variant,
            }
            for share, first in zip(shares, firsts, strict=True)
        ]
    )
    await asyncio.sleep(2.0)
    target.memory_kib_per_table = (sum(rss_kib(pid) for pid in target.pids) - baseline) / (
        target.tables
    )
    return target


async def play_round(
    generators: Generators,
    target: Target,
    round_number: int,
    warmup: float,
    seconds: float,
    profile: str | None = None,
) -> None:
    """All of a target's tables play for `warmup` + `seconds`; only the latter is measured
    (and sampled with py-spy into the folder `profile`, if given)."""
    start = time.monotonic() + 0.5
    measure = (start + warmup, start + warmup + seconds)
    command = {"cmd": "round", "target": target.name, "round": round_number}
    command |= {"measure": measure, "stop": measure[1]}
    answers = asyncio.ensure_future(generators.ask([command] * generators.count))
    await asyncio.sleep(measure[0] - time.monotonic())
    cpu_started = sum(cpu_seconds(pid) for pid in target.pids)
    samplers = [
        await sample(pid, f"{profile}/{target.name}-{round_number}-{pid}.txt", seconds)
        for pid in (target.pids if profile else [])
    ]
    await asyncio.sleep(measure[1] - time.monotonic())
    for sampler in samplers:
        await sampler.wait()
    target.cpu_seconds += sum(cpu_seconds(pid) for pid in target.pids) - cpu_started
    target.measured_seconds += measure[1] - measure[0]
    target.spans.append(measure)
    for answer in await answers:
        target.latencies += answer["latencies"]
        target.moves += answer["moves"]
        target.generator_lag = max(target.generator_lag, answer["lag"])
        target.generator_cpu += answer["cpu"]
        target.gaps += answer.get("gaps", 0)
    await asyncio.sleep(0.5)  # let moves in flight land before the next target plays


async def sample(pid: int, out: str, seconds: float) -> asyncio.subprocess.Process:
    """py-spy (`uv sync --group bench`) sampling process `pid` for `seconds`, in its raw format
    (one line per stack with its count): where a target's processor time goes under load."""
    return await asyncio.create_subprocess_exec(
        str(Path(sys.executable).with_name("py-spy")),
        *("record", "--nonblocking", "--rate", "250", "--duration", str(max(1, int(seconds)))),
        *("--pid", str(pid), "--format", "raw", "--output", out),
        stdout=asyncio.subprocess.DEVNULL,
        stderr=asyncio.subprocess.DEVNULL,
    )


def warmup_seconds(args: argparse.Namespace) -> float:
    """Play before measuring: at least one think time (tables / rate), in which every player
    syncs and the tables make their first moves (bench/load.py spreads them over it)."""
    return float(args.warmup) if args.warmup is not None else max(2.0, args.tables / args.rate)


def report(target: Target) -> dict[str, float]:
    latencies = target.latencies or [float("nan")]
    moves = max(1, target.moves)
    inside: dict[str, float] = {"stall_ms": 0.0, "cpu_stall_ms": 0.0}
    inside |= {"gc_young_ms": 0.0, "gc_full_ms": 0.0}
    inside |= {"gc_full_n": 0, "gc_n": 0}
    for monitor in target.monitors:
        for key, value in loop_monitor.windows(monitor, target.spans).items():
            inside[key] = max(inside[key], value) if key.endswith("ms") else inside[key] + value
    result = {
        "moves_per_s": target.moves / target.measured_seconds,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "kib_per_table": target.memory_kib_per_table,
        "cpu_us_per_move": 1e6 * target.cpu_seconds / moves,
        "generator_cpu_us_per_move": 1e6 * target.generator_cpu / moves,
        "generator_lag_ms": 1000 * target.generator_lag,
        "gaps": target.gaps,
        **inside,
    }
    print(
        f"{target.name:>6}: {result['moves_per_s']:6.0f} moves/s  p50 {result['p50_ms']:6.2f} ms  "
        f"p99 {result['p99_ms']:6.1f} ms  cpu {result['cpu_us_per_move']:4.0f} us/move  "
        f"memory {result['kib_per_table']:5.1f} KiB/table  "
        f"({target.moves} moves in {target.measured_seconds:.0f} s, {target.tables} tables)\n"
        f"        loop: longest stall {result['stall_ms']:5.1f} ms "
        f"(its own work {result['cpu_stall_ms']:5.1f} ms of cpu); gc: {result['gc_n']:.0f} "
        f"collections, longest young {result['gc_young_ms']:4.1f} ms, "
        f"{result['gc_full_n']:.0f} full (longest {result['gc_full_ms']:5.1f} ms); "
        f"generators: cpu {result['generator_cpu_us_per_move']:4.0f} us/move, "
        f"longest lag {result['generator_lag_ms']:4.1f} ms; frames out of order: {target.gaps}",
        flush=True,
    )
    return result


def show_logs(folder: str) -> None:
    """The end of what the servers printed (after a failure)."""
    for log in sorted(Path(folder).glob("*.log")):
        lines = log.read_text(errors="replace").splitlines()
        print(f"--- {log.name} (last lines)", *lines[-20:], sep="\n", file=sys.stderr)


# -- the run --------------------------------------------------------------------------------------


async def start_server(
    generators: Generators,
    name: str,
    folder: str,
    args: argparse.Namespace,
    source: str | None = None,
) -> Target:
    """A `tictactoe serve` on SQLite with its tables and players (from the source tree `source`,
    e.g. an export of an older commit, instead of the installed one)."""
    port = free_port()
    base = f"http://127.0.0.1:{port}"
    monitor = f"{folder}/{name}.jsonl"
    environment = server_environment(args.tables)
    if source is not None:
        environment["PYTHONPATH"] = str(Path(source).resolve())
    server = spawn(
        watched_server(port, f"sqlite:///{folder}/{name}.db", monitor),
        environment,
        log=f"{folder}/{name}.log",
    )
    _started.append(server)
    wait_until_up(port, server)
    await warm_up(base)
    target = Target(name, [server.pid], [monitor], args.tables)
    sockets = [f"ws://127.0.0.1:{port}"]
    return await start_target(generators, target, "server", base, sockets, args.rate, args.variant)


_started: list[subprocess.Popen[bytes]] = []


async def main(args: argparse.Namespace) -> None:
    raise_file_limit()
    processes = _started
    generators = Generators(args.generators)
    with tempfile.TemporaryDirectory() as folder:
        try:
            await generators.start()
            targets = [await start_server(generators, "server", folder, args)]
            if args.baseline_src:
                targets.append(
                    await start_server(generators, "before", folder, args, args.baseline_src)
                )

            port = free_port()
            monitor = f"{folder}/relay.jsonl"
            command = [sys.executable, str(BENCH / "relay.py"), "--port", str(port)]
            relay = spawn([*command, "--monitor", monitor], log=f"{folder}/relay.log")
            processes.append(relay)
            wait_until_up(port, relay)
            await asyncio.sleep(0.5)
            relay_target = Target("relay", [relay.pid], [monitor], args.tables)
            targets.append(relay_target)
            await start_target(
                generators, relay_target, "relay", "", [f"ws://127.0.0.1:{port}"], args.rate
            )

            # Rounds rotate through the targets, so that the other work on a shared machine falls
            # on each alike.
            for round_number in range(1, args.rounds + 1):
                shift = round_number % len(targets)
                for target in targets[shift:] + targets[:shift]:
                    await play_round(
                        generators,
                        target,
                        round_number,
                        warmup_seconds(args),
                        args.seconds / args.rounds,
                        args.profile,
                    )
            results = {target.name: report(target) for target in targets}
            await generators.close()
        except BaseException:
            show_logs(folder)
            raise
        finally:
            for process in processes:
                stop(process)
            for generator in generators.processes:
                if generator.returncode is None:
                    generator.kill()

    relay_figures = results["relay"]
    for name in results.keys() - {"relay"}:
        figures = results[name]
        print(
            f" ratio: {name} / relay  p50 {figures['p50_ms'] / relay_figures['p50_ms']:.2f}  "
            f"p99 {figures['p99_ms'] / relay_figures['p99_ms']:.2f}  cpu per move "
            f"{figures['cpu_us_per_move'] / relay_figures['cpu_us_per_move']:.2f}",
            flush=True,
        )


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=600, help="moves/s offered by all tables")
    parser.add_argument("--seconds", type=float, default=20, help="measured time per target")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of server and relay")
    parser.add_argument(
        "--warmup",
        type=float,
        help="seconds played before measuring, each round (default: one think time, "
        "tables / rate, at least 2)",
    )
    parser.add_argument("--generators", type=int, default=4, help="load generator processes")
    parser.add_argument("--variant", default="ultimate", choices=["ultimate", "standard"])
    parser.add_argument(
        "--baseline-src",
        metavar="DIR",
        help="also load a server run from this source tree (e.g. `git archive` of an older "
        "commit's src/), in the same rounds: 'before'",
    )
    parser.add_argument(
        "--profile",
        metavar="DIR",
        help="sample each target's processes with py-spy while measured (raw stacks in DIR)",
    )
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_arguments()))
