"""One address can no longer take the whole server: it may hold only so many connections, and
only so many unfinished requests (a body that never comes, a handshake never finished), and each
of those is closed after the header timeout. Meanwhile everyone else, and `/healthz`, is served.

The attacker connects from 127.0.0.2 and the bystander from 127.0.0.3 (loopback addresses are
not exempt here), to a real `tictactoe serve`.
"""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator

import httpx
import pytest
from tests.helpers import closed_within, serving
from tests.scaleout.services import ServerProcess

HEADER_TIMEOUT = 1.5
MOST_CONNECTIONS = 6
MOST_UNFINISHED = 4
ATTACKER, BYSTANDER = "127.0.0.2", "127.0.0.3"


@pytest.fixture(scope="module")
def server() -> Iterator[ServerProcess]:
    with serving(
        "memory://",
        env={
            "TICTACTOE_HEADER_TIMEOUT_SECONDS": str(HEADER_TIMEOUT),
            "TICTACTOE_MAX_CONNECTIONS_PER_ADDRESS": str(MOST_CONNECTIONS),
            "TICTACTOE_MAX_UNFINISHED_PER_ADDRESS": str(MOST_UNFINISHED),
            "TICTACTOE_RATE_LIMIT_EXEMPT": "127.0.0.1",
        },
    ) as process:
        yield process


def connect_from(address: str, server: ServerProcess) -> socket.socket:
    return socket.create_connection(
        ("127.0.0.1", server.port), timeout=30, source_address=(address, 0)
    )


def bystander(server: ServerProcess) -> httpx.Client:
    transport = httpx.HTTPTransport(local_address=BYSTANDER)
    return httpx.Client(base_url=server.base, transport=transport, timeout=10)


def unfinished_body(connection: socket.socket) -> None:
    connection.sendall(
        b"POST /healthz HTTP/1.1\r\nHost: x\r\nContent-Type: application/json\r\n"
        b"Content-Length: 1000\r\n\r\n{"
    )


def answer(connection: socket.socket, seconds: float) -> bytes:
    """What the server says before closing (b"" if it closed without a word or kept quiet)."""
    connection.settimeout(seconds)
    received = b""
    with contextlib.suppress(TimeoutError, ConnectionResetError):
        while chunk := connection.recv(4096):
            received += chunk
    return received


def test_unfinished_requests_are_capped_per_address_and_others_still_play(
    server: ServerProcess,
) -> None:
    held = [connect_from(ATTACKER, server) for _ in range(MOST_UNFINISHED)]
    try:
        for connection in held:
            unfinished_body(connection)
        time.sleep(0.3)
        with connect_from(ATTACKER, server) as one_more:
            assert answer(one_more, 10).startswith(b"HTTP/1.1 503")
        with bystander(server) as http:
            assert http.get("/healthz").status_code == 200
            # Two at one device: a move needs nobody else seated.
            created = http.post(
                "/api/tables", json={"variant": "standard", "opponent": "here"}
            ).json()
            token = {"Authorization": f"Bearer {created['token']}"}
            moved = http.post(
                f"/api/tables/{created['id']}/moves", json={"move": "b2"}, headers=token
            )
            assert moved.status_code == 200
        # A body that never comes is cut off like headers that never come.
        for connection in held:
            said = answer(connection, HEADER_TIMEOUT + 15)
            assert said.startswith(b"HTTP/1.1 408"), said
    finally:
        for connection in held:
            connection.close()
    time.sleep(0.3)
    with bystander(server) as http:  # ...and the attacker's address may connect again
        transport = httpx.HTTPTransport(local_address=ATTACKER)
        with httpx.Client(base_url=server.base, transport=transport, timeout=10) as again:
            assert again.get("/healthz").status_code == 200
        assert http.get("/healthz").status_code == 200


def test_open_websockets_are_capped_per_address(server: ServerProcess) -> None:
    from websockets.sync.client import connect

    with bystander(server) as http:
        table = http.post("/api/tables", json={"variant": "standard"}).json()["id"]
    url = f"{server.ws_base}/api/tables/{table}/ws"
    sockets = []
    try:
        for _ in range(MOST_CONNECTIONS):
            sock = connect_from(ATTACKER, server)
            sockets.append(connect(url, sock=sock, open_timeout=10))
            sockets[-1].recv(timeout=10)
        with connect_from(ATTACKER, server) as one_more:
            one_more.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
            assert answer(one_more, 10).startswith(b"HTTP/1.1 503")
        with bystander(server) as http:
            assert http.get("/healthz").status_code == 200
        sockets.pop().close()
        time.sleep(0.3)
        with connect_from(ATTACKER, server) as freed:
            freed.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nConnection: close\r\n\r\n")
            assert answer(freed, 10).startswith(b"HTTP/1.1 200")
    finally:
        for websocket in sockets:
            websocket.close()


def test_a_websocket_handshake_the_parser_never_finishes_is_closed(server: ServerProcess) -> None:
    with connect_from(BYSTANDER, server) as connection:
        connection.sendall(
            b"GET /api/tables/x/ws HTTP/1.1\r\nHost: x\r\nUpgrade: websocket\r\n"
            b"Connection: Upgrade\r\nSec-WebSocket-Version: 13\r\n"
            b"Sec-WebSocket-Key: dGhlIHNhbXBsZSBub25jZQ==\r\nX-Long: " + b"a" * 9000 + b"\r\n\r\n"
        )
        assert closed_within(connection, HEADER_TIMEOUT + 15)
