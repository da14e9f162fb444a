"""The table's WebSocket (`/api/tables/{id}/ws`): a client's session at a table. Its messages,
both ways, are written down in `table/messages.py` (and shown at /docs). A player is known by
`?token=`, an `auth` message, or the browser's `ttt_client` cookie; anyone else watches, unless
the table is private (then: an error frame with reason `private`, and close).
"""

from __future__ import annotations

import contextlib
from collections.abc import Callable
from typing import Any

from fastapi import WebSocket
from pydantic import ValidationError
from starlette.websockets import WebSocketDisconnect

from tictactoe.server.ops.json_input import UnreadableJSONError, read_json
from tictactoe.server.ops.token_buckets import retry_after
from tictactoe.server.storage import StorageUnavailableError
from tictactoe.server.table.actor import Table
from tictactoe.server.table.commands import (
    AnswerDraw,
    Command,
    PlayMove,
    Refused,
    SetName,
)
from tictactoe.server.table.messages import (
    ACTIONS as ACTING_MESSAGES,
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
from tictactoe.server.web.actions import ACTIONS
from tictactoe.server.web.connections import Connection, Hub
from tictactoe.server.web.identity import client_hash, site_base_url, tables_of

# The table's WebSocket: the one way in is `edge.socket_lane` (past the ASGI stack), not a route.
SOCKET_PATH = "/api/tables/{table_id}/ws"

# A socket's rate limit (`edge.limits.SocketLimit`): given whether a message acts at the table,
# the seconds it must wait (0.0: it may go). Each message read is counted, whatever it holds.
MessageLimit = Callable[[bool], float]

# The commands of the messages that carry nothing but their type: the HTTP action table's, and
# turning the opponent's draw offer down (no HTTP route: playing on declines it there).
_ACTIONS: dict[str, Command] = {
    **{action.message: action.command_for(None) for action in ACTIONS if action.message},
    "decline-draw": AnswerDraw(accept=False),
}


def read_message(text: str) -> Any:
    """A client's message as JSON; `Refused` (400) when it is not usable JSON."""
    try:
        return read_json(text)
    except UnreadableJSONError as error:
        raise Refused(400, f"this message is not usable JSON: {error}", "bad-json") from None
    except ValueError as error:
        raise Refused(
            400, f"messages are JSON objects; this is not JSON ({error})", "bad-json"
        ) from None


def check_message(message: Any) -> dict[str, Any]:
    """A client's message checked against `messages.CLIENT_MESSAGES`; `Refused` (400) says what
    is wrong with it."""
    try:
        checked: dict[str, Any] = CLIENT_MESSAGES.validate_python(message)
    except ValidationError as error:
        raise _refusal(message, error) from None
    return checked


def acts_at_table(message: Any) -> bool:
    """Whether a message (read, not yet checked) acts at the table: it counts against its
    address's action limit too, judged on its value (`"\\u006dove"` is a move).

    >>> acts_at_table({"type": "move", "move": "e5"}), acts_at_table({"type": "sync"})
    (True, False)
    """
    kind = message.get("type") if isinstance(message, dict) else None
    return isinstance(kind, str) and kind in ACTING_MESSAGES


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

    # One a socket.
    __slots__ = ("connection", "hub", "limit", "max_message_bytes", "table")

    def __init__(
        self,
        table: Table,
        connection: Connection,
        hub: Hub,
        limit: MessageLimit,
        max_message_bytes: int,
    ) -> None:
        self.table = table
        self.connection = connection
        self.hub = hub
        self.limit = limit
        self.max_message_bytes = max_message_bytes

    def refuse(
        self, refused: Refused, id: MessageId | None = None, retry_after: float | None = None
    ) -> None:
        self.connection.send(
            error_frame(refused.status, refused.reason, refused.message, id, retry_after)
        )
        if refused.reason == "stale-version":
            # The client is behind: give it the table as it is now.
            self.connection.send(self.table.frame_for(self.connection.person))

    async def receive(self, text: str) -> None:
        """Does what the message `text` says, or answers with an error frame: over the limits
        (429), too large (413), not JSON or no message (400), or what the table refused."""
        value: Any = None
        unusable: Refused | None = None
        if len(text.encode("utf-8", "surrogatepass")) > self.max_message_bytes:
            limit = self.max_message_bytes
            unusable = Refused(413, f"message too large: at most {limit} bytes", "too-large")
        else:
            try:
                value = read_message(text)
            except Refused as refused:
                unusable = refused
        wait = self.limit(acts_at_table(value))  # every message counts, usable or not
        if wait > 0:
            seconds = retry_after(wait)
            over = Refused(429, f"too many messages: wait {seconds} s", "rate-limited")
            self.refuse(over, message_id(value), float(seconds))
            return
        if unusable is None:
            try:
                message = check_message(value)
            except Refused as refused:
                unusable = refused
        if unusable is not None:
            self.refuse(unusable, message_id(value))
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


async def table_socket(websocket: WebSocket, table_id: str, limit: MessageLimit) -> None:
    """A socket at `SOCKET_PATH`, reached only through `edge.socket_lane.TableSocketLane`."""
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
    connected = False
    try:
        await hub.join(table.id, connection)
        if tables.shared:
            # Read again now that the channel is subscribed: no change falls between this read
            # and the frames to come (the first read may predate the subscription).
            with contextlib.suppress(StorageUnavailableError):
                table = await tables.get(table_id) or table
        hub.admit(table.id, connection, table.record.version, table.frame_for(connection.person))
        connected = True
        await table.connect(connection.person)
        session = TableSocket(table, connection, hub, limit, settings.max_message_bytes)
        while True:
            message = await websocket.receive()
            if message["type"] == "websocket.disconnect":
                break
            text = message.get("text")
            if text is None:
                raw = message.get("bytes") or b""
                try:
                    text = raw.decode()
                except UnicodeDecodeError:
                    limit(False)
                    connection.send(error_frame(400, "bad-json", "messages are UTF-8 JSON text"))
                    continue
            await session.receive(text)
    except WebSocketDisconnect:
        pass
    finally:
        await hub.leave(table.id, connection)
        await connection.close()
        if connected:
            await table.disconnect(connection.person)
