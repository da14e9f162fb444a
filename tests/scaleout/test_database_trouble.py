"""The SQLite file in trouble, on a real `tictactoe serve`: a write lock held by another process
stalls nothing but the writes it blocks, and `/readyz` says so; a damaged file is a 503 with a
clear message, and no traceback reaches the log (issue 13)."""

from __future__ import annotations

import sqlite3
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from tests.helpers import serving
from tests.scaleout.services import ServerProcess


@pytest.fixture
def database(tmp_path: Path) -> Path:
    return tmp_path / "tables.db"


@pytest.fixture
def server(database: Path) -> Iterator[ServerProcess]:
    with serving(f"sqlite:///{database}") as process:
        yield process


def new_table(base: str) -> dict[str, str]:
    """A table whose creator can move at once (two at one device: nobody else to wait for)."""
    created = httpx.post(
        f"{base}/api/tables", json={"variant": "ultimate", "first": "me", "opponent": "here"}
    )
    assert created.status_code == 201, created.text
    body: dict[str, str] = created.json()
    return body


def move(base: str, table: dict[str, str], cell: str) -> tuple[int, float]:
    answer = httpx.post(
        f"{base}/api/tables/{table['id']}/moves",
        json={"move": cell},
        headers={"Authorization": f"Bearer {table['token']}"},
        timeout=30,
    )
    return answer.status_code, time.monotonic()


def test_a_locked_database_file_stalls_only_the_writes_it_blocks(
    server: ServerProcess, database: Path
) -> None:
    tables = [new_table(server.base) for _ in range(4)]
    blocker = sqlite3.connect(database, isolation_level=None)
    try:
        blocker.execute("BEGIN IMMEDIATE")  # another process holds the write lock
        with ThreadPoolExecutor(4) as pool:
            moves = [pool.submit(move, server.base, table, "e5") for table in tables]
            time.sleep(0.2)  # the moves wait for the lock
            health = httpx.get(f"{server.base}/healthz", timeout=30)
            answered = time.monotonic()
            ready = httpx.get(f"{server.base}/readyz", timeout=30)
            results = [future.result() for future in moves]
    finally:
        blocker.execute("ROLLBACK")
        blocker.close()
    assert health.status_code == 200
    # The process went on serving while the writes waited (on the event loop they held it up).
    assert all(answered < moved_at for _status, moved_at in results), (answered, results)
    assert [status for status, _ in results] == [503] * 4
    assert ready.status_code == 503 and "database" in ready.json(), ready.text
    # The lock gone, everything is as it was and the same moves land.
    assert httpx.get(f"{server.base}/readyz").status_code == 200
    assert [move(server.base, table, "e5")[0] for table in tables] == [200] * 4
    assert "Traceback" not in server.log.read_text()


def test_a_damaged_database_file_is_a_503_with_a_clear_message(
    server: ServerProcess, database: Path
) -> None:
    table = new_table(server.base)
    with database.open("r+b") as file:  # the file's header and first pages overwritten
        file.write(b"this is not an SQLite database" * 200)
    for path in (Path(f"{database}-wal"), Path(f"{database}-shm")):
        if path.exists():
            path.write_bytes(b"\0" * 64)
    answers = [
        httpx.post(f"{server.base}/api/tables", json={"variant": "ultimate"}),
        httpx.get(f"{server.base}/api/tables/{'x' * 22}"),
        httpx.post(
            f"{server.base}/api/tables/{table['id']}/moves",
            json={"move": "e5"},
            headers={"Authorization": f"Bearer {table['token']}"},
        ),
    ]
    for answer in answers:
        assert answer.status_code == 503, (answer.request.url, answer.status_code, answer.text)
        assert "database" in answer.json()["message"]
    assert httpx.get(f"{server.base}/readyz").status_code == 503
    assert httpx.get(f"{server.base}/healthz").status_code == 200
    assert "Traceback" not in server.log.read_text()
