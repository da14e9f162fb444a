"""Fan-out of table changes: one small interface, `PubSub`, with an in-process implementation.

A message is a string published on a channel (one channel per table); every subscriber of that
channel, in this process or (with Redis, later) in any other, gets it in publication order.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

Callback = Callable[[str], None]
Unsubscribe = Callable[[], Awaitable[None]]


class PubSub(Protocol):
    """Publish/subscribe by channel. Callbacks must not block: they hand the message on."""

    async def start(self) -> None:
        """Connects."""

    async def close(self) -> None:
        """Disconnects; subscriptions end."""

    async def publish(self, channel: str, message: str) -> None:
        """Delivers `message` to every subscriber of `channel`."""

    async def subscribe(self, channel: str, callback: Callback) -> Unsubscribe:
        """Calls `callback(message)` for each message on `channel` until unsubscribed."""


def open_pubsub(redis_url: str | None) -> PubSub:
    """The pub/sub for the settings: in-process without a Redis URL.

    >>> type(open_pubsub(None)).__name__
    'MemoryPubSub'
    """
    if redis_url is None:
        from tictactoe.server.pubsub.memory import MemoryPubSub

        return MemoryPubSub()
    raise ValueError("Redis pub/sub is not available yet: run without --redis")
