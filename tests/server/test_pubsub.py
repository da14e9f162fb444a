"""The pub/sub suite: every `PubSub` implementation must pass it: in-process, and Redis (a private
redis-server from tests/conftest.py). Redis delivers through a reader task, so assertions wait for
a last marker message: everything published before it has arrived once it has."""

from __future__ import annotations

import asyncio
from collections.abc import AsyncIterator

import pytest

from tictactoe.server.pubsub import PubSub
from tictactoe.server.pubsub.backends import open_pubsub

BUSES = ["memory", "redis"]


@pytest.fixture(params=BUSES)
async def pubsub(request: pytest.FixtureRequest) -> AsyncIterator[PubSub]:
    url = request.getfixturevalue("redis_server").url if request.param == "redis" else None
    bus = open_pubsub(url)
    await bus.start()
    yield bus
    await bus.close()


async def settle(pubsub: PubSub, channel: str, heard: list[str]) -> None:
    """Publishes a marker on `channel` (which `heard` listens to) and waits for it to arrive."""
    await pubsub.publish(channel, "marker")
    for _ in range(200):
        if "marker" in heard:
            heard.remove("marker")
            return
        await asyncio.sleep(0.01)
    raise AssertionError(f"the marker on {channel} never arrived")


async def test_subscribers_get_messages_in_publication_order(pubsub: PubSub) -> None:
    first: list[str] = []
    second: list[str] = []
    await pubsub.subscribe("table:a", first.append)
    await pubsub.subscribe("table:a", second.append)
    for message in ("1", "2", "3"):
        await pubsub.publish("table:a", message)
    await settle(pubsub, "table:a", first)
    second.remove("marker")
    assert first == second == ["1", "2", "3"]


async def test_messages_stay_on_their_channel(pubsub: PubSub) -> None:
    heard: list[str] = []
    await pubsub.subscribe("table:a", heard.append)
    await pubsub.publish("table:b", "not for a")
    await settle(pubsub, "table:a", heard)
    assert heard == []


async def test_unsubscribed_callback_hears_nothing_more(pubsub: PubSub) -> None:
    heard: list[str] = []
    still: list[str] = []
    unsubscribe = await pubsub.subscribe("table:a", heard.append)
    await pubsub.subscribe("table:a", still.append)
    await pubsub.publish("table:a", "before")
    await settle(pubsub, "table:a", still)
    await unsubscribe()
    await pubsub.publish("table:a", "after")
    await settle(pubsub, "table:a", still)
    assert heard == ["before", "marker"]
    assert still == ["before", "after"]


async def test_last_unsubscribe_then_subscribe_again_hears_again(pubsub: PubSub) -> None:
    heard: list[str] = []
    unsubscribe = await pubsub.subscribe("table:a", heard.append)
    await unsubscribe()
    await pubsub.subscribe("table:a", heard.append)
    await settle(pubsub, "table:a", heard)
    assert heard == []


async def test_publishing_to_nobody_is_fine(pubsub: PubSub) -> None:
    await pubsub.publish("table:empty", "hello")
