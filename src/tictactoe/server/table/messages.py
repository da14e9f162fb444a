"""Every message of the table's WebSocket, both ways: the one place the wire format is written
down, with the refusals' `reason` codes (`reasons.py`, pure, so that decisions can name them); the
docs at /docs, /api/asyncapi.json and `docs/messages.md` are generated from here.

Messages are JSON objects with a `type`. Each is a `TypedDict` here: the server builds its frames
as these plain dicts (no cost at run time, checked by mypy), and reads a client's message with
`CLIENT_MESSAGES`, a pydantic adapter over their union. Any client message may carry an `id`
(a number, or a string of at most 64 characters); the answer to it echoes it.
"""

from typing import Annotated, Any, Literal, NotRequired, get_args

from pydantic import ConfigDict, Field, TypeAdapter
from typing_extensions import TypedDict

from tictactoe.server.ops.json_output import compact_json
from tictactoe.server.table.commands import REACTIONS
from tictactoe.server.table.events import Event, EventKind
from tictactoe.server.table.reasons import REASONS, Reason

__all__ = ["REACTIONS", "REASONS", "Reason"]  # the wire's words, with the messages below

Seat = Literal["x", "o", "spectator"]
Side = Literal["x", "o"]
MessageId = int | Annotated[str, Field(max_length=64)]

_STRICT = ConfigDict(strict=True)


# -- client → server -------------------------------------------------------------------------------


class ClientMessageBase(TypedDict):
    """What every client message has: strict types, and an optional `id` its answer echoes."""

    __pydantic_config__ = _STRICT  # type: ignore[misc]
    id: NotRequired[MessageId]


class MoveMessage(ClientMessageBase):
    """Plays a move; with `version`, only at that version (else `stale-version`)."""

    type: Literal["move"]
    move: Annotated[str, Field(max_length=8)]
    version: NotRequired[int]


ActionType = Literal[
    "resign",
    "rematch",
    "claim",
    "takeback",
    "accept-takeback",
    "decline-takeback",
    "draw",
    "decline-draw",
    "stop-waiting",
]


class ActionMessage(ClientMessageBase):
    """`resign`, `rematch` (ask for one, or accept), `claim` (the win, while the opponent is away
    on their turn), `takeback` (ask to undo your last move), `accept-takeback`,
    `decline-takeback`, `draw` (offer a draw, or accept the opponent's offer): as the HTTP API;
    `decline-draw` turns the opponent's offer down; `stop-waiting` takes an open table you wait
    at alone off the open list (quick pairing's Cancel)."""

    type: ActionType


class NameMessage(ClientMessageBase):
    """The player's display name (`side`: which one, at a table played on one device)."""

    type: Literal["name"]
    name: Annotated[str, Field(max_length=200)]
    side: NotRequired[Side | None]


class ReactMessage(ClientMessageBase):
    """A quick reaction, one of `good-move`, `wow`, `good-game`, `oops`, `thinking`."""

    type: Literal["react"]
    reaction: Annotated[str, Field(max_length=32)]


class SyncMessage(ClientMessageBase):
    """Asks for the whole table (after a gap in versions, or on reconnecting); `version` is the
    last one the client has."""

    type: Literal["sync"]
    version: NotRequired[int | None]


class AuthMessage(ClientMessageBase):
    """Plays the seat of `token` on this socket (answered with the table, naming the seat)."""

    type: Literal["auth"]
    token: Annotated[str, Field(max_length=200)]


class PingMessage(ClientMessageBase):
    """Asks for a `pong`."""

    type: Literal["ping"]


ClientMessage = Annotated[
    MoveMessage
    | ActionMessage
    | NameMessage
    | ReactMessage
    | SyncMessage
    | AuthMessage
    | PingMessage,
    Field(discriminator="type"),
]
CLIENT_MESSAGES: TypeAdapter[Any] = TypeAdapter(ClientMessage)
CLIENT_MESSAGE_TYPES = (
    MoveMessage,
    ActionMessage,
    NameMessage,
    ReactMessage,
    SyncMessage,
    AuthMessage,
    PingMessage,
)
# The messages that act at a table: each counts against its address's action limit too.
ACTIONS = frozenset({"move", "name", *get_args(ActionType)})


# -- server → client -------------------------------------------------------------------------------


class EventJSON(TypedDict):
    """What happened at the table, as a frame carries it: `type` (`seat-taken`, `moved`,
    `game-over`, `rematch-asked`, `game-started`, `takeback-asked`, `taken-back`,
    `takeback-declined`, `name-set`, `draw-offered`, `draw-declined`, `draw-lapsed`,
    `takeback-lapsed`, `stopped-waiting`); `mark`, who did it (for `taken-back`: whose move was
    undone; for the lapses: whose offer or request the move let lapse); `move`; `result` and
    `ended_by` when a game ends."""

    type: EventKind
    mark: NotRequired[Side]
    move: NotRequired[str]
    result: NotRequired[str]
    ended_by: NotRequired[str]


