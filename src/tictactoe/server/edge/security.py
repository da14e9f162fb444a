"""What a browser is told and what it may do: security headers on every page (a
Content-Security-Policy without inline script), the Origin check of the WebSocket and of every
request that changes something, and a cap on request bodies, as one ASGI middleware.

A request is cross-site when its Origin is neither this site (same scheme and host) nor an allowed
origin, or when the browser says so (`Sec-Fetch-Site: cross-site` or `same-site`). Such a request
arrives without the SameSite=Lax identity cookie even when the visitor has one, so it must never
get a new one (that would replace theirs: issue 13), and it may not change anything here (no
table created, no seat taken for the cookie). Bots and scripts send neither header and are not
affected; nor is a link followed from another site (a top-level navigation carries the cookie).

Pages carry data for their scripts only in `<script type="application/json">` blobs, which a CSP
of `script-src 'self'` allows (they are never executed); every script is a file under /static.
"""

from __future__ import annotations

from collections.abc import Callable
from urllib.parse import urlsplit

from starlette.datastructures import Headers
from starlette.exceptions import HTTPException
from starlette.responses import JSONResponse
from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tictactoe.server.edge.refusals import refusal, refuse_handshake
from tictactoe.server.ops import metrics
from tictactoe.server.ops.scope import CROSS_SITE
from tictactoe.server.settings import Settings

CONTENT_SECURITY_POLICY = (
    "default-src 'self'; script-src 'self'; style-src 'self'; img-src 'self' data:; "
    "connect-src 'self'; font-src 'self'; object-src 'none'; base-uri 'none'; "
    "form-action 'self'; frame-ancestors 'none'"
)
_HEADERS = [
    (b"x-content-type-options", b"nosniff"),
    (b"x-frame-options", b"DENY"),
    # A table's link lets anyone watch it: don't hand it to other sites in Referer. Not
    # "no-referrer": under it Chromium sends `Origin: null` on this site's own form posts.
    (b"referrer-policy", b"same-origin"),
    (b"cross-origin-opener-policy", b"same-origin"),
    (b"permissions-policy", b"camera=(), microphone=(), geolocation=(), payment=()"),
]
# FastAPI's own API explorer pulls its scripts from a CDN and starts them inline.
_EXPLORER_PATHS = ("/docs", "/redoc")
_HSTS = (b"strict-transport-security", b"max-age=31536000")
_SAFE_METHODS = ("GET", "HEAD", "OPTIONS")
# The refusal of a cross-site form as a page (the web layer's, handed in by the app), for a
# browser navigating; an ASGI app.
RefusalPage = Callable[[Scope], ASGIApp]


