"""The `tictactoe` command: one subcommand per module, each owned by the part it drives.

Every subcommand module exposes `HELP` (one line), `add_arguments(parser)` and `run(args) -> int`,
and keeps its import light (heavy imports happen inside `run`), so `tictactoe --help` stays fast.
"""

from __future__ import annotations

import argparse
import importlib
import sys
from collections.abc import Sequence

SUBCOMMANDS: dict[str, str] = {
    "serve": "tictactoe.server.serve_command",
    "perft": "tictactoe.perft_command",
    "engine": "tictactoe.engine.protocol_command",
    "play": "tictactoe.engine.play_command",
    "bot": "tictactoe.engine.bot_command",
}


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    """The command's parser; with `only` (a subcommand's name), just that subcommand's module is
    imported: `tictactoe engine` must not spend its first turn's second importing the server's
    settings (pydantic and all: ~0.1 s of processor time)."""
    parser = argparse.ArgumentParser(
        prog="tictactoe",
        description="Tic-Tac-Toe and Ultimate Tic-Tac-Toe: the site, the rules and the computer.",
    )
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND", required=True)
    for name, module_name in SUBCOMMANDS.items():
        if only is not None and name != only:
            continue
        try:
            module = importlib.import_module(module_name)
        except ModuleNotFoundError as error:
            if error.name != module_name:
                raise
            continue  # that part of the project is not installed yet
        sub = subparsers.add_parser(name, help=module.HELP, description=module.HELP)
        module.add_arguments(sub)
        sub.set_defaults(run=module.run)
    return parser


def main(argv: Sequence[str] | None = None) -> int:
    given = list(sys.argv[1:] if argv is None else argv)
    asked = given[0] if given and given[0] in SUBCOMMANDS else None
    args = build_parser(asked).parse_args(given)
    return int(args.run(args) or 0)


if __name__ == "__main__":
    sys.exit(main())
