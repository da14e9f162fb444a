"""Which pub/sub the settings mean: in-process, or Redis."""

from __future__ import annotations

from tictactoe.server.pubsub import PubSub


def open_pubsub(redis_url: str | None) -> PubSub:
    """The pub/sub for the settings: in-process without a Redis URL, else Redis.

    >>> type(open_pubsub(None)).__name__
    'MemoryPubSub'
    >>> type(open_pubsub("redis://127.0.0.1:6379/0")).__name__
    'RedisPubSub'
    """
    if redis_url is None:
        from tictactoe.server.pubsub.memory import MemoryPubSub

        return MemoryPubSub()
    from tictactoe.server.pubsub.redis import RedisPubSub

    return RedisPubSub(redis_url)
