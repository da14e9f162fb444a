"""Load on one server process: N tables, two WebSocket players each, playing random legal moves.

    uv run python bench/server.py [--tables 1000] [--rate 600] [--seconds 20]

Spawns `tictactoe serve` (SQLite in a temporary folder) and, in the same run, a bare WebSocket
relay (no rules, no storage: each message is forwarded to both sockets of its room), and drives
both with the same players and the same pace, in alternating rounds so that whatever else runs on
a shared machine weighs on both alike. Prints moves/s, the latency from a move sent to the
opponent receiving it (p50/p99), the process's processor time per move (less sensitive to
other work on the machine than latency), the server's memory per table (RSS growth / tables,
with both sockets open), and the ratios to the relay. Players pace themselves (a random think
time per move) so that all tables together offer `--rate` moves/s: the figures are for a
sustained load, not a flood that only measures queueing.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import os
import random
import signal
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

# -- the bare relay (run in its own process with --relay-port) ----------------------------------


def run_relay(port: int) -> None:
    """A WebSocket relay on the same stack as the site (Starlette on uvicorn), nothing else."""
    import uvicorn
    from starlette.applications import Starlette
    from starlette.routing import WebSocketRoute
    from starlette.websockets import WebSocket, WebSocketDisconnect

    rooms: dict[str, set[WebSocket]] = {}

    async def relay(websocket: WebSocket) -> None:
        room = rooms.setdefault(websocket.path_params["room"], set())
        await websocket.accept()
        room.add(websocket)
        try:
            while True:
                text = await websocket.receive_text()
                for peer in list(room):
                    await peer.send_text(text)
        except WebSocketDisconnect:
            pass
        finally:
            room.discard(websocket)

    app = Starlette(routes=[WebSocketRoute("/relay/{room}", relay)])
    # The same WebSocket protocol as `tictactoe serve` (see serve_command.py).
    uvicorn.run(
        app,
        host="127.0.0.1",
        port=port,
        log_level="warning",
        ws_per_message_deflate=False,
        ws="websockets-sansio",
    )


# -- measuring ------------------------------------------------------------------------------------


@dataclass
class Figures:
    sent: dict[tuple[str, int, int], float] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    moves: int = 0
    measuring: bool = False
    tasks: set[asyncio.Future[None]] = field(default_factory=set)

    def later(self, coroutine: Any) -> None:
        """Runs a player's delayed action; cancelled when the run ends."""
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def moved(self, table: str, game: int, ply: int) -> None:
        self.sent[(table, game, ply)] = time.perf_counter()

    def seen_by_opponent(self, table: str, game: int, ply: int) -> None:
        started = self.sent.pop((table, game, ply), None)
        if started is not None and self.measuring:
            self.latencies.append(time.perf_counter() - started)
            self.moves += 1


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(fraction * len(ordered)))]


