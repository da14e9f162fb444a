"""A hostile sweep of a running `tictactoe serve` (issue 13): many bad inputs over HTTP, raw
sockets and the WebSocket, then `kill -9` cycles in the middle of play. Prints what it tried and
found: bad inputs tried, 5xx answers, tracebacks in the server's log, and moves lost or
duplicated across the kills (each target 0).

    uv run python bench/hostile.py [--seed 13] [--random 400] [--kills 5]
"""

from __future__ import annotations

import argparse
import contextlib
import json
import os
import random
import signal
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import connect

from tictactoe import new_game
from tictactoe.server.ops.json_input import read_json
from tictactoe.server.settings import Settings

SURROGATE = '"\\ud800"'
DEEP = "[" * 2000 + "]" * 2000
MAX_MESSAGE_BYTES = Settings().max_message_bytes


class Server:
    """`tictactoe serve` on a free port with an SQLite file, its log kept for the count."""

    def __init__(self, folder: Path, env: dict[str, str]) -> None:
        self.database = f"sqlite:///{folder / 'tables.db'}"
        self.log = folder / "serve.log"
        self.env = env
        self.port = free_port()
        self.process: subprocess.Popen[bytes] | None = None

    @property
    def base(self) -> str:
        return f"http://127.0.0.1:{self.port}"

    def start(self) -> None:
        command = [sys.executable, "-m", "tictactoe.cli", "serve", "--port", str(self.port)]
        with self.log.open("ab") as log:
            self.process = subprocess.Popen(
                [*command, "--database", self.database],
                env={**os.environ, **self.env},
                stdout=log,
                stderr=subprocess.STDOUT,
                start_new_session=True,
            )
        deadline = time.monotonic() + 60
        while time.monotonic() < deadline:
            with contextlib.suppress(httpx.TransportError):
                if httpx.get(f"{self.base}/healthz", timeout=2).status_code == 200:
                    return
            time.sleep(0.1)
        raise RuntimeError("the server did not start")

    def kill(self) -> None:
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGKILL)
            self.process.wait()
            self.process = None

    def stop(self) -> None:
        if self.process is not None:
            os.killpg(self.process.pid, signal.SIGTERM)
            self.process.wait(20)
            self.process = None


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


class Tally:
    def __init__(self) -> None:
        self.tried = 0
        self.server_errors: list[str] = []
        self.dropped: list[str] = []  # sockets closed or left unanswered by a bad message

    def http(self, answer: httpx.Response | None, what: str) -> None:
        self.tried += 1
        self.check(answer, what)

    def check(self, answer: httpx.Response | None, what: str) -> None:
        if answer is not None and answer.status_code >= 500 and answer.status_code != 503:
            self.server_errors.append(f"{what}: {answer.status_code} {answer.text[:80]}")

    def frame(self, frame: dict[str, Any], what: str) -> None:
        status = frame.get("status", 0)
        if frame.get("type") == "error" and status >= 500 and status != 503:
            self.server_errors.append(f"{what}: {frame}")


def new_table(base: str, **options: Any) -> dict[str, Any]:
    body = {"variant": "ultimate", "first": "me", **options}
    created: dict[str, Any] = httpx.post(f"{base}/api/tables", json=body, timeout=30).json()
    return created


