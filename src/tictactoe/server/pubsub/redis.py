"""Fan-out across processes and hosts through Redis pub/sub (`tictactoe serve --redis URL`).

One connection publishes; one more listens to every channel this process has subscribers for, and
a reader task hands each message to the channel's callbacks in arrival order. Redis pub/sub keeps
nothing for a subscriber that is away, so a lost connection means lost messages: the reader
reconnects (with backoff), subscribes again, and then calls every callback with `RESYNC` so the
subscribers re-read the truth from the database. A subscription that Redis confirms only after
`subscribe` stopped waiting (a slow Redis, or one being connected to) gets a `RESYNC` once it is
confirmed: what was published before it took effect went unheard. A publish that cannot reach
Redis is delivered to this process's own subscribers at once, and the other processes catch up
by that same resync.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
from typing import Any

import redis.asyncio as aioredis
from redis.exceptions import RedisError

from tictactoe.server.pubsub import RESYNC, Callback, Unsubscribe

log = logging.getLogger(__name__)

# Subscribed at all times, so the listening connection has something to listen to (redis-py's
# listener stops when nothing is subscribed) and its first confirmation says "connected".
_CONTROL_CHANNEL = "tictactoe:control"
_CONFIRM_SECONDS = 2.0


class RedisPubSub:
    """`PubSub` on a Redis server shared by every process of the site."""

    def __init__(
        self,
        url: str,
        *,
        max_backoff_seconds: float = 2.0,
        confirm_seconds: float = _CONFIRM_SECONDS,
    ) -> None:
        self.url = url
        self._max_backoff = max_backoff_seconds
        self._confirm_seconds = confirm_seconds
        self._callbacks: dict[str, list[Callback]] = {}
        self._client: aioredis.Redis | None = None
        self._listener: Any = None  # redis.asyncio.client.PubSub while connected
        self._reader: asyncio.Task[None] | None = None
        self._confirmations: dict[str, asyncio.Future[None]] = {}
        # Channels subscribed to but not yet confirmed by Redis.
        self._unconfirmed: set[str] = set()
        self._connected = asyncio.Event()
        # Messages may have been lost since the listener last connected: resync when it is back.
        self._missed = False
        # Publications waiting for the batch on its way to go out (see `publish`).
        self._outbox: list[tuple[str, str, asyncio.Future[None]]] = []
        self._sender: asyncio.Future[None] | None = None

    @property
    def connected(self) -> bool:
        return self._connected.is_set()

    async def start(self) -> None:
        # A short socket timeout: a publish must never hold a table for long when Redis is away.
        self._client = aioredis.Redis.from_url(
            self.url, socket_connect_timeout=1.0, socket_timeout=1.0
        )
        self._reader = asyncio.create_task(self._read_forever(), name="redis-pubsub-reader")
        # Wait for the first connection a little, so that what is published right after start
        # is heard; if Redis is down the site still starts and catches up once it is back.
        with contextlib.suppress(TimeoutError):
            await asyncio.wait_for(self._connected.wait(), timeout=3.0)

    async def close(self) -> None:
        if self._sender is not None:
            self._sender.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._sender
        if self._reader is not None:
            self._reader.cancel()
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await self._reader
            self._reader = None
        await self._drop_listener()
        if self._client is not None:
            await self._client.aclose()
            self._client = None
        self._callbacks.clear()

    async def ping(self) -> None:
        """Raises unless Redis answers (for /readyz)."""
        if self._client is None or not self.connected:
            raise ConnectionError("not connected to Redis")
        await self._client.ping()

    async def publish(self, channel: str, message: str) -> None:
        """Returns once Redis has the message (or, failing that, this process's subscribers).

        Publications go out pipelined: whatever is published while one batch is on its way to
        Redis waits, and goes as the next batch in one write and one read of all the replies,
        in publication order. One connection, one round trip per batch rather than per message
        (a flooded process spent ~10% of its time on separate PUBLISH round trips)."""
        assert self._client is not None, "RedisPubSub.start() has not been called"
        done = asyncio.get_running_loop().create_future()
        self._outbox.append((channel, message, done))
        if self._sender is None:
            self._sender = asyncio.ensure_future(self._send_batches())
        await done

    async def _send_batches(self) -> None:
        try:
            while self._outbox:
                batch, self._outbox = self._outbox, []
                try:
                    assert self._client is not None
                    async with self._client.pipeline(transaction=False) as pipe:
                        for channel, message, _ in batch:
                            pipe.publish(channel, message)
                        await pipe.execute()
                except (RedisError, OSError) as error:
                    log.warning(
                        "redis publish failed (%s): delivering here, resync elsewhere", error
                    )
                    self._missed = True
                    for channel, message, _ in batch:
                        self._deliver(channel, message)
                for _, _, done in batch:
                    if not done.done():
                        done.set_result(None)
        finally:
            self._sender = None
            for _, _, done in self._outbox:  # cancelled (closing): nobody waits in vain
                if not done.done():
                    done.set_result(None)
            self._outbox = []

    async def subscribe(self, channel: str, callback: Callback) -> Unsubscribe:
        callbacks = self._callbacks.setdefault(channel, [])
        callbacks.append(callback)
        if len(callbacks) == 1:
            self._unconfirmed.add(channel)
            if self._listener is not None:
                await self._subscribe_confirmed(channel)

        async def unsubscribe() -> None:
            current = self._callbacks.get(channel)
            if current is None or callback not in current:
                return
            current.remove(callback)
            if not current:
                del self._callbacks[channel]
                self._unconfirmed.discard(channel)
                if self._listener is not None:
                    with contextlib.suppress(RedisError, OSError):
                        await self._listener.unsubscribe(channel)

        return unsubscribe

    # -- the listening connection --

    async def _subscribe_confirmed(self, *channels: str) -> None:
        """Subscribes and waits until Redis confirms, so nothing published after this returns is
        missed. On failure the reader's reconnection subscribes again (and resyncs)."""
        loop = asyncio.get_running_loop()
        waiting = [self._confirmations.setdefault(c, loop.create_future()) for c in channels]
        try:
            await self._listener.subscribe(*channels)
            await asyncio.wait_for(asyncio.gather(*waiting), timeout=self._confirm_seconds)
        except (RedisError, OSError, TimeoutError, AttributeError) as error:
            log.warning("redis subscribe failed (%s); will resubscribe on reconnection", error)
            self._missed = True
        finally:
            for channel in channels:
                self._confirmations.pop(channel, None)

    async def _read_forever(self) -> None:
        backoff = 0.05
        while True:
            try:
                await self._listen()
            except asyncio.CancelledError:
                raise
            except Exception as error:  # connection refused, reset, or Redis restarting
                if self._connected.is_set():
                    log.warning("redis subscription lost (%s); reconnecting", error)
                self._connected.clear()
                self._missed = True
                await self._drop_listener()
                await asyncio.sleep(backoff)
                backoff = min(self._max_backoff, backoff * 2)
            else:
                backoff = 0.05

    async def _listen(self) -> None:
        assert self._client is not None
        # Its own connection without a read timeout: the listener waits for messages indefinitely.
        listener = aioredis.Redis.from_url(
            self.url, socket_connect_timeout=1.0, socket_keepalive=True
        ).pubsub()
        self._listener = listener
        await listener.subscribe(_CONTROL_CHANNEL, *self._callbacks)
        async for message in listener.listen():
            kind, channel = message["type"], _text(message["channel"])
            if kind == "subscribe":
                future = self._confirmations.get(channel)
                if future is not None and not future.done():
                    future.set_result(None)  # its subscriber catches up from here
                elif channel in self._unconfirmed:
                    self._deliver(channel, RESYNC)  # its subscriber thinks it has been all along
                self._unconfirmed.discard(channel)
                if channel == _CONTROL_CHANNEL:
                    self._connected.set()
                    log.info("redis subscription connected")
                    if self._missed:
                        self._missed = False
                        for missed_channel in list(self._callbacks):
                            self._deliver(missed_channel, RESYNC)
            elif kind == "message":
                self._deliver(channel, _text(message["data"]))

    async def _drop_listener(self) -> None:
        listener, self._listener = self._listener, None
        if listener is not None:
            with contextlib.suppress(Exception):
                await listener.aclose()
            with contextlib.suppress(Exception):
                await listener.connection_pool.aclose()

    def _deliver(self, channel: str, message: str) -> None:
        # A copy: a callback may unsubscribe while we iterate.
        for callback in list(self._callbacks.get(channel, ())):
            try:
                callback(message)
            except Exception:
                log.exception("a pub/sub callback failed on %s", channel)


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
