"""What one connection may cost `tictactoe serve` before its request reaches the site, so that a
server run without a proxy in front is safe too: uvicorn's h11 protocol (httptools has no cap on
header size) with the request line and headers capped at `MAX_HEADER_BYTES` (431 beyond), and a
header timeout: a connection that has not sent a request's complete headers within it, whether
it is new, idle between requests or sending them a byte at a time, gets 408 and is closed."""

from __future__ import annotations

import asyncio
import functools
import os
from typing import Any

from uvicorn.protocols.http.h11_impl import H11Protocol

# Browsers send a few KB (cookies at most ~4 KB each); 32 KB is what nginx allows by default.
MAX_HEADER_BYTES = 32 * 1024
_TIMED_OUT = (
    b"HTTP/1.1 408 Request Timeout\r\ncontent-type: text/plain; charset=utf-8\r\n"
    b"content-length: 37\r\nconnection: close\r\n\r\nthe request's headers came too slowly"
)


@functools.cache
def header_timeout() -> float:
    """The settings' header timeout (`TICTACTOE_HEADER_TIMEOUT_SECONDS`), read once a process:
    uvicorn's worker processes import this class by name, so it reads its own settings."""
    from tictactoe.server.settings import Settings

    text = os.environ.get("TICTACTOE_HEADER_TIMEOUT_SECONDS")
    return float(text) if text else Settings().header_timeout_seconds


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the header timeout."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout()
        self._header_deadline: asyncio.TimerHandle | None = None

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        self._arm()

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            self._disarm()  # the headers are in: the request is the site's now
        elif self.transport.get_protocol() is not self:
            # Upgraded to a WebSocket: the armed timer would keep this protocol (its h11 state
            # and buffers, ~5 KB) alive for the whole timeout, for every socket that opens.
            self._disarm()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the next request's headers have the same time to arrive

    def _arm(self) -> None:
        self._disarm()
        self._header_deadline = self.loop.call_later(self.header_timeout, self._too_slow)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None

    def _too_slow(self) -> None:
        self._header_deadline = None
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return  # closed, or upgraded to a WebSocket
        if self.cycle is not None and not self.cycle.response_complete:
            return  # a request is being served
        transport.write(_TIMED_OUT)
        transport.close()
