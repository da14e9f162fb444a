"""Refusals made before a request reaches the site (limits, browser protections, unreadable
JSON): the site's own `{"status", "reason", "message"}` body, as Starlette responses."""

from __future__ import annotations

from starlette.responses import JSONResponse
from starlette.types import Receive, Scope, Send


def refusal(
    status: int, reason: str, message: str, headers: dict[str, str] | None = None
) -> JSONResponse:
    """The refusal as a response (an ASGI app: `await refusal(...)(scope, receive, send)`).

    >>> refusal(429, "rate-limited", "wait", {"Retry-After": "2"}).body
    b'{"status":429,"reason":"rate-limited","message":"wait"}'
    """
    body = {"status": status, "reason": reason, "message": message}
    return JSONResponse(body, status_code=status, headers=headers)


async def refuse_handshake(
    scope: Scope,
    receive: Receive,
    send: Send,
    refused: JSONResponse,
    close_code: int,
) -> None:
    """Refuses a WebSocket before it opens: with the response where the server can send one
    (the denial-response extension), else by closing with `close_code`."""
    if "websocket.http.response" in scope.get("extensions", {}):
        await refused(scope, receive, send)
    else:
        await send({"type": "websocket.close", "code": close_code})
