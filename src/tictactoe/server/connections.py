"""The WebSocket connections of this process, grouped by table: one pub/sub subscription per table
with sockets here, and one outgoing queue per socket so a slow reader never holds up the others.
"""

from __future__ import annotations

import asyncio
import contextlib
import enum
import logging

from starlette.websockets import WebSocket

from tictactoe.server.pubsub import PubSub, Unsubscribe
from tictactoe.server.table import channel_of
from tictactoe.server.view import claim_frame, decode_envelope

log = logging.getLogger(__name__)

_KEY = 16


class ConnectionState(enum.Enum):
    OPEN = "open"
    CLOSED = "closed"


class Connection:
    """One socket: who is behind it, and a writer task draining its queue of frames."""

    def __init__(self, websocket: WebSocket, person: str | None, max_queued: int) -> None:
        self.websocket = websocket
        self.person = person  # seat token hash, or None for a spectator
        self.state = ConnectionState.OPEN
        self._queue: asyncio.Queue[str | None] = asyncio.Queue(max_queued)
        self._writer = asyncio.ensure_future(self._write())

    def send(self, text: str) -> None:
        """Queues a message; a socket too slow to keep up is closed (its client will resync)."""
        if self.state is not ConnectionState.OPEN:
            return
        try:
            self._queue.put_nowait(text)
        except asyncio.QueueFull:
            log.warning("closing a socket that does not keep up")
            self.state = ConnectionState.CLOSED
            self._writer.cancel()
            task = asyncio.ensure_future(self.websocket.close(code=1013))
            task.add_done_callback(lambda t: t.cancelled() or t.exception())

    async def _write(self) -> None:
        while True:
            text = await self._queue.get()
            if text is None:
                return
            try:
                await self.websocket.send_text(text)
            except Exception:  # the socket went away; the reader side will notice and clean up
                self.state = ConnectionState.CLOSED
                return

    async def close(self) -> None:
        """Stops writing (after what is queued, if the socket is still open)."""
        if self.state is ConnectionState.OPEN:
            self.state = ConnectionState.CLOSED
            with contextlib.suppress(asyncio.QueueFull):
                self._queue.put_nowait(None)
        else:
            self._writer.cancel()
        with contextlib.suppress(asyncio.CancelledError, Exception):
            await asyncio.wait_for(self._writer, timeout=1.0)


class Audience:
    """The sockets watching one table in this process."""

    def __init__(self) -> None:
        self.connections: set[Connection] = set()
        self.unsubscribe: Unsubscribe | None = None

    def deliver(self, envelope: str) -> None:
        frame, claimant_key = decode_envelope(envelope)
        for connection in self.connections:
            person = connection.person
            if claimant_key is not None and person is not None and person[:_KEY] == claimant_key:
                connection.send(claim_frame(frame))
            else:
                connection.send(frame)


class Hub:
    """Subscribes to a table's channel while this process has sockets at it."""

    def __init__(self, pubsub: PubSub) -> None:
        self._pubsub = pubsub
        self._audiences: dict[str, Audience] = {}

    async def join(self, table_id: str, connection: Connection) -> None:
        audience = self._audiences.get(table_id)
        if audience is None:
            audience = self._audiences[table_id] = Audience()
            audience.unsubscribe = await self._pubsub.subscribe(
                channel_of(table_id), audience.deliver
            )
        audience.connections.add(connection)

    async def leave(self, table_id: str, connection: Connection) -> None:
        audience = self._audiences.get(table_id)
        if audience is None:
            return
        audience.connections.discard(connection)
        if not audience.connections:
            del self._audiences[table_id]
            if audience.unsubscribe is not None:
                await audience.unsubscribe()

    @property
    def connection_count(self) -> int:
        return sum(len(audience.connections) for audience in self._audiences.values())
