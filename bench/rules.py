"""Random full Ultimate games per second through the public API (legal_moves + play each ply).

Usage: uv run python bench/rules.py [--seconds S]
"""

from __future__ import annotations

import argparse
import random
import time

import tictactoe


def play_random_games(seconds: float, seed: int = 1) -> tuple[int, int, float]:
    chooser = random.Random(seed)
    games = moves = 0
    start = time.perf_counter()
    while (elapsed := time.perf_counter() - start) < seconds:
        game = tictactoe.new_game("ultimate")
        while game.result is None:
            game = game.play(chooser.choice(game.legal_moves()))
            moves += 1
        games += 1
    return games, moves, elapsed


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--seconds", type=float, default=5.0)
    args = parser.parse_args()
    games, moves, elapsed = play_random_games(args.seconds)
    print(f"ultimate random games: {games / elapsed:,.0f} games/s, {moves / elapsed:,.0f} moves/s")
    print(f"({games} games, {moves} moves, {moves / games:.1f} moves/game, {elapsed:.1f} s)")


if __name__ == "__main__":
    main()
