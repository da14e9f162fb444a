"""The WebSocket protocol `tictactoe serve` runs: uvicorn's sans-I/O one (websockets' parser, no
tasks of its own), holding less for each open socket and offering the site a write that does not
go through a task.

Measured with tracemalloc over 1 000 idle sockets (the bench's relay on stock uvicorn): of ~14 KB
of Python objects per socket, ~2.3 KB were the inbox (an `asyncio.Queue`: three deques and an
event with a fourth) and the `writable` event (a fifth deque, though nothing ever clears it), and
~1.5 KB the handshake's request and response, kept for the socket's whole life. Here the inbox is
a list and a future made only while the app waits, the event is one shared object, and the
handshake goes once the socket is open (its request's headers, a list per name, are emptied:
websockets' parser keeps the request itself).

The write: uvicorn's `send` is a coroutine, so every frame the site fans out to a socket needed a
task of its own, and a turn of the event loop, before it reached the socket. The sans-I/O
protocol never waits to write (the transport buffers), so the same write can be a plain call:
it is offered to the app as the ASGI scope extension `SEND_TEXT_NOW` (a callable taking the
text; it returns False, writing nothing, once the socket is closing). An app under another
server does not find it and sends the ASGI way.

A client that stops reading would have every frame sent to it kept in the transport's buffer
(the protocol never pauses the app): past `MAX_UNSENT_BYTES` the connection is dropped, and the
client, once it reads again, reconnects and gets the table whole.

A handshake the parser never finishes (a header line over its 8 KB, more than 128 headers) is
closed after the header timeout; and the connection, counted against its address's caps when it
opened as HTTP, is let go of here when it closes (`address_caps`).
"""

from __future__ import annotations

import asyncio
import logging
from typing import Any

from uvicorn.protocols.websockets.websockets_sansio_impl import WebSocketsSansIOProtocol
from websockets.http11 import Request

from tictactoe.server.edge.address_caps import address_caps
from tictactoe.server.edge.http_protocol import header_timeout
from tictactoe.server.ops.scope import SEND_TEXT_NOW

# What one socket may have written but not yet taken by its client (beyond the kernel's own
# buffers): hundreds of frames. A reader that far behind is dropped.
MAX_UNSENT_BYTES = 1024 * 1024

log = logging.getLogger(__name__)


class _Inbox:
    """What uvicorn's protocol asks of its queue of incoming ASGI events (`put_nowait`, `get`,
    `empty`), with no deque, lock or event: uvicorn stops reading a socket while one message is
    waiting for the app, so there are rarely more than two in it."""

    __slots__ = ("_items", "_loop", "_waiter")

    def __init__(self, loop: asyncio.AbstractEventLoop) -> None:
        self._loop = loop
        self._items: list[Any] = []
        self._waiter: asyncio.Future[None] | None = None

    def put_nowait(self, item: Any) -> None:
        self._items.append(item)
        waiter = self._waiter
        if waiter is not None and not waiter.done():
            waiter.set_result(None)

    def empty(self) -> bool:
        return not self._items

    def qsize(self) -> int:
        return len(self._items)

    async def get(self) -> Any:
        while not self._items:
            waiter = self._waiter = self._loop.create_future()
            try:
                await waiter
            finally:
                self._waiter = None
        return self._items.pop(0)


class _AlwaysWritable:
    """uvicorn's `writable` event for this protocol, which never clears it: waiting returns at
    once. One for every socket."""

    __slots__ = ()

    def set(self) -> None:
        pass

    def is_set(self) -> bool:
        return True

    async def wait(self) -> bool:
        return True


_ALWAYS_WRITABLE = _AlwaysWritable()


class LeanWebSocketProtocol(WebSocketsSansIOProtocol):
    """uvicorn's sans-I/O WebSocket protocol with a small inbox, no per-socket `writable` event, no
    handshake kept after it, and the `SEND_TEXT_NOW` scope extension."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.queue = _Inbox(self.loop)  # type: ignore[assignment]
        self.writable = _ALWAYS_WRITABLE  # type: ignore[assignment]
        self._handshake_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.BaseTransport) -> None:  # type: ignore[override]
        super().connection_made(transport)  # type: ignore[arg-type]
        self._handshake_deadline = self.loop.call_later(header_timeout(), self._too_slow)

    def connection_lost(self, exc: Exception | None) -> None:
        self._stop_deadline()
        address_caps().release(self.transport)
        super().connection_lost(exc)

    def _too_slow(self) -> None:
        self._handshake_deadline = None
        if not self.handshake_complete and not self.transport.is_closing():
            self.transport.close()

    def _stop_deadline(self) -> None:
        if self._handshake_deadline is not None:
            self._handshake_deadline.cancel()
            self._handshake_deadline = None

    def handle_connect(self, event: Request) -> None:
        self._stop_deadline()  # the handshake is parsed: the site answers it now
        super().handle_connect(event)
        self.request = None  # type: ignore[assignment]  # the scope has what the app needs
        # websockets' parser keeps the request for the socket's life (a local of its generator):
        # its headers, a list per name, are copied into the scope by now.
        event.headers.clear()
        scope = getattr(self, "scope", None)
        if scope is not None:
            scope["extensions"][SEND_TEXT_NOW] = self.send_text_now

    async def send(self, message: Any) -> None:
        await super().send(message)
        if self.handshake_complete:
            self.response = None  # type: ignore[assignment]  # sent: only the handshake needs it

    def send_text_now(self, text: str) -> bool:
        """Writes a text message to the socket at once (False, nothing written: the socket is
        closing, or not open yet)."""
        if (
            not self.handshake_complete
            or self.close_sent
            or self.initial_response is not None
            or self.transport.is_closing()
        ):
            return False
        try:
            self.conn.send_text(text.encode())
        except Exception:  # websockets' InvalidState: the closing handshake has begun
            return False
        self.transport.write(b"".join(self.conn.data_to_send()))
        if self.transport.get_write_buffer_size() > MAX_UNSENT_BYTES:
            log.warning("dropping a WebSocket whose client does not read what it is sent")
            self.transport.abort()  # the app hears a disconnect
            return False
        return True
