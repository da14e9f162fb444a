"""The JSON API for looking back: the games of a table, one game's record and steps, its analysis
by the computer, any position code or record read into steps (the analysis board), and the games
this browser played ("My games"). Its bodies are in `review_bodies`."""

from __future__ import annotations

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse

from tictactoe import IllegalMoveError
from tictactoe.server.storage import GameRecord, PlayedSide, Storage, TableRecord
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.review import (
    GameKey,
    game_json,
    key_of_game,
    key_of_table,
    read_position,
    start_game,
)
from tictactoe.server.table.tokens import hash_secret
from tictactoe.server.table.view import table_url
from tictactoe.server.web.analysis_calls import ask_the_computer, asker_of
from tictactoe.server.web.identity import client_hash, site_base_url, tables_of
from tictactoe.server.web.review_bodies import (
    AnalysisView,
    EvaluatePosition,
    GameSummary,
    GameView,
    Mark,
    MyGame,
    PositionEvaluation,
    PositionView,
    ReadPosition,
)
from tictactoe.server.web.table_bodies import error_responses

router = APIRouter(tags=["looking back"])


async def table_games(request: Request, table_id: str) -> tuple[TableRecord, list[GameRecord]]:
    """The table, and its earlier games (each finished); 404 if there is no such table, 409 if it
    is private and the caller is none of its players (known by seat token or browser cookie)."""
    tables = tables_of(request)
    table = await tables.get(table_id)
    if table is None:
        raise Refused(404, f"there is no table {table_id!r}", "no-table")
    if table.record.private:
        person = table.person_of_client(client_hash(request))
        authorization = request.headers.get("authorization", "")
        if table.mark_of(person) is None and authorization.lower().startswith("bearer "):
            person = hash_secret(authorization[7:].strip())
        if not table.may_watch(person):
            raise Refused(409, "this table is private: only its players can see it", "private")
    record = table.record
    archived = {game.game_number: game for game in await tables.storage.games(table_id)}
    earlier = [
        archived.get(n) or await _from_move_log(request, record, n)
        for n in range(1, record.game_number)
    ]
    return record, earlier


async def _from_move_log(request: Request, table: TableRecord, number: int) -> GameRecord:
    """A game played before games were archived: its moves from the log, its result from the
    rules (a resignation leaves no trace there, so such a game shows no result)."""
    moves = tuple(
        m.move for m in await tables_of(request).storage.moves(table.id) if m.game_number == number
    )
    key = GameKey(table.variant, table.size, table.line, table.start_position, " ".join(moves))
    game = start_game(key.variant, key.size, key.line, key.start_position)
    for move in moves:
        game = game.play(move)
    ended_by = None if game.result is None else "draw" if game.result == "draw" else "line"
    return GameRecord(
        table_id=table.id,
        game_number=number,
        variant=table.variant,
        size=table.size,
        line=table.line,
        start_position=table.start_position,
        moves=moves,
        result=game.result,
        ended_by=ended_by,
        x=PlayedSide(),
        o=PlayedSide(),
        level=table.level,
        ended_at=None,
    )


async def one_game(
    request: Request, table_id: str, number: int
) -> tuple[TableRecord, GameRecord | TableRecord]:
    record, earlier = await table_games(request, table_id)
    if number == record.game_number:
        return record, record
    if 1 <= number < record.game_number:
        return record, earlier[number - 1]
    raise Refused(
        404, f"table {table_id!r} has no game {number} (it has {record.game_number})", "no-game"
    )


@router.get(
    "/tables/{table_id}/games",
    response_model=list[GameSummary],
    responses=error_responses(404, 409),
    summary="The games of a table",
)
async def list_games(table_id: str, request: Request) -> list[GameSummary]:
    """Every game played at the table, the first first; the last one may still be going on."""
    record, earlier = await table_games(request, table_id)
    url = table_url(site_base_url(request), table_id)
    return [*(_summary(game, url) for game in earlier), _summary(record, url)]


def _summary(game: GameRecord | TableRecord, url: str) -> GameSummary:
    """A game in a list; the table's current one may still be going on (then it has not ended)."""
    if isinstance(game, TableRecord):
        table_id, ended_at = game.id, game.updated_at if game.result is not None else None
    else:
        table_id, ended_at = game.table_id, game.ended_at
    return GameSummary(
        table_id=table_id,
        game=game.game_number,
        variant=game.variant,  # type: ignore[arg-type]
        size=game.size,
        line=game.line,
        moves=len(game.moves),
        result=game.result,  # type: ignore[arg-type]
        ended_by=game.ended_by,
        ended_at=ended_at,
        url=url,
    )


@router.get(
    "/tables/{table_id}/games/{number}",
    response_model=GameView,
    responses=error_responses(404, 409),
    summary="A game's record, result and positions",
)
async def read_game(table_id: str, number: int, request: Request) -> JSONResponse:
    """Game `number` at the table (1 is the first; the current one may still be going on), with
    every position from its start, for stepping through it."""
    _, game = await one_game(request, table_id, number)
    return JSONResponse(game_json(table_id, game, number))


