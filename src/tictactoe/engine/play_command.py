"""`tictactoe play`: a game against the computer in the terminal.

Draws the board after every move with the cells you may play marked `·`, says where you are sent
(Ultimate), reads your moves as cell names (`e5`), and explains a refused move.
"""

from __future__ import annotations

import argparse
import random
import sys
from typing import TYPE_CHECKING, TextIO

from tictactoe.engine.levels import NAMES as LEVELS
from tictactoe.rules.ultimate_grid import POSITION_WORDS

if TYPE_CHECKING:
    from tictactoe.rules import Game

HELP = "play a game against the computer in the terminal"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("variant", nargs="?", default="ultimate", choices=["ultimate", "standard"])
    parser.add_argument("--level", choices=LEVELS, default="medium", help="weakest first")
    parser.add_argument("--size", type=int, help="standard: board size 3, 4 or 5 (default 3)")
    parser.add_argument("--line", type=int, help="standard: marks in a row that win")
    parser.add_argument(
        "--first",
        choices=["me", "computer", "random"],
        default="me",
        help="who plays X and moves first (default me)",
    )
    parser.add_argument("--think-ms", type=int, default=1000, help="computer's time at max")


COLOURS = {"X": "\x1b[1;36mX\x1b[0m", "O": "\x1b[1;35mO\x1b[0m", "·": "\x1b[32m·\x1b[0m"}


def draw(game: Game, playable: set[str], colour: bool = False) -> list[str]:
    """The board as text lines: marks `X`/`O`, playable cells `·`, other empty cells blank
    (`colour`: with terminal colours).

    >>> import tictactoe
    >>> print("\\n".join(draw(tictactoe.Game.from_record("standard", "b2"), {"a1"})))
        a b c
     3
     2    X
     1  ·
    """
    size = game.size
    files = " ".join(chr(ord("a") + c) for c in range(size))
    if game.variant == "ultimate":
        files = "   ".join(files[i : i + 5] for i in range(0, 17, 6))
    lines = [f"    {files}"]
    for row in range(size):
        rank = size - row
        cells = []
        for col in range(size):
            name = f"{chr(ord('a') + col)}{rank}"
            mark = game.cell(name)
            symbol = mark.upper() if mark else "·" if name in playable else " "
            cells.append(COLOURS.get(symbol, symbol) if colour else symbol)
        if game.variant == "ultimate":
            text = " │ ".join(" ".join(cells[i : i + 3]) for i in range(0, 9, 3))
            beside = _big_board_row(game, row)
            lines.append(f"{rank:>2}  {text}{beside}" if beside else f"{rank:>2}  {text}".rstrip())
            if row in (2, 5):
                lines.append("    " + "┼".join(["──────", "───────", "──────"]))
        else:
            lines.append(f"{rank:>2}  {' '.join(cells)}".rstrip())
    return lines


def _big_board_row(game: Game, row: int) -> str:
    """Beside the grid, the big board: who won each small board (`=` drawn, `.` open)."""
    if row % 3 != 1 and row != 0:
        return ""
    boards = game.boards()  # type: ignore[attr-defined]
    if row == 0:
        return "      big board"
    symbols = {None: ".", "x": "X", "o": "O", "draw": "="}
    big_row = row // 3
    return "        " + " ".join(symbols[boards[big_row * 3 + c]] for c in range(3))


def where_sent(game: Game) -> str:
    if game.variant != "ultimate":
        return ""
    sent = game.sent_to  # type: ignore[attr-defined]
    if sent is None:
        return "You may play in any open board."
    from tictactoe.rules import board_name

    return f"You are sent to the {POSITION_WORDS[sent]} board ({board_name(sent)})."


def play_session(
    game: Game,
    human: str,
    *,
    level: str,
    think_ms: int,
    stdin: TextIO,
    out: TextIO,
) -> str | None:
    """Play until the game ends or the human quits; return the result (None if they quit)."""
    from tictactoe.engine import best_move
    from tictactoe.rules import IllegalMoveError

    def say(text: str = "") -> None:
        print(text, file=out, flush=True)

    colour = out.isatty()

    while not game.is_over:
        if game.turn != human:
            say(f"The computer ({game.turn.upper()}) is thinking…")
            move = best_move(game, level, think_ms=think_ms)
            game = game.play(move)
            say(f"The computer plays {move}.")
            continue
        say()
        say("\n".join(draw(game, set(game.legal_moves()), colour)))
        if game.last_move:
            say(f"Last move: {game.last_move}.")
        if game.variant == "ultimate":
            say(where_sent(game))
        example = game.legal_moves()[0]
        out.write(f"Your move ({human.upper()}), a cell like {example} or q to quit: ")
        out.flush()
        answer = stdin.readline()
        if not answer or answer.strip().lower() in ("q", "quit", "exit"):
            say()
            say("Bye.")
            return None
        try:
            game = game.play(answer.strip().lower())
        except IllegalMoveError as error:
            say(f"Not possible: {error}")
    say()
    say("\n".join(draw(game, set(), colour)))
    if game.result == "draw":
        say("Game over: a draw.")
    elif game.result == human:
        say("Game over: you win!")
    else:
        say("Game over: the computer wins.")
    return game.result


def run(args: argparse.Namespace) -> int:
    import tictactoe

    try:
        game = tictactoe.new_game(args.variant, size=args.size, line=args.line)
    except ValueError as error:
        raise SystemExit(f"tictactoe play: {error}") from None
    first = args.first if args.first != "random" else random.choice(["me", "computer"])
    human = "x" if first == "me" else "o"
    print(f"You play {human.upper()} against the computer at level {args.level}.")
    play_session(
        game, human, level=args.level, think_ms=args.think_ms, stdin=sys.stdin, out=sys.stdout
    )
    return 0
