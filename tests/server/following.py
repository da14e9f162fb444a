"""A test client's view of a table over the WebSocket: whole `table` frames, and `moved` frames
applied to the table they follow (as the page and `tictactoe bot` do)."""

from __future__ import annotations

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
