"""What operators and load balancers ask: `/healthz` (the process is up), `/readyz` (its database
and, in scale-out, Redis answer) and `/metrics` (Prometheus)."""

from __future__ import annotations

import asyncio
from typing import Any

from fastapi import APIRouter, Request
from fastapi.responses import JSONResponse, Response

from tictactoe.server.ops import metrics
from tictactoe.server.web.identity import tables_of

router = APIRouter(include_in_schema=False)

# Never a table id (ids are 22 characters): reading it is a round trip that finds nothing.
_PROBE_ID = "readiness-probe"
_PROBE_SECONDS = 2.0


@router.get("/healthz")
async def healthz() -> dict[str, str]:
    return {"status": "ok"}


@router.get("/readyz")
async def readyz(request: Request) -> JSONResponse:
    """200 when the database and the pub/sub answer within two seconds, else 503 saying which
    does not (a balancer stops sending players to this process meanwhile)."""
    tables = tables_of(request)
    checks: dict[str, str] = {}
    # A storage that can tell says whether it can be written too (an SQLite file locked by
    # another process still reads); the others are read.
    storage_ping: Any = getattr(tables.storage, "ping", None)
    probe = storage_ping() if storage_ping is not None else tables.storage.load(_PROBE_ID)
    try:
        await asyncio.wait_for(probe, _PROBE_SECONDS)
        checks["database"] = "ok"
    except Exception as error:
        checks["database"] = f"unreachable: {type(error).__name__}: {error}"[:200]
    ping: Any = getattr(tables.pubsub, "ping", None)
    if ping is not None:
        try:
            await asyncio.wait_for(ping(), _PROBE_SECONDS)
            checks["pubsub"] = "ok"
        except Exception as error:
            checks["pubsub"] = f"unreachable: {type(error).__name__}"
    ready = all(value == "ok" for value in checks.values())
    return JSONResponse({"ready": ready, **checks}, status_code=200 if ready else 503)


@router.get("/metrics")
async def prometheus_metrics(request: Request) -> Response:
    """Prometheus's scrape, when the operator turned it on (`TICTACTOE_METRICS=1`): the figures
    tell an outsider how busy the site is, so a public site does not show them by default."""
    if not tables_of(request).settings.metrics:
        return JSONResponse(
            {"status": 404, "reason": "not-found", "message": "not found"}, status_code=404
        )
    update_gauges(request.app)
    body, content_type = metrics.exposition()
    return Response(body, media_type=content_type)


def update_gauges(app: Any) -> None:
    """Sets this process's gauges from the live objects."""
    metrics.TABLES_OPEN.set(app.state.tables.open_count)
    metrics.SOCKETS.set(app.state.hub.connection_count)
