"""`create_app(settings)`: the FastAPI application with its storage, pub/sub, tables and routes."""

from __future__ import annotations

import asyncio
import contextlib
import importlib
import json
import logging
import time
from collections.abc import AsyncIterator, Awaitable, Callable
from contextlib import asynccontextmanager
from pathlib import Path
from typing import Any

from fastapi import FastAPI, Request
from fastapi.exception_handlers import http_exception_handler
from fastapi.exceptions import RequestValidationError
from fastapi.responses import JSONResponse, Response
from fastapi.staticfiles import StaticFiles
from starlette.exceptions import HTTPException
from starlette.middleware.gzip import GZipMiddleware
from starlette.types import Scope

from tictactoe.server.edge import health
from tictactoe.server.edge.json_bodies import JSONBodyMiddleware
from tictactoe.server.edge.socket_lane import TableSocketLane
from tictactoe.server.learning import hint_api, puzzle_api
from tictactoe.server.learning import pages as learning_pages
from tictactoe.server.ops import metrics
from tictactoe.server.ops.garbage import CycleSweeper, collect_young_by_time
from tictactoe.server.pubsub.backends import open_pubsub
from tictactoe.server.pubsub.presence import SharedPresence
from tictactoe.server.settings import Settings
from tictactoe.server.storage import StorageUnavailableError
from tictactoe.server.storage.backends import open_storage
from tictactoe.server.table.commands import Refused
from tictactoe.server.table.computer import ComputerPlayer
from tictactoe.server.table.tables import Tables
from tictactoe.server.web import (
    actions,
    api,
    levels_api,
    message_docs,
    page_strings,
    people_api,
    review_api,
    review_pages,
    share,
)
from tictactoe.server.web.connections import Hub
from tictactoe.server.web.error_pages import cross_site_page, error_page, wants_a_page
from tictactoe.server.web.identity import ClientCookieMiddleware

log = logging.getLogger(__name__)
STATIC_DIR = Path(__file__).resolve().parent / "static"


def create_app(
    settings: Settings | None = None,
    clock: Callable[[], float] = time.time,
    sleep: Callable[[float], Awaitable[None]] = asyncio.sleep,
    start_workers: bool = False,
) -> FastAPI:
    """The web site. Storage and pub/sub open at start-up (migrating the database) and close at
    shutdown: run it under uvicorn, or in tests inside the ASGI lifespan. `clock` is the tables'
    time and `sleep` waits on it (tests inject both, so that no clock test waits on the wall
    clock). `start_workers`: the computer's worker processes start with the site (`tictactoe
    serve`), not at the first move."""
    settings = settings or Settings()

    @asynccontextmanager
    async def lifespan(app: FastAPI) -> AsyncIterator[None]:
        storage = open_storage(settings.database_url)
        pubsub = open_pubsub(settings.redis_url)
        await storage.start()
        await pubsub.start()
        computer = ComputerPlayer(
            settings.computer_workers,
            settings.computer_think_ms,
            settings.analysis_workers,
            clock=clock,
            judge_think_ms=settings.analysis_think_ms,
        )
        presence = SharedPresence(settings.redis_url) if settings.redis_url else None
        if presence is not None:
            await presence.start()
        app.state.settings = settings
        tables = app.state.tables = Tables(
            storage, pubsub, settings, computer, clock=clock, presence=presence, sleep=sleep
        )
        # Scale-out: sockets catch up from the database when Redis may have dropped frames.
        app.state.hub = Hub(pubsub, resync=tables.latest_envelope if tables.shared else None)
        hub = app.state.hub
        # Closed sockets and evicted tables (a table and its side jobs refer to each other):
        # what leaves long-lived cycles behind.
        sweeper = CycleSweeper(
            lambda: hub.connection_count, lambda: hub.closed_sockets + tables.evicted
        )
        background = [
            asyncio.ensure_future(_update_gauges(app)),
            asyncio.ensure_future(hub.poll_while_the_bus_is_down()),
            asyncio.ensure_future(sweeper.run()),
            asyncio.ensure_future(collect_young_by_time()),
        ]
        if start_workers:
            background.append(asyncio.ensure_future(computer.start()))
        try:
            yield
        finally:
            for task in background:
                task.cancel()
                with contextlib.suppress(asyncio.CancelledError):
                    await task
            await app.state.tables.close()
            if presence is not None:
                await presence.close()
            computer.close()
            await pubsub.close()
            await storage.close()

    app = FastAPI(
        title="Tic-Tac-Toe tables",
        version=_version(),
        description="Play Tic-Tac-Toe and Ultimate Tic-Tac-Toe with a friend by link.\n"
        + message_docs.markdown(),
        lifespan=lifespan,
    )
    # Outermost last: proxy headers first (the client's real address and scheme), then the
    # browser protections, then the rate limits, then the identity cookie, then JSON bodies.
    # The table's WebSocket, past the rest of the stack; a cross-site form refused as a page.
    lane = TableSocketLane(app, settings, cross_site_page)
    app.add_middleware(JSONBodyMiddleware)
    app.add_middleware(ClientCookieMiddleware)
    app.add_middleware(lane.limits_middleware)
    app.add_middleware(lane.security_middleware)
    app.add_middleware(lane.middleware)
    if settings.trusted_proxies:
        from uvicorn.middleware.proxy_headers import ProxyHeadersMiddleware

        app.add_middleware(ProxyHeadersMiddleware, trusted_hosts=list(settings.trusted_proxies))
    app.add_exception_handler(Refused, _refused)
    app.add_exception_handler(HTTPException, _http_error)
    app.add_exception_handler(RequestValidationError, _invalid_request)
    app.add_exception_handler(StorageUnavailableError, _storage_unavailable)
    app.include_router(api.router)
    app.include_router(levels_api.router)
    app.include_router(people_api.router)
    app.include_router(review_api.router, prefix="/api")
    app.include_router(share.router)
    app.include_router(page_strings.router)
    app.include_router(review_pages.router)
    app.include_router(message_docs.router)
    app.include_router(puzzle_api.router, prefix="/api")
    app.include_router(hint_api.router, prefix="/api")
    app.include_router(learning_pages.router)
    app.include_router(health.router)
    _include_pages(app)
    return app