def cpu_seconds(pid: int) -> float:
    """The process's processor time so far (user + system), from /proc."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def rss_kib(pid: int) -> int:
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    raise RuntimeError("no VmRSS")


def free_port() -> int:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port: int = sock.getsockname()[1]
        return port


def wait_until_up(port: int, process: subprocess.Popen[bytes]) -> None:
    deadline = time.monotonic() + 60
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise SystemExit(f"the process for port {port} exited")
        try:
            with socket.create_connection(("127.0.0.1", port), timeout=1):
                return
        except OSError:
            time.sleep(0.2)
    raise SystemExit(f"port {port} did not come up")


# -- players --------------------------------------------------------------------------------------


class ServerPlayer:
    """Plays one seat through the site's WebSocket: a random legal move on its turn."""

    def __init__(self, table: str, mark: str, ws: ClientConnection, pace: float, figures: Figures):
        self.table, self.first_mark, self.ws, self.pace = table, mark, ws, pace
        self.figures = figures
        self.pending: tuple[int, int] | None = None  # (game, ply) we are about to play / played
        self.rematch_asked = 0  # the last game we asked a rematch after

    async def run(self, round_number: int) -> None:
        self.pending = None
        # Whatever arrived between rounds is stale: ask for the table as it is now.
        await self.ws.send('{"type":"sync"}')
        table: dict[str, Any] | None = None
        async for text in self.ws:
            message = json.loads(text)
            if message["type"] == "table":
                table = message["table"]
            elif message["type"] == "moved":
                # A move's small frame: applied to the table it follows, else ask for the table.
                if table is None or message["previous"] != table["version"]:
                    if table is None or message["version"] > table["version"]:
                        await self.ws.send('{"type":"sync"}')
                    continue
                table = {
                    **table,
                    **message["changes"],
                    "version": message["version"],
                    "moves": [*table["moves"], message["move"]],
                }
            else:
                continue
            game, ply = table["game"], len(table["moves"])
            # Marks swap at every rematch; the seat token follows the person.
            mark = self.first_mark if game % 2 else ("o" if self.first_mark == "x" else "x")
            if ply and table["turn"] == mark:
                # The opponent's move reached us.
                self.figures.seen_by_opponent(self.table, game, ply)
            if table["result"] is not None:
                if self.rematch_asked != game:
                    self.rematch_asked = game
                    self.figures.later(self.ask_rematch())
                continue
            if table["turn"] == mark and self.pending != (game, ply + 1):
                self.pending = (game, ply + 1)
                self.figures.later(self.move(table, game, ply + 1))

    async def ask_rematch(self) -> None:
        await asyncio.sleep(self.pace * random.uniform(0.5, 1.5))
        await self.ws.send('{"type":"rematch"}')

    async def move(self, table: dict[str, Any], game: int, ply: int) -> None:
        await asyncio.sleep(self.pace * random.uniform(0.5, 1.5))
        move = random.choice(table["legal_moves"])
        self.figures.moved(self.table, game, ply)
        body = {"type": "move", "move": move, "version": table["version"]}
        await self.ws.send(json.dumps(body))


class RelayPlayer:
    """Plays one seat through the relay: answers each opponent message with a move of its own."""

    def __init__(self, table: str, mark: str, ws: ClientConnection, pace: float, figures: Figures):
        self.table, self.mark, self.ws, self.pace, self.figures = table, mark, ws, pace, figures

    async def run(self, round_number: int) -> None:
        # Each round is a new game of its own: messages of earlier rounds are ignored.
        if self.mark == "x":
            self.figures.later(self.move(round_number, 1))
        async for text in self.ws:
            message = json.loads(text)
            if message["by"] != self.mark and message["round"] == round_number:
                self.figures.seen_by_opponent(self.table, round_number, message["ply"])
                self.figures.later(self.move(round_number, message["ply"] + 1))

    async def move(self, round_number: int, ply: int) -> None:
        await asyncio.sleep(self.pace * random.uniform(0.5, 1.5))
        self.figures.moved(self.table, round_number, ply)
        cell = f"{'abcdefghi'[random.randrange(9)]}{random.randrange(1, 10)}"
        body = {"type": "move", "move": cell, "ply": ply, "by": self.mark, "round": round_number}
        await self.ws.send(json.dumps(body))


# -- the runs -------------------------------------------------------------------------------------


async def gather_limited(coroutines: list[Any], limit: int) -> list[Any]:
    semaphore = asyncio.Semaphore(limit)

    async def one(coroutine: Any) -> Any:
        async with semaphore:
            return await coroutine

    return await asyncio.gather(*(one(c) for c in coroutines))


