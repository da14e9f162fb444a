"""Fan-out of table changes: one small interface, `PubSub`, in-process or on Redis.

A message is a string published on a channel (one channel per table); every subscriber of that
channel, in this process or (with Redis) in any other, gets it in publication order. A bus that
may lose messages (Redis while a connection is down) tells each subscriber so afterwards with the
message `RESYNC`, and the subscriber re-reads the state from storage.
"""

from __future__ import annotations

from collections.abc import Awaitable, Callable
from typing import Protocol

Callback = Callable[[str], None]
Unsubscribe = Callable[[], Awaitable[None]]

# "Messages on this channel may have been lost": never a message of ours (those are not empty).
RESYNC = ""


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
