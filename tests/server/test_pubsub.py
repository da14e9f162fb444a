"""The pub/sub suite: every `PubSub` implementation must pass it (add Redis to `BUSES`)."""

from __future__ import annotations

from collections.abc import AsyncIterator

import pytest

from tictactoe.server.pubsub import PubSub, open_pubsub

BUSES = [None]  # redis URLs; None is the in-process bus


@pytest.fixture(params=BUSES)
async def pubsub(request: pytest.FixtureRequest) -> AsyncIterator[PubSub]:
    bus = open_pubsub(request.param)
    await bus.start()
    yield bus
    await bus.close()


async def test_subscribers_get_messages_in_publication_order(pubsub: PubSub) -> None:
    first: list[str] = []
    second: list[str] = []
    await pubsub.subscribe("table:a", first.append)
    await pubsub.subscribe("table:a", second.append)
    for message in ("1", "2", "3"):
        await pubsub.publish("table:a", message)
    assert first == second == ["1", "2", "3"]


async def test_messages_stay_on_their_channel(pubsub: PubSub) -> None:
    heard: list[str] = []
    await pubsub.subscribe("table:a", heard.append)
    await pubsub.publish("table:b", "not for a")
    assert heard == []


async def test_unsubscribed_callback_hears_nothing_more(pubsub: PubSub) -> None:
    heard: list[str] = []
    unsubscribe = await pubsub.subscribe("table:a", heard.append)
    await pubsub.publish("table:a", "before")
    await unsubscribe()
    await pubsub.publish("table:a", "after")
    assert heard == ["before"]


async def test_publishing_to_nobody_is_fine(pubsub: PubSub) -> None:
    await pubsub.publish("table:empty", "hello")


def test_redis_is_refused_clearly_until_it_exists() -> None:
    with pytest.raises(ValueError, match="Redis"):
        open_pubsub("redis://127.0.0.1:6379/0")
