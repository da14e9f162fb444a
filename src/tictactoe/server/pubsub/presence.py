"""Who is connected to a table through any process (scale-out), kept in Redis.

Each process counts its own sockets (see `Table.connect`); here it also records, per table, a
sorted set of `person|process` members scored by when that process last vouched for them, and
a hash of when each person last left. A heartbeat re-vouches every few seconds, so the sockets
of a process that died (SIGKILL) stop counting after `ttl` seconds. If Redis is away, a table's
last known answer stands (so nobody can claim a win against a player merely because Redis went
quiet), and each process adds what it sees itself.
"""

from __future__ import annotations

import asyncio
import contextlib
import logging
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable
from dataclasses import dataclass, field

import redis.asyncio as aioredis
from redis.exceptions import RedisError

log = logging.getLogger(__name__)


@dataclass(frozen=True, slots=True)
class Seen:
    """Presence at a table as all processes see it: who is connected somewhere, and since when
    each of the others has been gone."""

    connected: frozenset[str] = frozenset()
    left_at: dict[str, float] = field(default_factory=dict)
    # Spectators' sockets at the table in the other processes.
    spectators: int = 0


class SharedPresence:
    """Presence across processes, in the Redis at `url`."""

    def __init__(
        self,
        url: str,
        *,
        ttl: float = 15.0,
        heartbeat: float = 5.0,
        clock: Callable[[], float] = time.time,
    ) -> None:
        self.url = url
        self.process = uuid.uuid4().hex[:12]
        self._ttl = ttl
        self._heartbeat = heartbeat
        self._clock = clock
        self._client: aioredis.Redis | None = None
        self._here: set[tuple[str, str]] = set()  # (table id, person) with a socket here
        self._watching: dict[str, int] = {}  # table id -> spectators' sockets here
        self._task: asyncio.Task[None] | None = None
        self._last_seen: OrderedDict[str, Seen] = OrderedDict()  # by table, most recent last

    async def start(self) -> None:
        self._client = aioredis.Redis.from_url(
            self.url, socket_connect_timeout=1.0, socket_timeout=1.0
        )
        self._task = asyncio.create_task(self._vouch_forever(), name="presence-heartbeat")

    async def close(self) -> None:
        if self._task is not None:
            self._task.cancel()
            with contextlib.suppress(asyncio.CancelledError):
                await self._task
        # Leaving cleanly: this process's sockets stop counting at once, not after the ttl.
        for table_id, person in list(self._here):
            await self.left(table_id, person)
        if self._client is not None:
            await self._client.aclose()

    async def arrived(self, table_id: str, person: str) -> None:
        """`person` has a socket at the table in this process (their first one here)."""
        self._here.add((table_id, person))
        with contextlib.suppress(RedisError, OSError):
            assert self._client is not None
            async with self._client.pipeline(transaction=True) as pipe:
                pipe.zadd(_members(table_id), {self._member(person): self._clock()})
                pipe.expire(_members(table_id), int(self._ttl * 4))
                await pipe.execute()

    async def left(self, table_id: str, person: str) -> None:
        """`person`'s last socket at the table in this process closed."""
        self._here.discard((table_id, person))
        with contextlib.suppress(RedisError, OSError):
            assert self._client is not None
            async with self._client.pipeline(transaction=True) as pipe:
                pipe.zrem(_members(table_id), self._member(person))
                pipe.hset(_left(table_id), person, str(self._clock()))
                pipe.expire(_left(table_id), 7 * 24 * 3600)
                await pipe.execute()

    async def watching(self, table_id: str, spectators: int) -> None:
        """This process has `spectators` spectators' sockets at the table now."""
        if spectators:
            self._watching[table_id] = spectators
        else:
            self._watching.pop(table_id, None)
        with contextlib.suppress(RedisError, OSError):
            assert self._client is not None
            async with self._client.pipeline(transaction=True) as pipe:
                if spectators:
                    pipe.hset(_watching(table_id), self.process, f"{spectators}:{self._clock()}")
                    pipe.expire(_watching(table_id), int(self._ttl * 4))
                else:
                    pipe.hdel(_watching(table_id), self.process)
                await pipe.execute()

    async def seen(self, table_id: str) -> Seen:
        """Who is connected to the table through any process, and when the others left."""
        if self._client is None:
            return Seen()
        try:
            async with self._client.pipeline(transaction=False) as pipe:
                pipe.zrange(_members(table_id), 0, -1, withscores=True)
                pipe.hgetall(_left(table_id))
                pipe.hgetall(_watching(table_id))
                members, left, watching = await pipe.execute()
        except (RedisError, OSError) as error:
            log.warning("presence unavailable (%s): keeping the last known", error)
            return self._last_seen.get(table_id, Seen())
        alive_after = self._clock() - self._ttl
        connected: set[str] = set()
        left_at = {_text(person): float(when) for person, when in left.items()}
        for member, vouched in members:
            person = _text(member).split("|", 1)[0]
            if vouched >= alive_after:
                connected.add(person)
            else:  # its process stopped vouching (killed): gone since it last did
                left_at[person] = max(left_at.get(person, 0.0), float(vouched))
        for person in connected:
            left_at.pop(person, None)
        spectators = 0
        for process, entry in watching.items():
            count, _, vouched = _text(entry).partition(":")
            if _text(process) != self.process and float(vouched or 0) >= alive_after:
                spectators += int(count)
        seen = Seen(frozenset(connected), left_at, spectators)
        self._last_seen[table_id] = seen
        self._last_seen.move_to_end(table_id)
        if len(self._last_seen) > _REMEMBERED_TABLES:
            self._last_seen.popitem(last=False)
        return seen

    def _member(self, person: str) -> str:
        return f"{person}|{self.process}"

    async def _vouch_forever(self) -> None:
        while True:
            await asyncio.sleep(self._heartbeat)
            if not (self._here or self._watching) or self._client is None:
                continue
            now = self._clock()
            try:
                async with self._client.pipeline(transaction=False) as pipe:
                    for table_id, person in self._here:
                        pipe.zadd(_members(table_id), {self._member(person): now})
                        pipe.expire(_members(table_id), int(self._ttl * 4))
                    for table_id, count in self._watching.items():
                        pipe.hset(_watching(table_id), self.process, f"{count}:{now}")
                        pipe.expire(_watching(table_id), int(self._ttl * 4))
                    await pipe.execute()
            except (RedisError, OSError) as error:
                log.warning("presence heartbeat failed: %s", error)


_REMEMBERED_TABLES = 10_000


def _members(table_id: str) -> str:
    return f"presence:{table_id}"


def _left(table_id: str) -> str:
    return f"presence-left:{table_id}"


def _watching(table_id: str) -> str:
    return f"presence-watching:{table_id}"


def _text(value: bytes | str) -> str:
    return value.decode() if isinstance(value, bytes) else value
