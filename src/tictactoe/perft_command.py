"""`tictactoe perft`: count the move sequences of a given depth, to check move generation.

Counts run on the engine's compiled kernels; `--rules` counts with the pure-Python rules library
instead, so the two can be checked against each other.
"""

from __future__ import annotations

import argparse

HELP = "count the move sequences of DEPTH plies from the start (checks the move generator)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", choices=["standard", "ultimate"])
    parser.add_argument("depth", type=int)
    parser.add_argument("--size", type=int, help="standard: board size 3, 4 or 5 (default 3)")
    parser.add_argument("--line", type=int, help="standard: marks in a row that win")
    parser.add_argument(
        "--rules",
        action="store_true",
        help="count with the pure-Python rules library (slow) instead of the engine's kernel",
    )


def run(args: argparse.Namespace) -> int:
    from tictactoe.rules import new_game
    from tictactoe.rules.perft import perft

    if args.depth < 0:
        raise SystemExit("tictactoe perft: DEPTH is 0 or more")
    try:
        game = new_game(args.variant, size=args.size, line=args.line)
    except ValueError as error:
        raise SystemExit(f"tictactoe perft: {error}") from None
    if args.rules or args.depth <= 3:
        print(perft(game, args.depth))
        return 0
    from tictactoe.engine.perft import perft_by_move
    from tictactoe.engine.progress import Progress

    with Progress(f"perft {args.variant} {args.depth}", total=len(game.legal_moves())) as bar:
        count = perft_by_move(game, args.depth, lambda move, _: bar.advance(note=move))
    print(count)
    return 0
