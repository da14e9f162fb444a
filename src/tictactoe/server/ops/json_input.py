"""Reading the JSON that clients send: Unicode text only, and nesting within bounds, so that no
body or socket message can make a handler fail. JSON can spell a lone surrogate (`"\\ud800"`),
which is no character and cannot be encoded as UTF-8; Python's parser recurses, so a deep enough
array raises RecursionError. Both become a clear 400 here, before any handler sees them."""

from __future__ import annotations

import json
from typing import Any

from starlette.types import ASGIApp, Message, Receive, Scope, Send

from tictactoe.server.ops.refusals import refusal

# Our bodies and messages are flat objects: a few levels cover every one of them.
MAX_DEPTH = 32


class UnreadableJSONError(ValueError):
    """Valid JSON syntax that is still no value a client may send; the message says why."""


# The key under which a layer in front of the site leaves a WebSocket message's value, once it
# has read it with `read_json` (the rate limits do, for messages that may be moves).
READ_JSON = "tictactoe.json"


def read_json(text: str | bytes) -> Any:
    """The value of `text`: raises `UnreadableJSONError` for lone surrogates and deep nesting,
    and `ValueError` (json.JSONDecodeError) for what is not JSON at all.

    >>> read_json('{"type": "move", "move": "e5"}')
    {'type': 'move', 'move': 'e5'}
    >>> read_json('{"token": "\\\\ud800"}')  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tictactoe.server.ops.json_input.UnreadableJSONError: the JSON holds a lone surrogate ...
    >>> read_json("[" * 40 + "]" * 40)  # doctest: +ELLIPSIS
    Traceback (most recent call last):
    ...
    tictactoe.server.ops.json_input.UnreadableJSONError: the JSON is nested too deeply ...
    """
    if isinstance(text, bytes):
        # As json.loads does: UTF-8, -16 or -32; bytes that are none of them are not JSON.
        text = text.decode(json.detect_encoding(text))
    try:
        value = json.loads(text)
    except RecursionError:
        raise UnreadableJSONError(_TOO_DEEP) from None
    if text.count("[") + text.count("{") > MAX_DEPTH and _depth(value) > MAX_DEPTH:
        raise UnreadableJSONError(_TOO_DEEP)
    if "\\u" in text and _has_lone_surrogate(value):
        raise UnreadableJSONError(
            'the JSON holds a lone surrogate ("\\ud800"), which is not Unicode text'
        )
    return value


_TOO_DEEP = f"the JSON is nested too deeply (at most {MAX_DEPTH} levels)"


def _depth(value: Any) -> int:
    # Iterative: the value may be nested nearly as deep as the parser's recursion allows.
    deepest, stack = 0, [(value, 1)]
    while stack:
        item, depth = stack.pop()
        if isinstance(item, dict | list):
            deepest = max(deepest, depth)
            children = item.values() if isinstance(item, dict) else item
            stack.extend((child, depth + 1) for child in children)
    return deepest


def _has_lone_surrogate(value: Any) -> bool:
    try:
        json.dumps(value, ensure_ascii=False).encode("utf-8")
    except UnicodeEncodeError:
        return True
    return False


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