class SecurityMiddleware:
    """Headers on HTTP responses, 413 for oversized bodies, 403 for foreign WebSocket origins."""

    def __init__(
        self, app: ASGIApp, settings: Settings, cross_site_page: RefusalPage | None = None
    ) -> None:
        self.app = app
        self.cross_site_page = cross_site_page
        self.max_body = settings.max_body_bytes
        self.allowed_origins = {_origin(o) for o in settings.allowed_origins}
        if settings.public_url:
            self.allowed_origins.add(_origin(settings.public_url))

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] in ("http", "websocket"):
            scope[CROSS_SITE] = self.cross_site(scope)
        if scope["type"] == "websocket":
            if await self.admit_websocket(scope, receive, send):
                await self.app(scope, receive, send)
        elif scope["type"] == "http":
            await self._http(scope, receive, send)
        else:
            await self.app(scope, receive, send)

    async def admit_websocket(self, scope: Scope, receive: Receive, send: Send) -> bool:
        """Whether the socket may open; if not, it has been refused (403 or close 1008)."""
        if self.origin_allowed(scope):
            return True
        metrics.REFUSED.labels(reason="origin").inc()
        refused = refusal(403, "cross-site", "this page's origin may not connect")
        await refuse_handshake(scope, receive, send, refused, close_code=1008)
        return False

    def origin_allowed(self, scope: Scope) -> bool:
        """A page of this site (the request's own scheme and host), of an allowed origin, or no
        browser at all (bots and scripts send no Origin)."""
        headers = Headers(scope=scope)
        origin = headers.get("origin")
        if origin is None:
            return True
        if origin == "null" and headers.get("sec-fetch-site") == "same-origin":
            # A form of this very site posted under a strict referrer policy (or an old one
            # cached by the browser): the browser vouches for where it comes from.
            return True
        host = headers.get("host", "")
        scheme = {"ws": "http", "wss": "https"}.get(scope.get("scheme", ""), scope.get("scheme"))
        parts = urlsplit(origin)
        if parts.scheme == scheme and parts.netloc.lower() == host.lower():
            return True
        return _origin(origin) in self.allowed_origins

    def cross_site(self, scope: Scope) -> bool:
        """Whether a browser sent this request from another site (see the module's docstring)."""
        if not self.origin_allowed(scope):
            return True
        headers = Headers(scope=scope)
        if headers.get("sec-fetch-site") not in ("cross-site", "same-site"):
            return False
        origin = headers.get("origin")
        return origin is None or _origin(origin) not in self.allowed_origins

    async def _http(self, scope: Scope, receive: Receive, send: Send) -> None:
        length = Headers(scope=scope).get("content-length")
        if length is not None and (not length.isdigit() or int(length) > self.max_body):
            await _too_large(self.max_body)(scope, receive, send)
            return
        headers = list(_HEADERS)
        if not scope["path"].startswith(_EXPLORER_PATHS):
            headers.append((b"content-security-policy", CONTENT_SECURITY_POLICY.encode()))
        if scope.get("scheme") == "https":
            headers.append(_HSTS)
        started = False
        received = 0

        async def send_with_headers(message: Message) -> None:
            nonlocal started
            if message["type"] == "http.response.start":
                started = True
                message = dict(message)
                message["headers"] = [*message.get("headers", []), *headers]
            await send(message)

        async def capped_receive() -> Message:
            # A chunked body has no Content-Length: count it as it comes.
            nonlocal received
            message = await receive()
            if message["type"] == "http.request":
                received += len(message.get("body", b""))
                if received > self.max_body:
                    raise _BodyTooLarge(self.max_body)
            return message

        if scope[CROSS_SITE] and scope["method"] not in _SAFE_METHODS:
            metrics.REFUSED.labels(reason="cross-site").inc()
            if self.cross_site_page is not None and _wants_a_page(scope):
                await self.cross_site_page(scope)(scope, receive, send_with_headers)
            else:
                await refusal(403, "cross-site", _CROSS_SITE)(scope, receive, send)
            return
        try:
            await self.app(scope, capped_receive, send_with_headers)
        except _BodyTooLarge:
            if not started:
                await _too_large(self.max_body)(scope, receive, send)


class _BodyTooLarge(HTTPException):
    # An HTTPException, so that a route reading the body answers 413 through FastAPI as well.
    def __init__(self, limit: int) -> None:
        super().__init__(413, f"the request body is too large: at most {limit} bytes")


def _wants_a_page(scope: Scope) -> bool:
    """A browser navigating (a form posted, a link followed), not a script asking for JSON."""
    return "text/html" in Headers(scope=scope).get("accept", "")


def _origin(url: str) -> str:
    """scheme://host[:port] of a URL, lower-cased.

    >>> _origin("https://TTT.example/path")
    'https://ttt.example'
    """
    parts = urlsplit(url)
    return f"{parts.scheme}://{parts.netloc}".lower()


def _too_large(limit: int) -> JSONResponse:
    message = f"the request body is too large: at most {limit} bytes"
    return refusal(413, "too-large", message, {"Connection": "close"})


_CROSS_SITE = "a page of another site may not act here; open this site itself"
