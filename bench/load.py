"""A load generator process for bench/server.py: players of a share of the tables, driven by
commands on stdin (one JSON object a line), each answered by one JSON line on stdout.

    {"cmd": "setup", "target": NAME, "kind": "server"|"relay", "base": URL, "sockets": [URL, ...],
     "tables": N, "first": I, "rate": MOVES_PER_S, "variant": V}      → {"ok": true}
    {"cmd": "round", "target": NAME, "round": R, "measure": [START, END], "stop": T}
        → {"moves": n, "latencies": [s, ...], "lag": longest lateness of this loop (s), "cpu": s,
           "gaps": moved frames that did not follow the table held}
    {"cmd": "acknowledged", "target": NAME}  → {table id: [game, plies]}: the newest state of
        each table its players were sent (what the server acknowledged as committed)
    {"cmd": "close"}                                                   → {"ok": true}, and exits

Both seats of a table are played here, so a move's latency (sent → the opponent receiving it)
is timed on one clock. Several of these processes share the tables, so that the generator is
not what limits the server: each reports how late its own loop ran while measuring.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import random
import resource
import sys
import time
from dataclasses import dataclass, field
from typing import Any

import httpx
from websockets.asyncio.client import ClientConnection, connect
from websockets.exceptions import ConnectionClosed, InvalidHandshake

from tictactoe.server.ops.garbage import collect_young_by_time, tune_garbage_collector


@dataclass
class Figures:
    sent: dict[tuple[int, int, int], float] = field(default_factory=dict)
    latencies: list[float] = field(default_factory=list)
    measure: tuple[float, float] = (0.0, 0.0)
    tasks: set[asyncio.Future[None]] = field(default_factory=set)
    # `moved` frames that did not follow the table a player held: a frame missed or out of order
    # (the player then asks for the whole table), while measuring.
    gaps: int = 0
    # The newest (game, plies) each table's players were sent: committed, as far as they know.
    acknowledged: dict[str, tuple[int, int]] = field(default_factory=dict)

    def later(self, coroutine: Any) -> None:
        """Runs a player's delayed action; cancelled when the round ends."""
        task = asyncio.ensure_future(coroutine)
        self.tasks.add(task)
        task.add_done_callback(self.tasks.discard)

    def measuring(self) -> bool:
        return self.measure[0] <= time.monotonic() < self.measure[1]

    def moved(self, table: int, game: int, ply: int) -> None:
        self.sent[(table, game, ply)] = time.monotonic()

    def seen_by_opponent(self, table: int, game: int, ply: int) -> None:
        started = self.sent.pop((table, game, ply), None)
        if started is not None and self.measure[0] <= started < self.measure[1]:
            self.latencies.append(time.monotonic() - started)


