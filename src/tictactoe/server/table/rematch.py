"""The next game at a table once both players ask for it."""

from __future__ import annotations

import dataclasses

from tictactoe.server.storage import TableRecord
from tictactoe.server.table.clock import Clock


def start_rematch(record: TableRecord) -> TableRecord:
    """The next game at the table: the marks swap, and each person's score goes with them, so
    whoever was O moves first as X with the same seat token."""
    swapped = dataclasses.replace(
        record,
        game_number=record.game_number + 1,
        moves=(),
        result=None,
        ended_by=None,
        x=record.o,
        o=record.x,
        x_mates=record.o_mates,
        o_mates=record.x_mates,
        score_x=record.score_o,
        score_o=record.score_x,
        rematch_x=False,
        rematch_o=False,
        takeback_by=None,
        draw_offer=None,
    )
    return Clock(swapped, swapped.updated_at).reset()
