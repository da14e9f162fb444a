"""Tic-Tac-Toe and Ultimate Tic-Tac-Toe: the rules library, the computer player and the web site.

>>> import tictactoe
>>> game = tictactoe.new_game("ultimate").play("e5")
>>> game.turn, game.position()[-4:]
('o', 'o e5')
"""

from tictactoe.rules import Game, IllegalMoveError, InvalidPositionError, new_game

__version__ = "0.1.0"
__all__ = ["Game", "IllegalMoveError", "InvalidPositionError", "__version__", "new_game"]
