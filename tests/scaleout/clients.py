"""Clients for the multi-process tests: HTTP through httpx, and WebSockets whose frames a thread
reads as they come (a reader that falls behind would be dropped by the server, as it should)."""

from __future__ import annotations

import json
import queue
import random
import threading
import time
from collections.abc import Callable
from typing import Any

import httpx
from websockets.exceptions import ConnectionClosed
from websockets.sync.client import ClientConnection, connect

from tictactoe.engine.bot_command import follow_move

Table = dict[str, Any]


class Socket:
    """A table's WebSocket; `tables` keeps every table frame received, in order."""

    def __init__(self, url: str, **options: Any) -> None:
        self.url = url
        self.connection: ClientConnection = connect(url, open_timeout=10, **options)
        self.messages: queue.Queue[dict[str, Any] | None] = queue.Queue()
        self.tables: list[Table] = []
        self.errors: list[dict[str, Any]] = []
        self.closed = threading.Event()
        self._reader = threading.Thread(target=self._read, daemon=True)
        self._reader.start()

    def _read(self) -> None:
        try:
            for text in self.connection:
                message = json.loads(text)
                if message.get("type") == "moved":
                    # A move's small frame: the table it follows, moved on (as the page does);
                    # after a gap, the whole table is asked for, and one it has is ignored.
                    last = self.tables[-1] if self.tables else None
                    followed = follow_move(last, message)
                    if followed is None:
                        if last is None or message["version"] > last["version"]:
                            self.connection.send('{"type":"sync"}')
                    else:
                        self.messages.put(message)
                        message = {"type": "table", "table": followed, "followed": True}
                if message.get("type") == "table":
                    self.tables.append(message["table"])
                elif message.get("type") == "error":
                    self.errors.append(message)
                self.messages.put(message)
        except ConnectionClosed:
            pass
        finally:
            self.closed.set()
            self.messages.put(None)

    def send(self, message: dict[str, Any]) -> None:
        self.connection.send(json.dumps(message))

    def expect(self, wanted: Callable[[dict[str, Any]], bool], seconds: float = 15.0) -> Any:
        """The next message that satisfies `wanted` (others are skipped)."""
        deadline = time.monotonic() + seconds
        while True:
            left = deadline - time.monotonic()
            if left <= 0:
                raise AssertionError(f"no wanted message on {self.url} within {seconds} s")
            try:
                message = self.messages.get(timeout=left)
            except queue.Empty:
                continue
            if message is None:
                raise AssertionError(f"socket {self.url} closed while waiting")
            if wanted(message):
                return message

    def table_at(self, version: int, seconds: float = 15.0) -> Table:
        """The first table frame at `version` or later."""
        message = self.expect(
            lambda m: m.get("type") == "table" and m["table"]["version"] >= version, seconds
        )
        table: Table = message["table"]
        return table

    def close(self) -> None:
        self.connection.close()
        self._reader.join(5)


def create_table(base: str, **options: Any) -> tuple[str, dict[str, str]]:
    """A table created through `base` and joined through the same: its id and both tokens."""
    created = httpx.post(f"{base}/api/tables", json={"variant": "ultimate", **options}).json()
    joined = httpx.post(f"{base}/api/tables/{created['id']}/seats").json()
    return created["id"], {created["seat"]: created["token"], joined["seat"]: joined["token"]}


def socket_url(ws_base: str, table_id: str, token: str | None = None) -> str:
    url = f"{ws_base}/api/tables/{table_id}/ws"
    return url if token is None else f"{url}?token={token}"


def play_moves(
    players: dict[str, Socket],
    table: Table,
    rng: random.Random,
    count: int | None = None,
    on_move: Callable[[Table], None] | None = None,
) -> Table:
    """Plays random legal moves over the players' sockets (each sent with the version it was
    chosen at) until the game ends or `count` moves are made; each move must reach the opponent's
    socket too. Returns the table after the last move."""
    made = 0
    while table["result"] is None and (count is None or made < count):
        mover, waiter = players[table["turn"]], players["o" if table["turn"] == "x" else "x"]
        move = rng.choice(table["legal_moves"])
        mover.send({"type": "move", "move": move, "version": table["version"]})
        after = mover.table_at(table["version"] + 1)
        assert after["moves"] == [*table["moves"], move], (after["moves"], move)
        assert waiter.table_at(after["version"])["moves"][: len(after["moves"])] == after["moves"]
        table = after
        made += 1
        if on_move is not None:
            on_move(table)
    return table
