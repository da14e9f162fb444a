"""People at a table (the people API, documented at /docs): names, watchers, one device, codes
and QR, draws by agreement, open tables and "play someone now" — over the API and the WebSocket,
with every error changing nothing."""

from __future__ import annotations

import asyncio
import re
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.server.conftest import Players, bearer, browser
from tests.server.test_websocket import error, socket_url, table_frame

from tictactoe.server.app import create_app
from tictactoe.server.settings import Settings
from tictactoe.server.table.codes import ALPHABET

MARKUP_NAMES = [
    "<script>alert(1)</script>",
    "<img src=x onerror=alert(1)>",
    '"><svg onload=alert(1)>',
    "{{7*7}}",
    "a&amp;b",
    "javascript:alert(1)",
    "x\u202eevil",  # a right-to-left override
    "\u0000null",
]


def name(players: Players, mark: str, text: str) -> Any:
    return players.client.put(
        f"/api/tables/{players.id}/name", json={"name": text}, headers=bearer(players.tokens[mark])
    )


# -- names ------------------------------------------------------------------------------------


def test_a_player_names_their_seat_and_everyone_sees_it(players: Players) -> None:
    answer = name(players, "x", "  Ana  María ")
    assert answer.status_code == 200, answer.text
    assert answer.json()["seats"]["x"]["name"] == "Ana María"
    with browser(players.client):  # a spectator, with a cookie of their own
        assert players.table()["seats"]["x"]["name"] == "Ana María"
    assert "name" not in players.table()["seats"]["o"]


@pytest.mark.parametrize("text", ["Νίκος", "Äijä-Öljy", "李小龍", "O'Brien_2.0", "अनु"])
def test_names_in_any_script_are_kept(players: Players, text: str) -> None:
    assert name(players, "o", text).json()["seats"]["o"]["name"] == text


@pytest.mark.parametrize("text", [*MARKUP_NAMES, "", "   ", "x" * 21, "a\tb", "😀", "---"])
def test_a_bad_name_is_422_bad_name_and_changes_nothing(players: Players, text: str) -> None:
    before = players.table()
    answer = name(players, "x", text)
    assert answer.status_code == 422
    assert answer.json()["reason"] == "bad-name"
    assert players.table()["version"] == before["version"]


def test_naming_needs_a_seat_token(players: Players) -> None:
    answer = players.client.put(f"/api/tables/{players.id}/name", json={"name": "Eve"})
    assert answer.status_code == 401


def test_a_name_goes_with_its_person_into_the_rematch(players: Players) -> None:
    name(players, "x", "Ana")
    players.play("e5")
    players.post("x", "resign")
    players.post("x", "rematch")
    table = players.post("o", "rematch").json()
    assert table["game"] == 2
    assert table["seats"]["o"]["name"] == "Ana"  # Ana was X, now plays O


def test_the_name_message_on_the_websocket(players: Players) -> None:
    with players.client.websocket_connect(socket_url(players, "o")) as ws:
        ws.send_json({"type": "name", "name": "Bo"})
        assert table_frame(ws, lambda t: "name" in t["seats"]["o"])["seats"]["o"]["name"] == "Bo"
        ws.send_json({"type": "name", "name": "<b>"})
        assert error(ws)["reason"] == "bad-name"
        ws.send_json({"type": "name"})
        assert error(ws)["status"] == 400


# -- watchers ---------------------------------------------------------------------------------


def test_watchers_count_the_spectators_sockets(players: Players) -> None:
    with players.client.websocket_connect(socket_url(players, "x")) as x:
        assert table_frame(x)["watchers"] == 0
        with browser(players.client), players.client.websocket_connect(socket_url(players)):
            assert table_frame(x, lambda t: t["watchers"] == 1)["watchers"] == 1
        assert table_frame(x, lambda t: t["watchers"] == 0)["watchers"] == 0


# -- one device -------------------------------------------------------------------------------


def test_one_device_holds_both_seats_and_plays_whoever_is_to_move(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "standard", "opponent": "here"})
    assert created.status_code == 201, created.text
    body = created.json()
    assert set(body["tokens"]) == {"x", "o"} and body["tokens"][body["seat"]] == body["token"]
    table_id = body["id"]
    table = client.get(f"/api/tables/{table_id}").json()
    assert table["opponent"] == "here"
    assert all(table["seats"][mark]["taken"] for mark in "xo")
    # The page plays both sides over one socket, known by the browser's cookie.
    with client.websocket_connect(f"/api/tables/{table_id}/ws") as ws:
        for move in "a1 b1 a2 b2 a3".split():
            ws.send_json({"type": "move", "move": move})
            table_frame(ws, lambda t, m=move: t["last_move"] == m)
        ws.send_json({"type": "name", "name": "Mia", "side": "o"})
        named = table_frame(ws, lambda t: "name" in t["seats"]["o"])
        assert named["result"] == "x" and named["seats"]["o"]["name"] == "Mia"
        ws.send_json({"type": "rematch"})  # both people are here: one press starts the next game
        # The score goes with the person: X won, and now plays O.
        assert table_frame(ws, lambda t: t["game"] == 2)["score"] == {"x": 0, "o": 1, "draws": 0}


