"""Faults in the middle of a game between players on two processes: a process killed (SIGKILL),
Redis stopped and restarted, PostgreSQL stopped and restarted. After each: no committed move
lost, none duplicated, and the game finishes."""

from __future__ import annotations

import random
import time

import httpx
from tests.scaleout.clients import Socket, Table, create_table, play_moves, socket_url
from tests.scaleout.services import PostgresCluster, RedisServer, ServerProcess, StartServer


def stored_record(cluster: PostgresCluster, database_url: str, table_id: str) -> list[str]:
    """The moves of game 1 as committed, by ply; a ply stored twice would show twice."""
    text = cluster.sql(
        "SELECT coalesce(string_agg(move, ' ' ORDER BY ply), '') FROM moves "
        f"WHERE table_id = '{table_id}' AND game_number = 1",
        database_url.rsplit("/", 1)[1],
    )
    return text.split()


def readiness(base: str) -> int:
    return httpx.get(f"{base}/readyz", timeout=10).status_code


def wait_for_readiness(base: str, status: int, seconds: float = 10.0) -> int:
    """Waits up to `seconds` for /readyz to answer `status`; returns the last answer."""
    deadline = time.monotonic() + seconds
    while (now := readiness(base)) != status and time.monotonic() < deadline:
        time.sleep(0.1)
    return now


def seat_players(
    x_at: ServerProcess, o_at: ServerProcess
) -> tuple[str, dict[str, str], Socket, Socket]:
    """A new table made on X's process, with X connected there and O to the other process."""
    table_id, tokens = create_table(x_at.base)
    x = Socket(socket_url(x_at.ws_base, table_id, tokens["x"]))
    o = Socket(socket_url(o_at.ws_base, table_id, tokens["o"]))
    return table_id, tokens, x, o


def test_sigkill_of_a_process_mid_game_loses_nothing_and_its_player_resumes_elsewhere(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    database = postgres.new_database()
    a, b = (start_server(database, redis_server.url) for _ in range(2))
    table_id, tokens, x, o = seat_players(a, b)
    rng = random.Random(11)
    try:
        table = play_moves({"x": x, "o": o}, x.table_at(1), rng, count=10)
        # X sends a move and its process dies at once: the move may or may not have committed.
        x.send(
            {"type": "move", "move": rng.choice(table["legal_moves"]), "version": table["version"]}
        )
        a.kill()
        x.closed.wait(10)
        # X reconnects to the surviving process and catches up from its last version.
        x = Socket(socket_url(b.ws_base, table_id, tokens["x"]))
        x.send({"type": "sync", "version": table["version"]})
        resumed: Table = x.table_at(table["version"])
        assert resumed["moves"][:10] == table["moves"]  # nothing committed was lost
        assert len(resumed["moves"]) in (10, 11)
        assert stored_record(postgres, database, table_id) == resumed["moves"]
        final = play_moves({"x": x, "o": o}, resumed, rng)
        assert final["result"] is not None
        assert stored_record(postgres, database, table_id) == final["moves"]
    finally:
        x.close()
        o.close()


def test_redis_down_mid_game_degrades_to_reading_the_database_and_the_game_finishes(
    start_server: StartServer, postgres: PostgresCluster, private_redis: RedisServer
) -> None:
    database = postgres.new_database()
    a, b = (start_server(database, private_redis.url) for _ in range(2))
    table_id, tokens, x, o = seat_players(a, b)
    rng = random.Random(12)
    try:
        table = play_moves({"x": x, "o": o}, x.table_at(1), rng, count=6)
        private_redis.stop()
        # The balancer is told; the process still serves.
        assert wait_for_readiness(a.base, 503) == 503
        # X moves while Redis is away: committed, and X's own process shows it at once.
        move = rng.choice(table["legal_moves"])
        x.send({"type": "move", "move": move, "version": table["version"]})
        after = x.table_at(table["version"] + 1)
        assert after["moves"] == [*table["moves"], move]
        # O's process polls the database while Redis is away: O sees X's move all the same.
        assert o.table_at(after["version"], seconds=10)["moves"] == after["moves"]
        reply = rng.choice(o.tables[-1]["legal_moves"])
        o.send({"type": "move", "move": reply, "version": after["version"]})
        after = x.table_at(after["version"] + 1)
        assert after["moves"][-1] == reply
        private_redis.start()
        # Back: every process resubscribes and resyncs; play goes on through Redis again.
        assert wait_for_readiness(a.base, 200) == 200
        final = play_moves({"x": x, "o": o}, after, rng)
        assert final["result"] is not None
        assert stored_record(postgres, database, table_id) == final["moves"]
    finally:
        x.close()
        o.close()


def test_postgresql_restart_mid_game_answers_503_writes_nothing_then_recovers(
    start_server: StartServer, private_postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    database = private_postgres.new_database()
    a, b = (start_server(database, redis_server.url) for _ in range(2))
    table_id, tokens, x, o = seat_players(a, b)
    rng = random.Random(13)
    try:
        table = play_moves({"x": x, "o": o}, x.table_at(1), rng, count=6)
        private_postgres.stop()
        move = rng.choice(table["legal_moves"])
        x.send({"type": "move", "move": move, "version": table["version"]})
        refusal = x.expect(lambda m: m.get("type") == "error")
        assert refusal["status"] == 503
        read = httpx.get(f"{b.base}/api/tables/{table_id}", timeout=10)
        assert read.status_code == 503
        assert "database" in read.json()["message"]
        assert read.headers["retry-after"]
        assert readiness(b.base) == 503
        private_postgres.start()
        # The refused move was not half-written: the game is stored as before; send it again.
        assert stored_record(private_postgres, database, table_id) == table["moves"]
        x.send({"type": "move", "move": move, "version": table["version"]})
        after = x.table_at(table["version"] + 1)
        assert o.table_at(after["version"])["moves"] == [*table["moves"], move]
        assert readiness(b.base) == 200
        final = play_moves({"x": x, "o": o}, after, rng)
        assert final["result"] is not None
        assert stored_record(private_postgres, database, table_id) == final["moves"]
    finally:
        x.close()
        o.close()
