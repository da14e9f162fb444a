"""Session-wide services for every test folder: a private PostgreSQL cluster and a private Redis,
started only when a test asks for them, always stopped at the end (tests/scaleout/services.py)."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.scaleout.services import PostgresCluster, RedisServer


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    server = RedisServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture
def postgres_url(postgres: PostgresCluster) -> str:
    """A fresh, empty database on the session's cluster."""
    return postgres.new_database()
