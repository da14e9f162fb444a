"""Can one client stall the other tables? A bystander plays while an attacker abuses the site.

    uv run python bench/stall.py draws  [--seconds 60] [--rate 7] [--tables 60]
    uv run python bench/stall.py cookie [--seconds 20] [--cookie-kib 32]

Spawns `tictactoe serve` (SQLite in a temporary folder). First the bystander plays alone (the
baseline, `--baseline` seconds), then while the attacker:

- `draws`: one client (one address) sends draw offers to the computer at `--rate` a second, on a
  fixed schedule (`DrawFlood`), over `--tables` tables of its own (Ultimate, where judging a draw
  is a real search). A repeated offer at a position already judged is answered from memory, so
  the attacker plays a move whenever it has offered at the position before: each of its offers
  costs a search. The bystander plays the computer (Ultimate, level medium) over a WebSocket and
  measures the computer's reply: from sending its move to the frame with the computer's. The
  computer's visible think time is `--least-think` (0: its reply is its search and any stall).
- `cookie`: the attacker sends requests whose `Cookie` header is `--cookie-kib` KiB of a quoted
  value full of backslash escapes (quadratic for `http.cookies` on Python < 3.11.10), back to back.
  The bystander plays both sides of a one-device table over a WebSocket and measures each move's
  round trip.

Prints p50 / p99 / max of the bystander's figure, alone and under attack, the server's longest
event-loop stall in each (bench/loop_monitor.py: wall-clock, and the loop thread's own processor
time, which is what the server's own work made every other table wait), and the attacker's counts
(draws: offers sent, and their answers by HTTP status: a 429 is the site's rate limit refusing).
"""

from __future__ import annotations

import argparse
import asyncio
import json
import subprocess
import sys
import tempfile
import time
from collections import Counter
from collections.abc import Awaitable, Callable
from pathlib import Path
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect

BENCH = Path(__file__).resolve().parent
sys.path.insert(0, str(BENCH))

import loop_monitor  # noqa: E402
from processes import free_port, percentile, spawn, stop, wait_until_up  # noqa: E402


def spawn_server(port: int, folder: str, least_think: float) -> subprocess.Popen[bytes]:
    """`tictactoe serve` with bench/loop_monitor.py watching its event loop (to `loop.jsonl`)."""
    command = [sys.executable, str(BENCH / "loop_monitor.py"), f"{folder}/loop.jsonl", "serve"]
    command += ["--port", str(port), "--database", f"sqlite:///{folder}/stall.db"]
    # The computer's visible think (0.6 s by default) would hide what a stall adds to its reply.
    return spawn(command, env={"TICTACTOE_COMPUTER_LEAST_THINK_SECONDS": str(least_think)})


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
            REFUSED_BYSTANDER[str(message.get("reason") or message.get("status"))] += 1
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

# The computer bystander's moves refused (by reason), and the computer's first moves of a game
# (ms, seen to within 50 ms polls): printed with each phase's figures, then cleared.
REFUSED_BYSTANDER: Counter[str] = Counter()
FIRST_MOVES: list[float] = []


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

    first_since: float | None = None  # since when the computer has been to move first

    async def turn(ws: ClientConnection, table: dict[str, Any]) -> float | None:
        nonlocal first_since
        if not table["legal_moves"]:
            first_since = first_since or time.perf_counter()
            await asyncio.sleep(0.05)  # the computer moves first after a rematch
            return None
        if first_since is not None:
            FIRST_MOVES.append((time.perf_counter() - first_since) * 1000)
            first_since = None
        started = time.perf_counter()
        move = table["legal_moves"][len(table["record"]) % len(table["legal_moves"])]
        await ws.send(json.dumps({"type": "move", "move": move}))
        replied = await computer_replied(http, ws, table["id"], table["version"])
        took = (time.perf_counter() - started) * 1000
        await asyncio.sleep(0.05)  # a brisk player, within the socket's message rate
        return took if replied else None

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


