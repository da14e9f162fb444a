"""The learning pages: `/puzzles` (a puzzle for the rating kept in this browser), `/puzzles/daily`,
one puzzle by its shareable link `/puzzles/{id}`, and the course at `/learn`. Server-rendered
shells like the review: the board's steps come in a JSON blob, and `static/puzzle.js` or
`static/learn.js` play them, asking the API to judge (the browser knows no rules)."""

from __future__ import annotations

import datetime

from fastapi import APIRouter, Request
from fastapi.responses import Response

from tictactoe.server.learning.lessons import lessons_json
from tictactoe.server.learning.puzzles import Puzzle, daily_puzzle, puzzle_by_id
from tictactoe.server.table.review import step_json
from tictactoe.server.web.identity import site_base_url
from tictactoe.server.web.templating import render

router = APIRouter(include_in_schema=False)


def _puzzle_page(request: Request, puzzle: Puzzle, daily: bool = False) -> Response:
    start = puzzle.start()
    data = {
        "puzzle": puzzle.public(),
        "step": step_json(start),
        "url": f"{site_base_url(request)}puzzles/{puzzle.id}",
    }
    context = {"puzzle": puzzle.public(), "data": data, "turn": start.turn, "daily": daily}
    return render(request, "puzzle.html", context)


@router.get("/puzzles")
async def puzzles_page(request: Request) -> Response:
    """Picks a puzzle for the rating kept in this browser (in the page's script)."""
    return render(request, "puzzle_pick.html")


@router.get("/puzzles/daily")
async def daily_page(request: Request) -> Response:
    return _puzzle_page(request, daily_puzzle(datetime.datetime.now(datetime.UTC).date()), True)


@router.get("/puzzles/{puzzle_id}")
async def puzzle_page(request: Request, puzzle_id: str) -> Response:
    puzzle = puzzle_by_id(puzzle_id)
    if puzzle is None:
        return render(request, "not_found.html", status_code=404)
    return _puzzle_page(request, puzzle)


@router.get("/learn")
async def learn_page(request: Request) -> Response:
    return render(request, "learn.html", {"lessons": lessons_json()})
