"""The lean WebSocket protocol of `tictactoe serve`: the same messages as uvicorn's, in order, a
write that needs no task, and nothing of the handshake kept once the socket is open."""

from __future__ import annotations

import asyncio
import base64
import contextlib
import gc
import os
import socket
from collections.abc import AsyncIterator, Callable

import pytest
import uvicorn
from starlette.applications import Starlette
from starlette.routing import WebSocketRoute
from starlette.websockets import WebSocket, WebSocketDisconnect
from websockets.asyncio.client import connect
from websockets.http11 import Request

from tictactoe.server.edge.http_protocol import BoundedH11Protocol
from tictactoe.server.edge.websocket_protocol import SEND_TEXT_NOW, LeanWebSocketProtocol

# What the app saw: each socket's `send_text_now` results after it closed.
after_close: list[bool] = []


async def echo_now(websocket: WebSocket) -> None:
    """Answers every message twice through the scope extension, then once the ASGI way."""
    await websocket.accept()
    send_now: Callable[[str], bool] = websocket.scope["extensions"][SEND_TEXT_NOW]
    try:
        while True:
            text = await websocket.receive_text()
            assert send_now(f"{text}/1") and send_now(f"{text}/2")
            await websocket.send_text(f"{text}/3")
            if text == "bye":
                await websocket.close()
                after_close.append(send_now("too late"))
                return
    except WebSocketDisconnect:
        after_close.append(send_now("too late"))


# What the flooding app saw: how many frames went out before the write was refused.
flooded: list[int] = []


async def flood(websocket: WebSocket) -> None:
    """Sends 2 KB frames for as long as the socket takes them."""
    await websocket.accept()
    send_now: Callable[[str], bool] = websocket.scope["extensions"][SEND_TEXT_NOW]
    frame, sent = "x" * 2048, 0
    while sent < 100_000 and send_now(frame):
        sent += 1
        if sent % 64 == 0:
            await asyncio.sleep(0)  # let the transport write what the kernel takes
    flooded.append(sent)
    with contextlib.suppress(WebSocketDisconnect):
        await websocket.receive_text()


@pytest.fixture
async def port() -> AsyncIterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        free: int = sock.getsockname()[1]
    config = uvicorn.Config(
        Starlette(routes=[WebSocketRoute("/ws", echo_now), WebSocketRoute("/flood", flood)]),
        port=free,
        http=BoundedH11Protocol,
        ws=LeanWebSocketProtocol,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    serving = asyncio.ensure_future(server.serve())
    while not server.started:
        await asyncio.sleep(0.01)
    yield free
    server.should_exit = True
    await serving


async def test_messages_both_ways_keep_their_order_and_the_handshake_is_let_go(port: int) -> None:
    after_close.clear()
    async with connect(f"ws://127.0.0.1:{port}/ws") as websocket:
        # Several messages at once: they wait in the inbox until the app reads them.
        for word in ("one", "two", "three"):
            await websocket.send(word)
        answers = [await websocket.recv() for _ in range(9)]
        assert answers == [f"{word}/{n}" for word in ("one", "two", "three") for n in (1, 2, 3)]
        protocols = [o for o in gc.get_objects() if isinstance(o, LeanWebSocketProtocol)]
        assert len(protocols) == 1
        assert protocols[0].request is None and protocols[0].response is None
        # websockets' parser still holds the request; its headers (a list per name) are gone.
        requests = [
            o for o in gc.get_objects() if isinstance(o, Request) and o is not websocket.request
        ]
        assert requests and all(len(request.headers) == 0 for request in requests)
    # The client closed: a write after that writes nothing and says so.
    for _ in range(100):
        if after_close:
            break
        await asyncio.sleep(0.01)
    assert after_close == [False]


async def test_a_write_after_the_app_closed_the_socket_is_refused(port: int) -> None:
    after_close.clear()
    async with connect(f"ws://127.0.0.1:{port}/ws") as websocket:
        await websocket.send("bye")
        assert [await websocket.recv() for _ in range(3)] == ["bye/1", "bye/2", "bye/3"]
        await websocket.wait_closed()
    assert after_close == [False]


async def test_a_client_that_stops_reading_is_dropped_not_buffered_without_end(port: int) -> None:
    flooded.clear()
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    key = base64.b64encode(os.urandom(16)).decode()
    writer.write(
        (
            f"GET /flood HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nUpgrade: websocket\r\n"
            f"Connection: Upgrade\r\nSec-WebSocket-Key: {key}\r\n"
            "Sec-WebSocket-Version: 13\r\n\r\n"
        ).encode()
    )
    assert (await reader.readuntil(b"\r\n\r\n")).startswith(b"HTTP/1.1 101")
    # From here on the client reads nothing.
    for _ in range(500):
        if flooded:
            break
        await asyncio.sleep(0.02)
    writer.close()
    # Refused well before 100 000 frames (200 MB): the kernel's buffers and MAX_UNSENT_BYTES.
    assert flooded and flooded[0] < 100_000, flooded
