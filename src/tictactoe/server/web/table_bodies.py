"""The bodies of the tables' JSON API, as documented at /docs: what a client sends (`CreateTable`,
`MoveBody`, …), what it gets back (`TableView`, `CreatedTable`, …) and the refusal (`ErrorBody`)."""

from __future__ import annotations

from typing import Any, Literal

from pydantic import BaseModel, ConfigDict, Field

from tictactoe.server.table.messages import REACTIONS, Reason
from tictactoe.server.table.names import MAX_LENGTH
from tictactoe.server.web.levels_api import LevelName


class CreateTable(BaseModel):
    model_config = ConfigDict(extra="forbid")
    variant: Literal["standard", "ultimate"]
    size: int | None = Field(None, description="standard: 3, 4 or 5 (default 3)")
    line: int | None = Field(None, description="standard: marks in a row that win, 3..size")
    first: Literal["me", "friend", "random"] = Field(
        "me", description="who plays X (X always moves first)"
    )
    opponent: Literal["friend", "computer", "here"] = Field(
        "friend", description="here: two people at this one device (both seats are yours)"
    )
    level: LevelName | None = Field(
        None, description="the computer's level (default medium; see `GET /api/levels`)"
    )
    position: str | None = Field(
        None,
        max_length=200,
        description="a position code to start from (e.g. from the analysis board); 422 with "
        "the reason if no legal game reaches it",
    )
    teams: bool = Field(
        False, description="two teams of players: several people per side (not with the computer)"
    )
    teams_open: bool = Field(
        True,
        description="teams: whether people may join a side while a game is played (false: only "
        "between games, before the first move)",
    )
    takebacks: bool = Field(False, description="a player may ask to undo their last move")
    private: bool = Field(False, description="no spectators: only the players see the table")
    clock_minutes: float | None = Field(
        None, gt=0, le=180, description="each side's time in minutes (fractions allowed); none"
    )
    clock_increment: float = Field(0, ge=0, le=60, description="seconds added after each move")
    public: bool = Field(
        False, description="listed among the open tables (GET /api/tables?open=true) until full"
    )


class TakeSeatBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    side: Literal["x", "o"] | None = Field(
        None, description="teams: the side to join (default: the side with fewer members)"
    )


class ReactionBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    reaction: Literal[REACTIONS] = Field(  # type: ignore[valid-type]
        description="one of the fixed quick reactions, shown translated to each viewer"
    )


class CreatedTable(BaseModel):
    id: str
    url: str = Field(description="the link to share")
    seat: Literal["x", "o"]
    token: str = Field(description="the seat token: `Authorization: Bearer <token>`")
    tokens: dict[Literal["x", "o"], str] | None = Field(
        None, description="one device: the token of each seat"
    )


class GrantedSeat(BaseModel):
    seat: Literal["x", "o"]
    token: str


class MoveBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    move: str = Field(max_length=8, examples=["e5"])
    version: int | None = Field(None, description="the version the move was chosen at")


class NameBody(BaseModel):
    model_config = ConfigDict(extra="forbid")
    name: str = Field(
        max_length=200,
        description=f"1–{MAX_LENGTH} characters after trimming: letters of any script, digits, "
        "spaces and - _ . ' (else 422, reason bad-name)",
    )


class MemberView(BaseModel):
    connected: bool


class SeatView(BaseModel):
    taken: bool
    connected: bool = Field(description="anyone of this side is connected")
    computer: bool
    name: str | None = Field(None, description="the name its player chose, shown as text")
    disconnected_since: float | None = None
    members: list[MemberView] | None = Field(
        None, description="teams: the side's members in joining order"
    )


class ClockView(BaseModel):
    seconds: float = Field(description="each side's time at the start of a game")
    increment: float = Field(description="seconds added after each move")
    x: float = Field(description="seconds X has left now")
    o: float = Field(description="seconds O has left now")
    running: Literal["x", "o"] | None = Field(
        description="whose time is running (none before both sides are seated, and after the game)"
    )


class Score(BaseModel):
    x: int
    o: int
    draws: int


class Rematch(BaseModel):
    x: bool
    o: bool


class TableView(BaseModel):
    id: str
    url: str
    variant: Literal["standard", "ultimate"]
    size: int
    line: int
    opponent: Literal["friend", "computer", "here"]
    level: str | None
    game: int = Field(description="the game number at this table, 1 and up after rematches")
    record: str = Field(description="the moves of this game (from `start_position`, if set)")
    start_position: str | None = Field(
        None, description="the position code the table's games start from (null: the usual start)"
    )
    moves: list[str]
    last_move: str | None
    position: str
    turn: Literal["x", "o"]
    result: Literal["x", "o", "draw"] | None
    legal_moves: list[str]
    boards: list[Literal["x", "o", "draw"] | None] | None
    sent_to: int | None
    sends_to: dict[str, int | None] | None
    winning_lines: list[list[str]]
    ended_by: Literal["line", "draw", "resign", "abandon", "time", "agreement"] | None
    version: int
    seats: dict[Literal["x", "o"], SeatView]
    rematch: Rematch
    score: Score
    teams: bool
    teams_open: bool
    takebacks: bool = Field(description="whether takebacks are allowed")
    takeback_asked_by: Literal["x", "o"] | None = Field(
        description="the side whose takeback request awaits the other side's answer"
    )
    private: bool
    public: bool = Field(description="listed among the open tables while a seat is free")
    code: str | None = Field(description="the short code to join by (GET /j/{code})")
    tossed: bool = Field(
        False, description="who plays X (and moves first) in game 1 was decided by a coin toss"
    )
    watchers: int = Field(description="how many are watching without a seat")
    draw_offer: Literal["x", "o"] | None = Field(description="the side whose draw offer is pending")
    clock: ClockView | None
    can_claim_win: bool | None = None


class ErrorBody(BaseModel):
    status: int
    reason: Reason = Field(description="the stable code of the refusal (see the reasons above)")
    message: str = Field(description="the refusal in words, for a person")
    table: TableView | None = Field(None, description="for a stale version: the table now")


def error_responses(*statuses: int) -> dict[int | str, dict[str, Any]]:
    return {status: {"model": ErrorBody} for status in statuses}
