"""The tables' JSON API (documented at /docs): create a table, take a seat, read it, move, resign,
rematch, claim, take back.

Handlers only translate HTTP to `Table` commands: the table decides, and `Refused` becomes
`{"status", "reason", "message"}` with its status.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel, ConfigDict, Field

from tictactoe.server.ops.json_output import compact_json
from tictactoe.server.ops.limits import client_address
from tictactoe.server.table.actor import Table
from tictactoe.server.table.commands import (
    AnswerTakeback,
    AskRematch,
    AskTakeback,
    ClaimWin,
    Command,
    PlayMove,
    Refused,
    Resign,
    StopWaiting,
    TakeSeat,
)
from tictactoe.server.table.messages import REACTIONS, Reason
from tictactoe.server.table.tables import NewTable, TableOptions
from tictactoe.server.table.tokens import hash_secret, new_secret
from tictactoe.server.web.identity import client_hash, site_base_url, tables_of
from tictactoe.server.web.levels_api import LevelName

router = APIRouter(prefix="/api", tags=["tables"])
bearer = HTTPBearer(auto_error=False, description="The seat token from creating or joining")
BearerToken = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]

# -- the bodies, as documented at /docs ---------------------------------------------------------


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: Literal["standard", "ultimate"]
    size: int | None = Field(None, description="standard: 3, 4 or 5 (default 3)")
    line: int | None = Field(None, description="standard: marks in a row that win, 3..size")
    first: Literal["me", "friend", "random"] = Field(
        "me", description="who plays X (X always moves first)"
    )
    opponent: Literal["friend", "computer", "here"] = Field(
        "friend", description="here: two people at this one device (both seats are yours)"
    )
    level: LevelName | None = Field(
        None, description="the computer's level (default medium; see `GET /api/levels`)"
    )
    position: str | None = Field(
        None,
        max_length=200,
        description="a position code to start from (e.g. from the analysis board); 422 with "
        "the reason if no legal game reaches it",
    )
    teams: bool = Field(
        False, description="two teams of players: several people per side (not with the computer)"
    )
    teams_open: bool = Field(
        True,
        description="teams: whether people may join a side while a game is played (false: only "
        "between games, before the first move)",
    )
    takebacks: bool = Field(False, description="a player may ask to undo their last move")
    private: bool = Field(False, description="no spectators: only the players see the table")
    clock_minutes: float | None = Field(
        None, gt=0, le=180, description="each side's time in minutes (fractions allowed); none"
    )
    clock_increment: float = Field(0, ge=0, le=60, description="seconds added after each move")
    public: bool = Field(
        False, description="listed among the open tables (GET /api/tables?open=true) until full"
    )


class TakeSeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    side: Literal["x", "o"] | None = Field(
        None, description="teams: the side to join (default: the side with fewer members)"
    )


class ReactionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reaction: Literal[REACTIONS] = Field(  # type: ignore[valid-type]
        description="one of the fixed quick reactions, shown translated to each viewer"
    )


class CreatedTable(BaseModel):
    id: str
    url: str = Field(description="the link to share")
    seat: Literal["x", "o"]
    token: str = Field(description="the seat token: `Authorization: Bearer <token>`")
    tokens: dict[Literal["x", "o"], str] | None = Field(
        None, description="one device: the token of each seat"
    )


class GrantedSeat(BaseModel):
    seat: Literal["x", "o"]
    token: str


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(max_length=8, examples=["e5"])
    version: int | None = Field(None, description="the version the move was chosen at")


class MemberView(BaseModel):
    connected: bool


class SeatView(BaseModel):
    taken: bool
    connected: bool = Field(description="anyone of this side is connected")
    computer: bool
    name: str | None = Field(None, description="the name its player chose, shown as text")
    disconnected_since: float | None = None
    members: list[MemberView] | None = Field(
        None, description="teams: the side's members in joining order"
    )


class ClockView(BaseModel):
    seconds: float = Field(description="each side's time at the start of a game")
    increment: float = Field(description="seconds added after each move")
    x: float = Field(description="seconds X has left now")
    o: float = Field(description="seconds O has left now")
    running: Literal["x", "o"] | None = Field(
        description="whose time is running (none before both sides are seated, and after the game)"
    )


class Score(BaseModel):
    x: int
    o: int
    draws: int


class Rematch(BaseModel):
    x: bool
    o: bool


class TableView(BaseModel):
    id: str
    url: str
    variant: Literal["standard", "ultimate"]
    size: int
    line: int
    opponent: Literal["friend", "computer", "here"]
    level: str | None
    game: int = Field(description="the game number at this table, 1 and up after rematches")
    record: str = Field(description="the moves of this game (from `start_position`, if set)")
    start_position: str | None = Field(
        None, description="the position code the table's games start from (null: the usual start)"
    )
    moves: list[str]
    last_move: str | None
    position: str
    turn: Literal["x", "o"]
    result: Literal["x", "o", "draw"] | None
    legal_moves: list[str]
    boards: list[Literal["x", "o", "draw"] | None] | None
    sent_to: int | None
    sends_to: dict[str, int | None] | None
    winning_lines: list[list[str]]
    ended_by: Literal["line", "draw", "resign", "abandon", "time", "agreement"] | None
    version: int
    seats: dict[Literal["x", "o"], SeatView]
    rematch: Rematch
    score: Score
    teams: bool
    teams_open: bool
    takebacks: bool = Field(description="whether takebacks are allowed")
    takeback_asked_by: Literal["x", "o"] | None = Field(
        description="the side whose takeback request awaits the other side's answer"
    )
    private: bool
    public: bool = Field(description="listed among the open tables while a seat is free")
    code: str | None = Field(description="the short code to join by (GET /j/{code})")
    tossed: bool = Field(
        False, description="who plays X (and moves first) in game 1 was decided by a coin toss"
    )
    watchers: int = Field(description="how many are watching without a seat")
    draw_offer: Literal["x", "o"] | None = Field(description="the side whose draw offer is pending")
    clock: ClockView | None
    can_claim_win: bool | None = None


class ErrorBody(BaseModel):
    status: int
    reason: Reason = Field(description="the stable code of the refusal (see the reasons above)")
    message: str = Field(description="the refusal in words, for a person")
    table: TableView | None = Field(None, description="for a stale version: the table now")


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in statuses}


# -- handlers --------------------------------------------------------------------------------------


def refusal_response(refused: Refused) -> JSONResponse:
    body: dict[str, Any] = {
        "status": refused.status,
        "reason": refused.reason,
        "message": refused.message,
    }
    if refused.table is not None:
        body["table"] = refused.table
    headers = {"WWW-Authenticate": "Bearer"} if refused.status == 401 else None
    return JSONResponse(body, status_code=refused.status, headers=headers)


def _table_response(table: Table, request: Request) -> Response:
    # Encoded by hand: the view is already plain JSON data, and validation would double the cost.
    body = compact_json(table.view(site_base_url(request)))
    return Response(body, media_type="application/json")


async def _find(request: Request, table_id: str) -> Table:
    tables = tables_of(request)
    table = await tables.get(table_id)
    if table is None:
        raise Refused(404, f"there is no table {table_id!r}", "no-table")
    return table


def _require_watcher(
    table: Table, request: Request, credentials: HTTPAuthorizationCredentials | None
) -> None:
    """A private table is shown only to its players (by seat token or browser cookie): 409."""
    if not table.record.private:
        return
    person = hash_secret(credentials.credentials) if credentials is not None else None
    if table.mark_of(person) is None:
        person = table.person_of_client(client_hash(request))
    if not table.may_watch(person):
        raise Refused(409, "this table is private: only its players can see it", "private")


async def _person(
    table: Table, request: Request, credentials: HTTPAuthorizationCredentials | None
) -> str:
    """The seat token's person at this table: 401 without a valid token, 403 for another table's."""
    if credentials is None:
        raise Refused(401, "an Authorization: Bearer <seat token> header is needed", "no-token")
    token_hash = hash_secret(credentials.credentials)
    if table.mark_of(token_hash) is not None:
        return token_hash
    if await tables_of(request).storage.find_table_by_token_hash(token_hash) is not None:
        raise Refused(403, "that seat token is for another table", "wrong-table")
    raise Refused(401, "that seat token is not valid", "bad-token")


async def act_on_table(
    request: Request,
    table_id: str,
    credentials: HTTPAuthorizationCredentials | None,
    command: Command,
) -> Response:
    table = await _find(request, table_id)
    person = await _person(table, request, credentials)
    await table.apply(command, person)
    return _table_response(table, request)


@router.post(
    "/tables",
    status_code=201,
    response_model=CreatedTable,
    response_model_exclude_none=True,
    responses=error_responses(422),
    summary="Create a table",
)
async def create_table(body: CreateTable, request: Request) -> CreatedTable:
    """Creates a table and seats the caller (also bound to their browser cookie)."""
    tables = tables_of(request)
    new = await tables.create(options_of(body), client_hash(request), client_address(request.scope))
    return created_table(new, request)


def options_of(body: CreateTable, public: bool | None = None) -> TableOptions:
    """The table options a creation body asks for (`public` overrides the body's)."""
    return TableOptions(
        variant=body.variant,
        size=body.size,
        line=body.line,
        first=body.first,
        opponent=body.opponent,
        level=body.level,
        position=body.position,
        teams=body.teams,
        teams_open=body.teams_open,
        takebacks=body.takebacks,
        private=body.private,
        clock_minutes=body.clock_minutes,
        clock_increment=body.clock_increment,
        public=body.public if public is None else public,
    )


def created_table(new: NewTable, request: Request) -> CreatedTable:
    """The answer to creating a table (also to being paired at one by POST /api/quick)."""
    return CreatedTable(
        id=new.table.id,
        url=new.table.view(site_base_url(request))["url"],
        seat=new.mark,
        token=new.token,
        tokens=new.tokens if len(new.tokens) == 2 else None,
    )


@router.post(
    "/tables/{table_id}/seats",
    response_model=GrantedSeat,
    responses=error_responses(404, 409),
    summary="Take the free seat",
)
async def take_seat(
    table_id: str, request: Request, body: TakeSeatBody | None = None
) -> GrantedSeat:
    """Seats the caller in the free seat; `409` when both are taken (anyone may still watch).
    With teams, the caller joins the side with fewer members, or `side` if given."""
    table = await _find(request, table_id)
    client = client_hash(request)
    token = new_secret()  # a browser already seated here is refused by the table (409)
    side = body.side if body is not None else None
    events = await table.apply(TakeSeat(hash_secret(token), client, side), None)
    mark = events[0].mark
    assert mark is not None
    return GrantedSeat(seat=mark, token=token)


@router.get(
    "/tables/{table_id}",
    response_model=TableView,
    responses=error_responses(404, 409),
    summary="Read a table",
)
async def read_table(table_id: str, request: Request, credentials: BearerToken) -> Response:
    """The table; a private one only for its players (seat token or browser cookie), else `409`."""
    table = await _find(request, table_id)
    _require_watcher(table, request, credentials)
    return _table_response(table, request)


@router.post(
    "/tables/{table_id}/moves",
    response_model=TableView,
    responses=error_responses(401, 403, 404, 409, 422),
    summary="Play a move",
)
async def play_move(
    table_id: str,
    body: MoveBody,
    request: Request,
    credentials: BearerToken,
) -> Response:
    """Plays `move` for the token's seat. `401` no or bad token, `403` not your turn or not your
    table, `409` stale `version`, `422` illegal move (with its `reason`). Nothing changes on an
    error."""
    return await act_on_table(request, table_id, credentials, PlayMove(body.move, body.version))


@dataclass(frozen=True)
class Action:
    """An action at a table that carries nothing but who acts (the seat token): its path under
    `/api/tables/{table_id}/`, the command, and its documentation at /docs."""

    path: str
    command: Command
    summary: str
    doc: str
    statuses: tuple[int, ...] = (401, 403, 404, 409)


ACTIONS = (
    Action("resign", Resign(), "Resign", "Ends the game: the opponent wins."),
    Action(
        "rematch",
        AskRematch(),
        "Ask for a rematch",
        "Once both players asked (the computer always agrees), the next game starts with the "
        "marks swapped: whoever was O moves first as X. The score carries over.",
    ),
    Action(
        "claim",
        ClaimWin(),
        "Claim the win",
        "Wins the game when the opponent has been disconnected on their turn long enough.",
    ),
    Action(
        "takeback",
        AskTakeback(),
        "Ask to take back your last move",
        "Asks the other side to agree to undo your last move (and their reply, if they have "
        "moved since); the computer agrees at once. `403` (reason `takebacks-off`) when the "
        "table does not allow takebacks, `409` when there is nothing to take back or a request "
        "is pending.",
    ),
    Action(
        "takeback/accept",
        AnswerTakeback(accept=True),
        "Agree to the other side's takeback",
        "Undoes the asker's last move: the position before it is back, as a new version.",
    ),
    Action(
        "stop-waiting",
        StopWaiting(),
        "Stop waiting for an opponent",
        "The one person at an open table (one opened by `POST /api/quick`, or public) takes it "
        "off the open list: nobody is paired with it any more. `409` (reason `seats-taken`) "
        "once someone has taken the other seat.",
    ),
    Action(
        "takeback/decline",
        AnswerTakeback(accept=False),
        "Decline the other side's takeback",
        "The request is dropped and the game goes on as it was.",
    ),
)


def _add_action(action: Action) -> None:
    """One `POST /api/tables/{table_id}/<path>` route doing `action` for the token's seat."""

    async def act(table_id: str, request: Request, credentials: BearerToken) -> Response:
        return await act_on_table(request, table_id, credentials, action.command)

    act.__doc__ = action.doc
    router.add_api_route(
        f"/tables/{{table_id}}/{action.path}",
        act,
        methods=["POST"],
        response_model=TableView,
        responses=error_responses(*action.statuses),
        summary=action.summary,
        name=action.path.replace("/", "_"),
    )


for _action in ACTIONS:
    _add_action(_action)


@router.post(
    "/tables/{table_id}/reactions",
    status_code=204,
    responses=error_responses(401, 403, 404, 422, 429),
    summary="Send a quick reaction",
)
async def react(
    table_id: str,
    body: ReactionBody,
    request: Request,
    credentials: BearerToken,
) -> Response:
    """Shows one of the fixed reactions (`good-move`, `wow`, `good-game`, `oops`, `thinking`) to
    everyone at the table as a WebSocket message `{"type": "reaction", "reaction", "side"}`.
    Players only; at most one every two seconds after a burst of three (`429`)."""
    table = await _find(request, table_id)
    person = await _person(table, request, credentials)
    await table.react(body.reaction, person)
    return Response(status_code=204)
