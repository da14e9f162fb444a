"""The bounded h11 protocol lets go of a connection once it has become a WebSocket, and caps a
request's head however it arrives."""

from __future__ import annotations

import asyncio
import gc
import socket

import uvicorn
from starlette.applications import Starlette
from starlette.requests import Request
from starlette.responses import PlainTextResponse
from starlette.routing import Route, WebSocketRoute
from starlette.websockets import WebSocket
from websockets.asyncio.client import connect

from tictactoe.server.edge.head_size import HeadSize
from tictactoe.server.edge.http_protocol import MAX_HEADER_BYTES, BoundedH11Protocol


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


async def ok(request: Request) -> PlainTextResponse:
    return PlainTextResponse("ok")


async def answer_to(port: int, pieces: list[bytes]) -> bytes:
    """What the server answers a request sent in these pieces (their first status line)."""
    reader, writer = await asyncio.open_connection("127.0.0.1", port)
    for piece in pieces:
        writer.write(piece)
        await writer.drain()
        await asyncio.sleep(0.01)
    answer = await asyncio.wait_for(reader.readuntil(b"\r\n"), 10)
    writer.close()
    return answer


def head(cookie_bytes: int) -> bytes:
    return b"GET /healthz HTTP/1.1\r\nHost: x\r\nCookie: a=" + b"b" * cookie_bytes + b"\r\n\r\n"


async def test_a_head_over_the_cap_gets_431_in_one_write_or_in_pieces() -> None:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    config = uvicorn.Config(
        Starlette(routes=[Route("/healthz", ok)]),
        port=port,
        http=BoundedH11Protocol,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    serving = asyncio.ensure_future(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        too_big = head(40 * 1024)
        assert (
            await answer_to(port, [too_big]) == b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
        )
        pieces = [too_big[start : start + 8192] for start in range(0, len(too_big), 8192)]
        assert await answer_to(port, pieces) == b"HTTP/1.1 431 Request Header Fields Too Large\r\n"
        assert (await answer_to(port, [head(120 * 1024)])).startswith(b"HTTP/1.1 431")
        assert await answer_to(port, [head(20 * 1024)]) == b"HTTP/1.1 200 OK\r\n"
        # Two heads of 20 KB on one kept-alive connection: each is measured on its own.
        reader, writer = await asyncio.open_connection("127.0.0.1", port)
        for _ in range(2):
            writer.write(head(20 * 1024))
            assert await asyncio.wait_for(reader.readuntil(b"\r\n"), 10) == b"HTTP/1.1 200 OK\r\n"
            await asyncio.wait_for(reader.readuntil(b"ok"), 10)
        writer.close()
    finally:
        server.should_exit = True
        await serving


def test_a_heads_end_split_between_two_pieces_is_found() -> None:
    meter = HeadSize(most=30)
    assert not meter.too_big(b"GET / HTTP/1.1\r\nHost: x\r\n\r")
    assert not meter.too_big(b"\nGET / HTTP/1.1\r\nHost: x\r\n\r\n")  # a second head, measured anew
    assert not meter.too_big(b"GET / HTTP/1.1\r\nHost: x")
    assert meter.too_big(b"-and-more-than-30\r\n")
