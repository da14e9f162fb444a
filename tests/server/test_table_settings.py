"""Table settings beyond the game: teams, takebacks, the clock, private tables, quick reactions;
each one working, and each one's errors (over the API and the WebSocket)."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi import FastAPI
from starlette.testclient import TestClient
from tests.server.conftest import TestClock, bearer, browser
from tests.server.following import error, receive_until, socket_url, table_frame

Frame = dict[str, Any]


def join(client: TestClient, table_id: str, **body: Any) -> dict[str, Any]:
    """Joins as a new browser; returns the seat, token and that browser's cookie."""
    with browser(client):
        answer = client.post(f"/api/tables/{table_id}/seats", json=body or None)
        assert answer.status_code == 200, answer.text
        return {**answer.json(), "cookie": client.cookies.get("ttt_client")}


# -- teams ----------------------------------------------------------------------------------------


def team_table(client: TestClient) -> tuple[str, dict[str, list[str]]]:
    created = client.post("/api/tables", json={"variant": "standard", "teams": True}).json()
    tokens: dict[str, list[str]] = {"x": [], "o": []}
    tokens[created["seat"]].append(created["token"])
    for _ in range(3):
        seat = join(client, created["id"])
        tokens[seat["seat"]].append(seat["token"])
    return created["id"], tokens


def test_newcomers_join_the_side_with_fewer_members(client: TestClient) -> None:
    table_id, tokens = team_table(client)
    assert [len(tokens["x"]), len(tokens["o"])] == [2, 2]
    seats = client.get(f"/api/tables/{table_id}").json()["seats"]
    assert len(seats["x"]["members"]) == 2 and len(seats["o"]["members"]) == 2


def test_a_newcomer_may_choose_a_side(client: TestClient) -> None:
    table_id, _ = team_table(client)
    assert join(client, table_id, side="o")["seat"] == "o"
    assert len(client.get(f"/api/tables/{table_id}").json()["seats"]["o"]["members"]) == 3


def test_any_member_of_the_side_to_move_may_move(client: TestClient) -> None:
    table_id, tokens = team_table(client)
    moves = [("x", 1, "b2"), ("o", 0, "a1"), ("x", 0, "c3"), ("o", 1, "a3")]
    for side, member, move in moves:
        answer = client.post(
            f"/api/tables/{table_id}/moves",
            json={"move": move},
            headers=bearer(tokens[side][member]),
        )
        assert answer.status_code == 200, answer.text
    assert answer.json()["record"] == "b2 a1 c3 a3"


def test_acting_for_the_other_team_is_forbidden(client: TestClient) -> None:
    table_id, tokens = team_table(client)
    answer = client.post(
        f"/api/tables/{table_id}/moves", json={"move": "b2"}, headers=bearer(tokens["o"][1])
    )
    assert answer.status_code == 403
    assert client.get(f"/api/tables/{table_id}").json()["record"] == ""


def test_a_team_stays_connected_while_one_member_remains(client: TestClient) -> None:
    table_id, tokens = team_table(client)
    url = f"/api/tables/{table_id}/ws?token="
    with client.websocket_connect(url + tokens["x"][0]) as first:
        table_frame(first)
        with client.websocket_connect(url + tokens["x"][1]) as second:
            table_frame(second)
        table = table_frame(first, lambda t: t["seats"]["x"]["members"][1]["connected"] is False)
        assert table["seats"]["x"]["connected"] is True
        assert table["seats"]["x"]["members"][0]["connected"] is True
        assert "disconnected_since" not in table["seats"]["x"]


def test_teams_are_refused_against_the_computer(client: TestClient) -> None:
    body = {"variant": "standard", "teams": True, "opponent": "computer"}
    assert client.post("/api/tables", json=body).status_code == 422


def test_without_teams_a_third_person_cannot_join(players: Any) -> None:
    with browser(players.client):
        assert players.client.post(f"/api/tables/{players.id}/seats").status_code == 409


# -- takebacks ------------------------------------------------------------------------------------


def test_a_takeback_request_is_refused_when_not_allowed(players: Any) -> None:
    players.play("e5")
    answer = players.post("x", "takeback")
    assert answer.status_code == 403
    assert answer.json()["reason"] == "takebacks-off"
    assert players.table()["takeback_asked_by"] is None


