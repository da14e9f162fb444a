"""A test client's view of a table over the WebSocket: whole `table` frames, and `moved` frames
applied to the table they follow (as the page and `tictactoe bot` do); the helpers the socket
tests share (the socket's address, the next frame that matches, the next error)."""

from __future__ import annotations

import contextlib
from collections.abc import Callable, Iterator
from typing import Any

from tictactoe.engine.bot_command import follow_move

Frame = dict[str, Any]


def follow(ws: Any, message: Frame) -> Frame | None:
    """The socket's table after `message` (None if it is not about the table). A `moved` frame
    that does not follow the last table seen asks for the whole table, like the page."""
    if message["type"] == "table":
        ws.last_table = message["table"]
        return ws.last_table  # type: ignore[no-any-return]
    if message["type"] != "moved":
        return None
    followed = follow_move(getattr(ws, "last_table", None), message)
    if followed is None:
        ws.send_json({"type": "sync"})
        return None
    ws.last_table = followed
    return followed


def next_table(ws: Any, wanted: Any = lambda table: True, limit: int = 20) -> Frame:
    """The first table, as followed from the socket's frames, that satisfies `wanted`."""
    for _ in range(limit):
        table = follow(ws, ws.receive_json())
        if table is not None and wanted(table):
            return table
    raise AssertionError("no matching table")


def socket_url(players: Any, mark: str | None = None) -> str:
    """The table's socket, as a player of `mark` (by token) or as whoever the cookie says."""
    url = f"/api/tables/{players.id}/ws"
    return url if mark is None else f"{url}?token={players.tokens[mark]}"


@contextlib.contextmanager
def both_seats_and_a_watcher(players: Any, as_browser: Any) -> Iterator[tuple[Any, Any, Any]]:
    """Sockets of X and O (by token) and of a watcher (a browser with no seat), all open."""
    client = players.client
    with (
        client.websocket_connect(socket_url(players, "x")) as x,
        client.websocket_connect(socket_url(players, "o")) as o,
        as_browser(client),
        client.websocket_connect(socket_url(players)) as watcher,
    ):
        yield x, o, watcher


def receive_until(ws: Any, wanted: Callable[[Frame], bool], limit: int = 20) -> Frame:
    """The first message that matches, skipping others (e.g. presence updates)."""
    for _ in range(limit):
        message: Frame = ws.receive_json()
        if wanted(message):
            return message
    raise AssertionError("no matching message")


def table_frame(ws: Any, wanted: Callable[[Frame], bool] = lambda t: True) -> Frame:
    """The first table, as followed from the socket's frames, that satisfies `wanted`."""
    return next_table(ws, wanted)


def error(ws: Any) -> Frame:
    """The next error frame."""
    return receive_until(ws, lambda m: m["type"] == "error")
