"""What operators rely on: `--workers N`, /healthz, /readyz, /metrics, and structured logs that
never show a seat token."""

from __future__ import annotations

import json
import random
import subprocess
import sys

import httpx
import pytest
from tests.scaleout.clients import Socket, create_table, play_moves, socket_url
from tests.scaleout.services import PostgresCluster, RedisServer, StartServer


def metric(text: str, name: str) -> float:
    """The sum of a metric's samples in Prometheus's text format."""
    return sum(
        float(line.rsplit(" ", 1)[1])
        for line in text.splitlines()
        if line.startswith(name) and not line.startswith("#")
    )


def test_workers_share_one_port_and_their_metrics_add_up(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    server = start_server(
        postgres.new_database(), redis_server.url, args=["--workers", "2"], TICTACTOE_METRICS="1"
    )
    table_id, tokens = create_table(server.base)
    x = Socket(socket_url(server.ws_base, table_id, tokens["x"]))
    o = Socket(socket_url(server.ws_base, table_id, tokens["o"]))
    try:
        final = play_moves({"x": x, "o": o}, x.table_at(1), random.Random(8), count=12)
        assert len(final["moves"]) == 12
        # Whichever worker answers, it reports the moves of both (multiprocess mode).
        for _ in range(4):
            text = httpx.get(f"{server.base}/metrics").text
            assert metric(text, "tictactoe_moves_total") == 12
            assert metric(text, "tictactoe_move_seconds_count") == 12
    finally:
        x.close()
        o.close()


def test_health_readiness_and_metrics_of_one_process(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    server = start_server(postgres.new_database(), redis_server.url, TICTACTOE_METRICS="1")
    assert httpx.get(f"{server.base}/healthz").json() == {"status": "ok"}
    ready = httpx.get(f"{server.base}/readyz")
    assert ready.status_code == 200
    assert ready.json() == {"ready": True, "database": "ok", "pubsub": "ok"}
    table_id, tokens = create_table(server.base)
    x = Socket(socket_url(server.ws_base, table_id, tokens["x"]))
    try:
        x.table_at(1)
        text = httpx.get(f"{server.base}/metrics").text
        assert metric(text, "tictactoe_tables_open") >= 1
        assert metric(text, "tictactoe_websockets") == 1
        assert "tictactoe_move_seconds_bucket" in text
    finally:
        x.close()


def test_logs_are_json_lines_without_seat_tokens(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    server = start_server(postgres.new_database(), redis_server.url)
    table_id, tokens = create_table(server.base)
    socket = Socket(socket_url(server.ws_base, table_id, tokens["x"]))
    socket.table_at(1)
    socket.close()
    httpx.get(f"{server.base}/api/tables/{table_id}")
    server.stop()
    lines = [line for line in server.log.read_text().splitlines() if line.startswith("{")]
    entries = [json.loads(line) for line in lines]
    access = [e for e in entries if e["logger"] == "uvicorn.access"]
    assert any(e["path"] == f"/api/tables/{table_id}" and e["status"] == 200 for e in access)
    assert all({"time", "level", "pid", "message"} <= entry.keys() for entry in entries)
    text = server.log.read_text()
    assert "token=***" in text
    assert all(token not in text for token in tokens.values())


@pytest.mark.parametrize(
    ("options", "needs"),
    [
        (["--workers", "2", "--database", "postgresql://db/ttt"], "--redis"),
        (["--workers", "2", "--redis", "redis://cache", "--database", "sqlite:///x.db"], "postgre"),
    ],
)
def test_several_workers_are_refused_without_a_shared_database_and_redis(
    options: list[str], needs: str
) -> None:
    command = [sys.executable, "-m", "tictactoe.cli", "serve", *options]
    done = subprocess.run(command, capture_output=True, text=True, timeout=60)
    assert done.returncode == 2
    assert needs in done.stdout