class ServerPlayer:
    """Plays one seat through the site's WebSocket: a random legal move on its turn.

    It keeps the table it was last sent from round to round: the frames sent meanwhile wait in
    its socket and are read, in order, when the next round starts (the table's frame sent when
    the socket opened is the first). It asks for the whole table (`sync`) only when a frame
    does not follow the one it holds: no round starts with every table's state asked for at once,
    a storm no real evening of players makes."""

    def __init__(self, table: int, mark: str, ws: ClientConnection, pace: float, figures: Figures):
        self.table, self.first_mark, self.ws, self.pace = table, mark, ws, pace
        self.figures = figures
        self.state: dict[str, Any] | None = None  # the table as last sent
        self.pending: tuple[int, int] | None = None  # (game, ply) we are about to play / played
        self.rematch_asked = 0  # the last game we asked a rematch after
        self.fresh = True  # the round's first move: drawn over one think time, as players' are

    async def run(self, round_number: int) -> None:
        self.fresh = True
        if self.state is not None:
            self.act()
        async for text in self.ws:
            message = json.loads(text)
            table = self.state
            if message["type"] == "table":
                table = message["table"]
            elif message["type"] == "moved":
                # A move's small frame: applied to the table it follows, else ask for the table.
                if table is None or message["previous"] != table["version"]:
                    if table is not None and self.figures.measuring():
                        self.figures.gaps += 1
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
            assert table is not None
            self.state = table
            game, ply = table["game"], len(table["moves"])
            known = self.figures.acknowledged
            known[table["id"]] = max(known.get(table["id"], (0, 0)), (game, ply))
            if ply and table["turn"] == self.mark(game):
                self.figures.seen_by_opponent(self.table, game, ply)  # the opponent's move
            self.act()

    def mark(self, game: int) -> str:
        """Marks swap at every rematch; the seat token follows the person."""
        return self.first_mark if game % 2 else ("o" if self.first_mark == "x" else "x")

    def act(self) -> None:
        """Plays (after a think) if it is our turn, or asks for a rematch once a game is over."""
        table = self.state
        assert table is not None
        game, ply = table["game"], len(table["moves"])
        if table["result"] is not None:
            if self.rematch_asked != game:
                self.rematch_asked = game
                self.figures.later(self.ask_rematch())
        elif table["turn"] == self.mark(game) and self.pending != (game, ply + 1):
            self.pending = (game, ply + 1)
            self.figures.later(self.move(table, game, ply + 1))

    def think(self) -> float:
        fresh, self.fresh = self.fresh, False
        return (
            self.pace * random.uniform(0.0, 1.0) if fresh else self.pace * random.uniform(0.5, 1.5)
        )

    async def ask_rematch(self) -> None:
        try:
            await asyncio.sleep(self.think())
        except asyncio.CancelledError:
            self.rematch_asked = 0  # not asked: the next round asks
            raise
        await self._send('{"type":"rematch"}')

    async def move(self, table: dict[str, Any], game: int, ply: int) -> None:
        try:
            await asyncio.sleep(self.think())
        except asyncio.CancelledError:
            self.pending = None  # not played: the next round plays it
            raise
        move = random.choice(table["legal_moves"])
        self.figures.moved(self.table, game, ply)
        body = {"type": "move", "move": move, "version": table["version"]}
        await self._send(json.dumps(body))

    async def _send(self, text: str) -> None:
        """Sends unless the socket is gone (its server process killed, bench/scale.py
        `--kill-one`): that player simply stops, where the error would only be printed."""
        with contextlib.suppress(ConnectionClosed):
            await self.ws.send(text)


class RelayPlayer:
    """Plays one seat through the relay: answers each opponent message with a move of its own."""

    def __init__(self, table: int, mark: str, ws: ClientConnection, pace: float, figures: Figures):
        self.table, self.mark, self.ws, self.pace, self.figures = table, mark, ws, pace, figures

    async def run(self, round_number: int) -> None:
        # Each round is a new game of its own: messages of earlier rounds are ignored.
        if self.mark == "x":
            self.figures.later(self.move(round_number, 1, self.pace * random.uniform(0.0, 1.0)))
        async for text in self.ws:
            message = json.loads(text)
            if message["by"] != self.mark and message["round"] == round_number:
                self.figures.seen_by_opponent(self.table, round_number, message["ply"])
                think = self.pace * random.uniform(0.5, 1.5)
                self.figures.later(self.move(round_number, message["ply"] + 1, think))

    async def move(self, round_number: int, ply: int, think: float) -> None:
        await asyncio.sleep(think)
        self.figures.moved(self.table, round_number, ply)
        cell = f"{'abcdefghi'[random.randrange(9)]}{random.randrange(1, 10)}"
        body = {"type": "move", "move": cell, "ply": ply, "by": self.mark, "round": round_number}
        await self.ws.send(json.dumps(body))


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
        httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as host,
        httpx.AsyncClient(base_url=base, timeout=60, limits=limits) as guest,
    ):
        await host.get("/openapi.json")
        await guest.get("/openapi.json")

        async def one() -> list[tuple[str, str, str]]:
            for attempt in range(10):
                try:
                    answer = await host.post("/api/tables", json={"variant": variant})
                    answer.raise_for_status()
                    created = answer.json()
                    answer = await guest.post(f"/api/tables/{created['id']}/seats")
                    answer.raise_for_status()
                    joined = answer.json()
                except (httpx.TransportError, httpx.HTTPStatusError) as error:
                    # A server this busy may drop a kept-alive connection, or refuse for a while.
                    text = (
                        error.response.text[:200]
                        if isinstance(error, httpx.HTTPStatusError)
                        else ""
                    )
                    print(f"retrying a table ({error!r} {text})", file=sys.stderr, flush=True)
                    await asyncio.sleep(0.5 * (attempt + 1))
                    continue
                return [
                    (created["id"], created["seat"], created["token"]),
                    (created["id"], joined["seat"], joined["token"]),
                ]
            raise SystemExit("could not create a table ten times over")

        batches = await gather_limited([one() for _ in range(tables)], 10)
    return [seat for batch in batches for seat in batch]


