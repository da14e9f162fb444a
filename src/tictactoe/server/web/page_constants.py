"""The constants the pages' scripts share with the server, served in every page as one JSON blob
(`page-constants`, read by `static/constants.js`) instead of being written again in JavaScript."""

from __future__ import annotations

from typing import Any

from tictactoe.engine.levels import NAMES as LEVEL_NAMES
from tictactoe.rules.standard import DEFAULT_LINE
from tictactoe.server.table.commands import REACTIONS

# The small boards of Ultimate by their place on the big board, top-left first: the English keys
# of their names on the pages ("top-left board", "must play in the top-left board", …).
BOARD_POSITIONS = (
    "top-left",
    "top-middle",
    "top-right",
    "middle-left",
    "centre",
    "middle-right",
    "bottom-left",
    "bottom-middle",
    "bottom-right",
)


def page_constants() -> dict[str, Any]:
    """What the blob holds.

    >>> constants = page_constants()
    >>> constants["default_line"], constants["board_positions"][4], constants["levels"][0]
    ({'3': 3, '4': 4, '5': 4}, 'centre', 'novice')
    """
    return {
        "levels": list(LEVEL_NAMES),
        "default_line": {str(size): line for size, line in DEFAULT_LINE.items()},
        "board_positions": list(BOARD_POSITIONS),
        "reactions": list(REACTIONS),
    }
