"""The table WebSocket's messages as documentation, generated from `table/messages.py`: a Markdown
list for /docs (and `docs/messages.md`), and an AsyncAPI document with each message's JSON Schema
at `GET /api/asyncapi.json`."""

from __future__ import annotations

from typing import Any, get_args, get_type_hints

from fastapi import APIRouter
from pydantic import TypeAdapter

from tictactoe.server.table import messages
from tictactoe.server.web.websocket import SOCKET_PATH

router = APIRouter()


def _type_names(message: type) -> list[str]:
    hint = get_type_hints(message)["type"]
    return [str(name) for name in get_args(hint)]


def _fields(message: type) -> str:
    required = message.__required_keys__ - {"type"}  # type: ignore[attr-defined]
    optional = message.__optional_keys__  # type: ignore[attr-defined]
    names = [f"`{name}`" for name in get_type_hints(message) if name in required]
    # The `id` every client message may carry comes last, after the message's own fields.
    optional_names = sorted(
        (name for name in get_type_hints(message) if name in optional), key=lambda n: n == "id"
    )
    names += [f"`{name}`?" for name in optional_names]
    return f" ({', '.join(names)})" if names else ""


def _entry(message: type) -> str:
    types = ", ".join(f"`{name}`" for name in _type_names(message))
    doc = " ".join((message.__doc__ or "").split())
    return f"- {types}{_fields(message)}: {doc}"


def markdown() -> str:
    """Every message of the table's WebSocket, both ways, and every refusal's reason.

    >>> "- `moved` (`version`, `previous`, `move`, `changes`, `events`)" in markdown()
    True
    """
    lines = [
        f"### The table's WebSocket: `GET {SOCKET_PATH}`",
        "",
        "Every message is a JSON object with a `type`; any client message may carry an `id` (a "
        "number, or a string of at most 64 characters), which the answer to it echoes. The "
        "JSON Schema of each: [`/api/asyncapi.json`](/api/asyncapi.json).",
        "",
        "Server → client:",
        "",
        *(_entry(message) for message in messages.SERVER_MESSAGE_TYPES),
        f"- events, in `events`: {' '.join((messages.EventJSON.__doc__ or '').split())}",
        "",
        "Client → server:",
        "",
        *(_entry(message) for message in messages.CLIENT_MESSAGE_TYPES),
        "",
        "Every refusal, over HTTP (`{status, reason, message}`) and the WebSocket (`error`), has "
        "a stable `reason`:",
        "",
        *(f"- `{reason}`: {meaning}" for reason, meaning in messages.REASONS.items()),
    ]
    return "\n".join(lines) + "\n"


def _schema(message: type) -> dict[str, Any]:
    schema: dict[str, Any] = TypeAdapter(message).json_schema()
    return schema


def asyncapi() -> dict[str, Any]:
    """An AsyncAPI 3 document of the table's WebSocket: its channel, and each message's schema."""
    sent = {_type_names(m)[0]: m for m in messages.SERVER_MESSAGE_TYPES}
    received = {_type_names(m)[0]: m for m in messages.CLIENT_MESSAGE_TYPES}
    every = {**{f"server-{k}": v for k, v in sent.items()}, **received}
    return {
        "asyncapi": "3.0.0",
        "info": {
            "title": "Tic-Tac-Toe tables: the table's WebSocket",
            "version": "1",
            "description": markdown(),
        },
        "channels": {
            "table": {
                "address": SOCKET_PATH,
                "messages": {name: {"$ref": f"#/components/messages/{name}"} for name in every},
            }
        },
        "operations": {
            "receiveFrames": {
                "action": "receive",
                "channel": {"$ref": "#/channels/table"},
                "messages": [{"$ref": f"#/channels/table/messages/server-{name}"} for name in sent],
            },
            "sendMessages": {
                "action": "send",
                "channel": {"$ref": "#/channels/table"},
                "messages": [{"$ref": f"#/channels/table/messages/{name}"} for name in received],
            },
        },
        "components": {
            "messages": {
                name: {
                    "name": name,
                    "summary": " ".join((message.__doc__ or "").split()),
                    "payload": _schema(message),
                }
                for name, message in every.items()
            }
        },
    }


@router.get("/api/asyncapi.json", tags=["tables"], summary="The table WebSocket's messages")
async def asyncapi_document() -> dict[str, Any]:
    """Every message of `GET /api/tables/{id}/ws`, both ways, with its JSON Schema (AsyncAPI 3)."""
    return asyncapi()


if __name__ == "__main__":  # regenerates docs/messages.md
    print(markdown(), end="")
