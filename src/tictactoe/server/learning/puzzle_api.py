"""The puzzle API: the next puzzle for a rating, one puzzle, the day's puzzle, and judging an
attempt. No account: the solver's rating lives in the browser and comes along as a parameter."""

from __future__ import annotations

import datetime
import random
from typing import Annotated, Any, Literal

from fastapi import APIRouter, Query
from fastapi.responses import JSONResponse
from pydantic import BaseModel, ConfigDict, Field

from tictactoe.server.learning.puzzles import (
    AttemptError,
    Puzzle,
    daily_puzzle,
    judge,
    next_puzzle,
    puzzle_by_id,
)
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.review import step_json
from tictactoe.server.web.review_bodies import Step
from tictactoe.server.web.table_bodies import error_responses

router = APIRouter(tags=["learning"])
_choice = random.Random()


class PuzzleView(BaseModel):
    id: str
    variant: Literal["ultimate"]
    position: str = Field(description="the position code; the side to move is the solver")
    win_in: int = Field(description="the side to move wins in this many of its own moves")
    themes: list[str] = Field(description="what the puzzle is about, e.g. fork, quiet-move")
    rating: int = Field(description="its difficulty on the solvers' rating scale")


class AttemptBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    moves: list[str] = Field(
        min_length=1, max_length=8, description="the solver's moves so far, in order"
    )


class AttemptView(BaseModel):
    correct: bool = Field(description="the last move is the right one (all before it were)")
    solved: bool
    reply: str | None = Field(None, description="the defender's answer to a right move")
    refutation: list[str] | None = Field(
        None, description="after a wrong move: the answer that beats it (empty if it ends the game)"
    )
    steps: list[Step] = Field(
        description="the position after the judged move, then after its answer: for the board"
    )


def _view(puzzle: Puzzle) -> JSONResponse:
    return JSONResponse(puzzle.public())


def find(puzzle_id: str) -> Puzzle:
    puzzle = puzzle_by_id(puzzle_id)
    if puzzle is None:
        raise Refused(404, f"there is no puzzle {puzzle_id!r}", "no-puzzle")
    return puzzle


@router.get("/puzzles/next", response_model=PuzzleView, summary="A puzzle for a rating")
async def next_puzzle_api(
    rating: Annotated[float, Query(ge=0, le=4000, description="the solver's rating")] = 1500,
    exclude: Annotated[
        str, Query(max_length=2000, description="ids already seen, comma-separated")
    ] = "",
) -> JSONResponse:
    """A puzzle rated near `rating`, one of the nearest few at random, leaving out `exclude`."""
    seen = {part.strip() for part in exclude.split(",") if part.strip()}
    return _view(next_puzzle(rating, seen, _choice))


@router.get(
    "/puzzles/daily",
    response_model=PuzzleView,
    responses=error_responses(422),
    summary="The day's puzzle",
)
async def daily_puzzle_api(
    date: Annotated[
        datetime.date | None, Query(description="a day (UTC); today if left out")
    ] = None,
) -> JSONResponse:
    """The same puzzle for everyone all day (UTC)."""
    return _view(daily_puzzle(date or datetime.datetime.now(datetime.UTC).date()))


@router.get(
    "/puzzles/{puzzle_id}",
    response_model=PuzzleView,
    responses=error_responses(404),
    summary="One puzzle",
)
async def read_puzzle(puzzle_id: str) -> JSONResponse:
    """The puzzle's position, length, themes and rating (never its solution)."""
    return _view(find(puzzle_id))


@router.post(
    "/puzzles/{puzzle_id}/attempt",
    response_model=AttemptView,
    responses=error_responses(400, 404, 422),
    summary="Judge the solver's moves",
)
async def attempt(puzzle_id: str, body: AttemptBody) -> JSONResponse:
    """`moves` are the solver's moves from the start, in order. A right last move gets the
    defender's `reply` (or `solved`); a wrong one, the `refutation` that beats it. An illegal
    move, or more moves than the puzzle has, is a `400` with a `reason`."""
    puzzle = find(puzzle_id)
    try:
        judged = judge(puzzle, body.moves)
    except AttemptError as error:
        raise Refused(400, str(error), error.reason) from None
    answer: dict[str, Any] = {"correct": judged.correct, "solved": judged.solved}
    if judged.reply is not None:
        answer["reply"] = judged.reply
    if judged.refutation is not None:
        answer["refutation"] = judged.refutation
    answer["steps"] = [step_json(game) for game in judged.games]
    return JSONResponse(answer)
