"""The bounded h11 protocol lets go of a connection once it has become a WebSocket."""

from __future__ import annotations

import asyncio
import gc
import socket

import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect

from tictactoe.server.edge.http_protocol import BoundedH11Protocol


async def echo(websocket: WebSocket) -> None:
    await websocket.accept()
    await websocket.send_text(await websocket.receive_text())
    await websocket.receive()


def armed_protocols() -> list[BoundedH11Protocol]:
    return [
        found
        for found in gc.get_objects()
        if isinstance(found, BoundedH11Protocol) and found._header_deadline is not None
    ]


async def test_an_upgraded_connection_leaves_no_header_timer_holding_its_http_protocol() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = uvicorn.Config(
        Starlette(routes=[WebSocketRoute("/ws", echo)]),
        port=port,
        http=BoundedH11Protocol,
        ws="websockets-sansio",
        log_level="warning",
    )
    server = uvicorn.Server(config)
    serving = asyncio.ensure_future(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        async with connect(f"ws://127.0.0.1:{port}/ws") as websocket:
            await websocket.send("hello")
            assert await websocket.recv() == "hello"
            # The timer (seconds long) would keep the h11 protocol, its state and its buffers
            # alive for every socket that opened within that time: ~5 KB a socket.
            assert armed_protocols() == []
    finally:
        server.should_exit = True
        await serving
