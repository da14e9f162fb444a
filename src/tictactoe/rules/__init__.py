"""The rules of Tic-Tac-Toe and Ultimate Tic-Tac-Toe, their notation and perft: pure Python,
standard library only, no I/O, so the server, the engine and bot authors share one implementation.
"""

from tictactoe.rules.errors import IllegalMoveError, InvalidPositionError
from tictactoe.rules.game import VARIANTS, Game, new_game
from tictactoe.rules.standard import StandardGame
from tictactoe.rules.ultimate import (
    UltimateGame,
    board_cells,
    board_name,
    board_of,
    send_to_board,
)

__all__ = [
    "VARIANTS",
    "Game",
    "IllegalMoveError",
    "InvalidPositionError",
    "StandardGame",
    "UltimateGame",
    "board_cells",
    "board_name",
    "board_of",
    "new_game",
    "send_to_board",
]
