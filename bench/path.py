"""The path of one move, with nothing else to do: sequential moves at one table on an idle
`tictactoe serve` (SQLite), and the same number of messages through the bare relay.

    uv run python bench/path.py [--moves 400]

Prints, for each, the latency from a move sent to the opponent receiving it (p10/p50/p90). Under
load (bench/server.py) the same path is paid with queueing on top; here it is the floor.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import statistics
import sys
import tempfile
import time
from pathlib import Path
from typing import Any

from websockets.asyncio.client import ClientConnection, connect

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import load  # noqa: E402
from processes import free_port, spawn, stop, wait_until_up  # noqa: E402


async def next_frame(ws: ClientConnection, kinds: tuple[str, ...] = ("table", "moved")) -> Any:
    while True:
        frame = json.loads(await ws.recv())
        if frame["type"] in kinds:
            return frame


async def server_path(moves: int) -> list[float]:
    port, folder = free_port(), tempfile.mkdtemp()
    command = [str(Path(sys.executable).with_name("tictactoe")), "serve", "--port", str(port)]
    process = spawn([*command, "--database", f"sqlite:///{folder}/t.db"], log=f"{folder}/s.log")
    wait_until_up(port, process)
    latencies: list[float] = []
    try:
        while len(latencies) < moves:
            seats = await load.server_seats(f"http://127.0.0.1:{port}", 1, "ultimate")
            sockets = {}
            for table, mark, token in seats:
                url = f"ws://127.0.0.1:{port}/api/tables/{table}/ws?token={token}"
                sockets[mark] = await connect(url)
            x, o = sockets["x"], sockets["o"]
            await x.send('{"type":"sync"}')
            state = (await next_frame(x, ("table",)))["table"]
            while state["result"] is None and len(latencies) < moves:
                mover, opponent = (x, o) if state["turn"] == "x" else (o, x)
                move, version = state["legal_moves"][0], state["version"]
                body = {"type": "move", "move": move, "version": version}
                started = time.perf_counter()
                await mover.send(json.dumps(body))
                await next_frame(opponent)
                latencies.append(time.perf_counter() - started)
                await next_frame(mover)
                await opponent.send('{"type":"sync"}')
                state = (await next_frame(opponent, ("table",)))["table"]
                await asyncio.sleep(0.002)
            await x.close()
            await o.close()
    finally:
        stop(process)
    return latencies


async def relay_path(moves: int) -> list[float]:
    port, folder = free_port(), tempfile.mkdtemp()
    command = [sys.executable, str(BENCH / "relay.py"), "--port", str(port)]
    process = spawn([*command, "--monitor", f"{folder}/monitor"], log=f"{folder}/r.log")
    wait_until_up(port, process)
    latencies: list[float] = []
    try:
        a = await connect(f"ws://127.0.0.1:{port}/relay/1")
        b = await connect(f"ws://127.0.0.1:{port}/relay/1")
        await asyncio.sleep(0.2)
        for ply in range(1, moves + 1):
            body = {"type": "move", "move": "e5", "ply": ply, "by": "x", "round": 1}
            started = time.perf_counter()
            await a.send(json.dumps(body))
            await b.recv()
            latencies.append(time.perf_counter() - started)
            await a.recv()
            await asyncio.sleep(0.002)
    finally:
        stop(process)
    return latencies


def show(name: str, latencies: list[float]) -> float:
    ordered = sorted(latencies)
    p50 = statistics.median(ordered)
    print(
        f"{name:>6}: {len(ordered)} moves  p10 {1000 * ordered[len(ordered) // 10]:.3f} ms  "
        f"p50 {1000 * p50:.3f} ms  p90 {1000 * ordered[9 * len(ordered) // 10]:.3f} ms",
        flush=True,
    )
    return p50


async def main(moves: int) -> None:
    server = show("server", await server_path(moves))
    relay = show("relay", await relay_path(moves))
    print(f" ratio: server / relay  p50 {server / relay:.2f}")


if __name__ == "__main__":
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--moves", type=int, default=400)
    asyncio.run(main(parser.parse_args().moves))
