"""The Prometheus metrics of the site, served at `/metrics`: tables open, sockets, moves (their
rate is moves/s) and the latency of a move from command to commit and fan-out.

Under `tictactoe serve --workers N` each worker is a process of its own: prometheus-client's
multiprocess mode (`PROMETHEUS_MULTIPROC_DIR`, set by `serve`) adds their figures up.
"""

from __future__ import annotations

import os

from prometheus_client import (
    CONTENT_TYPE_LATEST,
    REGISTRY,
    CollectorRegistry,
    Counter,
    Gauge,
    Histogram,
    generate_latest,
)

MOVES = Counter("tictactoe_moves", "Moves committed by this site")
MOVE_SECONDS = Histogram(
    "tictactoe_move_seconds",
    "From a move command to its commit to the database and its publication",
    buckets=(0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1.0, 2.5),
)
TABLES_OPEN = Gauge(
    "tictactoe_tables_open", "Tables loaded in memory by the site", multiprocess_mode="livesum"
)
SOCKETS = Gauge("tictactoe_websockets", "Open WebSocket connections", multiprocess_mode="livesum")
REFUSED = Counter("tictactoe_refused", "Requests refused by a limit", ["reason"])
STORAGE_UNAVAILABLE = Counter(
    "tictactoe_storage_unavailable", "Requests answered 503 because the database was unreachable"
)


def exposition() -> tuple[bytes, str]:
    """The metrics in Prometheus's text format, and its content type."""
    if os.environ.get("PROMETHEUS_MULTIPROC_DIR"):
        from prometheus_client import multiprocess

        registry = CollectorRegistry()
        multiprocess.MultiProcessCollector(registry)  # type: ignore[no-untyped-call]
        return generate_latest(registry), CONTENT_TYPE_LATEST
    return generate_latest(REGISTRY), CONTENT_TYPE_LATEST
