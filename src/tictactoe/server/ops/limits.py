"""Rate limits: token buckets per client address (moves and other actions, table creation, joins)
and per WebSocket (every message), as one ASGI middleware. Over a limit, HTTP gets `429` with
`Retry-After`; a WebSocket message gets an error frame with status 429 and the socket stays open;
a WebSocket handshake gets `429` before it is accepted.

The buckets live in each process: with N processes behind a balancer a client may get up to N
times the limit, which still bounds a flood (README "Scale-out" says how to size it).
"""

from __future__ import annotations

import json
import math
import re
import time
from collections.abc import Callable

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tictactoe.server.ops import metrics
from tictactoe.server.ops.json_input import READ_JSON, read_json
from tictactoe.server.ops.refusals import refusal, refuse_handshake
from tictactoe.server.settings import Settings

_ACTION = re.compile(
    r"^/api/tables/[^/]+/"
    r"(moves|resign|rematch|claim|seats|takeback|takeback/accept|takeback/decline|reactions"
    r"|draw|name)$"
)
_FORM_SEAT = re.compile(r"^/t/[^/]+/seats$")  # the no-JavaScript join button
_ANALYSIS = re.compile(r"^/api/positions/evaluation$|^/api/tables/[^/]+/games/[^/]+/analysis$")
_CODE = re.compile(r"^/j(/[^/]*)?$")  # a table looked up by its short code
# Socket messages that act at a table: each counts against its address's action limit too.
_SOCKET_ACTIONS = frozenset(
    {
        "move",
        "resign",
        "rematch",
        "claim",
        "takeback",
        "accept-takeback",
        "decline-takeback",
        "draw",
        "accept-draw",
        "decline-draw",
        "name",
    }
)
_QUOTED_ACTIONS = tuple(f'"{kind}"' for kind in sorted(_SOCKET_ACTIONS))


