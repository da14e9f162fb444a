"""Fan-out inside one process: a dict of channels to callbacks."""

from __future__ import annotations

import logging

from tictactoe.server.pubsub import Callback, Unsubscribe

log = logging.getLogger(__name__)


class MemoryPubSub:
    """`PubSub` for one process: publish calls each subscriber's callback before returning."""

    def __init__(self) -> None:
        self._subscribers: dict[str, list[Callback]] = {}

    async def start(self) -> None:
        pass

    async def close(self) -> None:
        self._subscribers.clear()

    async def publish(self, channel: str, message: str) -> None:
        # A copy: a callback may unsubscribe (or subscribe) while we iterate.
        # One failing subscriber neither fails the publisher nor robs the others (as with Redis).
        for callback in list(self._subscribers.get(channel, ())):
            try:
                callback(message)
            except Exception:
                log.exception("a subscriber to %s failed", channel)

    async def subscribe(self, channel: str, callback: Callback) -> Unsubscribe:
        self._subscribers.setdefault(channel, []).append(callback)

        async def unsubscribe() -> None:
            callbacks = self._subscribers.get(channel)
            if callbacks is not None and callback in callbacks:
                callbacks.remove(callback)
                if not callbacks:
                    del self._subscribers[channel]

        return unsubscribe

    def subscriber_count(self, channel: str) -> int:
        return len(self._subscribers.get(channel, ()))