def _include_pages(app: FastAPI) -> None:
    """The frontend's pages and static files, when that part is installed."""
    try:
        pages = importlib.import_module("tictactoe.server.web.pages")
    except ModuleNotFoundError as error:
        if error.name != "tictactoe.server.web.pages":
            raise
        log.warning("tictactoe.server.web.pages is missing: serving the API only")
    else:
        app.include_router(pages.router)
    if STATIC_DIR.is_dir():
        # Scripts and styles go compressed (a phone on a slow line loads the table page in a third
        # of the bytes); pages and the API do not, as they carry what a visitor typed (BREACH).
        static = GZipMiddleware(_StaticFiles(directory=STATIC_DIR), minimum_size=512)
        app.mount("/static", static, name="static")


class _StaticFiles(StaticFiles):
    """Starlette's static files, where a path no file can have (a NUL byte: the operating system
    refuses it with ValueError, which would be a 500) is simply not found."""

    def get_path(self, scope: Scope) -> str:
        path = super().get_path(scope)
        if "\x00" in path:
            raise HTTPException(404)
        return path


def _version() -> str:
    from tictactoe import __version__

    return __version__


async def _refused(request: Request, error: Exception) -> Response:
    assert isinstance(error, Refused)
    if wants_a_page(request):
        return error_page(request, error.status)
    return actions.refusal_response(error)


async def _http_error(request: Request, error: Exception) -> Response:
    """An unknown address (404) or method (405): a page for a browser, JSON for a script."""
    assert isinstance(error, HTTPException)
    if wants_a_page(request) and error.status_code >= 400:
        return error_page(request, error.status_code)
    return await http_exception_handler(request, error)


async def _storage_unavailable(request: Request, error: Exception) -> Response:
    log.warning("database unreachable: %s", error)
    metrics.STORAGE_UNAVAILABLE.inc()
    if wants_a_page(request):
        return error_page(request, 503)
    return JSONResponse(
        {
            "status": 503,
            "reason": "database-unavailable",
            "message": "the database is unreachable right now; try again shortly",
        },
        status_code=503,
        headers={"Retry-After": "2"},
    )


async def _update_gauges(app: FastAPI) -> None:
    # Under several workers a scrape reaches one of them: each keeps its gauges current itself.
    while True:
        health.update_gauges(app)
        await asyncio.sleep(5)


async def _invalid_request(request: Request, error: Exception) -> JSONResponse:
    """Malformed bodies: 400 for what is not JSON at all, 422 for JSON of the wrong shape, each
    with a message a person can act on."""
    assert isinstance(error, RequestValidationError)
    errors: list[dict[str, Any]] = [dict(e) for e in error.errors()]
    if any(e.get("type") == "json_invalid" for e in errors):
        return JSONResponse(
            {"status": 400, "reason": "bad-json", "message": "the request body is not valid JSON"},
            status_code=400,
        )
    parts = []
    for e in errors:
        where = ".".join(str(p) for p in e.get("loc", ()) if p != "body") or "body"
        parts.append(f"{where}: {e.get('msg', 'invalid')}")
    return JSONResponse(
        {
            "status": 422,
            "reason": "bad-request",
            "message": "; ".join(parts),
            "detail": _plain(errors),
        },
        status_code=422,
    )


def _plain(errors: list[dict[str, Any]]) -> list[dict[str, Any]]:
    # Pydantic's error contexts may hold exceptions; keep what JSON can carry.
    return [
        {
            key: _json_safe(value)
            for key, value in e.items()
            if key in ("type", "loc", "msg", "input")
        }
        for e in errors
    ]


def _json_safe(value: Any) -> Any:
    """The value if strict JSON can carry it, else its repr: Python's parser accepts `NaN` and
    `Infinity` in a body, and echoing them back must not fail the answer (found by hypothesis).

    >>> _json_safe(float("inf")), _json_safe({"move": "e5"})
    ('inf', {'move': 'e5'})
    """
    try:
        json.dumps(value, allow_nan=False)
    except (TypeError, ValueError):
        return repr(value)
    return value