async def server_seats(base: str, tables: int, variant: str) -> list[tuple[str, str, str]]:
    """Creates the tables and takes both seats: (table id, mark, token) per player."""
    # Two browsers (two cookies): one creates every table, the other takes every free seat.
    # Idle connections are dropped before the server's 5 s keep-alive timeout closes them: a
    # request sent on one the server is closing at that moment fails (httpx.ReadError).
    limits = httpx.Limits(keepalive_expiry=2)
    async with (
        httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as host,
        httpx.AsyncClient(base_url=base, timeout=30, limits=limits) as guest,
    ):
        await host.get("/openapi.json")
        await guest.get("/openapi.json")

        async def one() -> list[tuple[str, str, str]]:
            created = (await host.post("/api/tables", json={"variant": variant})).json()
            joined = (await guest.post(f"/api/tables/{created['id']}/seats")).json()
            return [
                (created["id"], created["seat"], created["token"]),
                (created["id"], joined["seat"], joined["token"]),
            ]

        batches = await gather_limited([one() for _ in range(tables)], 20)
    return [seat for batch in batches for seat in batch]


@dataclass
class Target:
    """One server under load: its process, its players, and what was measured."""

    name: str
    pid: int
    players: list[ServerPlayer] | list[RelayPlayer]
    connections: list[ClientConnection]
    memory_kib_per_table: float
    figures: Figures = field(default_factory=Figures)
    measured_seconds: float = 0.0
    cpu_seconds: float = 0.0  # the process's processor time while measuring


async def connect_players(
    name: str,
    pid: int,
    sockets: list[tuple[str, str, str]],
    player_class: type[ServerPlayer] | type[RelayPlayer],
    rate: float,
    baseline_kib: int,
) -> Target:
    """Opens every player's socket, then takes the process's memory growth per table."""
    tables = len(sockets) // 2
    # Each table plays one move at a time; all tables together offer `rate` moves/s.
    pace = tables / rate
    connections = await gather_limited(
        [connect(url, max_size=2**20, ping_interval=None) for _, _, url in sockets], 50
    )
    target = Target(name, pid, [], connections, 0.0)
    target.players = [  # type: ignore[assignment]
        player_class(table, mark, ws, pace, target.figures)
        for (table, mark, _), ws in zip(sockets, connections, strict=True)
    ]
    await asyncio.sleep(1.0)
    target.memory_kib_per_table = (rss_kib(pid) - baseline_kib) / tables
    return target


async def play_round(target: Target, round_number: int, warmup: float, seconds: float) -> None:
    """All of a target's tables play for `warmup` + `seconds`; only the latter is measured."""
    figures = target.figures
    tasks = [asyncio.ensure_future(player.run(round_number)) for player in target.players]
    await asyncio.sleep(warmup)
    figures.measuring = True
    started, cpu_started = time.perf_counter(), cpu_seconds(target.pid)
    await asyncio.sleep(seconds)
    figures.measuring = False
    target.measured_seconds += time.perf_counter() - started
    target.cpu_seconds += cpu_seconds(target.pid) - cpu_started
    for task in [*tasks, *figures.tasks]:
        task.cancel()
    await asyncio.gather(*tasks, *figures.tasks, return_exceptions=True)
    figures.sent.clear()
    await asyncio.sleep(0.5)  # let moves in flight land before the other target plays


def report(target: Target) -> dict[str, float]:
    figures = target.figures
    latencies = figures.latencies or [float("nan")]
    result = {
        "moves_per_s": figures.moves / target.measured_seconds,
        "p50_ms": 1000 * statistics.median(latencies),
        "p99_ms": 1000 * percentile(latencies, 0.99),
        "kib_per_table": target.memory_kib_per_table,
        "cpu_us_per_move": 1e6 * target.cpu_seconds / max(1, figures.moves),
    }
    print(
        f"{target.name:>6}: {result['moves_per_s']:7.0f} moves/s  p50 {result['p50_ms']:6.2f} ms  "
        f"p99 {result['p99_ms']:6.1f} ms  cpu {result['cpu_us_per_move']:4.0f} us/move  "
        f"memory {result['kib_per_table']:5.1f} KiB/table "
        f"({figures.moves} moves in {target.measured_seconds:.0f} s, "
        f"{len(target.players) // 2} tables)",
        flush=True,
    )
    return result


