"""The table's WebSocket (`/api/tables/{id}/ws`): a client's session at a table. Its messages,
both ways, are written down in `table/messages.py` (and shown at /docs). A player is known by
`?token=`, an `auth` message, or the browser's `ttt_client` cookie; anyone else watches, unless
the table is private (then: an error frame with reason `private`, and close).
"""

from __future__ import annotations

from typing import Any

from fastapi import WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from tictactoe.server.ops.json_input import READ_JSON, UnreadableJSONError, read_json
from tictactoe.server.storage import StorageUnavailableError
from tictactoe.server.table.actor import Table
from tictactoe.server.table.commands import (
    AnswerDraw,
    AnswerTakeback,
    AskRematch,
    AskTakeback,
    ClaimWin,
    Command,
    OfferDraw,
    PlayMove,
    Refused,
    Resign,
    SetName,
    StopWaiting,
)
from tictactoe.server.table.messages import (
    CLIENT_MESSAGES,
    MessageId,
    ack_frame,
    error_frame,
    pong_frame,
)
from tictactoe.server.table.names import clean_name
from tictactoe.server.table.tokens import hash_secret
from tictactoe.server.web.connections import Connection, Hub
from tictactoe.server.web.identity import client_hash, site_base_url, tables_of

# The table's WebSocket: the one way in is `socket_lane` (past the ASGI stack), not a route.
SOCKET_PATH = "/api/tables/{table_id}/ws"

# The commands of the messages that carry nothing but their type.
_ACTIONS: dict[str, Command] = {
    "resign": Resign(),
    "rematch": AskRematch(),
    "claim": ClaimWin(),
    "takeback": AskTakeback(),
    "accept-takeback": AnswerTakeback(accept=True),
    "decline-takeback": AnswerTakeback(accept=False),
    "draw": OfferDraw(),
    "decline-draw": AnswerDraw(accept=False),
    "stop-waiting": StopWaiting(),
}


def read_message(text: str, value: Any = None) -> dict[str, Any]:
    """A client's message, checked against `messages.CLIENT_MESSAGES` (`value`: its JSON, if
    read already); `Refused` (400) says what is wrong with it."""
    try:
        message = value if value is not None else read_json(text)
    except UnreadableJSONError as error:
        raise Refused(400, f"this message is not usable JSON: {error}", "bad-json") from None
    except ValueError as error:
        raise Refused(
            400, f"messages are JSON objects; this is not JSON ({error})", "bad-json"
        ) from None
    try:
        checked: dict[str, Any] = CLIENT_MESSAGES.validate_python(message)
    except ValidationError as error:
        raise _refusal(message, error) from None
    return checked


def _refusal(message: Any, error: ValidationError) -> Refused:
    first = error.errors()[0]
    if first["type"] == "union_tag_invalid":
        return Refused(400, f"unknown message type {message['type']!r}", "unknown-type")
    if first["type"] in ("union_tag_not_found", "model_attributes_type", "dict_type"):
        return Refused(
            400, 'messages are JSON objects with a "type", e.g. {"type":"sync"}', "bad-message"
        )
    where = ".".join(str(part) for part in first["loc"][1:])
    return Refused(400, f"{message['type']} message: {where}: {first['msg']}", "bad-message")


def message_id(value: Any) -> MessageId | None:
    """The `id` a message carries, if it is one that may be echoed (a number, a short string)."""
    if not isinstance(value, dict):
        return None
    id = value.get("id")
    if isinstance(id, str) and len(id) <= 64:
        return id
    return id if isinstance(id, int) and not isinstance(id, bool) else None


