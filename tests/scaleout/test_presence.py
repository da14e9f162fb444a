"""Presence across processes: what one process records, every other sees; the sockets of a process
that stops vouching (killed) stop counting after the ttl; without Redis each process falls back
to its own sockets."""

from __future__ import annotations

import uuid
from collections.abc import AsyncIterator

import pytest
from tests.scaleout.services import RedisServer, free_port

from tictactoe.server.pubsub.presence import Seen, SharedPresence

ALICE, BOB = "a" * 64, "b" * 64


@pytest.fixture
def table() -> str:
    """A table id of this test's own (the session's Redis is shared)."""
    return uuid.uuid4().hex


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


@pytest.fixture
async def two_processes(
    redis_server: RedisServer,
) -> AsyncIterator[tuple[SharedPresence, SharedPresence, Clock]]:
    clock = Clock()
    processes = (
        SharedPresence(redis_server.url, ttl=15, heartbeat=3600, clock=clock),
        SharedPresence(redis_server.url, ttl=15, heartbeat=3600, clock=clock),
    )
    for process in processes:
        await process.start()
    yield processes[0], processes[1], clock
    for process in processes:
        await process.close()


async def test_a_player_arriving_through_one_process_is_seen_by_the_other(
    two_processes: tuple[SharedPresence, SharedPresence, Clock], table: str
) -> None:
    a, b, clock = two_processes
    await a.arrived(table, ALICE)
    assert (await b.seen(table)).connected == {ALICE}
    clock.now += 5
    await a.left(table, ALICE)
    seen = await b.seen(table)
    assert seen.connected == frozenset() and seen.left_at == {ALICE: 1005.0}


async def test_a_player_connected_through_two_processes_stays_until_both_left(
    two_processes: tuple[SharedPresence, SharedPresence, Clock], table: str
) -> None:
    a, b, _ = two_processes
    await a.arrived(table, BOB)
    await b.arrived(table, BOB)
    await a.left(table, BOB)
    assert (await a.seen(table)).connected == {BOB}
    await b.left(table, BOB)
    assert (await a.seen(table)).connected == frozenset()


async def test_the_players_of_a_process_that_stopped_vouching_count_as_gone_after_the_ttl(
    two_processes: tuple[SharedPresence, SharedPresence, Clock], table: str
) -> None:
    a, b, clock = two_processes
    await a.arrived(table, ALICE)  # then process a is killed: no heartbeat, no left()
    clock.now += 14
    assert (await b.seen(table)).connected == {ALICE}
    clock.now += 2
    seen = await b.seen(table)
    assert seen.connected == frozenset()
    assert seen.left_at[ALICE] == 1000.0  # gone since it was last vouched for


async def test_while_redis_is_away_the_last_known_presence_stands(table: str) -> None:
    server = RedisServer()  # of this test's own: it stops it
    server.start()
    presence = SharedPresence(server.url)
    await presence.start()
    try:
        await presence.arrived(table, ALICE)
        assert (await presence.seen(table)).connected == {ALICE}
        server.stop()
        assert (await presence.seen(table)).connected == {ALICE}
    finally:
        server.stop()
        await presence.close()


async def test_without_redis_presence_is_empty_and_nothing_raises(table: str) -> None:
    presence = SharedPresence(f"redis://127.0.0.1:{free_port()}/0")
    await presence.start()
    try:
        await presence.arrived(table, ALICE)
        assert await presence.seen(table) == Seen()
        await presence.left(table, ALICE)
    finally:
        await presence.close()
