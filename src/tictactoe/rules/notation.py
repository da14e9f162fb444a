"""Cell names and position-code grids, with parsers and writers that round-trip.

A cell is named on the whole grid: files `a`, `b`, … from the left, ranks `1`, `2`, … from the
bottom. Internally a cell is its grid index: `row_from_top * width + column`.
"""

from __future__ import annotations

import re

from tictactoe.rules.errors import InvalidPositionError

_CELL_PATTERN = re.compile(r"[a-z][1-9][0-9]*\Z")


def cell_name(index: int, width: int) -> str:
    """The name of the cell at grid `index` on a `width`-wide grid.

    >>> cell_name(0, 9), cell_name(40, 9), cell_name(80, 9), cell_name(6, 3)
    ('a9', 'e5', 'i1', 'a1')
    """
    row, column = divmod(index, width)
    return f"{chr(ord('a') + column)}{width - row}"


def parse_cell(name: str, width: int) -> int | None:
    """The grid index of cell `name`, or None when it is well formed but off the board.

    Raises ValueError when `name` is not a cell name at all.

    >>> parse_cell("e5", 9), parse_cell("a1", 3), parse_cell("d1", 3)
    (40, 6, None)
    """
    if not isinstance(name, str) or not _CELL_PATTERN.match(name):
        raise ValueError(f"{name!r} is not a cell name like 'e5'")
    column = ord(name[0]) - ord("a")
    rank = int(name[1:])
    if column >= width or rank > width:
        return None
    return (width - rank) * width + column


def is_cell_name(text: object) -> bool:
    """Whether `text` has the shape of a cell name (whatever the board size).

    >>> is_cell_name("b7"), is_cell_name("7b"), is_cell_name(5)
    (True, False, False)
    """
    return isinstance(text, str) and bool(_CELL_PATTERN.match(text))


def split_record(record: str) -> list[str]:
    """The moves of a game record (single spaces between moves; extra whitespace tolerated).

    >>> split_record("e5 e4  d2"), split_record("")
    (['e5', 'e4', 'd2'], [])
    """
    return record.split()


def write_grid(marks: list[str], width: int) -> str:
    """The ranks of a grid from the top, separated by `/`; `marks` are 'x', 'o' or '.' by index.

    >>> write_grid(list("x...o...."), 3)
    'x../.o./...'
    """
    return "/".join("".join(marks[row * width : (row + 1) * width]) for row in range(width))


def read_grid(text: str) -> tuple[list[str], int]:
    """The marks of a grid written by `write_grid`, and its width.

    >>> read_grid("x../.o./...")
    (['x', '.', '.', '.', 'o', '.', '.', '.', '.'], 3)
    """
    ranks = text.split("/")
    width = len(ranks)
    for number, rank in enumerate(ranks, start=1):
        if len(rank) != width:
            raise InvalidPositionError(
                "rank-length",
                f"rank {number} from the top has {len(rank)} cells; a {width}×{width} grid needs"
                f" {width}",
                rank=number,
                cells=len(rank),
                width=width,
            )
        bad = set(rank) - {"x", "o", "."}
        if bad:
            raise InvalidPositionError(
                "cell-mark",
                f"rank {number} from the top holds {''.join(sorted(bad))!r};"
                " cells are 'x', 'o' or '.'",
                rank=number,
                marks="".join(sorted(bad)),
            )
    return [mark for rank in ranks for mark in rank], width
