"""`tictactoe serve`: runs the web site under uvicorn and prints the address to open."""

from __future__ import annotations

import argparse
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from tictactoe.server.settings import Settings

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
    parser.add_argument(
        "--log-format",
        choices=("text", "json"),
        default=None,
        help="json: one JSON object per line (the default with --redis); text otherwise",
    )
    parser.add_argument(
        "--migrate-only",
        action="store_true",
        help="bring the database's schema up to date, then exit (start-up does it too)",
    )


def run(args: argparse.Namespace) -> int:
    import os

    import uvicorn

    from tictactoe.server.edge.http_protocol import MAX_HEADER_BYTES, BoundedH11Protocol
    from tictactoe.server.edge.logs import log_config
    from tictactoe.server.edge.open_files import raise_open_files
    from tictactoe.server.edge.websocket_protocol import LeanWebSocketProtocol

    if args.migrate_only:
        return migrate(args.database)
    if args.workers > 1 and args.redis is None:
        print("tictactoe serve: --workers above 1 needs --redis, so moves reach every process")
        return 2
    if args.workers > 1 and not args.database.startswith("postgresql"):
        print("tictactoe serve: --workers above 1 needs --database postgresql://...")
        return 2
    metrics_dir = None
    if args.workers > 1 and not os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        import tempfile

        # Workers are processes: /metrics adds up the figures they write here.
        metrics_dir = os.environ["PROMETHEUS_MULTIPROC_DIR"] = tempfile.mkdtemp(
            prefix="tictactoe-metrics-"
        )
    log_format = args.log_format or ("json" if args.redis else "text")
    shown_host = "127.0.0.1" if args.host in ("0.0.0.0", "::") else args.host
    if ":" in shown_host:
        shown_host = f"[{shown_host}]"
    print(f"Tic-Tac-Toe: open http://{shown_host}:{args.port}/  (Ctrl-C stops it)", flush=True)
    # Each worker process builds its own app from these (uvicorn imports the factory by name).
    os.environ[_DATABASE_VARIABLE] = args.database
    os.environ.pop(_REDIS_VARIABLE, None)
    if args.redis is not None:
        os.environ[_REDIS_VARIABLE] = args.redis
    settings = _settings()
    raise_open_files(settings.max_connections)  # inherited by uvicorn's worker processes
    uvicorn.run(
        "tictactoe.server.serve_command:app_from_environment",
        factory=True,
        host=args.host,
        port=args.port,
        workers=args.workers,
        # What a connection may cost before its request reaches the site (README "Security"):
        # headers capped in size and in time, idle connections closed, connections capped.
        http=BoundedH11Protocol,
        h11_max_incomplete_event_size=MAX_HEADER_BYTES,
        timeout_keep_alive=5,
        limit_concurrency=settings.max_connections,
        # Anything past a few KB is not a message of ours; 64 KB bounds what a socket may buffer.
        ws_max_size=64 * 1024,
        # Frames are a few KB; compressing each costs more CPU than it saves here, and a deflate
        # context per socket costs ~100 KB of memory.
        ws_per_message_deflate=False,
        # websockets' sans-I/O protocol: no tasks of its own per socket (the legacy protocol ran
        # three, with their queues and events: ~19 KB per table of two sockets, measured), in a
        # leaner form of our own (see websocket_protocol.py).
        ws=LeanWebSocketProtocol,
        log_level="info",
        log_config=log_config(log_format == "json"),
        # Forwarded headers are believed only from the proxies the settings name (the app applies
        # them: TICTACTOE_TRUSTED_PROXIES), not from whoever connects from this host.
        proxy_headers=False,
    )
    if metrics_dir is not None:
        import shutil

        shutil.rmtree(metrics_dir, ignore_errors=True)
    return 0


def migrate(database_url: str) -> int:
    """Applies the migrations the database has not seen (PostgreSQL: under an advisory lock, so
    it is safe while other processes start); prints what it did."""
    import asyncio

    from tictactoe.server.storage import StorageUnavailableError
    from tictactoe.server.storage.sql import SQLStorage

    async def upgrade() -> None:
        storage = SQLStorage(database_url)
        try:
            await storage.start()
        finally:
            await storage.close()

    try:
        asyncio.run(upgrade())
    except StorageUnavailableError as error:
        print(f"tictactoe serve: the database is unreachable: {error}")
        return 1
    print("tictactoe serve: the database schema is up to date")
    return 0


_DATABASE_VARIABLE = "TICTACTOE_DATABASE"
_REDIS_VARIABLE = "TICTACTOE_REDIS"


def _settings(**chosen: object) -> Settings:
    """The settings from the environment; a bad value stops the server, naming its variable."""
    from tictactoe.server.settings import BadSetting, Settings

    try:
        return Settings.from_environment(**chosen)
    except BadSetting as error:
        raise SystemExit(f"tictactoe serve: {error}") from None


def app_from_environment() -> object:
    """The app for `tictactoe serve`, configured through the environment it set."""
    import os

    from tictactoe.server.app import create_app
    from tictactoe.server.settings import DEFAULT_DATABASE_URL

    app = create_app(
        _settings(
            database_url=os.environ.get(_DATABASE_VARIABLE, DEFAULT_DATABASE_URL),
            redis_url=os.environ.get(_REDIS_VARIABLE),
        ),
        start_workers=True,
    )
    from tictactoe.server.ops.garbage import tune_garbage_collector

    tune_garbage_collector()
    return app
