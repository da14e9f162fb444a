"""`GET /api/levels`: the computer's levels, weakest first, with their strength on an Elo scale
(measured on Ultimate by bench/ladder.py; see `tictactoe.engine.levels`)."""

from __future__ import annotations

from typing import Literal

from fastapi import APIRouter
from pydantic import BaseModel, Field

from tictactoe.engine import levels

router = APIRouter(prefix="/api", tags=["computer"])

# The names of `tictactoe.engine.LEVELS`, written out for the schema (a test keeps them equal).
LevelName = Literal[
    "novice",
    "easy",
    "casual",
    "medium",
    "tricky",
    "tough",
    "hard",
    "strong",
    "expert",
    "master",
    "max",
]


class Level(BaseModel):
    name: str = Field(description="the value of `level` when creating a table")
    elo: int = Field(description="strength on an Elo scale (a player tapping at random: 0)")


@router.get(
    "/levels",
    response_model=list[Level],
    summary="The computer's levels, weakest first, with their Elo",
)
async def list_levels() -> list[dict[str, object]]:
    return levels()
