"""The puzzles and how an attempt is judged: pure functions over the shipped proof data.

Each puzzle is one line of `puzzles.jsonl`: a position where the side to move wins in `win_in` of
its own moves, the winning `line` (solver, defender, …, solver) and, for every step of the solver,
each other legal move with the reply that beats it (`refutations`). An attempt is the solver's
moves so far; the defender's answers come from the line, so the solution is never sent before the
solver has found it.

>>> puzzle = puzzle_by_id(all_puzzles()[0].id)
>>> judge(puzzle, [puzzle.line[0]]).correct
True
"""

from __future__ import annotations

import datetime
import functools
import hashlib
import json
import random
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any, Literal

from tictactoe import Game

PUZZLES_FILE = Path(__file__).resolve().parent / "puzzles.jsonl"
# How many puzzles nearest the solver's rating `next_puzzle` chooses among.
NEAREST = 12


@dataclass(frozen=True, slots=True)
class Puzzle:
    """One puzzle and its proof (see the module's docstring)."""

    id: str
    position: str
    win_in: int
    themes: tuple[str, ...]
    rating: int
    line: tuple[str, ...]
    refutations: tuple[dict[str, str], ...]
    source: str = ""

    def public(self) -> dict[str, Any]:
        """What the page may know before the puzzle is solved (no answer in it)."""
        return {
            "id": self.id,
            "variant": "ultimate",
            "position": self.position,
            "win_in": self.win_in,
            "themes": list(self.themes),
            "rating": self.rating,
        }

    def start(self) -> Game:
        return Game.from_position("ultimate", self.position)


@dataclass(frozen=True, slots=True)
class Attempt:
    """The judgement of the solver's moves so far: `reply` is the defender's answer to a right
    move that does not finish the puzzle; `refutation` the line that beats a wrong one; `games`
    the positions after the judged move and after its answer, for the board."""

    correct: bool
    solved: bool
    reply: str | None = None
    refutation: list[str] | None = None
    games: list[Game] = field(default_factory=list)


class AttemptError(ValueError):
    """An attempt that cannot be judged: `reason` says why (an illegal move, too many moves)."""

    def __init__(
        self, reason: Literal["no-moves", "too-many-moves", "illegal-move"], message: str
    ) -> None:
        super().__init__(message)
        self.reason = reason


def _read(text: str) -> Puzzle:
    data = json.loads(text)
    return Puzzle(
        id=data["id"],
        position=data["position"],
        win_in=data["win_in"],
        themes=tuple(data["themes"]),
        rating=data["rating"],
        line=tuple(data["line"]),
        refutations=tuple(data["refutations"]),
        source=data.get("source", ""),
    )


@functools.cache
def all_puzzles() -> tuple[Puzzle, ...]:
    """Every shipped puzzle, in file order."""
    return tuple(_read(text) for text in PUZZLES_FILE.read_text().splitlines() if text.strip())


@functools.cache
def _by_id() -> dict[str, Puzzle]:
    return {puzzle.id: puzzle for puzzle in all_puzzles()}


def puzzle_by_id(puzzle_id: str) -> Puzzle | None:
    return _by_id().get(puzzle_id)


def next_puzzle(rating: float, exclude: set[str], rng: random.Random) -> Puzzle:
    """A puzzle near `rating` that is not in `exclude` (all excluded: any near the rating)."""
    ranked = sorted(all_puzzles(), key=lambda p: (abs(p.rating - rating), p.id))
    fresh = [p for p in ranked if p.id not in exclude] or ranked
    return rng.choice(fresh[:NEAREST])


def daily_puzzle(day: datetime.date) -> Puzzle:
    """The puzzle of a day (UTC), the same for everyone: picked by a hash of the date among the
    puzzles of middling difficulty.

    >>> daily_puzzle(datetime.date(2026, 12, 2)) == daily_puzzle(datetime.date(2026, 12, 2))
    True
    """
    middling = [p for p in all_puzzles() if 1100 <= p.rating <= 1900] or list(all_puzzles())
    digest = hashlib.sha256(day.isoformat().encode()).digest()
    return middling[int.from_bytes(digest[:8], "big") % len(middling)]


def judge(puzzle: Puzzle, moves: list[str]) -> Attempt:
    """Judge the solver's `moves` so far; the first wrong one ends the attempt. Raises
    `AttemptError` for an empty list, an illegal move or moves past the end."""
    if not moves:
        raise AttemptError("no-moves", "an attempt has at least one move")
    if len(moves) > puzzle.win_in:
        raise AttemptError("too-many-moves", f"this puzzle is won in {puzzle.win_in} moves")
    game = puzzle.start()
    for step, move in enumerate(moves):
        last = step == len(moves) - 1
        if move != puzzle.line[2 * step]:
            if not isinstance(move, str) or move not in game.legal_moves():
                raise AttemptError("illegal-move", f"move {step + 1} ({move!r}) is not legal here")
            wrong = game.play(move)
            reply = puzzle.refutations[step].get(move, "")
            games = [wrong, *([wrong.play(reply)] if reply else [])]
            return Attempt(False, False, refutation=[reply] if reply else [], games=games)
        game = game.play(move)
        if 2 * step + 1 == len(puzzle.line):
            return Attempt(True, True, games=[game])
        reply = puzzle.line[2 * step + 1]
        answered = game.play(reply)
        if last:
            return Attempt(True, False, reply=reply, games=[game, answered])
        game = answered
    raise AssertionError("unreachable: the loop returns at the last move")