def http_probes(base: str, table: dict[str, Any]) -> Iterator[tuple[str, str, dict[str, Any]]]:
    """(method, path, httpx keyword arguments) of every bad HTTP input."""
    t = f"/api/tables/{table['id']}"
    auth = {"Authorization": f"Bearer {table['token']}", "Content-Type": "application/json"}
    json_paths = [
        "/api/tables",
        f"{t}/moves",
        f"{t}/reactions",
        f"{t}/draw",
        "/api/positions",
        "/api/positions/evaluation",
        "/api/quick",
    ]
    bodies = [
        '{"variant": @}',
        '{"move": @}',
        "{@: 1}",
        '{"reaction": @, "move": [@]}',
        DEEP,
        '{"a":' * 900 + "1" + "}" * 900,
        "\xff\xfe{",
        '{"variant": "ultimate", "position": "' + "x" * 500 + '"}',
        "NaN",
        "[1e999999]",
        '{"move": "e5", "version": 99999999999999999999999999}',
        "",
        "null",
    ]
    for path in json_paths:
        for body in bodies:
            content = body.replace("@", SURROGATE).encode("utf-8", "surrogatepass")
            yield "POST", path, {"content": content, "headers": auth}
    yield "PUT", f"{t}/name", {"content": b'{"name": ' + SURROGATE.encode() + b"}", "headers": auth}
    for name in ("<script>", "\u202e", "a" * 500, "\x00", ""):
        yield "PUT", f"{t}/name", {"json": {"name": name}, "headers": auth}
    for path in (
        "/static/%00",
        "/static/a%00b.css",
        "/static/..%2f..%2fpyproject.toml",
        "/static/%2e%2e/app.py",
        "/static/" + "a" * 5000,
        "/t/%00",
        "/t/" + "%ff" * 100,
        "/api/tables/%00",
        "/api/tables/" + "a" * 5000,
        "/j/%00",
        "/j/" + "x" * 3000,
        "/t/x/qr.svg",
        "/api/tables/x/games/99999999999999999999/analysis",
        "/api/tables/x/games/-1",
        "/api/my-games",
        "/?variant=%00&size=999999999999999&line=-1",
    ):
        yield "GET", path, {}
    for token in ("", "A" * 5000, "\u00e9" * 40, "x" * 43, table["token"][:-1] + "A"):
        headers = {"Authorization": f"Bearer {token}".encode().decode("latin-1")}
        yield "POST", f"{t}/moves", {"json": {"move": "e5"}, "headers": headers}
    evil = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}
    for path in ("/healthz", "/api/tables", "/tables", f"{t}/seats", f"/t/{table['id']}/seats"):
        yield "POST", path, {"headers": evil, "data": {"variant": "ultimate"}}
    yield "POST", "/api/tables", {"content": b"x" * 100_000}
    yield "POST", "/api/tables", {"content": b"{}", "headers": {"Content-Length": "-1"}}
    yield "GET", "/", {"headers": {"Host": "evil.example\r\nX: y"}}
    yield "GET", "/", {"headers": {"Cookie": "ttt_client=" + "\udc80" * 0 + "%00" * 100}}
    for method in ("DELETE", "PATCH", "OPTIONS", "TRACE"):
        yield method, f"{t}/moves", {"headers": auth}


def random_json(rng: random.Random, depth: int = 0) -> Any:
    kind = rng.randrange(7 if depth < 4 else 4)
    if kind == 0:
        return rng.choice([None, True, False, 0, -1, 2**70, 1.5, float("inf")])
    if kind == 1:
        return "".join(chr(rng.randrange(0x20, 0x2FFF)) for _ in range(rng.randrange(12)))
    if kind == 2:
        return rng.choice(["e5", "a1", "i9", "z0", "", "move", "\u006dove", "j10"])
    if kind == 3:
        return rng.randrange(-5, 100)
    if kind == 4:
        return [random_json(rng, depth + 1) for _ in range(rng.randrange(4))]
    keys = ["type", "move", "version", "token", "reaction", "name", "side", "variant", "x"]
    return {rng.choice(keys): random_json(rng, depth + 1) for _ in range(rng.randrange(5))}


def socket_probes(rng: random.Random, count: int) -> list[str]:
    fixed = [
        DEEP,
        '{"type": "move", "move": ' + DEEP + "}",
        '{"type": "auth", "token": ' + SURROGATE + "}",
        '{"type": ' + SURROGATE + "}",
        '{"type": "\\u006dove", "\\u006dove": "e5"}',
        '{"type": "name", "name": ' + SURROGATE + "}",
        '{"type": "ping", "padding": "' + "\u20ac" * 2000 + '"}',
        "not json",
        "{}",
        "[]",
        '{"type": "sync", "version": "x"}',
        '{"type": "auth", "token": "' + "A" * 3000 + '"}',
    ]
    made = []
    for _ in range(count):
        value = random_json(rng)
        if isinstance(value, dict) and rng.random() < 0.7:
            value["type"] = rng.choice(
                ["move", "auth", "sync", "react", "name", "draw", "takeback", "x", "ping"]
            )
        made.append(json.dumps(value))
    return fixed + made


def is_ping(text: str) -> bool:
    """Whether the server reads `text` as a ping (and so answers it with a pong of its own)."""
    if len(text.encode("utf-8", "surrogatepass")) > MAX_MESSAGE_BYTES:
        return False
    try:
        message = read_json(text)
    except ValueError:
        return False
    return isinstance(message, dict) and message.get("type") == "ping"


def raw_probes(server: Server, tally: Tally) -> None:
    """Oversized and unfinished headers, straight on a socket."""
    for head in (
        b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: " + b"a" * (1 << 20) + b"\r\n\r\n",
        b"GET /healthz HTTP/1.1\r\n" + b"X-A: b\r\n" * 5000 + b"\r\n",
        b"GARBAGE\r\n\r\n",
        b"GET / HTTP/1.1\r\nHost: x\r\nContent-Length: 5\r\nTransfer-Encoding: chunked\r\n\r\n",
    ):
        tally.tried += 1
        with socket.create_connection(("127.0.0.1", server.port), timeout=15) as connection:
            answer = b""
            with contextlib.suppress(OSError):
                connection.sendall(head)
                answer = connection.recv(64)
            if answer.startswith(b"HTTP/1.1 5"):
                tally.server_errors.append(f"raw {head[:30]!r}: {answer!r}")


