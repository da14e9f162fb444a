"""Session-wide services for every test folder: a private PostgreSQL cluster and a private Redis,
started only when a test asks for them, always stopped at the end (tests/scaleout/services.py).
A test that stops and starts a service asks for one of its own (`private_postgres`,
`private_redis`), so the tests sharing the session's service never see it go away."""

from __future__ import annotations

from collections.abc import Iterator

import pytest
from tests.scaleout.services import PostgresCluster, RedisServer


def _running_postgres() -> Iterator[PostgresCluster]:
    cluster = PostgresCluster()
    try:
        cluster.start()
        yield cluster
    finally:
        cluster.remove()


def _running_redis() -> Iterator[RedisServer]:
    server = RedisServer()
    try:
        server.start()
        yield server
    finally:
        server.stop()


@pytest.fixture(scope="session")
def postgres() -> Iterator[PostgresCluster]:
    yield from _running_postgres()


@pytest.fixture(scope="session")
def redis_server() -> Iterator[RedisServer]:
    yield from _running_redis()


@pytest.fixture
def private_postgres() -> Iterator[PostgresCluster]:
    """A cluster of this test's own, which it may stop and start."""
    yield from _running_postgres()


@pytest.fixture
def private_redis() -> Iterator[RedisServer]:
    """A redis-server of this test's own, which it may stop and start."""
    yield from _running_redis()


@pytest.fixture
def postgres_url(postgres: PostgresCluster) -> str:
    """A fresh, empty database on the session's cluster."""
    return postgres.new_database()