def test_one_device_takes_back_at_once_and_agrees_a_draw_at_once(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"variant": "standard", "opponent": "here", "takebacks": True}
    ).json()
    url = f"/api/tables/{created['id']}/ws"
    with client.websocket_connect(url) as ws:
        ws.send_json({"type": "move", "move": "b2"})
        table_frame(ws, lambda t: t["record"] == "b2")
        ws.send_json({"type": "takeback"})
        assert table_frame(ws, lambda t: t["record"] == "")["turn"] == "x"
        ws.send_json({"type": "move", "move": "a1"})
        table_frame(ws, lambda t: t["record"] == "a1")
        ws.send_json({"type": "draw"})
        drawn = table_frame(ws, lambda t: t["result"] is not None)
        assert (drawn["result"], drawn["ended_by"], drawn["score"]["draws"]) == (
            "draw",
            "agreement",
            1,
        )


def test_a_browser_at_a_friends_table_still_cannot_take_its_other_seat(
    client: TestClient,
) -> None:
    created = client.post("/api/tables", json={"variant": "standard"}).json()
    assert client.post(f"/api/tables/{created['id']}/seats").status_code == 409


# -- codes and QR -----------------------------------------------------------------------------


def test_every_table_has_a_code_that_opens_it_in_any_case(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "standard"}).json()
    code = client.get(f"/api/tables/{created['id']}").json()["code"]
    assert re.fullmatch(f"[{ALPHABET}]{{6}}", code)
    for typed in (code, code.lower(), f" {code[:3]}-{code[3:]} "):
        answer = client.get(f"/j/{typed}", follow_redirects=False)
        assert answer.status_code == 303
        assert answer.headers["location"] == f"/t/{created['id']}"
    answer = client.get("/j", params={"code": code.lower()}, follow_redirects=False)
    assert answer.headers["location"] == f"/t/{created['id']}"


@pytest.mark.parametrize("private", [False, True])
def test_a_code_leads_to_a_seat_only_while_its_table_waits_for_a_player(
    client: TestClient, private: bool
) -> None:
    created = client.post("/api/tables", json={"variant": "standard", "private": private}).json()
    code = client.get(f"/api/tables/{created['id']}").json()["code"]
    with browser(client):
        assert client.post(f"/api/tables/{created['id']}/seats").status_code == 200
    with browser(client):
        answer = client.get(f"/j/{code}", follow_redirects=False)
    if private:
        assert answer.status_code == 404  # a private table's code leads nowhere once it is full
    else:
        assert answer.status_code == 303  # to where its games are watched, never to a seat
        assert answer.headers["location"] == f"/t/{created['id']}/games"


def test_code_lookups_are_rate_limited_per_address(tmp_path: Any) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/codes.db", rate_limit_exempt=(), code_rate=(0.01, 5)
    )
    with TestClient(create_app(settings)) as guesser:
        answers = [guesser.get("/j/ZZZZZZ").status_code for _ in range(8)]
    assert answers[:5] == [404] * 5 and set(answers[5:]) == {429}


@pytest.mark.parametrize("typed", ["ZZZZZZ", "K7M2P0", "<script>", "x" * 500, ""])
def test_an_unknown_code_is_a_404_page(client: TestClient, typed: str) -> None:
    answer = client.get("/j", params={"code": typed})
    assert answer.status_code == 404
    assert "<script>" not in answer.text


def test_codes_differ_between_tables(client: TestClient) -> None:
    codes = {
        client.post("/api/tables", json={"variant": "standard"}).json()["id"] for _ in range(20)
    }
    tables = [client.get(f"/api/tables/{table_id}").json()["code"] for table_id in codes]
    assert len(set(tables)) == 20