class TableFrame(TypedDict):
    """The whole table (`table`, as `GET /api/tables/{id}`): on connecting, after every change
    but a move, and in answer to `sync` or `auth`. `seat` is this viewer's own (`x`, `o`, or
    `spectator`; a teammate gets their side's); `can_claim_win` is there when this viewer may
    claim the win now; `events` is what the change did (empty on connecting and on `sync`)."""

    type: Literal["table"]
    id: NotRequired[MessageId]
    seat: Seat
    can_claim_win: NotRequired[bool]
    events: list[EventJSON]
    table: dict[str, Any]


class MovedFrame(TypedDict):
    """After a move, the same bytes for every socket of the table. Applied to the table at
    version `previous`: append `move` to `moves` and `record`, take each field of `changes`,
    keep every other field, set `version`. `changes` holds what the move changed: always
    `last_move`, `position`, `turn`, `legal_moves` (and in Ultimate `sent_to`, `sends_to`);
    `boards` when the move closes a small board; `result`, `ended_by`, `winning_lines` and
    `score` when it ends the game; `takeback_asked_by` and `draw_offer` when it clears them;
    `clock` at a table with a clock; `seats` and `watchers` when who is here changed since the
    last frame. A client at another version than `previous` sends `sync`."""

    type: Literal["moved"]
    version: int
    previous: int
    move: str
    changes: dict[str, Any]
    events: list[EventJSON]


class ReactionFrame(TypedDict):
    """A player's quick reaction (`side`: whose), at the table's `version`."""

    type: Literal["reaction"]
    reaction: str
    side: Side
    version: int


class ErrorFrame(TypedDict):
    """A message refused (or the socket refused, on connecting), with the statuses of the HTTP
    API and a stable `reason`; `id` echoes the message's. A `stale-version` is followed by the
    `table`; `retry_after` (seconds) comes with `rate-limited`."""

    type: Literal["error"]
    id: NotRequired[MessageId]
    status: int
    reason: Reason
    message: str
    retry_after: NotRequired[float]


class AckFrame(TypedDict):
    """Answers a command that carried an `id`: it was done, and the table is now at `version`
    (its frame goes to every socket of the table, this one included)."""

    type: Literal["ack"]
    id: MessageId
    version: int


class PongFrame(TypedDict):
    """Answers `ping`."""

    type: Literal["pong"]
    id: NotRequired[MessageId]


SERVER_MESSAGE_TYPES = (TableFrame, MovedFrame, ReactionFrame, ErrorFrame, AckFrame, PongFrame)


def event_json(event: Event) -> EventJSON:
    """An event as frames carry it (what is not set is left out).

    >>> event_json(Event("moved", 3, mark="x", move="e5"))
    {'type': 'moved', 'mark': 'x', 'move': 'e5'}
    """
    body: EventJSON = {"type": event.kind}
    if event.mark is not None:
        body["mark"] = event.mark
    if event.move is not None:
        body["move"] = event.move
    if event.result is not None:
        body["result"] = event.result
    if event.ended_by is not None:
        body["ended_by"] = event.ended_by
    return body


def error_frame(
    status: int,
    reason: Reason,
    message: str,
    id: MessageId | None = None,
    retry_after: float | None = None,
) -> str:
    """An error message for the client.

    >>> error_frame(422, "occupied", "e5 is taken", id=7)
    '{"type":"error","id":7,"status":422,"reason":"occupied","message":"e5 is taken"}'
    """
    body: dict[str, Any] = {"type": "error"}
    if id is not None:
        body["id"] = id
    body.update(status=status, reason=reason, message=message)
    if retry_after is not None:
        body["retry_after"] = retry_after
    return compact_json(body)


def ack_frame(id: MessageId, version: int) -> str:
    """The answer to a command that carried `id`, once done.

    >>> ack_frame("a1", 4)
    '{"type":"ack","id":"a1","version":4}'
    """
    frame: AckFrame = {"type": "ack", "id": id, "version": version}
    return compact_json(frame)


def pong_frame(id: MessageId | None = None) -> str:
    """The answer to `ping`.

    >>> pong_frame(), pong_frame(2)
    ('{"type":"pong"}', '{"type":"pong","id":2}')
    """
    frame: PongFrame = {"type": "pong"} if id is None else {"type": "pong", "id": id}
    return compact_json(frame)