def test_an_accepted_takeback_restores_the_previous_position(new_players: Any) -> None:
    players = new_players(first="me", takebacks=True)
    before = players.play("e5")
    after = players.play("e4")
    asked = players.post("o", "takeback")
    assert asked.status_code == 200 and asked.json()["takeback_asked_by"] == "o"
    accepted = players.post("x", "takeback/accept")
    assert accepted.status_code == 200, accepted.text
    table = accepted.json()
    assert table["position"] == before["position"] and table["turn"] == "o"
    assert table["version"] == after["version"] + 2  # the request and the takeback
    assert table["takeback_asked_by"] is None
    assert players.play("d5")["record"] == "e5 d5"  # the same ply is played again


def test_a_takeback_after_the_reply_undoes_both_moves(new_players: Any) -> None:
    players = new_players(first="me", takebacks=True)
    players.play("e5 e4")
    players.post("x", "takeback")
    table = players.post("o", "takeback/accept").json()
    assert table["record"] == "" and table["turn"] == "x"


def test_a_declined_takeback_changes_nothing_but_the_request(new_players: Any) -> None:
    players = new_players(first="me", takebacks=True)
    players.play("e5")
    players.post("x", "takeback")
    declined = players.post("o", "takeback/decline")
    assert declined.status_code == 200
    assert declined.json()["record"] == "e5" and declined.json()["takeback_asked_by"] is None


def test_takeback_errors(new_players: Any) -> None:
    players = new_players(first="me", takebacks=True)
    assert players.post("x", "takeback").status_code == 409  # nothing to take back yet
    players.play("e5")
    assert players.post("x", "takeback/accept").status_code == 409  # nobody asked
    players.post("x", "takeback")
    assert players.post("x", "takeback").status_code == 409  # asked already
    assert players.post("x", "takeback/accept").status_code == 409  # not your own request


def test_the_computer_always_agrees_to_a_takeback(client: TestClient) -> None:
    body = {"variant": "standard", "opponent": "computer", "takebacks": True, "level": "easy"}
    created = client.post("/api/tables", json=body).json()
    url = f"/api/tables/{created['id']}"
    headers = bearer(created["token"])
    client.post(f"{url}/moves", json={"move": "b2"}, headers=headers)
    deadline = time.monotonic() + 20
    while len(client.get(url).json()["moves"]) < 2 and time.monotonic() < deadline:
        time.sleep(0.05)
    answer = client.post(f"{url}/takeback", headers=headers)
    assert answer.status_code == 200, answer.text
    assert answer.json()["record"] == ""
    assert answer.json()["turn"] == "x"


def test_a_takeback_over_the_websocket(new_players: Any) -> None:
    players = new_players(first="me", takebacks=True)
    client = players.client
    with (
        client.websocket_connect(socket_url(players, "x")) as x,
        client.websocket_connect(socket_url(players, "o")) as o,
    ):
        x.send_json({"type": "move", "move": "e5"})
        table_frame(o, lambda t: t["record"] == "e5")
        x.send_json({"type": "takeback"})
        table_frame(o, lambda t: t["takeback_asked_by"] == "x")
        o.send_json({"type": "accept-takeback"})
        assert table_frame(x, lambda t: t["record"] == "")["turn"] == "x"


# -- the clock ------------------------------------------------------------------------------------


# Each clock test runs on the tables' test clock (`clock`), which moves only when the test says.


@pytest.fixture
def app(clocked_app: FastAPI) -> FastAPI:
    return clocked_app


def test_each_sides_first_move_is_free_and_then_the_clock_runs_with_the_increment(
    new_players: Any, clock: TestClock
) -> None:
    players = new_players(first="me", clock_minutes=1, clock_increment=2)
    start = players.table()["clock"]
    assert start["running"] is None and start["seconds"] == 60 and start["increment"] == 2
    clock.advance(5)  # X thinks over the first move: not charged, no increment
    first = players.play("e5")["clock"]
    assert first["running"] is None and first["x"] == 60 and first["o"] == 60
    clock.advance(7)  # O's first move: free too; now X's clock runs
    second = players.play("e4")["clock"]
    assert second["running"] == "x" and second["x"] == 60 and second["o"] == 60
    clock.advance(0.3)
    third = players.play("e2")["clock"]
    assert third["x"] == pytest.approx(61.7)  # 60 − 0.3 s thought + 2 s
    assert third["running"] == "o" and third["o"] == 60