async def open_socket(url: str) -> ClientConnection:
    for attempt in range(10):
        try:
            return await connect(url, max_size=2**20, ping_interval=None, open_timeout=120)
        except (OSError, EOFError, InvalidHandshake) as error:
            print(f"retrying a socket ({error!r})", file=sys.stderr, flush=True)
            await asyncio.sleep(0.5 * (attempt + 1))
    raise SystemExit(f"could not open {url} ten times over")


@dataclass
class Target:
    players: list[ServerPlayer] | list[RelayPlayer]
    connections: list[ClientConnection]
    figures: Figures


async def setup(command: dict[str, Any]) -> Target:
    tables, first, sockets = command["tables"], command["first"], command["sockets"]
    chooser = random.Random(first)
    if command["kind"] == "server":
        seats = await server_seats(command["base"], tables, command["variant"])
        urls = [
            f"{chooser.choice(sockets)}/api/tables/{table}/ws?token={token}"
            for table, _, token in seats
        ]
        marks = [mark for _, mark, _ in seats]
        player_class: type[ServerPlayer] | type[RelayPlayer] = ServerPlayer
    else:
        numbers = range(first, first + tables)
        urls = [f"{chooser.choice(sockets)}/relay/t{i}" for i in numbers for _ in "xo"]
        marks = ["x", "o"] * tables
        player_class = RelayPlayer
    connections = await gather_limited([open_socket(url) for url in urls], 25)
    figures = Figures()
    pace = tables / command["rate"]  # each table one move at a time: all together `rate` moves/s
    players = [
        player_class(first + index // 2, mark, ws, pace, figures)
        for index, (mark, ws) in enumerate(zip(marks, connections, strict=True))
    ]
    return Target(players, connections, figures)  # type: ignore[arg-type]


async def lag_monitor(lag: list[float]) -> None:
    while True:
        expected = time.monotonic() + 0.005
        await asyncio.sleep(0.005)
        lag[0] = max(lag[0], time.monotonic() - expected)


async def play_round(target: Target, command: dict[str, Any]) -> dict[str, Any]:
    """Plays until `stop`; latencies of moves sent within `measure` are kept."""
    figures = target.figures
    figures.latencies, figures.measure = [], tuple(command["measure"])  # type: ignore[assignment]
    figures.gaps = 0
    tasks = [asyncio.ensure_future(player.run(command["round"])) for player in target.players]
    await asyncio.sleep(max(0.0, command["measure"][0] - time.monotonic()))
    lag = [0.0]
    watching = asyncio.ensure_future(lag_monitor(lag))
    cpu = time.process_time()
    await asyncio.sleep(max(0.0, command["measure"][1] - time.monotonic()))
    cpu = time.process_time() - cpu
    watching.cancel()
    await asyncio.sleep(max(0.0, command["stop"] - time.monotonic()))
    for task in [*tasks, *figures.tasks]:
        task.cancel()
    await asyncio.gather(*tasks, *figures.tasks, return_exceptions=True)
    figures.sent.clear()
    return {
        "moves": len(figures.latencies),
        "latencies": figures.latencies,
        "lag": lag[0],
        "cpu": cpu,
        "gaps": figures.gaps,
    }


async def main() -> None:
    # Collected as the server is (tictactoe.server.ops.garbage): with thousands of sockets, the
    # default thresholds gave full collections that stopped a generator for seconds, and the
    # moves it then sent at once were a burst no real evening of players makes.
    tune_garbage_collector()
    young = asyncio.ensure_future(collect_young_by_time())
    try:
        await serve_commands()
    finally:
        young.cancel()


async def serve_commands() -> None:
    loop = asyncio.get_running_loop()
    reader = asyncio.StreamReader(limit=2**26)
    await loop.connect_read_pipe(lambda: asyncio.StreamReaderProtocol(reader), sys.stdin)
    targets: dict[str, Target] = {}
    while line := await reader.readline():
        command = json.loads(line)
        if command["cmd"] == "setup":
            targets[command["target"]] = await setup(command)
            answer: dict[str, Any] = {"ok": True}
        elif command["cmd"] == "round":
            answer = await play_round(targets[command["target"]], command)
        elif command["cmd"] == "acknowledged":
            answer = targets[command["target"]].figures.acknowledged
        else:
            for target in targets.values():
                await asyncio.gather(
                    *(ws.close() for ws in target.connections), return_exceptions=True
                )
            print(json.dumps({"ok": True}), flush=True)
            return
        print(json.dumps(answer), flush=True)


if __name__ == "__main__":
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    asyncio.run(main())