# Tables an offer looks at before it is sent anyway (each look is a GET: the flood is of offers).
LOOKS_PER_OFFER = 3


class DrawFlood:
    """One client's draw offers to the computer, sent on a fixed schedule (`rate` a second, each
    tick on time whatever the answers to earlier ones take: the send rate is the one asked for)
    over `tables` tables of its own. Each tick offers a draw at the first of its tables ready for
    one: its turn, no offer pending, the position not offered at before (an offer repeated at a
    position already judged costs no search, so at such a table it plays a move first); when
    every table's offer is still being judged, it offers again at one of them all the same."""

    def __init__(self, http: httpx.AsyncClient, rate: float, tables: int) -> None:
        self.http, self.rate, self.table_count = http, rate, tables
        self.seats: list[dict[str, Any]] = []
        self.next = 0
        self.counts: dict[str, int] = {
            "ticks": 0,
            "offers sent": 0,
            "moves": 0,
            "no table ready": 0,
        }
        self.answers: dict[str, int] = {}  # the offers' answers by status

    async def open_tables(self) -> None:
        for _ in range(self.table_count):
            body = {"variant": "ultimate", "opponent": "computer", "level": "easy"}
            created = (await self.http.post("/api/tables", json=body)).json()
            self.seats.append(
                {"id": created["id"], "token": created["token"], "offered_at": -1, "busy": False}
            )

    async def run(self, until: float) -> dict[str, Any]:
        started = time.monotonic()
        actions: set[asyncio.Task[None]] = set()
        tick = 0
        while (at := started + tick / self.rate) < until:
            await asyncio.sleep(max(0.0, at - time.monotonic()))
            action = asyncio.ensure_future(self.offer_somewhere())
            actions.add(action)
            action.add_done_callback(actions.discard)
            tick += 1
        await asyncio.gather(*actions)
        return {
            **self.counts,  # each tick of the schedule, all within the window, sent one offer
            "offers a second": round(self.counts["offers sent"] / (until - started), 2),
            "answers": self.answers,
        }

    async def offer_somewhere(self) -> None:
        self.counts["ticks"] += 1
        try:
            await self.offer_at_a_ready_table()
        except (httpx.HTTPError, ValueError):
            # A kept-alive connection the server closed as it was reused, or an answer that is
            # not the table (a 503 of the server's own, say): counted.
            self.counts["errors"] = self.counts.get("errors", 0) + 1

    async def offer_at_a_ready_table(self) -> None:
        for _ in range(min(LOOKS_PER_OFFER, len(self.seats))):
            seat = self.seats[self.next % len(self.seats)]
            self.next += 1
            if seat["busy"]:
                continue
            seat["busy"] = True
            try:
                if await self.offer_at(seat):
                    return
            finally:
                seat["busy"] = False
        # The tables looked at are all waiting for the computer: offer at the next one anyway
        # (the site refuses it, 409, if an offer is pending there; it is sent all the same: the
        # rate is the attacker's, not the judge's).
        self.counts["no table ready"] += 1
        seat = self.seats[self.next % len(self.seats)]
        self.next += 1
        await self.send_offer(seat)

    async def offer_at(self, seat: dict[str, Any]) -> bool:
        """Offers a draw at this table if it is ready for one (True: offered)."""
        table_id, headers = seat["id"], _bearer(seat["token"])
        table = (await self.http.get(f"/api/tables/{table_id}")).json()
        if table["result"] is not None:
            await self.http.post(f"/api/tables/{table_id}/rematch", headers=headers)
            return False
        if not table["legal_moves"] or table.get("draw_offer") is not None:
            return False  # the computer is thinking or judging
        if seat["offered_at"] == len(table["record"]):
            move = {"move": table["legal_moves"][0]}
            await self.http.post(f"/api/tables/{table_id}/moves", json=move, headers=headers)
            self.counts["moves"] += 1
            return False  # now the computer's turn: another table gets the offer
        seat["offered_at"] = len(table["record"])
        await self.send_offer(seat)
        return True

    async def send_offer(self, seat: dict[str, Any]) -> None:
        self.counts["offers sent"] += 1
        url = f"/api/tables/{seat['id']}/draw"
        answer = await self.http.post(url, headers=_bearer(seat["token"]))
        status = str(answer.status_code)
        self.answers[status] = self.answers.get(status, 0) + 1


