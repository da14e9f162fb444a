"""The table's WebSocket straight from the browser protections to its handler.

A socket lives as long as a game and more, and every ASGI layer it passes through keeps a
coroutine frame (and its closures) for that whole time: through the full stack (security, rate
limits, cookie, FastAPI's error and exception layers, the router, the route, its dependency
solver) that was ~20 coroutines per socket, ~7 KB, the largest part of a table's memory after
the WebSocket protocol itself (counted with gc at 300 tables). This lane sits outside the stack
and takes `/api/tables/{id}/ws` past it, after the same two checks the stack would make for a
WebSocket, on the same middleware instances (so the limits' counts are shared): the origin
(`SecurityMiddleware`) and the join limit (`RateLimitMiddleware`, whose `SocketLimit` the
handler asks about each message). The cookie layer
does nothing for WebSockets, and the handler catches its own errors. Everything else goes
through the stack as before.
"""

from __future__ import annotations

from starlette.routing import compile_path
from starlette.types import ASGIApp, Receive, Scope, Send
from starlette.websockets import WebSocket

from tictactoe.server.edge.limits import RateLimitMiddleware
from tictactoe.server.edge.security import RefusalPage, SecurityMiddleware
from tictactoe.server.settings import Settings
from tictactoe.server.web.websocket import SOCKET_PATH, table_socket

# The one description of the socket's address: the same string the docs show.
_SOCKET = compile_path(SOCKET_PATH)[0]


class TableSocketLane:
    """Builds the security and rate-limit middlewares of the stack (so it can use the same
    ones), and is the layer outside them."""

    def __init__(
        self, site: ASGIApp, settings: Settings, cross_site_page: RefusalPage | None = None
    ) -> None:
        self.site = site  # what `websocket.app` is (the app's state: tables, hub)
        self.settings = settings
        self.cross_site_page = cross_site_page
        self.security: SecurityMiddleware | None = None
        self.limits: RateLimitMiddleware | None = None
        self.rest: ASGIApp | None = None

    def security_middleware(self, app: ASGIApp) -> ASGIApp:
        self.security = SecurityMiddleware(app, self.settings, self.cross_site_page)
        return self.security

    def limits_middleware(self, app: ASGIApp) -> ASGIApp:
        self.limits = RateLimitMiddleware(app, self.settings)
        return self.limits

    def middleware(self, app: ASGIApp) -> ASGIApp:
        self.rest = app
        return self

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        assert self.rest is not None and self.security is not None and self.limits is not None
        table_id = _table_of(scope)
        if table_id is None:
            await self.rest(scope, receive, send)
            return
        if not await self.security.admit_websocket(scope, receive, send):
            return
        limit = await self.limits.admit_websocket(scope, receive, send)
        if limit is None:
            return
        scope["app"] = self.site
        scope["path_params"] = {"table_id": table_id}
        await table_socket(WebSocket(scope, receive, send), table_id, limit)


def _table_of(scope: Scope) -> str | None:
    """The table of a table socket's path (None: not one). Only the id is kept: this frame
    lives as long as the socket.

    >>> _table_of({"type": "websocket", "path": "/api/tables/abc/ws"})
    'abc'
    >>> _table_of({"type": "http", "path": "/api/tables/abc/ws"}) is None
    True
    """
    if scope["type"] != "websocket":
        return None
    found = _SOCKET.match(scope["path"])
    return found["table_id"] if found is not None else None
