"""Looking back at games: a game's steps (every position from its start to its end), the
computer's evaluation after every move, worked out off the event loop and kept per game, and the
games a browser has played ("My games").

A finished game never changes, so its analysis is cached by what determines it (variant, settings,
start position, record): a second viewer, or the same record at another table, gets it at once.
"""

from __future__ import annotations

import asyncio
import logging
from collections import OrderedDict
from collections.abc import Callable
from concurrent.futures import Executor
from concurrent.futures.process import BrokenProcessPool
from dataclasses import dataclass
from typing import Any

from tictactoe import Game, IllegalMoveError
from tictactoe.server.storage import GameRecord, TableRecord
from tictactoe.server.table.fair_queue import ANALYSIS, FairQueue

log = logging.getLogger(__name__)

# How long the computer thinks about each position of a game under review.
ANALYSIS_THINK_MS = 80
# Evaluations kept in memory: a few hundred games' worth is a few hundred kilobytes.
CACHED_ANALYSES = 500
# The moves marked on the chart: the largest swings of the evaluation, if at least this large.
SWING_THRESHOLD = 0.3
MARKED_SWINGS = 3


@dataclass(frozen=True, slots=True)
class GameKey:
    """What a game's analysis depends on, and nothing else."""

    variant: str
    size: int
    line: int
    start_position: str | None
    record: str


def start_game(variant: str, size: int, line: int, start_position: str | None) -> Game:
    """The game before its first move: the variant's start, or a position code's game."""
    standard = variant == "standard"
    if start_position is not None:
        return Game.from_position(variant, start_position, line=line if standard else None)
    return Game.new(variant, size=size if standard else None, line=line if standard else None)


class RecordMoveError(IllegalMoveError):
    """A move of a record that the rules refuse, with its place in the record (`ply`, from 1)."""

    def __init__(self, refused: IllegalMoveError, ply: int, move: str) -> None:
        super().__init__(refused.reason, f"move {ply} ({move}): {refused}")
        self.ply = ply
        self.move = move


def replay(key: GameKey) -> list[Game]:
    """The game after each ply, the start position first; a refused move of the record raises
    `RecordMoveError`."""
    game = start_game(key.variant, key.size, key.line, key.start_position)
    games = [game]
    for ply, move in enumerate(key.record.split(), start=1):
        try:
            game = game.play(move)
        except IllegalMoveError as refused:
            raise RecordMoveError(refused, ply, move) from None
        games.append(game)
    return games


def step_json(game: Game) -> dict[str, Any]:
    """One position as the review and the analysis board draw it (no rules in the browser)."""
    ultimate = game.variant == "ultimate"
    legal = game.legal_moves()
    return {
        "position": game.position(),
        "last_move": game.last_move,
        "turn": game.turn,
        "result": game.result,
        "legal_moves": legal,
        "boards": game.boards() if ultimate else None,  # type: ignore[attr-defined]
        "sent_to": game.sent_to if ultimate else None,  # type: ignore[attr-defined]
        "sends_to": (
            {move: game.sends_to(move) for move in legal}  # type: ignore[attr-defined]
            if ultimate
            else None
        ),
        "winning_lines": [list(line) for line in game.winning_lines()],
    }


def steps_json(key: GameKey) -> list[dict[str, Any]]:
    return [step_json(game) for game in replay(key)]


def read_position(
    variant: str, size: int | None, line: int | None, position: str | None, record: str
) -> dict[str, Any]:
    """A position code (or the start) and the moves of `record` from there, read into steps for
    the analysis board; raises `ValueError` (the rules library's, saying what is wrong) for a
    code no legal game reaches, an illegal move or settings the variant does not have.

    >>> read = read_position("standard", None, None, None, "b2 a1")
    >>> read["size"], read["line"], read["steps"][-1]["position"]
    (3, 3, '.../.x./o.. x')
    """
    standard = variant == "standard"
    if position is not None:
        start = Game.from_position(variant, position, line=line if standard else None)
    else:
        start = Game.new(variant, size=size if standard else None, line=line if standard else None)
    key = GameKey(variant, start.size, start.line, position, " ".join(record.split()))
    return {
        "variant": variant,
        "size": key.size,
        "line": key.line,
        "start_position": position,
        "record": key.record,
        "steps": steps_json(key),
    }


def key_of_table(record: TableRecord) -> GameKey:
    """The key of a table's current game."""
    return GameKey(
        record.variant, record.size, record.line, record.start_position, " ".join(record.moves)
    )


def key_of_game(game: GameRecord) -> GameKey:
    return GameKey(game.variant, game.size, game.line, game.start_position, " ".join(game.moves))


def game_json(table_id: str, game: GameRecord | TableRecord, number: int) -> dict[str, Any]:
    """A game at a table: its settings, start, record, result and every step."""
    if isinstance(game, TableRecord):
        key, result, ended_by = key_of_table(game), game.result, game.ended_by
    else:
        key, result, ended_by = key_of_game(game), game.result, game.ended_by
    return {
        "table_id": table_id,
        "game": number,
        "variant": key.variant,
        "size": key.size,
        "line": key.line,
        "start_position": key.start_position,
        "record": key.record,
        "moves": key.record.split(),
        "result": result,
        "ended_by": ended_by,
        "steps": steps_json(key),
    }


