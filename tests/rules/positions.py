"""Building position codes for tests from the cells that hold marks."""

from __future__ import annotations

from tictactoe.rules.notation import parse_cell, write_grid


def position_code(x: str, o: str, turn: str, last: str | None = None, *, width: int = 9) -> str:
    """The code of the grid with x on the cells named in `x` and o on those in `o`
    (space-separated names); ultimate codes (width 9) end with the last move."""
    marks = ["."] * (width * width)
    for mark, names in (("x", x), ("o", o)):
        for name in names.split():
            index = parse_cell(name, width)
            assert index is not None and marks[index] == ".", name
            marks[index] = mark
    code = f"{write_grid(marks, width)} {turn}"
    if width == 9:
        code += f" {last or '-'}"
    return code
