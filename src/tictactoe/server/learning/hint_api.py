"""The hint API: the computer's move in a position and why, for a player who asks for a hint at a
table against the computer (hints are off until the player turns them on; the page keeps which
moves had one and marks them in the game's review). The words come in the asker's language, so
the table page carries none of them."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse
from pydantic import BaseModel, Field

from tictactoe import Game
from tictactoe.server.learning.hints import reasons
from tictactoe.server.table.commands import Refused
from tictactoe.server.web.analysis_calls import ask_the_computer, asker_of
from tictactoe.server.web.review_bodies import EvaluatePosition
from tictactoe.server.web.table_bodies import error_responses
from tictactoe.server.web.templating import request_language, templates_for

router = APIRouter(tags=["learning"])


class HintBody(EvaluatePosition):
    """The position to move in: as for the computer's evaluation (`/api/positions/evaluation`)."""


class HintView(BaseModel):
    move: str = Field(description="the computer's move for the side to move")
    score: float = Field(description="-1 (O wins) .. 1 (X wins), from X's point of view")
    proven: Literal["x", "o", "draw"] | None = Field(description="the result, when proven")
    reasons: list[str] = Field(
        description="what the move does: wins-game, wins-board, blocks, safe-send, free-choice"
    )
    outlook: Literal["win", "draw", "loss", "ahead", "behind", "even"] = Field(
        description="how the game stands for the side to move after the move"
    )
    text: str = Field(description="all of it in words, in the asker's language")


@router.post(
    "/hints",
    response_model=HintView,
    responses=error_responses(422, 503),
    summary="A hint: the computer's move and why",
)
async def hint(body: HintBody, request: Request) -> JSONResponse:
    """The move the computer would play in `position`, its evaluation, and what the move does."""
    try:
        line = body.line if body.variant == "standard" else None
        game = Game.from_position(body.variant, body.position, line=line)
    except ValueError as error:
        raise Refused(422, str(error), reason="invalid-position") from None
    if game.result is not None:
        raise Refused(422, "the game is over: there is no move to hint", reason="game-over")
    evaluation = await ask_the_computer(
        request,
        lambda analyst: analyst.position(
            body.variant, game.size, game.line, game.position(), asker_of(request)
        ),
        busy="the computer is busy; ask again in a moment",
        cannot="the computer cannot look at the position right now",
        what=f"hint for {body.position!r}",
    )
    move = evaluation["best_move"]
    why = reasons(game, move)
    stands = outlook(evaluation["score"], evaluation["proven"], game.turn)
    words = templates_for(request_language(request)).env.get_template("_hint_text.html")
    text = words.render(move=move, reasons=why, outlook=stands).strip()
    return JSONResponse(
        {**evaluation, "move": move, "reasons": why, "outlook": stands, "text": text}
    )


def outlook(score: float, proven: str | None, mover: str) -> str:
    """How the game stands for `mover` by the computer's evaluation (`score` for X, -1..1).

    >>> outlook(0.1, None, "o"), outlook(-1.0, "o", "o"), outlook(0.6, None, "o")
    ('even', 'win', 'behind')
    """
    if proven is not None:
        return "draw" if proven == "draw" else "win" if proven == mover else "loss"
    for_mover = score if mover == "x" else -score
    return "ahead" if for_mover > 0.25 else "behind" if for_mover < -0.25 else "even"