def test_the_qr_code_is_svg_made_here(players: Players) -> None:
    answer = players.client.get(f"/t/{players.id}/qr.svg")
    assert answer.status_code == 200
    assert answer.headers["content-type"].startswith("image/svg+xml")
    assert answer.text.startswith("<svg") and "<script" not in answer.text
    assert "http" not in answer.text.replace("http://www.w3.org/2000/svg", "")
    assert players.client.get("/t/NoSuchTableAtAll_12345/qr.svg").status_code == 404


# -- draws by agreement -----------------------------------------------------------------------


def test_a_draw_offered_and_accepted_ends_the_game_drawn(players: Players) -> None:
    offered = players.post("x", "draw")
    assert offered.status_code == 200 and offered.json()["draw_offer"] == "x"
    again = players.post("x", "draw")
    assert (again.status_code, again.json()["reason"]) == (409, "draw-pending")
    accepted = players.post("o", "draw").json()
    assert (accepted["result"], accepted["ended_by"]) == ("draw", "agreement")
    assert accepted["score"] == {"x": 0, "o": 0, "draws": 1}
    assert accepted["draw_offer"] is None
    assert players.post("o", "draw").status_code == 409  # the game is over


def test_the_next_move_declines_a_draw_offer(players: Players) -> None:
    players.post("o", "draw")
    table = players.move("x", "e5").json()
    assert table["draw_offer"] is None and table["result"] is None
    # An offer can be made again, and declined by the offerer's own move too.
    assert players.post("o", "draw").json()["draw_offer"] == "o"
    assert players.move("o", table["legal_moves"][0]).json()["draw_offer"] is None


def test_a_draw_needs_a_seat_and_an_opponent(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "standard"}).json()
    alone = client.post(f"/api/tables/{created['id']}/draw", headers=bearer(created["token"]))
    assert alone.status_code == 409
    stranger = client.post(f"/api/tables/{created['id']}/draw")
    assert stranger.status_code == 401


def test_the_draw_message_on_the_websocket(players: Players) -> None:
    with players.client.websocket_connect(socket_url(players, "x")) as ws:
        ws.send_json({"type": "draw"})
        assert table_frame(ws, lambda t: t["draw_offer"] == "x")["draw_offer"] == "x"


def _computer_table(client: TestClient, position: str | None = None) -> tuple[str, str]:
    body = {"variant": "standard", "opponent": "computer", "level": "max", "first": "me"}
    created = client.post("/api/tables", json={**body, "position": position}).json()
    return created["id"], created["token"]


def test_the_computer_accepts_only_a_proven_draw(client: TestClient) -> None:
    table_id, token = _computer_table(client)
    # At the start of 3×3 best play draws: the search proves it, so the computer agrees.
    answer = client.post(f"/api/tables/{table_id}/draw", headers=bearer(token))
    assert answer.status_code == 200
    table = _wait(client, table_id, lambda t: t["draw_offer"] is None)
    assert (table["result"], table["ended_by"]) == ("draw", "agreement")


def test_the_computer_declines_a_draw_it_is_winning(client: TestClient) -> None:
    # X to move, and O threatens both a3 and c1: O wins by force, so the computer says no.
    table_id, token = _computer_table(client, ".x./oxx/oo. x")
    answer = client.post(f"/api/tables/{table_id}/draw", headers=bearer(token))
    assert answer.status_code == 200 and answer.json()["draw_offer"] == "x"
    table = _wait(client, table_id, lambda t: t["draw_offer"] is None)
    assert table["result"] is None and table["version"] == answer.json()["version"] + 1


def _wait(client: TestClient, table_id: str, done: Any, seconds: float = 20) -> dict[str, Any]:
    async def poll() -> dict[str, Any]:
        for _ in range(int(seconds * 20)):
            table: dict[str, Any] = client.get(f"/api/tables/{table_id}").json()
            if done(table):
                return table
            await asyncio.sleep(0.05)
        raise AssertionError(f"the table never got there: {table}")

    return asyncio.run(poll())


# -- open tables and play someone now ---------------------------------------------------------


def _open(client: TestClient) -> list[dict[str, Any]]:
    answer = client.get("/api/tables", params={"open": "true"})
    assert answer.status_code == 200
    listed: list[dict[str, Any]] = answer.json()
    return listed


def test_a_public_table_is_listed_while_its_creator_waits(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "ultimate", "public": True}).json()
    private = client.post("/api/tables", json={"variant": "ultimate"}).json()
    # Listed only while its creator is there (a socket open), so nobody is paired with a ghost.
    assert created["id"] not in [t["id"] for t in _open(client)]
    with client.websocket_connect(f"/api/tables/{created['id']}/ws?token={created['token']}"):
        listed = _open(client)
        assert [t["id"] for t in listed] == [created["id"]]
        entry = listed[0]
        assert entry["url"].endswith(f"/t/{created['id']}") and entry["variant"] == "ultimate"
        assert entry["waiting_since"] > 0
        with browser(client):
            assert client.post(f"/api/tables/{created['id']}/seats").status_code == 200
        assert _open(client) == []  # full: gone from the list
    assert private["id"] not in [t["id"] for t in _open(client)]


