"""Fixtures for the scale-out tests: `tictactoe serve` processes sharing a fresh PostgreSQL database
and Redis, each stopped at the end of its test whatever happens."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.scaleout.services import ServerProcess, StartServer


@pytest.fixture
def start_server() -> Iterator[StartServer]:
    """Starts `tictactoe serve` processes: `start_server(database_url, redis_url, args=[...],
    **environment)`."""
    started: list[ServerProcess] = []

    def start(
        database: str, redis: str | None, args: list[str] | None = None, **env: str
    ) -> ServerProcess:
        server = ServerProcess(database, redis, env, args)
        started.append(server)
        server.start()
        return server

    try:
        yield start
    finally:
        for server in started:
            server.remove()
