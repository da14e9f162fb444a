"""Why a move is good, in words a beginner reads: reason codes worked out with the rules library
for the hint at a table against the computer (the page writes them in its language).

>>> from tictactoe import Game
>>> reasons(Game.from_record("standard", "a1 b2 a2"), "a3")
['blocks']
>>> reasons(Game.from_record("standard", "a1 b2 a2 c3"), "a3")
['wins-game']
"""

from __future__ import annotations

from tictactoe import Game


def _owners(game: Game) -> list[str | None]:
    return list(game.boards()) if game.variant == "ultimate" else []  # type: ignore[attr-defined]


def _wins_a_small_board(game: Game, move: str) -> bool:
    before, after = _owners(game), _owners(game.play(move))
    return sum(o == game.turn for o in after) > sum(o == game.turn for o in before)


def _opponent_completes(game: Game, move: str) -> bool:
    """Would the opponent, on this cell, make a line: of the game (standard) or of the cell's
    small board (Ultimate)?"""
    other = "o" if game.turn == "x" else "x"
    col, row = ord(move[0]) - ord("a"), int(move[1:]) - 1
    if game.variant == "ultimate":
        low_col, low_row, width, line = col - col % 3, row - row % 3, 3, 3
    else:
        low_col, low_row, width, line = 0, 0, game.size, game.line

    def mine(c: int, r: int) -> bool:
        inside = low_col <= c < low_col + width and low_row <= r < low_row + width
        return inside and ((c, r) == (col, row) or game.cell(f"{chr(97 + c)}{r + 1}") == other)

    for dc, dr in ((1, 0), (0, 1), (1, 1), (1, -1)):
        run = 1
        for sign in (1, -1):
            step = 1
            while mine(col + sign * step * dc, row + sign * step * dr):
                run, step = run + 1, step + 1
        if run >= line:
            return True
    return False


def reasons(game: Game, move: str) -> list[str]:
    """What `move` does for the side to move: `wins-game`, `wins-board`, `blocks`, and in
    Ultimate where it sends the opponent: `safe-send` (a board where they win nothing at once) or
    `free-choice` (a closed board: they may play anywhere)."""
    after = game.play(move)
    if after.result == game.turn:
        return ["wins-game"]
    found = []
    if game.variant == "ultimate" and _wins_a_small_board(game, move):
        found.append("wins-board")
    if _opponent_completes(game, move):
        found.append("blocks")
    if game.variant == "ultimate" and after.result is None:
        if after.sent_to is None:  # type: ignore[attr-defined]
            found.append("free-choice")
        elif not any(_wins_a_small_board(after, reply) for reply in after.legal_moves()):
            found.append("safe-send")
    return found
