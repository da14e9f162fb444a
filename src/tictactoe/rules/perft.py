"""Perft: counting move sequences, the standard check that move generation is right."""

from __future__ import annotations

from tictactoe.rules.game import Game


def perft(game: Game, depth: int) -> int:
    """The number of move sequences of exactly `depth` plies from `game` (a game that ends
    sooner is not counted).

    >>> from tictactoe.rules import new_game
    >>> perft(new_game("ultimate"), 2), perft(new_game("standard"), 9)
    (720, 127872)
    """
    if depth < 0:
        raise ValueError(f"depth is 0 or more, not {depth}")
    if depth == 0:
        return 1
    moves = game.legal_moves()
    if depth == 1:
        return len(moves)
    return sum(perft(game.play(move), depth - 1) for move in moves)


def complete_games(game: Game) -> int:
    """The number of different complete games from `game` (move sequences that end the game).

    >>> from tictactoe.rules import new_game
    >>> complete_games(new_game("standard"))
    255168
    """
    if game.is_over:
        return 1
    return sum(complete_games(game.play(move)) for move in game.legal_moves())
