"""Can one client stall the other tables? A bystander plays while an attacker abuses the site.

    uv run python bench/stall.py draws  [--seconds 60] [--rate 7] [--tables 60]
    uv run python bench/stall.py cookie [--seconds 20] [--cookie-kib 32]

Spawns `tictactoe serve` (SQLite in a temporary folder). First the bystander plays alone (the
baseline, `--baseline` seconds), then while the attacker:

- `draws`: one client (one address) keeps draw offers to the computer going at `--rate` a second
  over `--tables` tables of its own (Ultimate, where judging a draw is a real search). A repeated
  offer at a position already judged is answered from memory, so the attacker plays a move
  whenever it has offered at the position before: each of its offers costs a search. The
  bystander plays the computer (Ultimate, level medium) over a WebSocket and measures the
  computer's reply: from sending its move to the frame with the computer's.
- `cookie`: the attacker sends requests whose `Cookie` header is `--cookie-kib` KiB of a quoted
  value full of backslash escapes (quadratic for `http.cookies` on Python < 3.11.10), back to back.
  The bystander plays both sides of a one-device table over a WebSocket and measures each move's
  round trip.

Prints p50 / p99 / max of the bystander's figure, alone and under attack, and the attacker's counts.
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

sys.path.insert(0, str(Path(__file__).resolve().parent))

from processes import free_port, percentile, spawn, stop, wait_until_up


def spawn_server(port: int, folder: str) -> subprocess.Popen[bytes]:
    command = [sys.executable, "-m", "tictactoe.cli", "serve", "--port", str(port)]
    return spawn([*command, "--database", f"sqlite:///{folder}/stall.db"])


async def frame_at(ws: ClientConnection, version: int) -> None:
    """Waits for a frame of the table at `version` or later."""
    while True:
        message = json.loads(await ws.recv())
        if int(message.get("version") or message.get("table", {}).get("version") or 0) >= version:
            return


async def computer_replied(
    http: httpx.AsyncClient, ws: ClientConnection, table_id: str, version: int
) -> bool:
    """Waits for the computer's reply to a move sent at `version` (False: the move ended the game
    or was refused)."""
    while True:
        message = json.loads(await ws.recv())
        if message.get("type") == "error":
            return False
        seen = int(message.get("version") or message.get("table", {}).get("version") or 0)
        if seen >= version + 2:
            return True
        if seen == version + 1:
            table = (await http.get(f"/api/tables/{table_id}")).json()
            if table["result"] is not None:
                return False
            if table["version"] >= version + 2:
                return True


# -- the bystanders -------------------------------------------------------------------------------


async def bystander_at(
    http: httpx.AsyncClient,
    ws_base: str,
    until: float,
    table: dict[str, str],
    turn: Callable[[ClientConnection, dict[str, Any]], Awaitable[float | None]],
) -> list[float]:
    """Opens a table of these settings and, until `until`, takes its `turn` whenever the game
    goes on (a rematch once it is over); the times its turns took, in ms."""
    created = (await http.post("/api/tables", json=table)).json()
    table_id, token = created["id"], created["token"]
    times: list[float] = []
    async with connect(f"{ws_base}/api/tables/{table_id}/ws?token={token}") as ws:
        await ws.recv()
        while time.monotonic() < until:
            seen = (await http.get(f"/api/tables/{table_id}")).json()
            if seen["result"] is not None:
                await http.post(f"/api/tables/{table_id}/rematch", headers=_bearer(token))
                continue
            took = await turn(ws, seen)
            if took is not None:
                times.append(took)
    return times


async def computer_bystander(http: httpx.AsyncClient, ws_base: str, until: float) -> list[float]:
    """Plays the computer (Ultimate, medium); the computer's reply times in ms."""

    async def turn(ws: ClientConnection, table: dict[str, Any]) -> float | None:
        if not table["legal_moves"]:
            await asyncio.sleep(0.05)  # the computer moves first after a rematch
            return None
        started = time.perf_counter()
        move = table["legal_moves"][len(table["record"]) % len(table["legal_moves"])]
        await ws.send(json.dumps({"type": "move", "move": move}))
        if await computer_replied(http, ws, table["id"], table["version"]):
            return (time.perf_counter() - started) * 1000
        return None

    settings = {"variant": "ultimate", "opponent": "computer", "level": "medium"}
    return await bystander_at(http, ws_base, until, settings, turn)


async def one_device_bystander(http: httpx.AsyncClient, ws_base: str, until: float) -> list[float]:
    """Plays both sides of a one-device table; each move's round trip in ms."""

    async def turn(ws: ClientConnection, table: dict[str, Any]) -> float:
        started = time.perf_counter()
        await ws.send(json.dumps({"type": "move", "move": table["legal_moves"][0]}))
        await frame_at(ws, table["version"] + 1)
        took = (time.perf_counter() - started) * 1000
        await asyncio.sleep(0.05)
        return took

    settings = {"variant": "ultimate", "opponent": "here"}
    return await bystander_at(http, ws_base, until, settings, turn)


