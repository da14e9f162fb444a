"""Why the analysis board cannot read a position code or a record, as the page says it: the rules
library's reason code and figures, which `_unreadable.html` words in the page's language (the
library's own messages are English)."""

from __future__ import annotations

from dataclasses import dataclass, field

from tictactoe import InvalidPositionError
from tictactoe.server.table.review import RecordMoveError
from tictactoe.server.web.page_constants import BOARD_POSITIONS


@dataclass(frozen=True)
class Unreadable:
    """A refusal the page can translate: `reason` names the check, `values` its figures (marks
    upper case, as the site shows them; `board` the English key of a small board's name)."""

    reason: str
    values: dict[str, int | str] = field(default_factory=dict)


def unreadable(error: ValueError, size: int | None) -> Unreadable:
    """What the page says about `error`, raised while reading a code or record at `size`.

    >>> from tictactoe import Game
    >>> try:
    ...     Game.from_position("standard", "xx./.../... x")
    ... except ValueError as error:
    ...     unreadable(error, None)
    Unreadable(reason='mark-counts', values={'x': 2, 'o': 0})
    """
    if isinstance(error, InvalidPositionError):
        values = dict(error.values)
        for name in ("mark", "expected", "turn"):
            if isinstance(values.get(name), str):
                values[name] = str(values[name]).upper()
        if isinstance(values.get("board"), int):
            values["board"] = BOARD_POSITIONS[int(values["board"])]
        return Unreadable(error.reason, values)
    if isinstance(error, RecordMoveError):
        return Unreadable(f"move-{error.reason}", {"ply": error.ply, "move": error.move})
    # The settings of a new game (the rules' check_settings): the size, or else the line.
    if size is not None and size not in (3, 4, 5):
        return Unreadable("size", {"size": size})
    return Unreadable("line", {"size": size or 3})
