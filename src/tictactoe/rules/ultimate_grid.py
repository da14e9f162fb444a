"""The Ultimate grid's geometry: the 81 cells `a1`…`i9`, the nine small boards they form, and
the tables a game looks its moves up in.

Boards are numbered 0 top-left .. 8 bottom-right, and so is a cell's spot inside its board; a small
board's marks are a 9-bit mask by spot.
"""

from __future__ import annotations

from tictactoe.rules.notation import cell_name

WIDTH = 9
FULL = 0b111111111
LINES = (0o7, 0o70, 0o700, 0o111, 0o222, 0o444, 0o421, 0o124)  # rows, columns, diagonals
HAS_LINE = tuple(any(mask & line == line for line in LINES) for mask in range(512))

CELL_BOARD = tuple((index // 27) * 3 + (index % 9) // 3 for index in range(81))
CELL_SPOT = tuple((index // 9 % 3) * 3 + index % 3 for index in range(81))
CELL_AT = tuple(
    tuple((board // 3 * 3 + spot // 3) * 9 + board % 3 * 3 + spot % 3 for spot in range(9))
    for board in range(9)
)
NAMES = tuple(cell_name(index, WIDTH) for index in range(81))
INDEX_OF = {name: index for index, name in enumerate(NAMES)}
BOARD_NAMES = tuple(NAMES[CELL_AT[board][4]] for board in range(9))
POSITION_WORDS = (
    "top-left",
    "top",
    "top-right",
    "left",
    "centre",
    "right",
    "bottom-left",
    "bottom",
    "bottom-right",
)
# The empty cells of a small board, by its board and its mask of taken spots, sorted by name.
OPEN_NAMES = tuple(
    tuple(
        tuple(sorted(NAMES[CELL_AT[board][spot]] for spot in range(9) if not taken >> spot & 1))
        for taken in range(512)
    )
    for board in range(9)
)

# Three cells of a small board's row as a position writes them, by the row's x and o bits.
ROW_TRIPLES = tuple(
    "".join("x" if xs >> spot & 1 else "o" if os >> spot & 1 else "." for spot in range(3))
    for xs in range(8)
    for os in range(8)
)


def board_of(name: str) -> int:
    """The small board holding cell `name`.

    >>> board_of("a9"), board_of("e5"), board_of("i1")
    (0, 4, 8)
    """
    return CELL_BOARD[cell_index(name)]


def board_cells(board: int) -> list[str]:
    """The nine cells of small board `board`, from its top-left.

    >>> board_cells(0)
    ['a9', 'b9', 'c9', 'a8', 'b8', 'c8', 'a7', 'b7', 'c7']
    """
    return [NAMES[index] for index in CELL_AT[board]]


def board_name(board: int) -> str:
    """A small board is named by its centre cell.

    >>> board_name(0), board_name(4), board_name(8)
    ('b8', 'e5', 'h2')
    """
    return BOARD_NAMES[board]


def send_to_board(name: str) -> int:
    """The board a move in cell `name` sends the opponent to (its place inside its own board).

    >>> send_to_board("e5"), send_to_board("a9"), send_to_board("c7")
    (4, 0, 8)
    """
    return CELL_SPOT[cell_index(name)]


def cell_index(name: str) -> int:
    index = INDEX_OF.get(name)
    if index is None:
        raise ValueError(f"{name!r} is not a cell of the 9×9 grid")
    return index