def test_the_clock_waits_for_both_seats_and_both_first_moves(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "standard", "clock_minutes": 1}).json()
    url = f"/api/tables/{created['id']}"
    assert client.get(url).json()["clock"]["running"] is None
    join(client, created["id"])
    assert client.get(url).json()["clock"]["running"] is None


def test_no_move_before_the_other_seat_is_taken(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "standard", "first": "me"}).json()
    answer = client.post(
        f"/api/tables/{created['id']}/moves", json={"move": "b2"}, headers=bearer(created["token"])
    )
    assert answer.status_code == 409 and answer.json()["reason"] == "no-opponent"
    before = client.get(f"/api/tables/{created['id']}").json()
    assert before["record"] == ""
    join(client, created["id"])
    after = client.post(
        f"/api/tables/{created['id']}/moves", json={"move": "b2"}, headers=bearer(created["token"])
    )
    assert after.status_code == 200 and after.json()["record"] == "b2"


def test_tables_played_alone_need_no_second_person(client: TestClient) -> None:
    for opponent in ("computer", "here"):
        body = {"variant": "standard", "first": "me", "opponent": opponent, "level": "novice"}
        created = client.post("/api/tables", json=body).json()
        answer = client.post(
            f"/api/tables/{created['id']}/moves",
            json={"move": "b2"},
            headers=bearer(created["token"]),
        )
        assert answer.status_code == 200, (opponent, answer.text)


def test_time_out_ends_the_game_and_a_later_move_is_refused(
    new_players: Any, clock: TestClock
) -> None:
    players = new_players(first="me", variant="standard", clock_minutes=1)
    players.play("b2 a1 c3")
    clock.advance(61)
    answer = players.move("o", "a2")
    assert answer.status_code == 422 and answer.json()["reason"] == "game-over"
    table = players.table()
    assert table["result"] == "x" and table["ended_by"] == "time"
    assert table["clock"]["o"] == 0 and table["clock"]["running"] is None
    assert table["score"]["x"] == 1


def test_the_server_ends_a_game_on_time_without_being_asked(
    new_players: Any, clock: TestClock
) -> None:
    # 0.6 s on the clock: the table's timer fires then (real time), and by the test's clock the
    # time has run out by then (moved on at once), whenever the timer gets to run.
    players = new_players(first="me", variant="standard", clock_minutes=0.01)
    players.play("b2 a1")
    clock.advance(1)
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        table = table_frame(o, lambda t: t["result"] is not None)
    assert table["result"] == "o" and table["ended_by"] == "time"


def test_the_clock_survives_a_reconnect(new_players: Any, clock: TestClock) -> None:
    players = new_players(first="me", clock_minutes=1)
    players.play("e5 e4 e2")
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        first = table_frame(o)["clock"]
    clock.advance(0.6)
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        again = table_frame(o)["clock"]
    assert again["running"] == "o"
    assert first["o"] - again["o"] == pytest.approx(0.6)
    assert again["x"] == first["x"]


def test_clock_settings_out_of_range_are_refused(client: TestClient) -> None:
    for body in ({"clock_minutes": 0}, {"clock_minutes": 500}, {"clock_increment": -1}):
        answer = client.post("/api/tables", json={"variant": "standard", **body})
        assert answer.status_code == 422, body


# -- private tables -------------------------------------------------------------------------------


def test_a_private_table_is_hidden_from_spectators(new_players: Any) -> None:
    players = new_players(first="me", private=True)
    client = players.client
    with browser(client):
        answer = client.get(f"/api/tables/{players.id}")
        assert answer.status_code == 409 and answer.json()["reason"] == "private"
        page = client.get(f"/t/{players.id}")
        assert page.status_code == 409
        assert "data-board" not in page.text and "private" in page.text
        with client.websocket_connect(socket_url(players)) as ws:
            refused = ws.receive_json()
        assert refused["type"] == "error" and refused["status"] == 409
        assert client.post(f"/api/tables/{players.id}/seats").status_code == 409
    seen = client.get(f"/api/tables/{players.id}", headers=bearer(players.tokens["o"]))
    assert seen.status_code == 200 and seen.json()["private"] is True


