"""Tables against the computer: it replies from its worker process, moves first when it has X,
and always agrees to a rematch."""

from __future__ import annotations

import dataclasses
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient

from tictactoe.server.app import create_app
from tictactoe.server.settings import Settings
from tictactoe.server.table.computer import think_time


@pytest.fixture(scope="module")
def computer_client(tmp_path_factory: pytest.TempPathFactory) -> Iterator[TestClient]:
    # One app for the module: the worker process starts once.
    path: Path = tmp_path_factory.mktemp("computer") / "t.db"
    settings = Settings(database_url=f"sqlite:///{path}", computer_think_ms=20)
    with TestClient(create_app(settings)) as client:
        yield client


def wait_for_computer(client: TestClient, table_id: str) -> dict[str, Any]:
    table = client.app.state.tables._open[table_id]  # type: ignore[attr-defined]
    client.portal.call(table.wait_for_computer)  # type: ignore[union-attr]
    table_json: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
    return table_json


def test_computer_replies_to_a_move(
    computer_client: TestClient, caplog: pytest.LogCaptureFixture
) -> None:
    created = computer_client.post(
        "/api/tables", json={"variant": "ultimate", "opponent": "computer", "level": "easy"}
    ).json()
    assert created["seat"] == "x"
    table = computer_client.get(f"/api/tables/{created['id']}").json()
    assert table["seats"]["o"] == {"taken": True, "connected": True, "computer": True}
    assert table["opponent"] == "computer" and table["level"] == "easy"
    computer_client.post(
        f"/api/tables/{created['id']}/moves",
        json={"move": "e5"},
        headers={"Authorization": f"Bearer {created['token']}"},
    )
    table = wait_for_computer(computer_client, created["id"])
    assert len(table["moves"]) == 2 and table["turn"] == "x"
    assert table["moves"][1].startswith(("d", "e", "f"))  # sent to the centre board
    assert "engine failed" not in caplog.text  # the engine itself answered


def test_computer_with_x_moves_first(computer_client: TestClient) -> None:
    created = computer_client.post(
        "/api/tables", json={"variant": "standard", "opponent": "computer", "first": "friend"}
    ).json()
    assert created["seat"] == "o"
    table = wait_for_computer(computer_client, created["id"])
    assert len(table["moves"]) == 1 and table["turn"] == "o"
    assert table["level"] == "medium"


def test_computer_agrees_to_a_rematch_and_then_moves_first(computer_client: TestClient) -> None:
    created = computer_client.post(
        "/api/tables", json={"variant": "standard", "opponent": "computer", "first": "me"}
    ).json()
    auth = {"Authorization": f"Bearer {created['token']}"}
    computer_client.post(f"/api/tables/{created['id']}/resign", headers=auth)
    table = computer_client.post(f"/api/tables/{created['id']}/rematch", headers=auth).json()
    assert table["game"] == 2 and table["score"] == {"x": 1, "o": 0, "draws": 0}
    table = wait_for_computer(computer_client, created["id"])
    assert len(table["moves"]) == 1 and table["turn"] == "o"


async def test_a_dead_worker_is_replaced_and_the_game_goes_on() -> None:
    import os
    import signal

    from tictactoe.server.pubsub.memory import MemoryPubSub
    from tictactoe.server.settings import Settings
    from tictactoe.server.storage.memory import MemoryStorage
    from tictactoe.server.table.computer import ComputerPlayer
    from tictactoe.server.table.tables import TableOptions, Tables

    computer = ComputerPlayer(workers=1, think_ms=20)
    tables = Tables(MemoryStorage(), MemoryPubSub(), Settings(database_url="memory://"), computer)
    try:
        table, *_ = await tables.create(
            TableOptions("standard", first="friend", opponent="computer"), None
        )
        await table.wait_for_computer()
        dead_pool = computer.pool
        for pid in list(dead_pool._processes):  # type: ignore[union-attr]
            os.kill(pid, signal.SIGKILL)
        record = table.record
        # The broken pool still gets an answer out (a random legal move) and is let go ...
        assert await computer(record) in table.game.legal_moves()
        # ... and a new pool thinks the next move.
        assert await computer(record) in table.game.legal_moves()
        assert computer._pool is not None and computer._pool is not dead_pool
    finally:
        computer.close()
        await tables.close()


def test_the_computer_thinks_from_its_clock_when_the_table_has_one() -> None:
    from tests.server.records import a_table

    from tictactoe.server.storage import Side

    # No clock: the configured time.
    assert think_time(a_table(), 300, now=100.0) == 300
    # O (the computer) to move with its clock running since t=100: 60 s left at t=100 → 2 s a
    # move would be a thirtieth, capped at a second for the person waiting.
    clocked = a_table(
        moves=("e5",),
        clock_seconds=60.0,
        x=dataclasses.replace(a_table().x, time_left=60.0),
        o=Side(time_left=60.0),
        clock_since=100.0,
    )
    assert think_time(clocked, 300, now=100.0) == 1000
    # 15 s left (45 s spent): half a second; with a 2 s increment, most of it too (capped).
    assert think_time(clocked, 300, now=145.0) == 500
    with_increment = dataclasses.replace(clocked, clock_increment=1.0)
    assert think_time(with_increment, 300, now=145.0) == 1000
    # Short of time: never below 50 ms while it has plenty, never more than half of what is left.
    assert think_time(clocked, 300, now=159.0) == 50
    assert think_time(clocked, 300, now=159.96) == 20


async def test_started_workers_are_warm_and_analysis_runs_nicer_than_moves() -> None:
    import asyncio
    import os

    from tictactoe.server.table.computer import ANALYSIS_NICENESS, ComputerPlayer

    computer = ComputerPlayer(workers=1, think_ms=20)
    try:
        await computer.start()  # as `tictactoe serve` does at start-up
        loop = asyncio.get_running_loop()
        move_nice = await loop.run_in_executor(computer.pool, os.nice, 0)
        analysis_nice = await loop.run_in_executor(computer.analysis_pool, os.nice, 0)
        assert analysis_nice >= min(19, move_nice + ANALYSIS_NICENESS) > move_nice or (
            move_nice == 19 == analysis_nice  # a test run at the lowest priority already
        )
    finally:
        computer.close()
