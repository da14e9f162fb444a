"""The site's analyst (reviews, hints, the analysis board), and who asks it: each asker waits its
turn in the computer's fair queue for its analysis pool, beside the draw judgements."""

from __future__ import annotations

from fastapi import Request

from tictactoe.server.ops.limits import client_address
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.review import Analyst
from tictactoe.server.web.identity import tables_of


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
    """Who asks for an analysis outside a table (the analysis board, a hint): their address,
    their turn in the computer's fair queue."""
    return f"address:{client_address(request.scope)}"
