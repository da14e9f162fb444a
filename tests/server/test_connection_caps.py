"""`tictactoe serve`'s connection caps, against a real uvicorn server on loopback (each client from
its own address of 127.0.0.0/8): one address at its cap leaves the others playing, and when many
addresses together fill the global cap, the health checks still answer 200."""

from __future__ import annotations

import asyncio
import socket
from collections.abc import AsyncIterator, Iterator
from contextlib import asynccontextmanager
from pathlib import Path

import httpx
import pytest
import uvicorn

from tictactoe.server.app import create_app
from tictactoe.server.edge.address_caps import REFUSED, address_caps
from tictactoe.server.edge.http_protocol import BoundedH11Protocol
from tictactoe.server.settings import Settings

# Headers begun and never finished: the connection waits for the rest (an unfinished request).
UNFINISHED = b"GET / HTTP/1.1\r\nHost: 127.0.0.1\r\n"


@pytest.fixture
def caps(monkeypatch: pytest.MonkeyPatch) -> Iterator[None]:
    monkeypatch.setenv("TICTACTOE_MAX_CONNECTIONS_PER_ADDRESS", "6")
    monkeypatch.setenv("TICTACTOE_MAX_UNFINISHED_PER_ADDRESS", "4")
    address_caps.cache_clear()
    yield
    address_caps.cache_clear()


@asynccontextmanager
async def serving(tmp_path: Path, most_connections: int) -> AsyncIterator[int]:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        port = sock.getsockname()[1]
    settings = Settings(
        database_url=f"sqlite:///{tmp_path / 'tables.db'}", computer_least_think_seconds=0
    )
    config = uvicorn.Config(
        create_app(settings),
        port=port,
        http=BoundedH11Protocol,
        limit_concurrency=most_connections,
        log_level="warning",
    )
    server = uvicorn.Server(config)
    task = asyncio.ensure_future(server.serve())
    try:
        while not server.started:
            await asyncio.sleep(0.01)
        yield port
    finally:
        server.should_exit = True
        await task


async def unfinished_request(port: int, address: str) -> asyncio.StreamWriter:
    """A connection from `address` that sends half a request's head and waits."""
    _, writer = await asyncio.open_connection("127.0.0.1", port, local_addr=(address, 0))
    writer.write(UNFINISHED)
    await writer.drain()
    return writer


def client_from(address: str, port: int) -> httpx.AsyncClient:
    transport = httpx.AsyncHTTPTransport(local_address=address)
    return httpx.AsyncClient(transport=transport, base_url=f"http://127.0.0.1:{port}")


async def play_a_game_start(client: httpx.AsyncClient) -> None:
    """Creates a table for two at one device and plays a move at it."""
    created = await client.post("/api/tables", json={"variant": "standard", "opponent": "here"})
    assert created.status_code == 201, created.text
    table = created.json()
    moved = await client.post(
        f"/api/tables/{table['id']}/moves",
        json={"move": "b2"},
        headers={"authorization": f"Bearer {table['tokens']['x']}"},
    )
    assert moved.status_code == 200, moved.text
    assert moved.json()["moves"] == ["b2"]


async def test_one_address_at_its_cap_leaves_the_others_playing(caps: None, tmp_path: Path) -> None:
    async with serving(tmp_path, most_connections=4096) as port:
        held = [await unfinished_request(port, "127.0.0.2") for _ in range(4)]
        # Its next connection is refused at once, with a 503 that says why.
        reader, writer = await asyncio.open_connection(
            "127.0.0.1", port, local_addr=("127.0.0.2", 0)
        )
        assert await asyncio.wait_for(reader.read(), 10) == REFUSED
        writer.close()
        async with client_from("127.0.0.3", port) as other:
            assert (await other.get("/healthz")).status_code == 200
            await play_a_game_start(other)
        for held_writer in held:
            held_writer.close()


async def test_many_addresses_filling_the_global_cap_leave_the_health_checks_answering(
    caps: None, tmp_path: Path
) -> None:
    async with serving(tmp_path, most_connections=8) as port:
        # Eight addresses, each far below its own cap, fill the server's eight connections.
        held = [await unfinished_request(port, f"127.0.0.{10 + index}") for index in range(8)]
        async with client_from("127.0.0.30", port) as late:
            assert (await late.get("/")).status_code == 503  # the cap is full indeed
            healthz = await late.get("/healthz")
            assert (healthz.status_code, healthz.json()) == (200, {"status": "ok"})
            readyz = await late.get("/readyz")
            assert readyz.status_code == 200 and readyz.json()["ready"] is True
        for held_writer in held:
            held_writer.close()