@router.get(
    "/tables/{table_id}/games/{number}/analysis",
    response_model=AnalysisView,
    responses=error_responses(404, 409, 503),
    summary="The computer's evaluation after every move of a game",
)
async def analyse_game(table_id: str, number: int, request: Request) -> JSONResponse:
    """The computer's evaluation of every position of a finished game, worked out once and then
    kept. `409` while the game is still being played: the computer does not help the players."""
    _, game = await one_game(request, table_id, number)
    if game.result is None:
        raise Refused(
            409,
            "the game is still being played: its analysis opens once it is over",
            "game-in-progress",
        )
    key = key_of_table(game) if isinstance(game, TableRecord) else key_of_game(game)
    analysis = await ask_the_computer(
        request,
        lambda analyst: analyst.analysis(key, f"table:{table_id}"),
        cannot="the computer cannot analyse the game right now; try again",
        what=f"analysis of game {number} at table {table_id}",
    )
    return JSONResponse({"table_id": table_id, "game": number, **analysis})


@router.post(
    "/positions",
    response_model=PositionView,
    responses=error_responses(422),
    summary="Read a position code or record",
)
async def read_position_api(body: ReadPosition) -> JSONResponse:
    """The positions from `position` (or the start) through the moves of `record`: what the
    analysis board draws. A code no legal game reaches, or an illegal move, is a `422` that says
    why."""
    try:
        read = read_position(body.variant, body.size, body.line, body.position, body.record)
    except IllegalMoveError as error:
        raise Refused(422, str(error), error.reason) from None
    except ValueError as error:  # InvalidPositionError, or settings the variant does not have
        raise Refused(422, str(error), "invalid-position") from None
    return JSONResponse(read)


@router.post(
    "/positions/evaluation",
    response_model=PositionEvaluation,
    responses=error_responses(422, 503),
    summary="The computer's evaluation and move in a position",
)
async def evaluate_position(body: EvaluatePosition, request: Request) -> JSONResponse:
    """What the computer thinks of one position and the move it would play (the analysis
    board's "show the computer's move"); kept, so asking again costs nothing."""
    try:
        read = read_position(body.variant, None, body.line, body.position, "")
    except ValueError as error:
        raise Refused(422, str(error), "invalid-position") from None
    evaluation = await ask_the_computer(
        request,
        lambda analyst: analyst.position(
            body.variant, read["size"], read["line"], body.position, asker_of(request)
        ),
        cannot="the computer cannot look at the position right now",
        what=f"evaluation of {body.position!r}",
    )
    return JSONResponse(evaluation)


@router.get("/my-games", response_model=list[MyGame], summary="The games played in this browser")
async def my_games_api(request: Request) -> list[MyGame]:
    """The games played with this browser's cookie, newest first."""
    return await my_games(request)


async def my_games(request: Request, limit: int = 100) -> list[MyGame]:
    """The games this browser (its `ttt_client` cookie) played, newest first: those being played
    and the finished ones."""
    mine = client_hash(request)
    if mine is None:
        return []
    storage = tables_of(request).storage
    base = site_base_url(request)
    found: list[tuple[float, MyGame]] = []
    archived = await storage.games_of_client(mine, limit)
    for game in archived:
        mark: Mark = "x" if mine in game.x.clients else "o"
        summary = _summary(game, table_url(base, game.table_id))
        found.append(
            (
                game.ended_at or 0.0,
                MyGame(
                    **summary.model_dump(),
                    mark=mark,
                    opponent="computer" if (game.o.computer or game.x.computer) else "friend",
                    level=game.level,
                ),
            )
        )
    seen = {(g.table_id, g.game_number) for g in archived}
    for table in await storage.tables_of_client(mine, limit):
        if (table.id, table.game_number) in seen:
            continue
        if not table.moves and table.game_number > 1:
            continue  # a rematch not begun yet: the finished game is listed already
        mark = "x" if mine in table.x.clients else "o"
        found.append(
            (
                table.updated_at,
                MyGame(
                    **_summary(table, table_url(base, table.id)).model_dump(),
                    mark=mark,
                    opponent=table.opponent,  # type: ignore[arg-type]
                    level=table.level,
                ),
            )
        )
    found.sort(key=lambda item: item[0], reverse=True)
    shown = [game for _, game in found[:limit]]
    names = await _opponent_names(storage, mine, {game.table_id for game in shown})
    return [game.model_copy(update={"opponent_name": names.get(game.table_id)}) for game in shown]


async def _opponent_names(storage: Storage, mine: str, table_ids: set[str]) -> dict[str, str]:
    """The name the other side set at each table (names follow the person through rematches, so
    the table as it is now names the opponent of all its games)."""
    names: dict[str, str] = {}
    for table_id in table_ids:
        table = await storage.load(table_id)
        if table is None or table.teams:
            continue
        for my_side, their_side in ((table.x, table.o), (table.o, table.x)):
            me, them = my_side.holder, their_side.holder
            if me.client_hash == mine and them.name and them.client_hash != mine:
                names[table_id] = them.name
    return names
