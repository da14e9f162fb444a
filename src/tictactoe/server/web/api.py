"""The tables' JSON API (documented at /docs): create a table, take a seat, read it, react; the
commands a seat sends (move, resign, rematch, claim, take back) are rows of `actions.ACTIONS`.
"""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import Response
from fastapi.security import HTTPAuthorizationCredentials

from tictactoe.server.ops.scope import client_address
from tictactoe.server.table.actor import Table
from tictactoe.server.table.commands import Refused, TakeSeat
from tictactoe.server.table.tables import NewTable, TableOptions
from tictactoe.server.table.tokens import hash_secret, new_secret
from tictactoe.server.web.actions import (
    TABLE_ACTIONS,
    BearerToken,
    add_actions,
    find_table,
    person_of_token,
    table_response,
)
from tictactoe.server.web.identity import client_hash, site_base_url, tables_of
from tictactoe.server.web.table_bodies import (
    CreatedTable,
    CreateTable,
    GrantedSeat,
    ReactionBody,
    TableView,
    TakeSeatBody,
    error_responses,
)

router = APIRouter(prefix="/api", tags=["tables"])


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
    table = await find_table(request, table_id)
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
    table = await find_table(request, table_id)
    _require_watcher(table, request, credentials)
    return table_response(table, request)


add_actions(router, TABLE_ACTIONS)


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
    table = await find_table(request, table_id)
    person = await person_of_token(table, request, credentials)
    await table.react(body.reaction, person)
    return Response(status_code=204)