class TokenBucket:
    """One bucket: `burst` tokens, refilled at `rate` per second (a socket's own message limit:
    one per open socket, so it holds two numbers and no dict).

    >>> bucket = TokenBucket(rate=1.0, burst=2, clock=lambda: 0.0)
    >>> [bucket.take() for _ in range(3)]
    [0.0, 0.0, 1.0]
    """

    __slots__ = ("_clock", "_then", "_tokens", "burst", "rate")

    def __init__(
        self, rate: float, burst: int, clock: Callable[[], float] = time.monotonic
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._tokens = self.burst
        self._then = clock()

    def take(self) -> float:
        """Takes a token: 0.0 if there was one, else the seconds until there will be."""
        now = self._clock()
        tokens = min(self.burst, self._tokens + (now - self._then) * self.rate)
        self._then = now
        if tokens >= 1.0:
            self._tokens = tokens - 1.0
            return 0.0
        self._tokens = tokens
        return (1.0 - tokens) / self.rate


class TokenBuckets:
    """One bucket per key: `burst` tokens, refilled at `rate` per second.

    >>> buckets = TokenBuckets(rate=1.0, burst=2, clock=lambda: 0.0)
    >>> [buckets.take("a") for _ in range(3)]
    [0.0, 0.0, 1.0]
    >>> buckets.take("b")
    0.0
    """

    def __init__(
        self,
        rate: float,
        burst: int,
        clock: Callable[[], float] = time.monotonic,
        max_keys: int = 100_000,
    ) -> None:
        self.rate = rate
        self.burst = float(burst)
        self._clock = clock
        self._max_keys = max_keys
        self._buckets: dict[str, tuple[float, float]] = {}  # key -> (tokens, when counted)

    def take(self, key: str) -> float:
        """Takes a token: 0.0 if there was one, else the seconds until there will be."""
        now = self._clock()
        tokens, then = self._buckets.get(key, (self.burst, now))
        tokens = min(self.burst, tokens + (now - then) * self.rate)
        if tokens >= 1.0:
            self._buckets[key] = (tokens - 1.0, now)
            if len(self._buckets) > self._max_keys:
                self._forget_full(now)
            return 0.0
        self._buckets[key] = (tokens, now)
        return (1.0 - tokens) / self.rate

    def _forget_full(self, now: float) -> None:
        # A bucket that has refilled is the same as no bucket: memory stays bounded by the
        # clients active within the last burst/rate seconds.
        full = [
            key
            for key, (tokens, then) in self._buckets.items()
            if tokens + (now - then) * self.rate >= self.burst
        ]
        for key in full:
            del self._buckets[key]


def retry_after(wait: float) -> str:
    """The Retry-After header value for a wait in seconds (whole seconds, at least 1).

    >>> retry_after(0.2), retry_after(2.5)
    ('1', '3')
    """
    return str(max(1, math.ceil(wait)))


def client_address(scope: Scope) -> str:
    client = scope.get("client")
    return str(client[0]) if client else "unknown"


class RateLimitMiddleware:
    """Applies the settings' limits before the request reaches the site."""

    def __init__(self, app: ASGIApp, settings: Settings) -> None:
        self.app = app
        self.exempt = frozenset(settings.rate_limit_exempt)
        self.buckets = {
            "move": TokenBuckets(*settings.move_rate),
            "create": TokenBuckets(*settings.create_rate),
            "join": TokenBuckets(*settings.join_rate),
            "analysis": TokenBuckets(*settings.analysis_rate),
            "code": TokenBuckets(*settings.code_rate),
        }
        self.message_rate = settings.socket_message_rate

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            kind = _http_kind(scope["method"], scope["path"])
            wait = self._take(kind, scope) if kind else 0.0
            if wait > 0:
                message = f"too many requests: try again in {retry_after(wait)} s"
                await _too_many(wait, message)(scope, receive, send)
                return
            await self.app(scope, receive, send)
        else:  # the table's WebSocket is admitted by `admit_websocket`, from its lane
            await self.app(scope, receive, send)

    async def admit_websocket(self, scope: Scope, receive: Receive, send: Send) -> Receive | None:
        """A table socket's `receive` within its limits, or None once refused (over the join
        limit: 429, or close 1013)."""
        wait = self._take("join", scope)
        if wait > 0:
            refused = _too_many(wait, "too many connections")
            await refuse_handshake(scope, receive, send, refused, close_code=1013)
            return None
        return self._limited_receive(scope, receive, send)

    def _take(self, kind: str, scope: Scope) -> float:
        address = client_address(scope)
        if address in self.exempt:
            return 0.0
        wait = self.buckets[kind].take(address)
        if wait > 0:
            metrics.REFUSED.labels(reason=f"rate-{kind}").inc()
        return wait

    def _limited_receive(self, scope: Scope, receive: Receive, send: Send) -> Receive:
        """The socket's messages, less those over its own limit or its address's move limit:
        each of those is answered with an error frame instead of reaching the site."""
        bucket = TokenBucket(*self.message_rate)

        async def limited() -> Message:
            while True:
                message = await receive()
                if message["type"] != "websocket.receive":
                    return message
                wait = bucket.take()
                if wait == 0 and _is_action(message):
                    wait = self._take("move", scope)
                elif wait > 0:
                    metrics.REFUSED.labels(reason="rate-message").inc()
                if wait == 0:
                    return message
                frame: dict[str, object] = {"type": "error"}
                id = _message_id(message)
                if id is not None:
                    frame["id"] = id  # the answer to a message echoes its id
                frame.update(
                    status=429,
                    reason="rate-limited",
                    message=f"too many messages: wait {retry_after(wait)} s",
                    retry_after=float(retry_after(wait)),
                )
                await send({"type": "websocket.send", "text": json.dumps(frame)})

        return limited


def _http_kind(method: str, path: str) -> str | None:
    """Which limit an HTTP request counts against, if any.

    >>> _http_kind("POST", "/api/tables"), _http_kind("POST", "/api/tables/abc/seats")
    ('create', 'join')
    >>> _http_kind("POST", "/api/tables/abc/moves"), _http_kind("GET", "/api/tables/abc")
    ('move', None)
    >>> _http_kind("POST", "/t/abc/seats"), _http_kind("POST", "/api/tables/abc/takeback/decline")
    ('join', 'move')
    >>> _http_kind("POST", "/api/positions/evaluation")
    'analysis'
    >>> _http_kind("GET", "/api/tables/abc/games/1/analysis")
    'analysis'
    >>> _http_kind("GET", "/j/ABC234"), _http_kind("GET", "/j")
    ('code', 'code')
    """
    if _ANALYSIS.match(path):
        return "analysis"
    if _CODE.match(path):
        return "code"
    if method not in ("POST", "PUT"):
        return None
    if path in ("/api/tables", "/tables", "/api/quick"):
        return "create"
    if _FORM_SEAT.match(path):
        return "join"
    found = _ACTION.match(path)
    if found is None:
        return None
    return "join" if found.group(1) == "seats" else "move"


def _is_action(message: Message) -> bool:
    """Whether a socket message acts at a table, judged on its parsed value: `"\\u006dove"` is
    `"move"` too. A message without `"type"`'s actions spelled out, and without any escape,
    cannot be one, and is not parsed here."""
    text = message.get("text")
    if text is None:
        raw = message.get("bytes")
        if not raw:
            return False
        try:
            text = raw.decode()
        except UnicodeDecodeError:
            return False
    if "\\" not in text and not any(kind in text for kind in _QUOTED_ACTIONS):
        return False
    try:
        body = read_json(text)
    except ValueError:
        return False  # the site answers it with its own error
    if "text" in message:
        message[READ_JSON] = body  # so that the site need not read it again
    kind = body.get("type") if isinstance(body, dict) else None
    return isinstance(kind, str) and kind in _SOCKET_ACTIONS


def _message_id(message: Message) -> int | str | None:
    """The `id` of a refused socket message, to echo (read only for the refusal)."""
    value = message.get(READ_JSON)
    if value is None:
        try:
            value = read_json(message.get("text") or message.get("bytes") or "null")
        except ValueError:
            return None
    id = value.get("id") if isinstance(value, dict) else None
    if isinstance(id, str) and len(id) <= 64:
        return id
    return id if isinstance(id, int) and not isinstance(id, bool) else None


def _too_many(wait: float, message: str) -> JSONResponse:
    return refusal(429, "rate-limited", message, {"Retry-After": retry_after(wait)})
