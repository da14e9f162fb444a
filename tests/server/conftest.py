"""Fixtures for the server tests: an app on a temporary SQLite file, a test client, and helpers
that play the parts of two browsers (each with its own cookie) at one table."""

from __future__ import annotations

import asyncio
import time
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient

from tictactoe.server.app import create_app
from tictactoe.server.settings import Settings


@pytest.fixture
def settings(tmp_path: Path) -> Settings:
    # The computer replies at once here; test_side_jobs proves its visible think time.
    return Settings(
        database_url=f"sqlite:///{tmp_path / 'tables.db'}",
        claim_after_seconds=60,
        computer_least_think_seconds=0,
    )


class TestClock:
    """The tables' time in tests: it starts at the wall clock's and moves only when told, so a
    clock test waits on nothing and holds however busy the machine is."""

    __test__ = False

    def __init__(self) -> None:
        self.now = time.time()

    def __call__(self) -> float:
        return self.now

    def advance(self, seconds: float) -> None:
        self.now += seconds

    async def sleep(self, seconds: float) -> None:
        """Returns once the test has advanced the clock by `seconds` (from any thread)."""
        until = self.now + seconds
        while self.now < until:
            await asyncio.sleep(0.001)


@pytest.fixture
def clock() -> TestClock:
    return TestClock()


@pytest.fixture
def app(settings: Settings) -> FastAPI:
    return create_app(settings)


@pytest.fixture
def clocked_app(settings: Settings, clock: TestClock) -> FastAPI:
    """The site with its tables on the test's clock (see `TestClock`)."""
    return create_app(settings, clock=clock, sleep=clock.sleep)


@pytest.fixture
def client(app: FastAPI) -> Iterator[TestClient]:
    with TestClient(app) as client:
        yield client


@contextmanager
def browser(client: TestClient) -> Iterator[TestClient]:
    """The same client acting as another browser: its own cookie jar for the duration."""
    saved = client.cookies
    client.cookies = {}  # type: ignore[assignment]
    try:
        yield client
    finally:
        client.cookies = saved


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


class Players:
    """A table with both seats taken: `tokens["x"]`, `tokens["o"]` and helpers to act."""

    def __init__(self, client: TestClient, **options: Any) -> None:
        self.client = client
        body = {"variant": "ultimate", **options}
        created = client.post("/api/tables", json=body)
        assert created.status_code == 201, created.text
        self.id: str = created.json()["id"]
        self.tokens: dict[str, str] = {created.json()["seat"]: created.json()["token"]}
        with browser(client):
            joined = client.post(f"/api/tables/{self.id}/seats")
            assert joined.status_code == 200, joined.text
            self.guest_cookie = client.cookies.get("ttt_client")
        self.tokens[joined.json()["seat"]] = joined.json()["token"]

    def move(self, mark: str, move: str, version: int | None = None) -> Any:
        body: dict[str, Any] = {"move": move}
        if version is not None:
            body["version"] = version
        return self.client.post(
            f"/api/tables/{self.id}/moves", json=body, headers=bearer(self.tokens[mark])
        )

    def post(self, mark: str, action: str) -> Any:
        return self.client.post(
            f"/api/tables/{self.id}/{action}", headers=bearer(self.tokens[mark])
        )

    def table(self) -> dict[str, Any]:
        response = self.client.get(f"/api/tables/{self.id}")
        assert response.status_code == 200
        table: dict[str, Any] = response.json()
        return table

    def play(self, record: str) -> dict[str, Any]:
        """Plays the moves of `record` alternately from whoever is to move."""
        table = self.table()
        for move in record.split():
            response = self.move(table["turn"], move)
            assert response.status_code == 200, response.text
            table = response.json()
        return table


@pytest.fixture
def players(client: TestClient) -> Players:
    return Players(client, first="me")


@pytest.fixture
def new_players(client: TestClient) -> Any:
    """Makes a table with both seats taken, with the creation options given."""
    return lambda **options: Players(client, **options)


@pytest.fixture
def as_browser() -> Any:
    return browser