def sweep(server: Server, tally: Tally, rng: random.Random, random_count: int) -> None:
    base = server.base
    table = new_table(base)
    with httpx.Client(base_url=base, timeout=30) as client:
        for method, path, options in http_probes(base, table):
            try:
                answer = client.request(method, path, **options)
            except (httpx.TransportError, UnicodeEncodeError, ValueError):
                tally.http(None, path)
                continue
            tally.http(answer, f"{method} {path[:60]}")
        for _ in range(random_count):
            body = json.dumps(random_json(rng))
            path = rng.choice(["/api/tables", f"/api/tables/{table['id']}/moves", "/api/positions"])
            headers = {"Authorization": f"Bearer {table['token']}"}
            answer = client.post(path, content=body, headers=headers)
            tally.http(answer, f"POST {path} {body[:40]}")
    raw_probes(server, tally)
    url = f"ws://127.0.0.1:{server.port}/api/tables/{table['id']}/ws?token={table['token']}"
    probes = socket_probes(rng, random_count)
    ws = connect(url, max_size=None, max_queue=None)
    try:
        json.loads(ws.recv(timeout=10))
        for text in probes:
            tally.tried += 1
            try:
                ws.send(text)
                ws.send('{"type": "ping"}')
                # Read up to our ping's pong, and no further: a probe that is itself a ping
                # has a pong of its own. Out of step, the unread frames pile up past the
                # client's queue, and closing then hangs (websockets 14.1's sync client:
                # python-websockets/websockets#1555; hence also no queue limit here).
                pongs = 1 + is_ping(text)
                while pongs:
                    frame = json.loads(ws.recv(timeout=10))
                    if frame["type"] == "pong":
                        pongs -= 1
                    else:
                        tally.frame(frame, text[:40])
            except (ConnectionClosed, TimeoutError) as error:
                # A bad message must be refused with an error frame, never end the socket (or
                # leave it unanswered): count it, and go on with a new socket.
                tally.dropped.append(f"{text[:40]!r}: {error!r}")
                ws.close()
                ws = connect(url, max_size=None, max_queue=None)
                json.loads(ws.recv(timeout=10))
    finally:
        ws.close()
    with connect(url, max_queue=None) as ws:  # the socket survived all that, and so did the server
        json.loads(ws.recv(timeout=10))


class Player:
    """One thread's table: it plays both seats of a friend game, one move at a time, and keeps
    what the server acknowledged, and the move it had sent when the connection broke."""

    def __init__(self, base: str, tally: Tally) -> None:
        self.base, self.tally = base, tally
        self.acknowledged: dict[str, list[str]] = {}  # table id → moves answered 200
        self.in_flight: dict[str, str] = {}  # table id → the move sent when the server died
        self.table_id = ""
        self.tokens: dict[str, str] = {}
        self.game = new_game("ultimate")
        self.cut_off = self.landed = 0  # moves in flight at a kill, and those stored anyway

    def new_table(self, client: httpx.Client) -> None:
        body = {"variant": "ultimate", "opponent": "friend"}
        created = client.post("/api/tables", json=body).raise_for_status().json()
        # The other seat from another client: this one's cookie already holds a seat here.
        seat = f"{self.base}/api/tables/{created['id']}/seats"
        joined = httpx.post(seat, timeout=10).raise_for_status().json()
        self.table_id = created["id"]
        self.tokens = {"x": created["token"], "o": joined["token"]}
        self.acknowledged[self.table_id], self.game = [], new_game("ultimate")

    def play(self, rng: random.Random) -> None:
        """Plays until the server goes away (the kill)."""
        with httpx.Client(base_url=self.base, timeout=10) as client:
            try:
                if not self.table_id or self.game.result is not None:
                    self.new_table(client)
                while True:
                    move = rng.choice(self.game.legal_moves())
                    self.in_flight[self.table_id] = move
                    answer = client.post(
                        f"/api/tables/{self.table_id}/moves",
                        json={"move": move, "version": None},
                        headers={"Authorization": f"Bearer {self.tokens[self.game.turn]}"},
                    )
                    del self.in_flight[self.table_id]
                    self.tally.check(answer, "POST moves (kill cycles)")
                    if answer.status_code == 200:
                        self.acknowledged[self.table_id].append(move)
                        self.game = self.game.play(move)
                        if self.game.result is not None:
                            self.new_table(client)
            except httpx.TransportError:
                return

    def reconcile(self, client: httpx.Client) -> tuple[int, int]:
        """Compares each table's stored moves with the acknowledged ones after a restart: a move
        in flight at the kill may or may not have landed; any other difference is a move lost
        or duplicated. The player goes on from what was stored."""
        lost = duplicated = 0
        for table_id, moves in self.acknowledged.items():
            stored = client.get(f"/api/tables/{table_id}").json()["moves"]
            maybe = self.in_flight.pop(table_id, None)
            self.cut_off += maybe is not None
            if maybe is not None and stored == [*moves, maybe]:
                self.landed += 1
                moves.append(maybe)
                if table_id == self.table_id:
                    self.game = self.game.play(maybe)
            lost += sum(1 for a, b in zip(moves, stored, strict=False) if a != b)
            lost += max(0, len(moves) - len(stored))
            duplicated += max(0, len(stored) - len(moves))
            self.acknowledged[table_id] = list(stored)
            if table_id == self.table_id and stored != moves:  # counted; go on from the truth
                self.game = new_game("ultimate")
                for move in stored:
                    self.game = self.game.play(move)
        return lost, duplicated