def _bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- the attackers --------------------------------------------------------------------------------


async def draw_flood(
    http: httpx.AsyncClient, args: argparse.Namespace, until: float
) -> dict[str, int]:
    """Draw offers at `args.rate` a second over `args.tables` tables against the computer."""
    seats = []
    for _ in range(args.tables):
        created = (
            await http.post(
                "/api/tables", json={"variant": "ultimate", "opponent": "computer", "level": "easy"}
            )
        ).json()
        seats.append((created["id"], created["token"], {"offered_at": -1}))
    counts = {"offers": 0, "moves": 0, "refused": 0, "skipped": 0}
    turn = 0
    while time.monotonic() < until:
        tick = time.monotonic()
        table_id, token, memory = seats[turn % len(seats)]
        turn += 1
        table = (await http.get(f"/api/tables/{table_id}")).json()
        if table["result"] is not None:
            await http.post(f"/api/tables/{table_id}/rematch", headers=_bearer(token))
            counts["skipped"] += 1
        elif not table["legal_moves"] or table.get("draw_offer") is not None:
            counts["skipped"] += 1  # the computer is thinking or judging
        elif memory["offered_at"] == len(table["record"]):
            answer = await http.post(
                f"/api/tables/{table_id}/moves",
                json={"move": table["legal_moves"][0]},
                headers=_bearer(token),
            )
            counts["moves" if answer.status_code == 200 else "refused"] += 1
        else:
            answer = await http.post(f"/api/tables/{table_id}/draw", headers=_bearer(token))
            memory["offered_at"] = len(table["record"])
            counts["offers" if answer.status_code == 200 else "refused"] += 1
        await asyncio.sleep(max(0.0, 1 / args.rate - (time.monotonic() - tick)))
    return counts


async def cookie_flood(base: str, args: argparse.Namespace, until: float) -> dict[str, int]:
    """Requests with a huge quoted cookie full of backslash escapes, one after another."""
    value = '"' + '\\"' * (args.cookie_kib * 1024 // 2 - 4) + '"'
    counts = {"requests": 0, "slowest_ms": 0}
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < until:
            started = time.perf_counter()
            await http.get("/healthz", headers={"Cookie": f"a={value}"})
            counts["requests"] += 1
            elapsed = round((time.perf_counter() - started) * 1000)
            counts["slowest_ms"] = max(counts["slowest_ms"], elapsed)
    return counts


async def warm_up_draws(http: httpx.AsyncClient) -> None:
    """One draw offer judged, so the judge's pool is running before anything is measured."""
    created = (
        await http.post("/api/tables", json={"variant": "ultimate", "opponent": "computer"})
    ).json()
    await http.post(f"/api/tables/{created['id']}/draw", headers=_bearer(created["token"]))
    for _ in range(600):
        table = (await http.get(f"/api/tables/{created['id']}")).json()
        if table.get("draw_offer") is None:
            return
        await asyncio.sleep(0.1)


def summary(name: str, values: list[float]) -> str:
    return (
        f"{name}: n {len(values)}  p50 {percentile(values, 0.5):.0f} ms  "
        f"p99 {percentile(values, 0.99):.0f} ms  max {max(values, default=float('nan')):.0f} ms"
    )


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = spawn_server(port, folder)
        try:
            wait_until_up(port, server)
            base, ws_base = f"http://127.0.0.1:{port}", f"ws://127.0.0.1:{port}"
            bystander = computer_bystander if args.scenario == "draws" else one_device_bystander
            async with httpx.AsyncClient(base_url=base, timeout=60) as http:
                # Warm-up: the computer's workers start and load their kernels (both pools: the
                # draw judge thinks beside analysis), once in the server's life.
                await bystander(http, ws_base, time.monotonic() + 3)
                if args.scenario == "draws":
                    await warm_up_draws(http)
                alone = await bystander(http, ws_base, time.monotonic() + args.baseline)
                print(summary("bystander alone", alone), flush=True)
                until = time.monotonic() + args.seconds
                if args.scenario == "draws":
                    attack: Any = draw_flood(http, args, until)
                else:
                    attack = cookie_flood(base, args, until)
                attacked, counts = await asyncio.gather(bystander(http, ws_base, until), attack)
                print(summary("bystander under attack", attacked))
                print(f"attacker ({args.scenario}): {counts}")
        finally:
            stop(server)


def parse_arguments() -> argparse.Namespace:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("scenario", choices=("draws", "cookie"))
    parser.add_argument("--seconds", type=float, default=60, help="how long the attack lasts")
    parser.add_argument("--baseline", type=float, default=15, help="the bystander alone first")
    parser.add_argument("--rate", type=float, default=7, help="draws: attacker actions a second")
    parser.add_argument("--tables", type=int, default=60, help="draws: the attacker's tables")
    parser.add_argument("--cookie-kib", type=int, default=32, help="cookie: the header's size")
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_arguments()))
