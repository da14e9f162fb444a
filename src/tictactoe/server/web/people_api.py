"""The JSON API of the people at a table (documented at /docs): a seat's name, draws by agreement,
the open tables and "play someone now". As in `api`, handlers only translate HTTP to table
commands."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response
from pydantic import BaseModel, Field

from tictactoe import new_game
from tictactoe.server.ops.scope import client_address
from tictactoe.server.storage import TableRecord
from tictactoe.server.table import lobby
from tictactoe.server.table.commands import Refused, TakeSeat
from tictactoe.server.table.tables import NewTable, TableOptions
from tictactoe.server.table.tokens import hash_secret, new_secret
from tictactoe.server.table.view import table_url
from tictactoe.server.web.actions import PEOPLE_ACTIONS, add_actions
from tictactoe.server.web.api import created_table, options_of
from tictactoe.server.web.identity import client_hash, site_base_url, tables_of
from tictactoe.server.web.table_bodies import CreatedTable, CreateTable, error_responses

router = APIRouter(prefix="/api", tags=["people"])
add_actions(router, PEOPLE_ACTIONS)  # a seat's name, a draw offered or accepted

# How many candidates the open list and the pairing look through (the newest public ones).
_CANDIDATES = 200


class OpenTable(BaseModel):
    id: str
    url: str
    variant: Literal["standard", "ultimate"]
    size: int
    line: int
    teams: bool
    takebacks: bool
    clock_minutes: float | None
    clock_increment: float
    waiting_since: float = Field(description="when the table was opened (Unix time)")


async def open_tables_here(request: Request) -> list[TableRecord]:
    """The open tables to list (see `lobby.listed`), each creator's presence checked here."""
    tables = tables_of(request)
    stored = await tables.storage.open_tables(_CANDIDATES)
    # Those waiting with their creator here come first, whatever else is stored.
    candidates = list({record.id: record for record in [*stored, *tables.waiting_here()]}.values())
    here: dict[str, bool] = {}
    for record in candidates:
        table = await tables.get(record.id)
        mark = lobby.creator_mark(record)
        here[record.id] = table is not None and mark is not None and table.is_connected(mark)
    exempt = tables.settings.rate_limit_exempt  # tests, benchmarks: one address, many people

    def address_of(record: TableRecord) -> str | None:
        address = tables.creator_address(record.id)
        return None if address in exempt else address

    return lobby.listed(candidates, lambda record: here[record.id], address_of)


@router.get(
    "/tables",
    response_model=list[OpenTable],
    responses=error_responses(422),
    summary="The open tables",
)
async def open_tables(request: Request, open: bool = False) -> list[OpenTable]:
    """With `open=true`: public tables waiting for someone, newest first, whose creator is still
    there (at most one per creator's browser). Private tables never appear."""
    if not open:
        raise Refused(
            422, "only the open tables are listed: GET /api/tables?open=true", "bad-request"
        )
    base = site_base_url(request)
    return [
        OpenTable(
            id=record.id,
            url=table_url(base, record.id),
            waiting_since=record.created_at,
            **lobby.settings_of(record),
        )
        for record in await open_tables_here(request)
    ]


@router.post(
    "/quick",
    response_model=CreatedTable,
    responses={201: {"model": CreatedTable}, **error_responses(422)},
    summary="Play someone now",
)
async def play_someone_now(body: CreateTable, request: Request) -> Response:
    """Seats you at the oldest open public table with these settings (`200`), or opens one and
    waits for someone (`201`): the same answer as creating a table."""
    if body.opponent != "friend" or body.private:
        raise Refused(
            422, "play someone now pairs two people: a friend's seat, not private", "bad-settings"
        )
    new, paired = await play_someone(request, options_of(body, public=True))
    answer = created_table(new, request).model_dump(exclude_none=True)
    return JSONResponse(answer, status_code=200 if paired else 201)


async def play_someone(request: Request, options: TableOptions) -> tuple[NewTable, bool]:
    """Seats the caller at the oldest listed table with these settings (True), or opens a public
    one for them to wait at (False)."""
    options.check()
    try:
        game = new_game(options.variant, size=options.size, line=options.line)
    except ValueError as error:
        raise Refused(422, str(error), "bad-settings") from None
    wanted = lobby.settings(
        options.variant,
        game.size,
        game.line,
        options.teams,
        options.takebacks,
        options.clock_minutes,
        options.clock_increment,
    )
    client = client_hash(request)
    tables = tables_of(request)
    for record in lobby.partner_for(await open_tables_here(request), wanted, client):
        table = await tables.get(record.id)
        if table is None:
            continue
        token = new_secret()
        try:
            events = await table.apply(TakeSeat(hash_secret(token), client), None)
        except Refused:
            continue  # taken meanwhile by someone quicker: the next one
        mark = events[0].mark
        assert mark is not None
        return NewTable(table, mark, token, {mark: token}), True
    return await tables.create(options, client, client_address(request.scope)), False
