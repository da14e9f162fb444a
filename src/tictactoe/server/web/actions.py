"""Acting at a table over HTTP: whose seat token it is, the refusal as JSON, and the action table,
one row per command a seat sends with at most a small body (`POST /api/tables/{table_id}/<path>`).

Handlers only translate HTTP to `Table` commands: the table decides, and `Refused` becomes
`{"status", "reason", "message"}` with its status.
"""

from __future__ import annotations

import inspect
from collections.abc import Callable
from dataclasses import dataclass
from typing import Annotated, Any

from fastapi import APIRouter, Depends, Request
from fastapi.responses import JSONResponse, Response
from fastapi.security import HTTPAuthorizationCredentials, HTTPBearer
from pydantic import BaseModel

from tictactoe.server.ops.json_output import compact_json
from tictactoe.server.table.actor import Table
from tictactoe.server.table.commands import (
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
from tictactoe.server.table.names import clean_name
from tictactoe.server.table.tokens import hash_secret
from tictactoe.server.web.identity import site_base_url, tables_of
from tictactoe.server.web.table_bodies import MoveBody, NameBody, TableView, error_responses

bearer = HTTPBearer(auto_error=False, description="The seat token from creating or joining")
BearerToken = Annotated[HTTPAuthorizationCredentials | None, Depends(bearer)]


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


def table_response(table: Table, request: Request) -> Response:
    # Encoded by hand: the view is already plain JSON data, and validation would double the cost.
    body = compact_json(table.view(site_base_url(request)))
    return Response(body, media_type="application/json")


async def find_table(request: Request, table_id: str) -> Table:
    table = await tables_of(request).get(table_id)
    if table is None:
        raise Refused(404, f"there is no table {table_id!r}", "no-table")
    return table


async def person_of_token(
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
    table = await find_table(request, table_id)
    person = await person_of_token(table, request, credentials)
    await table.apply(command, person)
    return table_response(table, request)


@dataclass(frozen=True)
class Action:
    """A command a seat sends at a table: its path under `/api/tables/{table_id}/`, the command
    (made from the body when the action has one), and its documentation at /docs."""

    path: str
    command: Command | Callable[[Any], Command]
    summary: str
    doc: str
    statuses: tuple[int, ...] = (401, 403, 404, 409)
    body: type[BaseModel] | None = None
    method: str = "POST"
    name: str | None = None  # the route's name (and so its OpenAPI operation id); else the path
    message: str | None = None  # the WebSocket message of the same command, if it carries no more

    def command_for(self, body: BaseModel | None) -> Command:
        return self.command(body) if callable(self.command) else self.command


def _play_move(body: MoveBody) -> Command:
    return PlayMove(body.move, body.version)


def _set_name(body: NameBody) -> Command:
    return SetName(clean_name(body.name))


# The tables' actions (tagged "tables" at /docs) …
TABLE_ACTIONS = (
    Action(
        "moves",
        _play_move,
        "Play a move",
        "Plays `move` for the token's seat. `401` no or bad token, `403` not your turn or not "
        "your table, `409` stale `version`, `422` illegal move (with its `reason`). Nothing "
        "changes on an error.",
        (401, 403, 404, 409, 422),
        body=MoveBody,
        name="play_move",
    ),
    Action("resign", Resign(), "Resign", "Ends the game: the opponent wins.", message="resign"),
    Action(
        "rematch",
        AskRematch(),
        "Ask for a rematch",
        "Once both players asked (the computer always agrees), the next game starts with the "
        "marks swapped: whoever was O moves first as X. The score carries over.",
        message="rematch",
    ),
    Action(
        "claim",
        ClaimWin(),
        "Claim the win",
        "Wins the game when the opponent has been disconnected on their turn long enough.",
        message="claim",
    ),
    Action(
        "takeback",
        AskTakeback(),
        "Ask to take back your last move",
        "Asks the other side to agree to undo your last move (and their reply, if they have "
        "moved since); the computer agrees at once. `403` (reason `takebacks-off`) when the "
        "table does not allow takebacks, `409` when there is nothing to take back or a request "
        "is pending.",
        message="takeback",
    ),
    Action(
        "takeback/accept",
        AnswerTakeback(accept=True),
        "Agree to the other side's takeback",
        "Undoes the asker's last move: the position before it is back, as a new version.",
        message="accept-takeback",
    ),
    Action(
        "takeback/decline",
        AnswerTakeback(accept=False),
        "Decline the other side's takeback",
        "The request is dropped and the game goes on as it was.",
        message="decline-takeback",
    ),
    Action(
        "stop-waiting",
        StopWaiting(),
        "Stop waiting for an opponent",
        "The one person at an open table (one opened by `POST /api/quick`, or public) takes it "
        "off the open list: nobody is paired with it any more. `409` (reason `seats-taken`) "
        "once someone has taken the other seat.",
        message="stop-waiting",
    ),
)
# … and the people's (tagged "people").
PEOPLE_ACTIONS = (
    Action(
        "name",
        _set_name,
        "Name your seat",
        "Everyone at the table sees it as `seats.<mark>.name` (teams: the side's name).",
        (401, 403, 404, 422),
        body=NameBody,
        method="PUT",
        name="set_name",
    ),
    Action(
        "draw",
        OfferDraw(),
        "Offer a draw, or accept the one offered",
        "Offers a draw (`draw_offer` is your mark until the next move declines it), or accepts "
        "the other side's offer: the game ends drawn and the score counts it. The computer "
        "accepts only a proven draw, and says no at once otherwise.",
        name="offer_draw",
        message="draw",
    ),
)
ACTIONS = TABLE_ACTIONS + PEOPLE_ACTIONS


def add_actions(router: APIRouter, actions: tuple[Action, ...]) -> None:
    """One route a row: `<method> /tables/{table_id}/<path>` doing the action for the token's
    seat, its body (if any) validated and documented as any other route's."""
    for action in actions:
        _add_action(router, action)


def _add_action(router: APIRouter, action: Action) -> None:
    async def act(
        table_id: str,
        request: Request,
        credentials: BearerToken,
        body: BaseModel | None = None,
    ) -> Response:
        return await act_on_table(request, table_id, credentials, action.command_for(body))

    # FastAPI reads the parameters (and the body's model, if any) from the signature.
    named = {"table_id": str, "body": action.body, "request": Request, "credentials": BearerToken}
    parameters = [
        inspect.Parameter(name, inspect.Parameter.POSITIONAL_OR_KEYWORD, annotation=annotation)
        for name, annotation in named.items()
        if annotation is not None
    ]
    act.__signature__ = inspect.Signature(parameters)  # type: ignore[attr-defined]
    act.__doc__ = action.doc
    router.add_api_route(
        f"/tables/{{table_id}}/{action.path}",
        act,
        methods=[action.method],
        response_model=TableView,
        responses=error_responses(*action.statuses),
        summary=action.summary,
        name=action.name or action.path.replace("/", "_"),
    )