def test_a_spectator_cannot_act_on_a_private_table(new_players: Any) -> None:
    players = new_players(first="me", private=True)
    with browser(players.client):
        answer = players.client.post(f"/api/tables/{players.id}/moves", json={"move": "e5"})
    assert answer.status_code == 401
    assert players.table()["record"] == ""


def test_the_friend_can_still_join_a_private_table(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "standard", "private": True}).json()
    with browser(client):
        page = client.get(f"/t/{created['id']}")
        assert page.status_code == 200 and "data-join" in page.text
    seat = join(client, created["id"])
    assert seat["seat"] == "o"


# -- quick reactions ------------------------------------------------------------------------------


def test_a_reaction_reaches_everyone_at_the_table(players: Any) -> None:
    client = players.client
    with (
        client.websocket_connect(socket_url(players, "x")) as x,
        client.websocket_connect(socket_url(players, "o")) as o,
        browser(client),
        client.websocket_connect(socket_url(players)) as watcher,
    ):
        x.send_json({"type": "react", "reaction": "good-move"})
        for ws in (o, watcher, x):
            message = receive_until(ws, lambda m: m["type"] == "reaction")
            assert message["reaction"] == "good-move" and message["side"] == "x"


def test_reactions_are_a_fixed_set_for_players_only_and_rate_limited(players: Any) -> None:
    client = players.client
    url = f"/api/tables/{players.id}/reactions"
    assert (
        client.post(
            url, json={"reaction": "hello"}, headers=bearer(players.tokens["x"])
        ).status_code
        == 422
    )
    with browser(client):
        assert client.post(url, json={"reaction": "wow"}).status_code == 401
    statuses = [
        client.post(url, json={"reaction": "wow"}, headers=bearer(players.tokens["o"])).status_code
        for _ in range(4)
    ]
    assert statuses == [204, 204, 204, 429]
    with client.websocket_connect(socket_url(players, "x")) as x:
        table_frame(x)
        x.send_json({"type": "react", "reaction": "free text"})
        assert error(x)["status"] == 422


def test_a_rematch_on_the_clock_starts_with_full_time(new_players: Any, clock: TestClock) -> None:
    players = new_players(first="me", variant="standard", clock_minutes=0.01, clock_increment=1)
    players.play("b2 a1 c3")
    clock.advance(0.8)
    assert players.table()["ended_by"] == "time"
    players.post("x", "rematch")
    table = players.post("o", "rematch").json()
    assert table["game"] == 2 and table["result"] is None
    # Full time for both, untouched until each side has made its first move of the new game.
    assert table["clock"]["running"] is None
    assert table["clock"]["x"] == 0.6 and table["clock"]["o"] == 0.6


def test_a_takeback_charges_the_time_used_and_gives_the_clock_back_to_the_asker(
    new_players: Any, clock: TestClock
) -> None:
    players = new_players(first="me", takebacks=True, clock_minutes=1)
    players.play("e5 e4 e2")
    players.post("x", "takeback")
    clock.advance(0.3)
    table = players.post("o", "takeback/accept").json()
    assert table["clock"]["running"] == "x" and table["turn"] == "x"
    assert table["clock"]["o"] == pytest.approx(59.7)  # O's clock ran while the request was open


def test_a_takeback_to_before_the_first_moves_stops_the_clock_again(
    new_players: Any, clock: TestClock
) -> None:
    players = new_players(first="me", takebacks=True, clock_minutes=1)
    players.play("e5 e4")
    assert players.table()["clock"]["running"] == "x"
    players.post("o", "takeback")
    clock.advance(0.5)
    table = players.post("x", "takeback/accept").json()
    assert table["record"] == "e5" and table["clock"]["running"] is None
    assert table["clock"]["x"] == pytest.approx(59.5)  # X's clock ran while the request was open


# -- the home form without JavaScript -------------------------------------------------------------


def test_the_home_form_creates_a_table_with_its_settings(client: TestClient) -> None:
    form = "variant=standard&opponent=friend&teams=on&takebacks=on&private=on&clock=3%2B2"
    answer = client.post(
        "/tables",
        content=form,
        headers={"Content-Type": "application/x-www-form-urlencoded"},
        follow_redirects=False,
    )
    assert answer.status_code == 303
    table = client.get("/api" + answer.headers["location"].replace("/t/", "/tables/")).json()
    assert table["teams"] and table["takebacks"] and table["private"]
    assert table["clock"]["seconds"] == 180 and table["clock"]["increment"] == 2
