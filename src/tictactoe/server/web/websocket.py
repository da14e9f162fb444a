"""The table's WebSocket (`/api/tables/{id}/ws`): its messages, both ways, listed in `MESSAGES`
(shown at /docs). A player is known by `?token=`, an `auth` message, or the browser's `ttt_client`
cookie; anyone else watches, unless the table is private (then: an error frame with status 409,
and close).
"""

from __future__ import annotations

from typing import Any

from fastapi import APIRouter, WebSocket
from starlette.websockets import WebSocketDisconnect

from tictactoe.server.ops.json_input import READ_JSON, UnreadableJSONError, read_json
from tictactoe.server.ops.json_output import compact_json
from tictactoe.server.storage import StorageUnavailableError
from tictactoe.server.table.actor import Table
from tictactoe.server.table.commands import (
    AnswerDraw,
    AnswerTakeback,
    AskRematch,
    AskTakeback,
    ClaimWin,
    OfferDraw,
    PlayMove,
    Refused,
    Resign,
    SetName,
)
from tictactoe.server.table.names import clean_name
from tictactoe.server.table.tokens import hash_secret
from tictactoe.server.web.connections import Connection, Hub
from tictactoe.server.web.identity import client_hash, site_base_url, tables_of

router = APIRouter()

MESSAGES = """
### The table's WebSocket: `GET /api/tables/{id}/ws`

Every message is a JSON object with a `type`.

Server → client:

- `table` (`table`, as `GET /api/tables/{id}`): on connecting, after every change but a move,
  and in answer to `sync`.
- `moved` (`version`, `previous`, `move`, `changes`): after a move, the same bytes for every
  socket of the table. Applied to the table at version `previous`: append `move` to `moves` and
  `record`, take each field of `changes`, keep every other field, set `version`, and drop
  `can_claim_win`. `changes` holds what the move changed: always `last_move`, `position`,
  `turn`, `legal_moves` (and in Ultimate `sent_to`, `sends_to`); `boards` when the move closes
  a small board; `result`, `ended_by`, `winning_lines` and `score` when it ends the game;
  `takeback_asked_by` and `draw_offer` when it clears them; `clock` at a table with a clock;
  `seats` and `watchers` when who is here changed since the last frame. A client at another
  version than `previous` sends `sync`.
- `reaction` (`reaction`, `side`, `version`): a player's quick reaction.
- `error` (`status`, `message`, `reason`?): a message refused, with the statuses of the HTTP
  API; a `409` is followed by the `table`.
- `pong`: answers `ping`.

Client → server:

- `move` (`move`, `version`?): plays a move (`409` if `version` is not the table's).
- `resign`, `rematch`, `claim`, `takeback`, `accept-takeback`, `decline-takeback`: as the HTTP
  API.
- `name` (`name`, and `side` at a table played on one device): the player's display name.
- `draw`: offers a draw, or accepts the opponent's offer; `decline-draw` turns it down.
- `react` (`reaction`): one of `good-move`, `wow`, `good-game`, `oops`, `thinking`.
- `sync` (`version`?, the last one the client has): asks for the whole table (after a gap in
  versions, or on reconnecting).
- `auth` (`token`): plays the seat of that token on this socket.
- `ping`: asks for a `pong`.
"""


def error_frame(status: int, message: str, reason: str | None = None) -> str:
    """An error message for the client.

    >>> error_frame(422, "e5 is taken", "occupied")
    '{"type":"error","status":422,"message":"e5 is taken","reason":"occupied"}'
    """
    body: dict[str, Any] = {"type": "error", "status": status, "message": message}
    if reason is not None:
        body["reason"] = reason
    return compact_json(body)