class TableSocket:
    """One client's session at a table: who they are, and what their messages do."""

    def __init__(self, table: Table, connection: Connection, hub: Hub) -> None:
        self.table = table
        self.connection = connection
        self.hub = hub

    def refuse(self, refused: Refused, id: MessageId | None = None) -> None:
        self.connection.send(error_frame(refused.status, refused.reason, refused.message, id))
        if refused.reason == "stale-version":
            # The client is behind: give it the table as it is now.
            self.connection.send(self.table.frame_for(self.connection.person))

    async def receive(self, text: str, value: Any = None) -> None:
        """Does what the message `text` says (`value`: its JSON, if read already), or answers
        with an error frame."""
        try:
            message = read_message(text, value)
        except Refused as refused:
            self.refuse(refused, message_id(value if value is not None else _loose(text)))
            return
        id = message.get("id")
        try:
            await self.handle(message)
        except Refused as refused:
            self.refuse(refused, id)
        except StorageUnavailableError:
            self.connection.send(
                error_frame(
                    503, "database-unavailable", "the database is unreachable; try again", id
                )
            )

    async def handle(self, message: dict[str, Any]) -> None:
        """Does what a checked message says (see `messages.ClientMessage`)."""
        kind, id = message["type"], message.get("id")
        person = self.connection.person
        command = _ACTIONS.get(kind)
        if kind == "move":
            command = PlayMove(message["move"], message.get("version"))
        elif kind == "name":
            command = SetName(clean_name(message["name"]), message.get("side"))
        if command is not None:
            await self.table.apply(command, person)
            if id is not None:
                self.connection.send(ack_frame(id, self.table.record.version))
        elif kind == "react":
            await self.table.react(message["reaction"], person)
            if id is not None:
                self.connection.send(ack_frame(id, self.table.record.version))
        elif kind == "sync":
            # The whole table: one frame catches up whatever was missed.
            if self.table.shared:
                await self.table.refresh()  # another process may have changed it
            self.connection.send(self.table.frame_for(person, id))
        elif kind == "auth":
            await self.authenticate(message["token"], id)
        elif kind == "ping":
            self.connection.send(pong_frame(id))

    async def authenticate(self, token: str, id: MessageId | None = None) -> None:
        person = hash_secret(token)
        if self.table.mark_of(person) is None and self.table.shared:
            await self.table.refresh()  # the seat may have been taken through another process
        if self.table.mark_of(person) is None:
            raise Refused(401, "that seat token is not valid at this table", "bad-token")
        if person != self.connection.person:
            await self.table.disconnect(self.connection.person)
            self.connection.person = person
            await self.table.connect(person)
        self.connection.send(self.table.frame_for(person, id))


def _loose(text: str) -> Any:
    try:
        return read_json(text)
    except ValueError:
        return None


async def table_socket(websocket: WebSocket, table_id: str) -> None:
    """A socket at `SOCKET_PATH`, reached only through `socket_lane.TableSocketLane`."""
    tables = tables_of(websocket)
    settings = tables.settings
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    try:
        table = await tables.get(table_id)
    except StorageUnavailableError:
        # 1013 "try again later": the page reconnects (with backoff) rather than give up.
        await websocket.send_text(
            error_frame(503, "database-unavailable", "the database is unreachable; retrying")
        )
        await websocket.close(code=1013)
        return
    if table is None:
        await websocket.send_text(error_frame(404, "no-table", f"there is no table {table_id!r}"))
        await websocket.close(code=4404)
        return

    token = websocket.query_params.get("token")
    person = hash_secret(token) if token else table.person_of_client(client_hash(websocket))
    connection = Connection(
        websocket,
        None,
        settings.max_queued_frames,
        links=(tables.base_url, site_base_url(websocket)),
    )
    session = TableSocket(table, connection, hub)
    if token and table.mark_of(person) is None:
        connection.send(
            error_frame(401, "bad-token", "that seat token is not valid at this table; watching")
        )
    elif person is not None:
        connection.person = person
    if not table.may_watch(connection.person):
        await websocket.send_text(
            error_frame(409, "private", "this table is private: only its players can see it")
        )
        await websocket.close(code=4409)
        return
    connection.send(table.frame_for(connection.person))
    await hub.join(table.id, connection)
    await table.connect(connection.person)
    try:
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text, value = message.get("text"), message.get(READ_JSON)
            if text is None:
                raw = message.get("bytes") or b""
                try:
                    text = raw.decode()
                except UnicodeDecodeError:
                    connection.send(error_frame(400, "bad-json", "messages are UTF-8 JSON text"))
                    continue
            if len(text.encode("utf-8", "surrogatepass")) > settings.max_message_bytes:
                connection.send(
                    error_frame(
                        413,
                        "too-large",
                        f"message too large: at most {settings.max_message_bytes} bytes",
                    )
                )
                continue
            await session.receive(text, value)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.leave(table.id, connection)
        await connection.close()
        await table.disconnect(connection.person)
