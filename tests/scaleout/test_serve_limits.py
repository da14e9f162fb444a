"""What one connection may cost `tictactoe serve` before its request reaches the site, with no
proxy in front (issue 13): headers are capped in size (a 4xx, or closed), must arrive within the
header timeout (a connection that sends them too slowly, or never finishes, is closed), and the
number of connections is capped."""

from __future__ import annotations

import contextlib
import socket
import time
from collections.abc import Iterator
from pathlib import Path

import httpx
import pytest
from tests.helpers import closed_within, serving
from tests.scaleout.services import ServerProcess

HEADER_TIMEOUT = 1.5


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with serving(
        "memory://",
        env={
            "TICTACTOE_HEADER_TIMEOUT_SECONDS": str(HEADER_TIMEOUT),
            "TICTACTOE_MAX_CONNECTIONS": "40",
        },
    ) as process:
        yield process


def connect(server: ServerProcess) -> socket.socket:
    connection = socket.create_connection(("127.0.0.1", server.port), timeout=30)
    return connection


def answer_to_big_header(server: ServerProcess, size: int) -> bytes:
    """What the server says to a request with one header of `size` bytes (b"" if it closed)."""
    with connect(server) as connection:
        try:
            connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\nX-Big: ")
            chunk = b"a" * 65536
            for _ in range(size // len(chunk)):
                connection.sendall(chunk)
            connection.sendall(b"\r\n\r\n")
            return connection.recv(100)
        except (BrokenPipeError, ConnectionResetError):
            return b""


@pytest.mark.parametrize("size", [1 << 20, 32 << 20])
def test_oversized_headers_are_refused(server: ServerProcess, size: int) -> None:
    answer = answer_to_big_header(server, size)
    assert not answer.startswith(b"HTTP/1.1 200"), answer
    # uvicorn's h11 protocol answers 400 (h11 itself would say 431), or the socket is closed.
    assert answer == b"" or answer.startswith((b"HTTP/1.1 400", b"HTTP/1.1 431")), answer
    assert httpx.get(f"{server.base}/healthz").status_code == 200


def test_usual_headers_still_pass(server: ServerProcess) -> None:
    headers = {"Cookie": "ttt_client=" + "a" * 43 + "; other=" + "b" * 3000}
    assert httpx.get(f"{server.base}/healthz", headers=headers).status_code == 200


def test_unfinished_headers_time_out(server: ServerProcess) -> None:
    with connect(server) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\nHost: x\r\n")
        assert closed_within(connection, HEADER_TIMEOUT + 10)


def test_a_connection_sending_its_headers_slowly_is_closed(server: ServerProcess) -> None:
    with connect(server) as connection:
        connection.sendall(b"GET / HTTP/1.1\r\n")
        started = time.monotonic()
        closed = False
        while time.monotonic() - started < HEADER_TIMEOUT + 10:
            try:
                connection.sendall(b"X-Slow: a\r\n")  # a line now and then, never the end
            except (BrokenPipeError, ConnectionResetError):
                closed = True
                break
            if closed_within(connection, 0.3):
                closed = True
                break
        assert closed


def test_an_idle_connection_after_a_request_is_closed(server: ServerProcess) -> None:
    with connect(server) as connection:
        connection.sendall(b"GET /healthz HTTP/1.1\r\nHost: x\r\n\r\n")
        assert connection.recv(1000).startswith(b"HTTP/1.1 200")
        connection.sendall(b"GET /healthz HTTP/1.1\r\n")  # the next request, never finished
        assert closed_within(connection, HEADER_TIMEOUT + 10)


def test_connections_beyond_the_cap_are_refused_until_the_idle_ones_are_closed(
    server: ServerProcess,
) -> None:
    idle = [connect(server) for _ in range(45)]
    try:
        for connection in idle:
            connection.sendall(b"GET / HTTP/1.1\r\n")
        time.sleep(0.3)
        with contextlib.suppress(httpx.TransportError):
            crowded = httpx.get(f"{server.base}/", timeout=5)
            assert crowded.status_code == 503
        # The balancer's health check still answers at the cap (issue 20).
        assert httpx.get(f"{server.base}/healthz", timeout=5).status_code == 200
        time.sleep(HEADER_TIMEOUT + 2)  # the idle ones are closed by the header timeout
        assert httpx.get(f"{server.base}/healthz", timeout=5).status_code == 200
    finally:
        for connection in idle:
            connection.close()
