"""A deliberately plain second implementation of the rules, on a 2-D grid, to check the library
against: no bitboards, no tables, just the sentences of the contract.
"""

from __future__ import annotations

from dataclasses import dataclass, field

DIRECTIONS = ((0, 1), (1, 0), (1, 1), (1, -1))


def to_row_column(name: str, width: int) -> tuple[int, int]:
    return width - int(name[1:]), ord(name[0]) - ord("a")


def to_name(row: int, column: int, width: int) -> str:
    return f"{chr(ord('a') + column)}{width - row}"


def has_run(grid: list[list[str]], mark: str, length: int) -> bool:
    size = len(grid)
    for row in range(size):
        for column in range(size):
            for d_row, d_column in DIRECTIONS:
                cells = [(row + d_row * i, column + d_column * i) for i in range(length)]
                if all(0 <= r < size and 0 <= c < size and grid[r][c] == mark for r, c in cells):
                    return True
    return False


@dataclass
class ReferenceStandard:
    size: int
    line: int
    grid: list[list[str]] = field(init=False)
    turn: str = "x"
    result: str | None = None

    def __post_init__(self) -> None:
        self.grid = [["."] * self.size for _ in range(self.size)]

    def legal_moves(self) -> set[str]:
        if self.result:
            return set()
        return {
            to_name(r, c, self.size)
            for r in range(self.size)
            for c in range(self.size)
            if self.grid[r][c] == "."
        }

    def play(self, name: str) -> None:
        row, column = to_row_column(name, self.size)
        self.grid[row][column] = self.turn
        if has_run(self.grid, self.turn, self.line):
            self.result = self.turn
        elif all(mark != "." for rank in self.grid for mark in rank):
            self.result = "draw"
        self.turn = "o" if self.turn == "x" else "x"


@dataclass
class ReferenceUltimate:
    grid: list[list[str]] = field(default_factory=lambda: [["."] * 9 for _ in range(9)])
    turn: str = "x"
    last: tuple[int, int] | None = None
    result: str | None = None
    states: list[str | None] = field(default_factory=lambda: [None] * 9)

    def small_board(self, board: int) -> list[list[str]]:
        top, left = board // 3 * 3, board % 3 * 3
        return [self.grid[top + r][left : left + 3] for r in range(3)]

    def board_state(self, board: int) -> str | None:
        return self.states[board]

    def decide_board(self, board: int) -> str | None:
        small = self.small_board(board)
        for mark in ("x", "o"):
            if has_run(small, mark, 3):
                return mark
        if all(mark != "." for rank in small for mark in rank):
            return "draw"
        return None

    def open_boards(self) -> list[int]:
        return [board for board in range(9) if self.board_state(board) is None]

    def sent_to(self) -> int | None:
        if self.last is None or self.result:
            return None
        target = self.last[0] % 3 * 3 + self.last[1] % 3
        return target if self.board_state(target) is None else None

    def legal_moves(self) -> set[str]:
        if self.result:
            return set()
        target = self.sent_to()
        boards = [target] if target is not None else self.open_boards()
        return {
            to_name(board // 3 * 3 + r, board % 3 * 3 + c, 9)
            for board in boards
            for r in range(3)
            for c in range(3)
            if self.small_board(board)[r][c] == "."
        }

    def expected_reason(self, name: str) -> str:
        """Why the reference refuses `name` (a cell of the grid that is not a legal move)."""
        if self.result:
            return "game-over"
        row, column = to_row_column(name, 9)
        if self.grid[row][column] != ".":
            return "occupied"
        if self.board_state(row // 3 * 3 + column // 3) is not None:
            return "closed-board"
        return "wrong-board"

    def play(self, name: str) -> None:
        row, column = to_row_column(name, 9)
        self.grid[row][column] = self.turn
        self.last = (row, column)
        board = row // 3 * 3 + column // 3
        self.states[board] = self.decide_board(board)
        big = [[self.board_state(r * 3 + c) or "." for c in range(3)] for r in range(3)]
        if has_run(big, self.turn, 3):
            self.result = self.turn
        elif not self.open_boards():
            self.result = "draw"
        self.turn = "o" if self.turn == "x" else "x"