# What httpx's request head holds besides the cookie's value (request line, Host, Accept, ...),
# rounded up: the head stays just within the server's 32 KB cap, so the cookie reaches the site.
HEAD_BESIDES_THE_COOKIE = 256


async def cookie_flood(base: str, args: argparse.Namespace, until: float) -> dict[str, Any]:
    """Requests whose `Cookie` header is a quoted value full of backslash escapes, as large as
    the head cap lets through (`--cookie-kib` KiB, less the rest of the head), back to back; the
    identity middleware reads the cookies of every request (`/healthz` included)."""
    size = args.cookie_kib * 1024 - HEAD_BESIDES_THE_COOKIE
    value = '"' + '\\"' * (size // 2 - 2) + '"'
    counts: dict[str, Any] = {"cookie bytes": len(value) + 2, "requests": 0, "slowest_ms": 0}
    statuses: Counter[int] = Counter()
    async with httpx.AsyncClient(base_url=base, timeout=60) as http:
        while time.monotonic() < until:
            started = time.perf_counter()
            answer = await http.get("/healthz", headers={"Cookie": f"a={value}"})
            statuses[answer.status_code] += 1
            counts["requests"] += 1
            elapsed = round((time.perf_counter() - started) * 1000)
            counts["slowest_ms"] = max(counts["slowest_ms"], elapsed)
    return {**counts, "statuses": dict(statuses)}


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


def bystander_extras() -> str:
    extras = (
        f"  {summary('computer first in a game', FIRST_MOVES)};"
        f" bystander's moves refused: {dict(REFUSED_BYSTANDER)}"
    )
    FIRST_MOVES.clear()
    REFUSED_BYSTANDER.clear()
    return extras


def loop_summary(folder: str, start: float, end: float) -> str:
    """The server's longest event-loop stall between `start` and `end`: in wall-clock time, and in
    the loop thread's own processor time (what the server's own work, such as parsing a request,
    kept every other table waiting, whatever else the machine runs)."""
    time.sleep(2 * loop_monitor.WINDOW)  # the monitor's last window is written
    figures = loop_monitor.windows(f"{folder}/loop.jsonl", [(start, end)])
    return (
        f"  server loop: longest stall {figures['stall_ms']:.0f} ms wall,"
        f" {figures['cpu_stall_ms']:.1f} ms of its own processor time"
    )


async def main(args: argparse.Namespace) -> None:
    with tempfile.TemporaryDirectory() as folder:
        port = free_port()
        server = spawn_server(port, folder, args.least_think)
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
                bystander_extras()  # the warm-up's figures are not counted
                alone_from = time.monotonic()
                alone = await bystander(http, ws_base, alone_from + args.baseline)
                print(summary("bystander alone", alone), flush=True)
                if args.scenario == "draws":
                    print(bystander_extras(), flush=True)
                print(loop_summary(folder, alone_from, time.monotonic()), flush=True)
                if args.scenario == "draws":
                    flood = DrawFlood(http, args.rate, args.tables)
                    await flood.open_tables()
                    until = time.monotonic() + args.seconds
                    attack: Any = flood.run(until)
                else:
                    until = time.monotonic() + args.seconds
                    attack = cookie_flood(base, args, until)
                attack_from = time.monotonic()
                attacked, counts = await asyncio.gather(bystander(http, ws_base, until), attack)
                print(summary("bystander under attack", attacked))
                if args.scenario == "draws":
                    print(bystander_extras())
                print(loop_summary(folder, attack_from, until))
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
    parser.add_argument(
        "--least-think", type=float, default=0, help="the computer's visible think time (s)"
    )
    return parser.parse_args()


if __name__ == "__main__":
    asyncio.run(main(parse_arguments()))
