"""The computer's seat: asks `tictactoe.engine.best_move` for its reply in a small pool of worker
processes (created on first use), so thinking never blocks the event loop."""

from __future__ import annotations

import asyncio
import logging
import multiprocessing
import random
from concurrent.futures import ProcessPoolExecutor
from concurrent.futures.process import BrokenProcessPool

from tictactoe import Game
from tictactoe.engine import warm_up
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.game import build_game

log = logging.getLogger(__name__)

DEFAULT_LEVEL = "medium"
LEVELS = ("easy", "medium", "hard", "max")


def think(
    variant: str,
    size: int,
    line: int,
    record: str,
    level: str,
    think_ms: int,
    start_position: str | None = None,
) -> str:
    """The engine's move in the game reached by `record` from the start, or from
    `start_position` (runs in a worker process)."""
    from tictactoe.engine import best_move

    game = _game(variant, size, line, record, start_position)
    return best_move(game, level=level, think_ms=think_ms)


def judge_draw(
    variant: str, size: int, line: int, record: str, start_position: str | None, think_ms: int
) -> bool:
    """Whether the engine proves the game reached a draw with best play (runs in a worker)."""
    from tictactoe.engine.analysis import evaluate

    game = _game(variant, size, line, record, start_position)
    return evaluate(game, think_ms=think_ms).proven == "draw"


def _game(variant: str, size: int, line: int, record: str, start_position: str | None) -> Game:
    standard = variant == "standard"
    if start_position is None:
        return Game.from_record(
            variant, record, size=size if standard else None, line=line if standard else None
        )
    game = Game.from_position(variant, start_position, line=line if standard else None)
    for move in record.split():
        game = game.play(move)
    return game


class ComputerPlayer:
    """Plays the computer's moves: `await player(record)` is its move at that table."""

    def __init__(self, workers: int = 1, think_ms: int = 300) -> None:
        self.workers = workers
        self.think_ms = think_ms
        self._pool: ProcessPoolExecutor | None = None

    @property
    def pool(self) -> ProcessPoolExecutor:
        if self._pool is None:
            # spawn: forking a process that runs an event loop and database threads is unsafe.
            # Each worker loads the compiled kernels once, so no later move pays for it.
            self._pool = ProcessPoolExecutor(
                max_workers=self.workers,
                mp_context=multiprocessing.get_context("spawn"),
                initializer=warm_up,
            )
        return self._pool

    async def __call__(self, table: TableRecord) -> str:
        loop = asyncio.get_running_loop()
        record = " ".join(table.moves)
        level = table.level or DEFAULT_LEVEL
        try:
            return await loop.run_in_executor(
                self.pool,
                think,
                table.variant,
                table.size,
                table.line,
                record,
                level,
                self.think_ms,
                table.start_position,
            )
        except Exception as error:
            if isinstance(error, BrokenProcessPool):
                # A worker died (killed, out of memory): start afresh on the next move.
                self._pool = None
            # A broken engine must not leave a person waiting forever at the table.
            log.exception("the engine failed at table %s; playing a random move", table.id)
            return random.choice(build_game(table).legal_moves())

    async def proves_draw(self, table: TableRecord) -> bool:
        """Whether the position at the table is a proven draw (so the computer agrees to one)."""
        loop = asyncio.get_running_loop()
        try:
            return await loop.run_in_executor(
                self.pool,
                judge_draw,
                table.variant,
                table.size,
                table.line,
                " ".join(table.moves),
                table.start_position,
                self.think_ms,
            )
        except Exception as error:
            if isinstance(error, BrokenProcessPool):
                self._pool = None
            log.exception("the engine failed to judge a draw at table %s", table.id)
            return False

    def close(self) -> None:
        if self._pool is not None:
            self._pool.shutdown(wait=False, cancel_futures=True)
            self._pool = None
