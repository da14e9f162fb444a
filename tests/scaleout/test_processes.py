"""Several `tictactoe serve` processes sharing PostgreSQL and Redis serve the same tables: a move
made through one reaches players and spectators on the others, in order, and the database alone
decides which of concurrent moves lands."""

from __future__ import annotations

import asyncio
import itertools
import random
import time

import httpx
from tests.scaleout.clients import Socket, create_table, play_moves, socket_url
from tests.scaleout.services import PostgresCluster, RedisServer, ServerProcess, StartServer


def players_on_two_of_three_processes(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> tuple[str, ServerProcess, str, Socket, Socket]:
    """Three processes on a new database; a table whose x plays through the first and o through
    the second: the database, the third process, the table, x's socket and o's."""
    database = postgres.new_database()
    a, b, c = (start_server(database, redis_server.url) for _ in range(3))
    table_id, tokens = create_table(a.base)
    x = Socket(socket_url(a.ws_base, table_id, tokens["x"]))
    o = Socket(socket_url(b.ws_base, table_id, tokens["o"]))
    return database, c, table_id, x, o


def test_players_on_two_processes_finish_a_game_and_a_spectator_on_a_third_sees_every_move(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    database, c, table_id, x, o = players_on_two_of_three_processes(
        start_server, postgres, redis_server
    )
    spectator = Socket(socket_url(c.ws_base, table_id))
    try:
        start = x.table_at(1)
        assert spectator.table_at(1)["moves"] == []  # watching from before the first move
        final = play_moves({"x": x, "o": o}, start, random.Random(6))
        assert final["result"] in ("x", "o", "draw")
        spectator.table_at(final["version"])
        # Each state the spectator saw extends the one before by exactly one move.
        seen = [t["moves"] for t in spectator.tables]
        distinct = [moves for i, moves in enumerate(seen) if i == 0 or moves != seen[i - 1]]
        assert distinct == [final["moves"][:n] for n in range(len(final["moves"]) + 1)]
        assert all(t["seats"]["x"]["taken"] and t["seats"]["o"]["taken"] for t in spectator.tables)
        # What the players were shown is what was committed, in the same order.
        stored = postgres.sql(
            f"SELECT string_agg(move, ' ' ORDER BY ply) FROM moves WHERE table_id = '{table_id}'",
            database.rsplit("/", 1)[1],
        ).strip()
        assert stored == " ".join(final["moves"])
        assert httpx.get(f"{c.base}/api/tables/{table_id}").json()["version"] == final["version"]
    finally:
        for socket in (x, o, spectator):
            socket.close()


def test_spectators_joining_on_a_third_process_mid_game_see_every_move_from_their_first_frame(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    _, c, table_id, x, o = players_on_two_of_three_processes(start_server, postgres, redis_server)
    rng = random.Random(7)
    try:
        table = x.table_at(1)
        while table["result"] is None:
            # Each spectator is alone on its process: it subscribes to the table while the next
            # moves are made, and must still see each of them, one after another.
            spectator = Socket(socket_url(c.ws_base, table_id))
            try:
                table = play_moves({"x": x, "o": o}, table, rng, count=2)
                spectator.table_at(table["version"])
                seen = [t["moves"] for t in spectator.tables]
                assert seen[0] == table["moves"][: len(seen[0])]
                for before, after in itertools.pairwise(seen):
                    one_more = len(after) == len(before) + 1 and after[:-1] == before
                    assert after == before or one_more, [
                        (t["version"], len(t["moves"])) for t in spectator.tables
                    ]
                assert seen[-1] == table["moves"]
            finally:
                spectator.close()
    finally:
        for socket in (x, o):
            socket.close()


def test_a_hundred_duplicate_moves_across_two_processes_land_exactly_once(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    database = postgres.new_database()
    a, b = (start_server(database, redis_server.url) for _ in range(2))
    table_id, tokens = create_table(a.base, first="me")
    version = httpx.get(f"{b.base}/api/tables/{table_id}").json()["version"]

    async def send_all() -> list[httpx.Response]:
        limits = httpx.Limits(max_connections=100)
        async with httpx.AsyncClient(limits=limits, timeout=30) as client:
            requests = [
                client.post(
                    f"{(a, b)[n % 2].base}/api/tables/{table_id}/moves",
                    json={"move": "e5", "version": version},
                    headers={"Authorization": f"Bearer {tokens['x']}"},
                )
                for n in range(100)
            ]
            return await asyncio.gather(*requests)

    responses = asyncio.run(send_all())
    statuses = sorted(r.status_code for r in responses)
    assert statuses == [200] + [409] * 99
    for response in responses:
        if response.status_code == 409:
            # The loser is told the table as it is now: the winner's move in it.
            assert response.json()["table"]["moves"] == ["e5"]
    count = postgres.sql(
        f"SELECT count(*) FROM moves WHERE table_id = '{table_id}'", database.rsplit("/", 1)[1]
    )
    assert count.strip() == "1"
    for server in (a, b):
        table = httpx.get(f"{server.base}/api/tables/{table_id}").json()
        assert (table["moves"], table["version"]) == (["e5"], version + 1)


def test_rivals_on_two_processes_never_both_move(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    """The player to move sends two different moves at once, one through each process, turn
    after turn: exactly one lands each time, and the record never holds two moves for a turn."""
    database = postgres.new_database()
    a, b = (start_server(database, redis_server.url) for _ in range(2))
    table_id, tokens = create_table(a.base, variant="standard", size=5, line=4)

    async def race() -> None:
        async with httpx.AsyncClient(timeout=30) as client:
            for _ in range(6):
                table = (await client.get(f"{a.base}/api/tables/{table_id}")).json()
                if table["result"] is not None:
                    break
                token = tokens[table["turn"]]
                moves = random.Random(table["version"]).sample(table["legal_moves"], 2)
                results = await asyncio.gather(
                    *(
                        client.post(
                            f"{server.base}/api/tables/{table_id}/moves",
                            json={"move": move, "version": table["version"]},
                            headers={"Authorization": f"Bearer {token}"},
                        )
                        for server, move in zip((a, b), moves, strict=True)
                    )
                )
                assert sorted(r.status_code for r in results) == [200, 409]

    asyncio.run(race())
    final = httpx.get(f"{b.base}/api/tables/{table_id}").json()
    assert len(final["moves"]) == 6  # 4 in a row takes 7 moves at least: no game ended
    assert final["version"] == 2 + 6  # created, joined, then one version per move


def test_presence_is_the_same_from_every_process_and_a_connected_player_cannot_be_claimed_against(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    database = postgres.new_database()
    fast_claim = {"TICTACTOE_CLAIM_AFTER_SECONDS": "1"}
    a, b = (start_server(database, redis_server.url, **fast_claim) for _ in range(2))
    table_id, tokens = create_table(a.base, first="me")
    x = Socket(socket_url(a.ws_base, table_id, tokens["x"]))
    o = Socket(socket_url(b.ws_base, table_id, tokens["o"]))
    try:
        table = play_moves({"x": x, "o": o}, x.table_at(1), random.Random(3), count=1)
        for server in (a, b):
            seats = httpx.get(f"{server.base}/api/tables/{table_id}").json()["seats"]
            assert seats["x"]["connected"] and seats["o"]["connected"], server.base
        time.sleep(1.5)  # longer than the claim wait: O thinks, connected through the other process
        claim = httpx.post(
            f"{a.base}/api/tables/{table_id}/claim",
            headers={"Authorization": f"Bearer {tokens['x']}"},
        )
        assert claim.status_code == 403
        o.close()
        gone = x.expect(
            lambda m: m.get("type") == "table" and not m["table"]["seats"]["o"]["connected"]
        )
        assert gone["table"]["version"] == table["version"]
        x.expect(lambda m: m.get("type") == "table" and m.get("can_claim_win"))
        claim = httpx.post(
            f"{a.base}/api/tables/{table_id}/claim",
            headers={"Authorization": f"Bearer {tokens['x']}"},
        )
        assert claim.status_code == 200
        assert (claim.json()["result"], claim.json()["ended_by"]) == ("x", "abandon")
    finally:
        x.close()
        o.close()


def test_a_socket_opened_before_the_seat_was_taken_elsewhere_can_authenticate_with_it(
    start_server: StartServer, postgres: PostgresCluster, redis_server: RedisServer
) -> None:
    database = postgres.new_database()
    a, b = (start_server(database, redis_server.url) for _ in range(2))
    created = httpx.post(f"{a.base}/api/tables", json={"variant": "ultimate"}).json()
    watcher = Socket(socket_url(a.ws_base, created["id"]))
    try:
        watcher.table_at(1)
        joined = httpx.post(f"{b.base}/api/tables/{created['id']}/seats").json()
        watcher.send({"type": "auth", "token": joined["token"]})
        table = watcher.expect(
            lambda m: m.get("type") == "table" and m["table"]["seats"][joined["seat"]]["connected"]
        )["table"]
        assert table["seats"]["x"]["taken"] and table["seats"]["o"]["taken"]
        assert watcher.errors == []
    finally:
        watcher.close()
