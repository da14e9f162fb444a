"""The computer's analysis has its own bounded share of the computer: a flood of analysis
requests never delays the computer's move at a table (issue 13: 40 requests made another table's
computer take 4.9 s), and what is beyond the share's queue is refused at once with 503. Judged by
order, not by time, so a loaded machine cannot fail it."""

from __future__ import annotations

import random
import time
from collections.abc import Iterator
from concurrent.futures import ThreadPoolExecutor
from pathlib import Path

import httpx
import pytest
from tests.helpers import serving
from tests.scaleout.services import ServerProcess

from tictactoe import new_game


@pytest.fixture
def server(tmp_path: Path) -> Iterator[ServerProcess]:
    with serving(
        f"sqlite:///{tmp_path / 'tables.db'}",
        env={
            "TICTACTOE_COMPUTER_THINK_MS": "50",
            # Slow analyses, so that the queue takes seconds to drain whatever the machine's load.
            "TICTACTOE_ANALYSIS_THINK_MS": "400",
            "TICTACTOE_ANALYSIS_RATE": "1000,1000",
            "TICTACTOE_CREATE_RATE": "1000,1000",
        },
    ) as process:
        yield process


def positions(count: int) -> list[str]:
    rng = random.Random(13)
    found: set[str] = set()
    while len(found) < count:
        game = new_game("ultimate")
        for _ in range(rng.randrange(2, 12)):
            game = game.play(rng.choice(game.legal_moves()))
        found.add(game.position())
    return sorted(found)


def computer_reply_seconds(base: str) -> float:
    """Seconds from creating a table where the computer moves first to its move being there."""
    body = {"variant": "ultimate", "first": "friend", "opponent": "computer", "level": "max"}
    started = time.monotonic()
    created = httpx.post(f"{base}/api/tables", json=body, timeout=30).json()
    while not httpx.get(f"{base}/api/tables/{created['id']}", timeout=30).json()["moves"]:
        time.sleep(0.02)
    return time.monotonic() - started


def test_an_analysis_flood_does_not_delay_the_computer_at_a_table(server: ServerProcess) -> None:
    computer_reply_seconds(server.base)  # the computer's worker is started and warm
    evaluate = f"{server.base}/api/positions/evaluation"
    with ThreadPoolExecutor(40) as pool:
        flood = [
            pool.submit(
                httpx.post, evaluate, json={"variant": "ultimate", "position": p}, timeout=120
            )
            for p in positions(40)
        ]
        time.sleep(1.0)  # the flood has arrived and waits for the computer
        reply = computer_reply_seconds(server.base)
        answered_before_the_move = sum(
            future.done() and future.result().status_code == 200 for future in flood
        )
        statuses = [future.result().status_code for future in flood]
    # Queued in front of the move (one pool, first come first served), every accepted analysis
    # would be answered before it: some are still thinking when the move is there.
    accepted = statuses.count(200)
    assert answered_before_the_move < accepted, (answered_before_the_move, accepted, reply)
    assert set(statuses) <= {200, 503}, statuses
    assert 503 in statuses  # beyond the analysis queue: refused at once, not queued
    assert httpx.get(f"{server.base}/readyz").status_code == 200