# -- the analysis ---------------------------------------------------------------------------------


def analyse_position(
    variant: str, size: int, line: int, position: str, think_ms: int
) -> tuple[float, str | None, str | None]:
    """The engine's evaluation of one position (runs in a worker process)."""
    from tictactoe.engine.analysis import evaluate

    game = Game.from_position(variant, position, line=line if variant == "standard" else None)
    evaluation = evaluate(game, think_ms)
    return evaluation.score, evaluation.proven, evaluation.best_move


def swings(scores: list[float]) -> list[int]:
    """The plies after which the evaluation moved most (at most `MARKED_SWINGS`, each at least
    `SWING_THRESHOLD`), in the order played.

    >>> swings([0.1, 0.1, -0.8, -0.7, 1.0])
    [2, 4]
    """
    changes = [(abs(scores[i] - scores[i - 1]), i) for i in range(1, len(scores))]
    biggest = sorted((c for c in changes if c[0] >= SWING_THRESHOLD), reverse=True)
    return sorted(ply for _, ply in biggest[:MARKED_SWINGS])


class AnalysisBusyError(RuntimeError):
    """The analysis queue is full: asked again in a moment, there will be room."""


class Analyst:
    """Evaluates every position of finished games in a process pool, one position per task, so
    the computer's moves at other tables slip in between; keeps the latest analyses. With a
    `queue`, each position waits its turn in that fair line (`fair_queue`), as the one who asked
    (a table, a visitor): one asker's long review never holds the pool from the others."""

    def __init__(
        self,
        pool: Callable[[], Executor],
        think_ms: int = ANALYSIS_THINK_MS,
        on_broken: Callable[[], None] | None = None,
        max_waiting: int = 8,
        queue: FairQueue | None = None,
    ) -> None:
        self._pool = pool
        self._queue = queue
        self._max_waiting = max_waiting
        self._waiting = 0  # evaluations sent to the pool and not yet answered
        self._on_broken = on_broken
        self.think_ms = think_ms
        self._done: OrderedDict[GameKey, dict[str, Any]] = OrderedDict()
        self._positions: OrderedDict[tuple[str, int, str], dict[str, Any]] = OrderedDict()
        self._running: dict[GameKey, asyncio.Future[dict[str, Any]]] = {}

    def cached(self, key: GameKey) -> dict[str, Any] | None:
        return self._done.get(key)

    async def analysis(self, key: GameKey, asker: str = "") -> dict[str, Any]:
        """`{"think_ms", "evaluations": [{"ply", "score", "proven", "best_move"}], "swings"}`
        for the game `key`, as `asker` (its turn in the queue); viewers asking at once share one
        computation."""
        done = self._done.get(key)
        if done is not None:
            self._done.move_to_end(key)
            return done
        running = self._running.get(key)
        if running is None:
            running = asyncio.ensure_future(self._analyse(key, asker))
            self._running[key] = running
            running.add_done_callback(lambda _: self._running.pop(key, None))
        # Shielded: a viewer who leaves does not cancel the work the others wait for.
        return await asyncio.shield(running)

    async def position(
        self, variant: str, size: int, line: int, position: str, asker: str = ""
    ) -> dict[str, Any]:
        """`{"score", "proven", "best_move"}` for one position (the analysis board, a hint),
        asked by `asker`, kept too."""
        key = (variant, line, position)
        done = self._positions.get(key)
        if done is None:
            score, proven, best = await self._evaluate(asker, variant, size, line, position)
            done = {"score": score, "proven": proven, "best_move": best}
            self._positions[key] = done
            while len(self._positions) > CACHED_ANALYSES:
                self._positions.popitem(last=False)
        return done

    async def _evaluate(
        self, asker: str, variant: str, size: int, line: int, position: str
    ) -> tuple[float, str | None, str | None]:
        loop = asyncio.get_running_loop()
        if self._waiting >= self._max_waiting:
            raise AnalysisBusyError(f"{self._waiting} positions are waiting for the computer")
        self._waiting += 1

        def search() -> asyncio.Future[tuple[float, str | None, str | None]]:
            return loop.run_in_executor(
                self._pool(), analyse_position, variant, size, line, position, self.think_ms
            )

        try:
            if self._queue is None:
                return await search()
            return await self._queue.run(asker, ANALYSIS, search)
        except BrokenProcessPool:
            if self._on_broken is not None:
                self._on_broken()
            raise
        finally:
            self._waiting -= 1

    async def _analyse(self, key: GameKey, asker: str) -> dict[str, Any]:
        evaluations: list[dict[str, Any]] = []
        scores: list[float] = []
        for ply, game in enumerate(replay(key)):
            score, proven, best = await self._evaluate(
                asker, key.variant, key.size, key.line, game.position()
            )
            evaluations.append({"ply": ply, "score": score, "proven": proven, "best_move": best})
            scores.append(score)
        analysis = {
            "think_ms": self.think_ms,
            "evaluations": evaluations,
            "swings": swings(scores),
        }
        self._done[key] = analysis
        while len(self._done) > CACHED_ANALYSES:
            self._done.popitem(last=False)
        return analysis