def spawn(command: list[str]) -> subprocess.Popen[bytes]:
    return subprocess.Popen(
        command, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL, start_new_session=True
    )


def stop(process: subprocess.Popen[bytes]) -> None:
    if process.poll() is None:
        os.killpg(process.pid, signal.SIGTERM)
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            os.killpg(process.pid, signal.SIGKILL)
            process.wait()


async def warm_up(base: str, ws_base: str) -> None:
    """One game's worth of everything, so imports and caches are not counted as per-table memory."""
    seats = await server_seats(base, 2, "ultimate")
    for table, mark, token in seats:
        async with connect(f"{ws_base}/api/tables/{table}/ws?token={token}") as ws:
            await ws.recv()
            if mark == "x":
                await ws.send('{"type":"move","move":"e5"}')
                await ws.recv()


async def main(args: argparse.Namespace) -> None:
    processes: list[subprocess.Popen[bytes]] = []
    targets: list[Target] = []
    with tempfile.TemporaryDirectory() as folder:
        try:
            port = free_port()
            base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
            server = spawn(
                [
                    sys.executable,
                    "-m",
                    "tictactoe.cli",
                    "serve",
                    "--port",
                    str(port),
                    "--database",
                    f"sqlite:///{folder}/bench.db",
                ]
            )
            processes.append(server)
            wait_until_up(port, server)
            await warm_up(base, ws_base)
            baseline = rss_kib(server.pid)
            seats = await server_seats(base, args.tables, args.variant)
            sockets = [
                (table, mark, f"{ws_base}/api/tables/{table}/ws?token={token}")
                for table, mark, token in seats
            ]
            targets.append(
                await connect_players(
                    "server", server.pid, sockets, ServerPlayer, args.rate, baseline
                )
            )

            port = free_port()
            relay = spawn([sys.executable, __file__, "--relay-port", str(port)])
            processes.append(relay)
            wait_until_up(port, relay)
            await asyncio.sleep(0.5)
            baseline = rss_kib(relay.pid)
            sockets = [
                (f"t{i}", mark, f"ws://127.0.0.1:{port}/relay/t{i}")
                for i in range(args.tables)
                for mark in ("x", "o")
            ]
            targets.append(
                await connect_players("relay", relay.pid, sockets, RelayPlayer, args.rate, baseline)
            )

            # Rounds alternate between the two, so that the other work on a shared machine falls
            # on both alike.
            for round_number in range(1, args.rounds + 1):
                order = targets if round_number % 2 else targets[::-1]
                for target in order:
                    await play_round(target, round_number, args.warmup, args.seconds / args.rounds)
            results = {target.name: report(target) for target in targets}
            for target in targets:
                await asyncio.gather(
                    *(ws.close() for ws in target.connections), return_exceptions=True
                )
        finally:
            for process in processes:
                stop(process)

    server, relay = results["server"], results["relay"]
    print(
        f" ratio: server / relay  p50 {server['p50_ms'] / relay['p50_ms']:.2f}  "
        f"p99 {server['p99_ms'] / relay['p99_ms']:.2f}  "
        f"cpu per move {server['cpu_us_per_move'] / relay['cpu_us_per_move']:.2f}"
    )


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--tables", type=int, default=1000)
    parser.add_argument("--rate", type=float, default=600, help="moves/s offered by all tables")
    parser.add_argument("--seconds", type=float, default=20, help="measured time per target")
    parser.add_argument("--rounds", type=int, default=4, help="alternations of server and relay")
    parser.add_argument(
        "--warmup", type=float, default=2, help="seconds played before measuring, each round"
    )
    parser.add_argument("--variant", default="ultimate", choices=["ultimate", "standard"])
    parser.add_argument("--relay-port", type=int, help=argparse.SUPPRESS)
    return parser.parse_args()


if __name__ == "__main__":
    arguments = parse_arguments()
    if arguments.relay_port:
        run_relay(arguments.relay_port)
    else:
        asyncio.run(main(arguments))
