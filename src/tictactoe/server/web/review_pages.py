"""The pages for looking back: a table's games, the review of one game, the analysis board and
"My games". Server-rendered shells like the table page: the steps come in a JSON blob, and
`static/review.js` / `static/analysis.js` draw and step through them."""

from __future__ import annotations

from datetime import UTC, datetime

from babel.dates import format_datetime
from fastapi import APIRouter, Request
from fastapi.responses import Response

from tictactoe.server.table.commands import Refused
from tictactoe.server.table.review import game_json, read_position
from tictactoe.server.table.view import table_url
from tictactoe.server.web.identity import site_base_url
from tictactoe.server.web.review_api import my_games, one_game, table_games
from tictactoe.server.web.templating import render, request_language
from tictactoe.server.web.unreadable import unreadable

router = APIRouter(include_in_schema=False)

VARIANTS = ("standard", "ultimate")


@router.get("/t/{table_id}/games")
async def table_games_page(request: Request, table_id: str) -> Response:
    try:
        record, earlier = await table_games(request, table_id)
    except Refused as refused:
        return _refused_page(request, refused, table_id)
    games = [
        {"game": g.game_number, "moves": len(g.moves), "result": g.result, "ended_at": g.ended_at}
        for g in earlier
    ]
    games.append(
        {
            "game": record.game_number,
            "moves": len(record.moves),
            "result": record.result,
            "ended_at": record.updated_at if record.result is not None else None,
        }
    )
    context = {
        "table_id": table_id,
        "variant": record.variant,
        "games": list(reversed(games)),
        "table_url": table_url(site_base_url(request), table_id),
    }
    return render(request, "table_games.html", context)


@router.get("/t/{table_id}/games/{number}")
async def review_page(request: Request, table_id: str, number: int) -> Response:
    try:
        _, game = await one_game(request, table_id, number)
    except Refused as refused:
        return _refused_page(request, refused, table_id)
    context = {
        "game": game_json(table_id, game, number),
        "table_url": table_url(site_base_url(request), table_id),
    }
    return render(request, "review.html", context)


def _refused_page(request: Request, refused: Refused, table_id: str) -> Response:
    if refused.reason == "private":
        context = {"table_id": table_id, "joinable": False}
        return render(request, "private.html", context, status_code=409)
    return render(request, "not_found.html", status_code=404)


@router.get("/analysis")
async def analysis_page(request: Request) -> Response:
    """The analysis board at `?variant=&position=&record=` (`&size=&line=` for standard)."""
    query = request.query_params
    variant = query.get("variant", "ultimate")
    variant = variant if variant in VARIANTS else "ultimate"
    size, line = _number(query.get("size")), _number(query.get("line"))
    position = query.get("position", "").strip() or None
    record = query.get("record", "")
    error = None
    try:
        board = read_position(variant, size, line, position, record)
    except ValueError as problem:
        error = unreadable(problem, size)
        board = read_position(variant, size if size in (3, 4, 5) else None, None, None, "")
    context = {
        "board": board,
        "error": error,
        "asked": {"variant": variant, "position": position or "", "record": record},
    }
    # A code that cannot be read is the visitor's to fix on the page itself: still a 200.
    return render(request, "analysis.html", context)


def _number(text: str | None) -> int | None:
    try:
        return int(text) if text else None
    except ValueError:
        return None


@router.get("/my-games")
async def my_games_page(request: Request) -> Response:
    language = request_language(request)
    games = [(game, _when(game.ended_at, language)) for game in await my_games(request)]
    return render(request, "my_games.html", {"games": games})


def _when(timestamp: float | None, language: str) -> dict[str, str] | None:
    """When a game ended, written the way the page's language writes dates (in UTC).

    >>> _when(1795965232.0, "fi")
    {'iso': '2026-11-29T15:13:52+00:00', 'text': '29.11.2026 15.13 UTC'}
    """
    if timestamp is None:
        return None
    moment = datetime.fromtimestamp(timestamp, UTC)
    text = format_datetime(moment, "short", tzinfo=UTC, locale=language)
    return {"iso": moment.isoformat(), "text": f"{text} UTC"}
