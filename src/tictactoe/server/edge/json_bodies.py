"""JSON request bodies read once before the routes: those `ops.json_input.read_json` refuses (a lone
surrogate, nesting too deep) get a clear 400 before any handler sees them."""

from __future__ import annotations

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tictactoe.server.edge.refusals import refusal
from tictactoe.server.ops.json_input import UnreadableJSONError, read_json


class JSONBodyMiddleware:
    """Reads JSON request bodies (as FastAPI would take them: a JSON content type, or none) once
    before the routes do, and answers 400 for those `read_json` refuses. The body is already
    capped by the security middleware outside this one."""

    def __init__(self, app: ASGIApp) -> None:
        self.app = app

    async def __call__(self, scope: Scope, receive: Receive, send: Send) -> None:
        if scope["type"] != "http" or scope["method"] not in ("POST", "PUT", "PATCH"):
            await self.app(scope, receive, send)
            return
        if not _is_json(scope):
            await self.app(scope, receive, send)
            return
        chunks: list[bytes] = []
        while True:
            message = await receive()
            if message["type"] != "http.request":
                await self.app(scope, _replay([message], receive), send)
                return
            chunks.append(message.get("body", b""))
            if not message.get("more_body", False):
                break
        body = b"".join(chunks)
        if body:
            try:
                read_json(body)
            except UnreadableJSONError as error:
                unusable = f"the request body is not usable JSON: {error}"
                await refusal(400, "bad-json", unusable)(scope, receive, send)
                return
            except ValueError:
                pass  # not JSON at all: the route says so in its own words
        replayed: Message = {"type": "http.request", "body": body, "more_body": False}
        await self.app(scope, _replay([replayed], receive), send)


def _is_json(scope: Scope) -> bool:
    for name, value in scope.get("headers", []):
        if name == b"content-type":
            kind = value.split(b";", 1)[0].strip().lower()
            return kind == b"application/json" or (
                kind.startswith(b"application/") and kind.endswith(b"+json")
            )
    return True  # FastAPI reads a body without a content type as JSON


def _replay(messages: list[Message], receive: Receive) -> Receive:
    async def replayed() -> Message:
        if messages:
            return messages.pop(0)
        return await receive()

    return replayed