def test_the_list_shows_one_table_per_creator(client: TestClient) -> None:
    made = [
        client.post("/api/tables", json={"variant": "standard", "public": True}).json()
        for _ in range(3)
    ]
    sockets = [
        client.websocket_connect(f"/api/tables/{t['id']}/ws?token={t['token']}") for t in made
    ]
    for socket in sockets:
        socket.__enter__()
    try:
        assert [t["id"] for t in _open(client)] == [made[-1]["id"]]
    finally:
        for socket in sockets:
            socket.__exit__(None, None, None)


def test_listing_needs_open_true(client: TestClient) -> None:
    assert client.get("/api/tables").status_code == 422


def test_public_goes_only_with_a_friends_seat(client: TestClient) -> None:
    for body in (
        {"variant": "standard", "public": True, "opponent": "computer"},
        {"variant": "standard", "public": True, "private": True},
    ):
        assert client.post("/api/tables", json=body).status_code == 422


def test_play_someone_now_pairs_two_strangers(client: TestClient) -> None:
    settings = {"variant": "standard", "size": 4, "line": 3}
    with browser(client):
        first = client.post("/api/quick", json=settings)
        assert first.status_code == 201, first.text
        waiting = first.json()
        socket = client.websocket_connect(
            f"/api/tables/{waiting['id']}/ws?token={waiting['token']}"
        )
        socket.__enter__()
    try:
        # Other settings do not match: a table of their own.
        other = client.post("/api/quick", json={"variant": "ultimate"})
        assert other.status_code == 201 and other.json()["id"] != waiting["id"]
        with browser(client):
            paired = client.post("/api/quick", json=settings)
            assert paired.status_code == 200, paired.text
            assert paired.json()["id"] == waiting["id"]
            assert paired.json()["seat"] != waiting["seat"]
        table = client.get(f"/api/tables/{waiting['id']}").json()
        assert all(table["seats"][mark]["taken"] for mark in "xo")
    finally:
        socket.__exit__(None, None, None)


def test_play_someone_now_never_pairs_you_with_yourself(client: TestClient) -> None:
    first = client.post("/api/quick", json={"variant": "standard"}).json()
    with client.websocket_connect(f"/api/tables/{first['id']}/ws?token={first['token']}"):
        again = client.post("/api/quick", json={"variant": "standard"})
        assert again.status_code == 201 and again.json()["id"] != first["id"]


@pytest.mark.parametrize(
    "body", [{"variant": "standard", "opponent": "computer"}, {"variant": "chess"}, {}]
)
def test_play_someone_now_refuses_what_cannot_pair(client: TestClient, body: Any) -> None:
    assert client.post("/api/quick", json=body).status_code == 422


def test_the_list_shows_one_table_per_address_and_ghosts_never_push_a_real_one_out(
    tmp_path: Any,
) -> None:
    settings = Settings(
        database_url=f"sqlite:///{tmp_path}/lobby.db", rate_limit_exempt=(), create_rate=(50, 500)
    )
    with TestClient(create_app(settings)) as client:
        waiting = client.post("/api/tables", json={"variant": "ultimate", "public": True}).json()
        url = f"/api/tables/{waiting['id']}/ws?token={waiting['token']}"
        with client.websocket_connect(url):
            # The same address, other browsers: tables with a socket each, and many without.
            sockets = []
            for _ in range(3):
                with browser(client):
                    made = client.post("/api/tables", json={"variant": "standard", "public": True})
                    made_table = made.json()
                    sockets.append(
                        client.websocket_connect(
                            f"/api/tables/{made_table['id']}/ws?token={made_table['token']}"
                        )
                    )
                    sockets[-1].__enter__()
            for _ in range(210):
                with browser(client):
                    client.post("/api/tables", json={"variant": "standard", "public": True})
            try:
                listed = [t["id"] for t in _open(client)]
                # One address (every browser here is the test client's): one listed table, the
                # newest with its creator here; the ghosts never push it out.
                assert listed == [made_table["id"]]
            finally:
                for socket in sockets:
                    socket.__exit__(None, None, None)
            assert [t["id"] for t in _open(client)] == [waiting["id"]]
