"""A table's game: the rules' game for its record, whether it is still on, and the record when it
ends (the score counted)."""

from __future__ import annotations

import dataclasses

from tictactoe import Game
from tictactoe.server.storage import Mark, TableRecord
from tictactoe.server.table.commands import Refused


def build_game(record: TableRecord) -> Game:
    """The rules' game for the record's current moves (from its start position, if any)."""
    size = record.size if record.variant == "standard" else None
    line = record.line if record.variant == "standard" else None
    if record.start_position is None:
        return Game.from_record(record.variant, " ".join(record.moves), size=size, line=line)
    game = Game.from_position(record.variant, record.start_position, line=line)
    for move in record.moves:
        game = game.play(move)
    return game


def finish(record: TableRecord, result: str, ended_by: str) -> TableRecord:
    """The record with the game over and the score counted."""
    if result == "draw":
        return dataclasses.replace(record, result=result, ended_by=ended_by, draws=record.draws + 1)
    winner: Mark = "x" if result == "x" else "o"
    won = dataclasses.replace(record.side(winner), score=record.side(winner).score + 1)
    return record.with_side(winner, won, result=result, ended_by=ended_by)


def require_in_progress(record: TableRecord) -> None:
    """Refuses (409) once the game is over."""
    if record.result is not None:
        raise Refused(409, "the game is already over", "game-over")