class TableSocket:
    """One client's session at a table: who they are, and what their messages do."""

    def __init__(self, table: Table, connection: Connection, hub: Hub) -> None:
        self.table = table
        self.connection = connection
        self.hub = hub

    def refuse(self, refused: Refused) -> None:
        self.connection.send(error_frame(refused.status, refused.message, refused.reason))
        if refused.status == 409:
            # The client is behind: give it the table as it is now.
            self.connection.send(self.table.frame_for(self.connection.person))

    async def handle(self, text: str, value: Any = None) -> None:
        """Does what the message `text` says (`value`: its JSON, if read already)."""
        try:
            message = value if value is not None else read_json(text)
        except UnreadableJSONError as error:
            raise Refused(400, f"this message is not usable JSON: {error}") from None
        except ValueError as error:
            raise Refused(400, f"messages are JSON objects; this is not JSON ({error})") from None
        if not isinstance(message, dict) or not isinstance(message.get("type"), str):
            raise Refused(400, 'messages are JSON objects with a "type", e.g. {"type":"sync"}')
        kind = message["type"]
        person = self.connection.person
        if kind == "move":
            move, version = message.get("move"), message.get("version")
            if not isinstance(move, str):
                raise Refused(400, 'a move message needs "move", a cell name like "e5"')
            if version is not None and (not isinstance(version, int) or isinstance(version, bool)):
                raise Refused(400, '"version" must be an integer')
            await self.table.apply(PlayMove(move, version), person)
        elif kind == "resign":
            await self.table.apply(Resign(), person)
        elif kind == "rematch":
            await self.table.apply(AskRematch(), person)
        elif kind == "claim":
            await self.table.apply(ClaimWin(), person)
        elif kind == "takeback":
            await self.table.apply(AskTakeback(), person)
        elif kind in ("accept-takeback", "decline-takeback"):
            await self.table.apply(AnswerTakeback(accept=kind == "accept-takeback"), person)
        elif kind == "name":
            name, side = message.get("name"), message.get("side")
            if not isinstance(name, str):
                raise Refused(400, 'a name message needs "name", e.g. "Ana"')
            if side not in (None, "x", "o"):
                raise Refused(400, '"side" is "x" or "o" (one device only)')
            await self.table.apply(SetName(clean_name(name), side), person)
        elif kind == "draw":
            await self.table.apply(OfferDraw(), person)
        elif kind == "decline-draw":
            await self.table.apply(AnswerDraw(accept=False), person)
        elif kind == "react":
            reaction = message.get("reaction")
            if not isinstance(reaction, str):
                raise Refused(400, 'a react message needs "reaction", e.g. "good-move"')
            await self.table.react(reaction, person)
        elif kind == "sync":
            # The whole table: one frame catches up whatever was missed.
            if self.table.shared:
                await self.table.refresh()  # another process may have changed it
            self.connection.send(self.table.frame_for(person))
        elif kind == "auth":
            await self.authenticate(message.get("token"))
        elif kind == "ping":
            self.connection.send('{"type":"pong"}')
        else:
            raise Refused(400, f"unknown message type {kind!r}")

    async def authenticate(self, token: object) -> None:
        if not isinstance(token, str):
            raise Refused(401, 'an auth message needs "token", the seat token')
        person = hash_secret(token)
        if self.table.mark_of(person) is None and self.table.shared:
            await self.table.refresh()  # the seat may have been taken through another process
        if self.table.mark_of(person) is None:
            raise Refused(401, "that seat token is not valid at this table")
        if person != self.connection.person:
            await self.table.disconnect(self.connection.person)
            self.connection.person = person
            await self.table.connect(person)
        self.connection.send(self.table.frame_for(person))


@router.websocket("/api/tables/{table_id}/ws")
async def table_socket(websocket: WebSocket, table_id: str) -> None:
    tables = tables_of(websocket)
    settings = tables.settings
    hub: Hub = websocket.app.state.hub
    await websocket.accept()
    try:
        table = await tables.get(table_id)
    except StorageUnavailableError:
        # 1013 "try again later": the page reconnects (with backoff) rather than give up.
        await websocket.send_text(error_frame(503, "the database is unreachable; retrying"))
        await websocket.close(code=1013)
        return
    if table is None:
        await websocket.send_text(error_frame(404, f"there is no table {table_id!r}"))
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
        connection.send(error_frame(401, "that seat token is not valid at this table; watching"))
    elif person is not None:
        connection.person = person
    if not table.may_watch(connection.person):
        await websocket.send_text(
            error_frame(409, "this table is private: only its players can see it", "private")
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
                    connection.send(error_frame(400, "messages are UTF-8 JSON text"))
                    continue
            if len(text.encode("utf-8", "surrogatepass")) > settings.max_message_bytes:
                connection.send(
                    error_frame(
                        413, f"message too large: at most {settings.max_message_bytes} bytes"
                    )
                )
                continue
            try:
                await session.handle(text, value)
            except Refused as refused:
                session.refuse(refused)
            except StorageUnavailableError:
                connection.send(error_frame(503, "the database is unreachable; try again"))
    except WebSocketDisconnect:
        pass
    finally:
        await hub.leave(table.id, connection)
        await connection.close()
        await table.disconnect(connection.person)
