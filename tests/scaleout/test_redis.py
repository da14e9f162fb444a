"""Redis pub/sub beyond the shared suite: two processes' buses hear each other, and a Redis that
goes away and comes back costs subscribers a `RESYNC`, never silence."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator, Callable

import pytest
from tests.scaleout.services import RedisServer

from tictactoe.server.pubsub import RESYNC
from tictactoe.server.pubsub.redis import RedisPubSub


@pytest.fixture
async def two_buses(private_redis: RedisServer) -> AsyncIterator[tuple[RedisPubSub, RedisPubSub]]:
    """The buses of two server processes sharing one Redis."""
    buses = (
        RedisPubSub(private_redis.url, max_backoff_seconds=0.2),
        RedisPubSub(private_redis.url, max_backoff_seconds=0.2),
    )
    for bus in buses:
        await bus.start()
    yield buses
    for bus in buses:
        await bus.close()


async def until(condition: Callable[[], bool], seconds: float = 10.0) -> None:
    for _ in range(int(seconds / 0.02)):
        if condition():
            return
        await asyncio.sleep(0.02)
    raise AssertionError("condition not met in time")


async def test_a_message_published_in_one_process_reaches_the_other(
    two_buses: tuple[RedisPubSub, RedisPubSub],
) -> None:
    a, b = two_buses
    heard_a: list[str] = []
    heard_b: list[str] = []
    await a.subscribe("table:t", heard_a.append)
    await b.subscribe("table:t", heard_b.append)
    for n in range(20):
        await (a if n % 2 else b).publish("table:t", str(n))
    await until(lambda: len(heard_a) == len(heard_b) == 20)
    assert heard_a == heard_b == [str(n) for n in range(20)]


async def test_redis_restart_gives_subscribers_a_resync_then_messages_flow_again(
    private_redis: RedisServer, two_buses: tuple[RedisPubSub, RedisPubSub]
) -> None:
    a, b = two_buses
    heard: list[str] = []
    await b.subscribe("table:t", heard.append)
    private_redis.stop()
    await until(lambda: not b.connected)
    # Published while Redis is down: this process hears it at once; the other one resyncs later.
    here: list[str] = []
    await a.subscribe("table:t", here.append)
    await a.publish("table:t", "while down")
    assert here == ["while down"]
    private_redis.start()
    await until(lambda: a.connected and b.connected)
    await until(lambda: RESYNC in heard)
    await a.publish("table:t", "after")
    await until(lambda: "after" in heard)
    assert "while down" not in heard  # lost by Redis: the RESYNC is what tells b to catch up


async def test_subscribing_while_redis_is_down_starts_hearing_once_it_is_back(
    private_redis: RedisServer, two_buses: tuple[RedisPubSub, RedisPubSub]
) -> None:
    a, b = two_buses
    private_redis.stop()
    await until(lambda: not b.connected)
    heard: list[str] = []
    await b.subscribe("table:late", heard.append)
    private_redis.start()
    await until(lambda: a.connected and b.connected)
    await a.publish("table:late", "hello")
    await until(lambda: "hello" in heard)


async def test_ping_fails_while_redis_is_down(
    private_redis: RedisServer, two_buses: tuple[RedisPubSub, RedisPubSub]
) -> None:
    a, _ = two_buses
    await a.ping()
    private_redis.stop()
    await until(lambda: not a.connected)
    with pytest.raises(ConnectionError):
        await a.ping()


async def test_a_subscription_confirmed_after_subscribe_stopped_waiting_gets_a_resync(
    private_redis: RedisServer,
) -> None:
    # Told not to wait for Redis at all: `subscribe` returns before the subscription takes
    # effect, so whatever is published in between is not heard, and the subscriber is told.
    bus = RedisPubSub(private_redis.url, confirm_seconds=0.0)
    await bus.start()
    try:
        heard: list[str] = []
        await bus.subscribe("table:slow", heard.append)
        await until(lambda: heard == [RESYNC])
        await bus.publish("table:slow", "after")
        await until(lambda: heard == [RESYNC, "after"])
    finally:
        await bus.close()
