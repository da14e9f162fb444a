"""`tictactoe perft`: count the move sequences of a given depth, to check move generation."""

from __future__ import annotations

import argparse

HELP = "count the move sequences of DEPTH plies from the start (checks the move generator)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", choices=["standard", "ultimate"])
    parser.add_argument("depth", type=int)
    parser.add_argument("--size", type=int, help="standard: board size 3, 4 or 5 (default 3)")
    parser.add_argument("--line", type=int, help="standard: marks in a row that win")


def run(args: argparse.Namespace) -> int:
    from tictactoe.rules import new_game
    from tictactoe.rules.perft import perft

    if args.depth < 0:
        raise SystemExit("tictactoe perft: DEPTH is 0 or more")
    try:
        game = new_game(args.variant, size=args.size, line=args.line)
    except ValueError as error:
        raise SystemExit(f"tictactoe perft: {error}") from None
    print(perft(game, args.depth))
    return 0
