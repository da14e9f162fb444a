"""The WebSocket connections of this process, grouped by table: one pub/sub subscription per table
with sockets here, and one outgoing queue per socket so a slow reader never holds up the others.

With several processes, frames of one table reach a process in any order and the bus may lose
some (Redis away): an audience passes on no frame older than one it has sent, and on `RESYNC`
fetches the table's latest.

A socket joins before it is sent its first frame: the table's channel is subscribed, then the
table read, so every change after that read comes as a frame. Until that first frame goes out the
socket waits, and the frames passed on meanwhile are kept for it; those newer than its first
frame follow it. Storage may be ahead of the bus: frames the bus brings later that are older than
a socket's first frame are not sent to it. A viewer on any process sees every move, one after
another, and never a move undone.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import json
import logging
from collections.abc import Awaitable, Callable, Iterable

from starlette.websockets import WebSocket

from tictactoe.server.ops.scope import SEND_TEXT_NOW
from tictactoe.server.pubsub import RESYNC, PubSub, Unsubscribe
from tictactoe.server.table.broadcast import channel_of
from tictactoe.server.table.envelope import KEY, Envelope, decode

log = logging.getLogger(__name__)

# Fetches a table's latest envelope from storage (None: no such table).
Resync = Callable[[str], Awaitable[str | None]]


class ConnectionState(enum.Enum):
    OPEN = "open"
    CLOSED = "closed"


class Connection:
    """One socket: who is behind it, and the frames on their way to it. Frames are encoded once
    for every socket, with table links at `links[0]`; this socket's own address, `links[1]`,
    replaces it in what it is sent.

    Under `tictactoe serve` a frame is written to the socket at once, by the server's
    `SEND_TEXT_NOW` (its protocol never waits to write: the transport buffers). Elsewhere, a
    writer task runs only while there is something to send, and ends once all is sent: an idle
    socket holds no task, no queue, no futures (a queue and a task for each of 2 000 idle
    sockets were ~7 KB per table, measured with bench/server.py)."""

    __slots__ = (
        "_links",
        "_max_queued",
        "_pending",
        "_send_now",
        "_writer",
        "person",
        "state",
        "websocket",
    )

    def __init__(
        self,
        websocket: WebSocket,
        person: str | None,
        max_queued: int,
        links: tuple[str, str] | None = None,
    ) -> None:
        self.websocket = websocket
        self._links = None
        if links is not None and links[0].rstrip("/") != links[1].rstrip("/"):
            self._links = (_link_prefix(links[0]), _link_prefix(links[1]))
        self.person = person  # seat token hash, or None for a spectator
        self.state = ConnectionState.OPEN
        self._max_queued = max_queued
        self._pending: list[str] | None = None  # None: no writer running
        self._writer: asyncio.Future[None] | None = None
        self._send_now: Callable[[str], bool] | None = websocket.scope.get("extensions", {}).get(
            SEND_TEXT_NOW
        )

    def send(self, text: str) -> None:
        """Queues a message; a socket too slow to keep up is closed (its client will resync)."""
        if self.state is not ConnectionState.OPEN:
            return
        if self._links is not None:
            text = text.replace(*self._links)
        pending = self._pending
        if pending is None and self._send_now is not None:
            if not self._send_now(text):
                self.state = ConnectionState.CLOSED  # closing: the reader side cleans up
        elif pending is None:
            self._pending = [text]
            self._writer = asyncio.ensure_future(self._write())
        elif len(pending) < self._max_queued:
            pending.append(text)
        else:
            log.warning("closing a socket that does not keep up")
            self.state = ConnectionState.CLOSED
            if self._writer is not None:
                self._writer.cancel()
            task = asyncio.ensure_future(self.websocket.close(code=1013))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _write(self) -> None:
        try:
            while self._pending:
                batch, self._pending = self._pending, []
                for text in batch:
                    await self.websocket.send_text(text)
        except Exception:  # the socket went away; the reader side will notice and clean up
            self.state = ConnectionState.CLOSED
        finally:
            self._pending = None
            self._writer = None

    async def close(self) -> None:
        """Stops writing (after what is queued, if the socket is still open)."""
        writer = self._writer
        if self.state is ConnectionState.OPEN:
            self.state = ConnectionState.CLOSED
        elif writer is not None:
            writer.cancel()
        if writer is not None:
            with contextlib.suppress(asyncio.CancelledError, Exception):
                await asyncio.wait_for(asyncio.shield(writer), timeout=1.0)
            writer.cancel()


def _link_prefix(base_url: str) -> str:
    """How a table link to `base_url` begins in a frame's JSON.

    >>> _link_prefix("http://127.0.0.1:8000/")
    '"url":"http://127.0.0.1:8000/t/'
    """
    return '"url":' + json.dumps(base_url.rstrip("/") + "/t/")[:-1]


class Audience:
    """The sockets watching one table in this process."""

    __slots__ = (  # one a table
        "_floors",
        "_resync",
        "_version",
        "connections",
        "table_id",
        "unsubscribe",
        "waiting",
    )

    def __init__(self, table_id: str = "", resync: Resync | None = None) -> None:
        self.connections: set[Connection] = set()
        # Joined, first frame not yet sent: the frames passed on since, for after it.
        self.waiting: dict[Connection, list[Envelope]] = {}
        self.unsubscribe: Unsubscribe | None = None
        self.table_id = table_id
        self._resync = resync
        self._version = 0  # of the newest frame passed on
        # Sockets whose first frame is newer than that: what they get is no older than it.
        self._floors: dict[Connection, int] = {}

    @property
    def empty(self) -> bool:
        return not self.connections and not self.waiting

    def admit(self, connection: Connection, version: int, first_frame: str) -> None:
        """Sends a waiting socket its first frame (the table at `version`), then what was passed
        on since that is newer; from now on it gets every frame."""
        heard = self.waiting.pop(connection, None)
        if heard is None:
            return  # it left meanwhile
        connection.send(first_frame)
        for envelope in heard:
            if envelope.version > version:
                connection.send(envelope.frame_for(connection.person))
        if version > self._version:
            # Storage is ahead of the bus: frames it still brings may be older than this one.
            if self.connections:
                self._floors[connection] = version
            else:
                self._version = version
        self.connections.add(connection)

    def leave(self, connection: Connection) -> bool:
        """Takes a socket out; whether it was here."""
        self._floors.pop(connection, None)
        if connection in self.waiting:
            del self.waiting[connection]
            return True
        if connection in self.connections:
            self.connections.remove(connection)
            return True
        return False

    def _receivers(self, version: int) -> Iterable[Connection]:
        """The sockets a frame of `version` goes to: all, but those whose first frame is newer."""
        floors = self._floors
        if not floors:
            return self.connections
        if version >= max(floors.values()):
            floors.clear()  # the bus has caught up with them all
            return self.connections
        return [c for c in self.connections if floors.get(c, 0) <= version]

    def deliver(self, envelope: str, only_newer: bool = False) -> None:
        if envelope == RESYNC:
            self.catch_up()
            return
        decoded = decode(envelope)
        version = decoded.version
        if version < self._version or (only_newer and version == self._version):
            return  # overtaken: a newer state went out already (or, polling, nothing new)
        self._version = version
        for heard in self.waiting.values():
            heard.append(decoded)
        if decoded.kind == "f":
            # The same bytes for everyone; after a move, the player waiting for it first.
            frame = decoded.body
            first = {"x": decoded.x_keys, "o": decoded.o_keys}.get(decoded.mark or "", ())
            later = []
            for connection in self._receivers(version):
                person = connection.person
                if person is not None and person[:KEY] in first:
                    connection.send(frame)
                else:
                    later.append(connection)
            for connection in later:
                connection.send(frame)
            return
        # The whole table: one frame per seat (x, o, spectator), each viewer gets their own.
        frames: dict[str, str] = {}
        for connection in self._receivers(version):
            seat = decoded.seat_of(connection.person)
            if seat not in frames:
                frames[seat] = decoded.frame_for(connection.person)
            connection.send(frames[seat])

    def catch_up(self, only_newer: bool = False) -> None:
        """Sends everyone the table as stored now (after messages may have been lost)."""
        if self._resync is None:
            return
        task = asyncio.ensure_future(self._catch_up(self._resync, only_newer))
        task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _catch_up(self, resync: Resync, only_newer: bool) -> None:
        try:
            envelope = await resync(self.table_id)
        except Exception as error:  # the database is away too: the next frame will do
            log.warning("could not resync table %s: %s", self.table_id, error)
            return
        if envelope is not None:
            self.deliver(envelope, only_newer)


class Hub:
    """Subscribes to a table's channel while this process has sockets at it."""

    def __init__(self, pubsub: PubSub, resync: Resync | None = None) -> None:
        self._pubsub = pubsub
        self._audiences: dict[str, Audience] = {}
        self.closed_sockets = 0  # ever (they are what leaves garbage behind: ops/garbage.py)
        # Only a bus that can lose or reorder messages (Redis) needs catching up from storage.
        self._resync = resync

    async def join(self, table_id: str, connection: Connection) -> None:
        """Adds a socket to its table's audience, waiting (see `admit`), once the table's channel
        is subscribed here: what is published after this returns reaches it."""
        audience = self._audiences.get(table_id)
        if audience is not None:
            audience.waiting[connection] = []
            return
        audience = self._audiences[table_id] = Audience(table_id, self._resync)
        # In the audience at once: sockets joining and leaving while the subscription is set
        # up (Redis confirms it) must not leave it empty, and so forgotten, meanwhile.
        audience.waiting[connection] = []
        try:
            unsubscribe = await self._pubsub.subscribe(channel_of(table_id), audience.deliver)
        except BaseException:
            if self._audiences.get(table_id) is audience:
                del self._audiences[table_id]
            raise
        if self._audiences.get(table_id) is not audience:
            await unsubscribe()  # every socket left meanwhile: nobody to deliver to
            return
        audience.unsubscribe = unsubscribe

    def admit(self, table_id: str, connection: Connection, version: int, first_frame: str) -> None:
        """Sends a joined socket its first frame, the table at `version` as read after `join`;
        the frames passed on since that are newer follow it."""
        audience = self._audiences.get(table_id)
        if audience is not None:
            audience.admit(connection, version, first_frame)

    async def leave(self, table_id: str, connection: Connection) -> None:
        audience = self._audiences.get(table_id)
        if audience is None:
            return
        if audience.leave(connection):
            self.closed_sockets += 1
        if audience.empty:
            del self._audiences[table_id]
            if audience.unsubscribe is not None:
                await audience.unsubscribe()

    async def poll_while_the_bus_is_down(self, every: float = 2.0) -> None:
        """While the bus cannot deliver (Redis away), re-reads every table with sockets here each
        `every` seconds and sends what is new: play across processes goes on, a little slower,
        instead of stalling until Redis is back. Runs until cancelled."""
        while True:
            await asyncio.sleep(every)
            if self._resync is not None and not getattr(self._pubsub, "connected", True):
                for audience in list(self._audiences.values()):
                    audience.catch_up(only_newer=True)

    @property
    def connection_count(self) -> int:
        return sum(
            len(audience.connections) + len(audience.waiting)
            for audience in self._audiences.values()
        )
