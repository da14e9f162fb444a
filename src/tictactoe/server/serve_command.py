"""`tictactoe serve`: runs the web site under uvicorn and prints the address to open."""

from __future__ import annotations

import argparse

HELP = "run the web site (127.0.0.1:8000 with an SQLite file in ./data by default)"


def add_arguments(parser: argparse.ArgumentParser) -> None:
    from tictactoe.server.settings import DEFAULT_DATABASE_URL

    parser.add_argument("--host", default="127.0.0.1", help="address to listen on")
    parser.add_argument("--port", type=int, default=8000, help="port to listen on")
    parser.add_argument(
        "--database",
        default=DEFAULT_DATABASE_URL,
        metavar="URL",
        help=f"sqlite:///path/file.db or postgresql://user@host:5432/db ({DEFAULT_DATABASE_URL})",
    )
    parser.add_argument("--redis", default=None, metavar="URL", help="redis://host:6379/0")
    parser.add_argument(
        "--workers", type=int, default=1, help="server processes (needs --redis beyond 1)"
    )


def run(args: argparse.Namespace) -> int:
    import os

    import uvicorn

    if args.workers > 1 and args.redis is None:
        print("tictactoe serve: --workers above 1 needs --redis, so moves reach every process")
        return 2
    shown_host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    print(f"Tic-Tac-Toe: open http://{shown_host}:{args.port}/  (Ctrl-C stops it)", flush=True)
    # Each worker process builds its own app from these (uvicorn imports the factory by name).
    os.environ[_DATABASE_VARIABLE] = args.database
    os.environ.pop(_REDIS_VARIABLE, None)
    if args.redis is not None:
        os.environ[_REDIS_VARIABLE] = args.redis
    uvicorn.run(
        "tictactoe.server.serve_command:app_from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        # Anything past a few KB is not a message of ours; 64 KB bounds what a socket may buffer.
        ws_max_size=64 * 1024,
        log_level="info",
    )
    return 0


_DATABASE_VARIABLE = "TICTACTOE_DATABASE"
_REDIS_VARIABLE = "TICTACTOE_REDIS"


def app_from_environment() -> object:
    """The app for `tictactoe serve`, configured through the environment it set."""
    import os

    from tictactoe.server.app import create_app
    from tictactoe.server.settings import DEFAULT_DATABASE_URL, Settings

    return create_app(
        Settings(
            database_url=os.environ.get(_DATABASE_VARIABLE, DEFAULT_DATABASE_URL),
            redis_url=os.environ.get(_REDIS_VARIABLE),
        )
    )
