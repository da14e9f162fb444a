"""Between `tictactoe.Game` and the kernels: cell numbering and kernel states built from a game.

Ultimate kernel cells are board-major (`board * 9 + position`); standard kernel cells are grid
indices (`row_from_top * size + col`). Both are read from the game's position code, so games
that start from a position work as well as games played from the start.

>>> import tictactoe
>>> ultimate_cell_name(40), ultimate_cell_index("a9"), standard_cell_name(0, 3)
('e5', 0, 'a3')
"""

from __future__ import annotations

from typing import TYPE_CHECKING

import numpy as np

if TYPE_CHECKING:
    from tictactoe.rules import Game

_LINES3 = (0x007, 0x038, 0x1C0, 0x049, 0x092, 0x124, 0x111, 0x054)


def ultimate_cell_name(cell: int) -> str:
    """Name of a board-major kernel cell: 0 is `a9` (top-left), 40 is `e5`, 80 is `i1`."""
    board, position = divmod(cell, 9)
    row = board // 3 * 3 + position // 3
    col = board % 3 * 3 + position % 3
    return f"{chr(ord('a') + col)}{9 - row}"


def ultimate_cell_index(name: str) -> int:
    """Kernel cell of a cell name; the inverse of `ultimate_cell_name`."""
    col = ord(name[0]) - ord("a")
    row = 9 - int(name[1:])
    return (row // 3 * 3 + col // 3) * 9 + row % 3 * 3 + col % 3


def standard_cell_name(index: int, size: int) -> str:
    """Name of grid index `row_from_top * size + col` on a `size`×`size` board."""
    row, col = divmod(index, size)
    return f"{chr(ord('a') + col)}{size - row}"


def standard_cell_index(name: str, size: int) -> int:
    """Grid index of a cell name; the inverse of `standard_cell_name`."""
    return (size - int(name[1:])) * size + ord(name[0]) - ord("a")


def _ranks(code: str) -> list[str]:
    return code.split(" ")[0].split("/")


def ultimate_state(game: Game) -> np.ndarray:
    """The kernel state of an ultimate game."""
    from tictactoe.engine import ultimate_kernel as k

    s = np.zeros(k.STATE_SIZE, dtype=np.int64)
    fields = game.position().split(" ")
    for row, rank in enumerate(_ranks(game.position())):
        for col, mark in enumerate(rank):
            if mark == ".":
                continue
            board = row // 3 * 3 + col // 3
            bit = 1 << (row % 3 * 3 + col % 3)
            s[(k.X_MASKS if mark == "x" else k.O_MASKS) + board] |= bit
    open_cells = 0
    for board in range(9):
        x, o = int(s[k.X_MASKS + board]), int(s[k.O_MASKS + board])
        if any(x & line == line for line in _LINES3):
            s[k.BIG_X] |= 1 << board
        elif any(o & line == line for line in _LINES3):
            s[k.BIG_O] |= 1 << board
        elif x | o != k.FULL:
            open_cells += 9 - bin(x | o).count("1")
            continue
        s[k.CLOSED] |= 1 << board
    s[k.OPEN_CELLS] = open_cells
    s[k.TURN] = 0 if game.turn == "x" else 1
    last = fields[2] if len(fields) > 2 else "-"
    sent = -1
    if last != "-":
        position = ultimate_cell_index(last) % 9
        if not s[k.CLOSED] >> position & 1:
            sent = position
    s[k.SENT] = sent
    s[k.RESULT] = {None: k.PLAYING, "x": k.X_WON, "o": k.O_WON, "draw": k.DRAW}[game.result]
    s[k.PLY] = sum(bin(int(m)).count("1") for m in s[k.X_MASKS : k.O_MASKS + 9])
    return s


def standard_masks(game: Game) -> tuple[int, int]:
    """The marks of X and of O of a standard game as grid-index bitmasks."""
    x = o = 0
    for row, rank in enumerate(_ranks(game.position())):
        for col, mark in enumerate(rank):
            if mark == "x":
                x |= 1 << (row * game.size + col)
            elif mark == "o":
                o |= 1 << (row * game.size + col)
    return x, o
