"""A real `tictactoe serve` on SQLite killed with SIGKILL while many tables move at once (their
saves sharing commits) loses no move it acknowledged: every move answered 200 is there after the
restart."""

from __future__ import annotations

import asyncio
import os
import random
import signal
from pathlib import Path
from typing import Any

import httpx
from tests.server.test_restart import free_port, serve

TABLES = 24
ACKNOWLEDGED_BEFORE_THE_KILL = 120


async def flood_then_kill(base: str, pid: int) -> dict[str, str]:
    """Plays random moves on every table at once; kills the server once enough moves were
    acknowledged. Each table's newest acknowledged record, by table URL."""
    acknowledged: dict[str, str] = {}
    count = 0
    killed = asyncio.Event()
    # Two browsers (two cookies): one creates the tables, the other takes their second seats.
    async with (
        httpx.AsyncClient(base_url=base, timeout=60) as client,
        httpx.AsyncClient(base_url=base, timeout=60) as friend,
    ):

        async def table() -> tuple[str, dict[str, str]]:
            created = (await client.post("/api/tables", json={"variant": "ultimate"})).json()
            url = f"/api/tables/{created['id']}"
            guest = (await friend.post(f"{url}/seats")).json()
            return url, {created["seat"]: created["token"], guest["seat"]: guest["token"]}

        async def play(url: str, tokens: dict[str, str]) -> None:
            nonlocal count
            state: dict[str, Any] | None = None
            while not killed.is_set():
                try:
                    if state is None:
                        state = (await client.get(url)).json()
                    if state["result"] is not None:
                        return
                    answer = await client.post(
                        f"{url}/moves",
                        json={
                            "move": random.choice(state["legal_moves"]),
                            "version": state["version"],
                        },
                        headers={"Authorization": f"Bearer {tokens[state['turn']]}"},
                    )
                except httpx.ConnectError:
                    assert killed.is_set(), "the server went away before it was killed"
                    return
                except httpx.TransportError:
                    # Killed, or a kept-alive connection closed as the request went out (a
                    # loaded server): look again, unless the server is gone.
                    state = None
                    continue
                if answer.status_code != 200:
                    state = None
                    continue
                state = answer.json()
                acknowledged[url] = state["record"]
                count += 1
                if count == ACKNOWLEDGED_BEFORE_THE_KILL:
                    os.kill(pid, signal.SIGKILL)
                    killed.set()

        tables = await asyncio.gather(*(table() for _ in range(TABLES)))
        await asyncio.gather(*(play(url, tokens) for url, tokens in tables))
    assert killed.is_set(), "the games ended before enough moves were acknowledged"
    return acknowledged


def test_sigkill_while_many_tables_move_at_once_loses_nothing_acknowledged(
    tmp_path: Path,
) -> None:
    database, port = tmp_path / "tables.db", free_port()
    base = f"http://127.0.0.1:{port}"
    with serve(database, port, log=tmp_path / "server.log") as server:
        acknowledged = asyncio.run(flood_then_kill(base, server.pid))
        server.wait(timeout=10)
    assert sum(len(record.split()) for record in acknowledged.values()) >= TABLES
    with serve(database, port, log=tmp_path / "server.log"):
        for url, record in acknowledged.items():
            stored = httpx.get(f"{base}{url}").json()["record"]
            # The stored game holds every acknowledged move, in order (and perhaps one more,
            # committed as the process died, before its answer went out).
            assert stored.startswith(record), (url, record, stored)
            assert len(stored.split()) - len(record.split()) in (0, 1)
