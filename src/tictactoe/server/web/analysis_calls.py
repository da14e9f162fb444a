"""Asking the computer about a position or a game: the site's analyst (made on first use, thinking
in the computer player's worker pool), and its failures as refusals (busy: 503 `busy`; a worker
that died or an engine that failed: 503 `computer-unavailable`, logged). Each question waits its
turn in the computer's fair queue for its analysis pool, beside draw judgements, as the one who
asks (a table for its games' reviews, else the visitor's address): no asker holds the pool."""

from __future__ import annotations

import logging
from collections.abc import Awaitable, Callable
from typing import TypeVar

from fastapi import Request

from tictactoe.server.ops.scope import address_key, client_address
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.review import AnalysisBusyError, Analyst
from tictactoe.server.web.identity import tables_of

log = logging.getLogger(__name__)
Answer = TypeVar("Answer")

BUSY = "the computer is busy with other analyses; try again in a moment"


def analyst_of(request: Request) -> Analyst:
    """The site's analyst, made on first use; it thinks in the computer player's worker pool."""
    state = request.app.state
    analyst: Analyst | None = getattr(state, "analyst", None)
    if analyst is None:
        computer = tables_of(request).computer
        if computer is None:
            raise Refused(
                503, "the computer player is not available on this server", "computer-unavailable"
            )
        # A worker that died takes the pool with it: closing it makes the next use start afresh.
        settings = tables_of(request).settings
        analyst = state.analyst = Analyst(
            lambda: computer.analysis_pool,
            on_broken=computer.close_analysis,
            think_ms=settings.analysis_think_ms,
            max_waiting=settings.analysis_queue,
            queue=computer.analysis_queue,
        )
    return analyst


def asker_of(request: Request) -> str:
    """Who asks about a position outside a table's review (the analysis board, a hint): their
    address, their turn in the computer's fair queue."""
    return f"address:{address_key(client_address(request.scope))}"


async def ask_the_computer(
    request: Request,
    question: Callable[[Analyst], Awaitable[Answer]],
    *,
    cannot: str,
    what: str,
    busy: str = BUSY,
) -> Answer:
    """The analyst's answer to `question`; `busy` and `cannot` are what the 503 says when the
    queue is full or the computer fails (`what` names the question in the log)."""
    try:
        return await question(analyst_of(request))
    except AnalysisBusyError:
        raise Refused(503, busy, "busy") from None
    except Exception as error:  # a worker process died, or the engine failed
        log.exception("%s failed", what)
        raise Refused(503, cannot, "computer-unavailable") from error