def kill_cycles(server: Server, tally: Tally, rng: random.Random, cycles: int) -> tuple[int, ...]:
    """Plays at six tables at once, kills the server with SIGKILL while their moves are in
    flight, restarts it, and compares what each table stored with the moves the server
    acknowledged. Finished games are replaced by new tables, so every kill lands mid-game."""
    players = [Player(server.base, tally) for _ in range(6)]
    lost = duplicated = 0
    for _cycle in range(cycles):
        seeds = [rng.randrange(2**32) for _ in players]
        threads = [
            threading.Thread(target=player.play, args=(random.Random(seed),))
            for player, seed in zip(players, seeds, strict=True)
        ]
        for thread in threads:
            thread.start()
        time.sleep(rng.uniform(1.0, 3.0))
        server.kill()
        for thread in threads:
            thread.join(30)
        server.start()
        with httpx.Client(base_url=server.base, timeout=30) as client:
            for player in players:
                more_lost, more_duplicated = player.reconcile(client)
                lost, duplicated = lost + more_lost, duplicated + more_duplicated
    moves = sum(len(m) for player in players for m in player.acknowledged.values())
    tables = sum(len(player.acknowledged) for player in players)
    cut_off = sum(player.cut_off for player in players)
    landed = sum(player.landed for player in players)
    return moves, tables, cut_off, landed, lost, duplicated


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--seed", type=int, default=13)
    parser.add_argument("--random", type=int, default=400, help="random bodies and messages")
    parser.add_argument("--kills", type=int, default=5, help="kill -9 cycles")
    args = parser.parse_args()
    rng = random.Random(args.seed)
    tally = Tally()
    with tempfile.TemporaryDirectory(prefix="ttt-hostile-") as folder:
        # Loopback is not exempt from the limits here, as from nowhere else.
        env = {"TICTACTOE_RATE_LIMIT_EXEMPT": "", "TICTACTOE_MOVE_RATE": "2000,2000"}
        env |= {"TICTACTOE_CREATE_RATE": "100,200", "TICTACTOE_JOIN_RATE": "100,200"}
        env |= {"TICTACTOE_SOCKET_MESSAGE_RATE": "5000,5000"}
        server = Server(Path(folder), env)
        server.start()
        try:
            started = time.monotonic()
            sweep(server, tally, rng, args.random)
            moves, tables, cut_off, landed, lost, duplicated = kill_cycles(
                server, tally, rng, args.kills
            )
            seconds = time.monotonic() - started
        finally:
            server.stop()
        log = server.log.read_text(errors="replace")
    tracebacks = log.count("Traceback (most recent call last)")
    print(f"bad inputs tried:          {tally.tried}")
    print(f"5xx answers (not 503):     {len(tally.server_errors)}")
    for line in tally.server_errors[:10]:
        print(f"    {line}")
    print(f"sockets dropped:           {len(tally.dropped)}")
    for line in tally.dropped[:10]:
        print(f"    {line}")
    print(f"tracebacks in the log:     {tracebacks}")
    print(f"kill -9 cycles:            {args.kills} ({moves} acknowledged moves, {tables} tables)")
    print(f"moves cut off by a kill:   {cut_off} (stored anyway: {landed})")
    print(f"moves lost / duplicated:   {lost} / {duplicated}")
    print(f"seconds:                   {seconds:.0f}")
    failed = tally.server_errors or tally.dropped or tracebacks or lost or duplicated
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
