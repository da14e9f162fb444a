"""What one connection may cost `tictactoe serve` before its request reaches the site, so that a
server run without a proxy in front is safe too: uvicorn's h11 protocol (httptools has no cap on
header size) with the request line and headers capped at `MAX_HEADER_BYTES` (431 beyond, however
the head arrives: in one write or in pieces; `head_size`), and a
request timeout: a connection that has not sent a request's complete headers and body within the
header timeout, whether it is new, idle between requests or sending them a byte at a time, gets
408 and is closed. What one address may hold open is capped too (`address_caps`).

A request h11 cannot parse (a header value with control characters, say) gets uvicorn's 400 in
one write, and the connection is then closed gently: our side ends at once, what the client still
sends (its body, already on the way) is read and dropped until it ends too or `LINGER_SECONDS`
pass. Closed at once, the late bytes would meet a reset, and a client's system may then drop the
400 before the client reads it (seen: about 1 request in 40 so refused, on a busy machine).

The health checks (`HEALTH_PATHS`) are exempt from the global connection cap (uvicorn's
`limit_concurrency`, 503 beyond): many addresses together may fill it, and the balancer must
still learn that the process is up rather than take it out of service."""

from __future__ import annotations

import asyncio
import functools
import os
from typing import Any

import h11
from uvicorn.protocols.http.h11_impl import H11Protocol

from tictactoe.server.edge.address_caps import REFUSED, address_caps
from tictactoe.server.edge.head_size import HeadSize

# Browsers send a few KB (cookies at most ~4 KB each); 32 KB is what nginx allows by default.
MAX_HEADER_BYTES = 32 * 1024
# Answered however many connections are open (each is a constant answer or a short probe).
HEALTH_PATHS = frozenset({"/healthz", "/readyz"})


def _plain_answer(status: bytes, text: bytes) -> bytes:
    """A whole answer written by the protocol itself: `status` ("431 …"), `text` as its body,
    and the connection closing after it."""
    return (
        b"HTTP/1.1 %s\r\ncontent-type: text/plain; charset=utf-8\r\n"
        b"content-length: %d\r\nconnection: close\r\n\r\n%s" % (status, len(text), text)
    )


_HEAD_TOO_BIG = _plain_answer(
    b"431 Request Header Fields Too Large", b"the request's headers are too large"
)
_TIMED_OUT = _plain_answer(b"408 Request Timeout", b"the request came too slowly")
# How long a refused client may go on sending (dropped) before its connection is closed.
LINGER_SECONDS = 2.0


@functools.cache
def header_timeout() -> float:
    """The settings' header timeout (`TICTACTOE_HEADER_TIMEOUT_SECONDS`), read once a process:
    uvicorn's worker processes import this class by name, so it reads its own settings."""
    from tictactoe.server.settings import Settings

    text = os.environ.get("TICTACTOE_HEADER_TIMEOUT_SECONDS")
    return float(text) if text else Settings().header_timeout_seconds


class BoundedH11Protocol(H11Protocol):
    """uvicorn's h11 protocol with the request timeout and the per-address caps."""

    def __init__(self, *args: Any, **kwargs: Any) -> None:
        super().__init__(*args, **kwargs)
        self.header_timeout = header_timeout()
        self._header_deadline: asyncio.TimerHandle | None = None
        self._caps = address_caps()
        self._head = HeadSize(MAX_HEADER_BYTES)
        self._lingering = False

    # uvicorn reads `limit_concurrency` once a request's head is parsed (its scope set): a
    # health check is then let through past the global cap.
    @property  # type: ignore[override]
    def limit_concurrency(self) -> int | None:
        scope = getattr(self, "scope", None)
        if scope is not None and scope.get("path") in HEALTH_PATHS:
            return None
        return self._limit_concurrency

    @limit_concurrency.setter
    def limit_concurrency(self, value: int | None) -> None:
        self._limit_concurrency = value

    def connection_made(self, transport: asyncio.Transport) -> None:  # type: ignore[override]
        super().connection_made(transport)
        if not self._caps.admit(transport):
            transport.write(REFUSED)
            transport.close()
            return
        self._arm()

    def data_received(self, data: bytes) -> None:
        if self._lingering:
            return  # the rest of a refused request: dropped
        # A head is arriving while h11 waits for a request (new, or the next on a kept-alive
        # connection); bytes after it (a body) are h11's business.
        if self.conn.their_state is h11.IDLE and self._head.too_big(data):
            self._disarm()
            self.transport.write(_HEAD_TOO_BIG)
            self.transport.close()
            return
        super().data_received(data)

    def send_400_response(self, msg: str) -> None:
        """uvicorn's answer to a request h11 refuses, in one write, then a gentle close."""
        self._disarm()
        self.transport.write(_plain_answer(b"400 Bad Request", msg.encode("ascii")))
        self._lingering = True
        if self.transport.can_write_eof():
            self.transport.write_eof()  # the client reads the answer, then the end
            self.loop.call_later(LINGER_SECONDS, self.transport.close)
        else:
            self.transport.close()

    def on_response_complete(self) -> None:
        super().on_response_complete()
        self._head.reset()  # the next request's head is measured afresh
        if not self.transport.is_closing() and (self.cycle is None or self.cycle.response_complete):
            self._arm()  # the next request's headers have the same time to arrive

    def connection_lost(self, exc: Exception | None) -> None:
        self._disarm()
        self._caps.release(self.transport)
        super().connection_lost(exc)

    def handle_events(self) -> None:
        super().handle_events()
        if self.cycle is not None and not self.cycle.response_complete:
            if not self.cycle.more_body or self.cycle.response_started:
                self._disarm()  # the whole request is in: it is the site's now
        elif self.transport.get_protocol() is not self:
            # Upgraded to a WebSocket: the armed timer would keep this protocol (its h11 state
            # and buffers, ~5 KB) alive for the whole timeout, for every socket that opens.
            self._disarm()

    def _arm(self) -> None:
        """A request's headers and body have the header timeout to arrive (it is unfinished)."""
        self._disarm()
        self._header_deadline = self.loop.call_later(self.header_timeout, self._too_slow)
        self._caps.request_started(self.transport)

    def _disarm(self) -> None:
        if self._header_deadline is not None:
            self._header_deadline.cancel()
            self._header_deadline = None
            self._caps.request_finished(self.transport)

    def _too_slow(self) -> None:
        self._header_deadline = None
        self._caps.request_finished(self.transport)
        transport = self.transport
        if transport.is_closing() or transport.get_protocol() is not self:
            return  # closed, or upgraded to a WebSocket
        cycle = self.cycle
        if cycle is not None and not cycle.response_complete and not cycle.more_body:
            return  # a request is being served
        if cycle is None or not cycle.response_started:
            transport.write(_TIMED_OUT)  # the headers or the body came too slowly
        transport.close()
