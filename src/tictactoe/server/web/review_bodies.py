"""The bodies of the looking-back API, as documented at /docs: a game's steps, its summary, the
computer's evaluations, a position asked about."""

from __future__ import annotations

from typing import Literal

from pydantic import BaseModel, ConfigDict, Field

Mark = Literal["x", "o"]
Result = Literal["x", "o", "draw"]


class Step(BaseModel):
    position: str = Field(description="the position code after this ply")
    last_move: str | None
    turn: Mark
    result: Result | None
    legal_moves: list[str]
    boards: list[Result | None] | None = Field(description="ultimate: each small board's owner")
    sent_to: int | None
    sends_to: dict[str, int | None] | None
    winning_lines: list[list[str]]


class GameView(BaseModel):
    table_id: str
    game: int = Field(description="the game number at the table")
    variant: Literal["standard", "ultimate"]
    size: int
    line: int
    start_position: str | None = Field(
        description="the position code the game started from (null: the usual start)"
    )
    record: str
    moves: list[str]
    result: Result | None = Field(description="null while the game is being played")
    ended_by: str | None
    steps: list[Step] = Field(description="the start, then the position after each move")


class GameSummary(BaseModel):
    table_id: str
    game: int
    variant: Literal["standard", "ultimate"]
    size: int
    line: int
    moves: int = Field(description="how many moves were played")
    result: Result | None
    ended_by: str | None
    ended_at: float | None = Field(description="when it ended (seconds since the epoch)")
    url: str = Field(description="the table's link")


class MyGame(GameSummary):
    mark: Mark = Field(description="the mark this browser played")
    opponent: Literal["friend", "computer"]
    level: str | None
    opponent_name: str | None = Field(
        None, description="the name the person on the other side set at that table, if any"
    )


class Evaluation(BaseModel):
    ply: int = Field(description="0 is the start; n is the position after the n-th move")
    score: float = Field(description="-1 (O wins) .. 1 (X wins), from X's point of view")
    proven: Result | None = Field(description="the result, when the search proved it")
    best_move: str | None = Field(description="the computer's move here (null once over)")


class AnalysisView(BaseModel):
    table_id: str
    game: int
    think_ms: int = Field(description="how long the computer thought about each position")
    evaluations: list[Evaluation]
    swings: list[int] = Field(description="the plies after which the evaluation moved most")


class ReadPosition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: Literal["standard", "ultimate"]
    size: int | None = Field(None, description="standard: 3, 4 or 5 (default 3)")
    line: int | None = Field(None, description="standard: marks in a row that win")
    position: str | None = Field(
        None, max_length=200, description="a position code to start from (default: the start)"
    )
    record: str = Field("", max_length=1000, description="moves played from there, e.g. `e5 e4`")


class EvaluatePosition(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: Literal["standard", "ultimate"]
    line: int | None = Field(None, description="standard: marks in a row that win")
    position: str = Field(max_length=200, description="the position code to evaluate")


class PositionEvaluation(BaseModel):
    score: float = Field(description="-1 (O wins) .. 1 (X wins), from X's point of view")
    proven: Result | None = Field(description="the result, when the search proved it")
    best_move: str | None = Field(description="the computer's move here (null once over)")


class PositionView(BaseModel):
    variant: Literal["standard", "ultimate"]
    size: int
    line: int
    start_position: str | None
    record: str
    steps: list[Step]
