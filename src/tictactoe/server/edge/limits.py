"""Rate limits: token buckets per client address (moves and other actions, table creation, joins)
and per WebSocket (every message), as one ASGI middleware. Over a limit, HTTP gets `429` with
`Retry-After`; a WebSocket handshake gets `429` before it is accepted. A socket's messages are
judged by its handler (it reads them anyway) through the `SocketLimit` admitted with it: over a
limit, an error frame with status 429, and the socket stays open.

The buckets live in each process: with N processes behind a balancer a client may get up to N
times the limit, which still bounds a flood (README "Scale-out" says how to size it).
"""

from __future__ import annotations

import logging
import re

from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Receive, Scope, Send

from tictactoe.server.edge.refusals import refusal, refuse_handshake
from tictactoe.server.ops import metrics
from tictactoe.server.ops.scope import address_key, client_address
from tictactoe.server.ops.token_buckets import TokenBucket, TokenBuckets, retry_after
from tictactoe.server.settings import Settings
from tictactoe.server.web.actions import ACTIONS

# A table's actions over HTTP (the action table's paths, and reactions) count against the move
# limit; taking a seat against the join limit.
_ACTION_PATHS = (*(action.path for action in ACTIONS), "reactions", "seats")
_ACTION = re.compile(rf"^/api/tables/[^/]+/({'|'.join(map(re.escape, _ACTION_PATHS))})$")
_FORM_SEAT = re.compile(r"^/t/[^/]+/seats$")  # the no-JavaScript join button
_ANALYSIS = re.compile(r"^/api/positions/evaluation$|^/api/tables/[^/]+/games/[^/]+/analysis$")
_CODE = re.compile(r"^/j(/[^/]*)?$")  # a table looked up by its short code
_LOOPBACK = frozenset({"127.0.0.1", "::1"})

log = logging.getLogger(__name__)


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
        self._warned_of_a_proxy = False

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] == "http":
            kind = _http_kind(scope["method"], scope["path"])
            wait = self.take(kind, scope) if kind else 0.0
            if wait > 0:
                message = f"too many requests: try again in {retry_after(wait)} s"
                await _too_many(wait, message)(scope, receive, send)
                return
            await self.app(scope, receive, send)
        else:  # the table's WebSocket is admitted by `admit_websocket`, from its lane
            await self.app(scope, receive, send)

    async def admit_websocket(
        self, scope: Scope, receive: Receive, send: Send
    ) -> SocketLimit | None:
        """A table socket's limit on its messages, or None once refused (over the join limit:
        429, or close 1013)."""
        wait = self.take("join", scope)
        if wait > 0:
            refused = _too_many(wait, "too many connections")
            await refuse_handshake(scope, receive, send, refused, close_code=1013)
            return None
        return SocketLimit(self, scope)

    def take(self, kind: str, scope: Scope) -> float:
        address = client_address(scope)
        if address in self.exempt:
            self._warn_of_an_unlisted_proxy(address, scope)
            return 0.0
        wait = self.buckets[kind].take(address_key(address))
        if wait > 0:
            metrics.REFUSED.labels(reason=f"rate-{kind}").inc()
        return wait

    def _warn_of_an_unlisted_proxy(self, address: str, scope: Scope) -> None:
        """Says so (once) when an exempt loopback address forwards requests for others: a proxy
        on this host that is not a trusted proxy makes every visitor exempt (security M5)."""
        if self._warned_of_a_proxy or address not in _LOOPBACK:
            return
        if any(name == b"x-forwarded-for" for name, _ in scope.get("headers", ())):
            self._warned_of_a_proxy = True
            log.warning(
                "requests from %s carry X-Forwarded-For, but it is not in "
                "TICTACTOE_TRUSTED_PROXIES: every visitor behind that proxy counts as %s, "
                "which is exempt from the rate limits (TICTACTOE_RATE_LIMIT_EXEMPT); list the "
                "proxy in TICTACTOE_TRUSTED_PROXIES",
                address,
                address,
            )


class SocketLimit:
    """One socket's limits: its own message rate, and its address's action limit for a message
    that acts at a table. Called by the socket's handler with each message it has read."""

    __slots__ = ("_limits", "_messages", "_scope")

    def __init__(self, limits: RateLimitMiddleware, scope: Scope) -> None:
        self._limits = limits
        self._scope = scope
        self._messages = TokenBucket(*limits.message_rate)

    def __call__(self, acts: bool) -> float:
        """The seconds the message must wait (0.0: it may go); `acts`: it acts at the table."""
        wait = self._messages.take()
        if wait > 0:
            metrics.REFUSED.labels(reason="rate-message").inc()
            return wait
        return self._limits.take("move", self._scope) if acts else 0.0


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


def _too_many(wait: float, message: str) -> JSONResponse:
    return refusal(429, "rate-limited", message, {"Retry-After": retry_after(wait)})
