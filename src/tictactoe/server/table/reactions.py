"""Quick reactions ("good move", "wow"…): who may send one, how often, and the message everyone
at the table gets. Not stored, no I/O."""

from __future__ import annotations

from typing import Any

from tictactoe.server.ops.token_buckets import TokenBuckets
from tictactoe.server.storage import TableRecord
from tictactoe.server.table.commands import REACTIONS, Refused
from tictactoe.server.table.decision import player_mark


def reaction_message(
    record: TableRecord, reaction: str, by: str | None, buckets: TokenBuckets
) -> dict[str, Any]:
    """The `reaction` message a player at the table sends; `Refused` for anyone else, for an
    unknown reaction, or for one too soon after the last (each person has `buckets`' rate)."""
    mark = player_mark(record, by)
    if reaction not in REACTIONS:
        raise Refused(422, f"reactions are one of {', '.join(REACTIONS)}", "bad-reaction")
    assert by is not None
    wait = buckets.take(by)
    if wait > 0:
        raise Refused(429, f"one reaction at a time: wait {wait:.0f} s", "reaction-too-soon")
    return {"type": "reaction", "reaction": reaction, "side": mark}
