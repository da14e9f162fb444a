"""The tables' JSON API (documented at /docs): every endpoint, and every error with its status."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tictactoe.server.table.tokens import hash_secret


def bearer(token: str) -> dict[str, str]:
    return {"Authorization": f"Bearer {token}"}


# -- creating a table --------------------------------------------------------------------------


def test_create_table_answers_201_with_link_seat_and_token(client: TestClient) -> None:
    response = client.post("/api/tables", json={"variant": "ultimate", "first": "me"})
    assert response.status_code == 201
    body = response.json()
    assert set(body) == {"id", "url", "seat", "token"}
    assert body["seat"] == "x"
    assert body["url"] == f"http://testserver/t/{body['id']}"
    assert len(body["id"]) >= 22 and len(body["token"]) >= 43


def test_first_friend_gives_the_creator_o(client: TestClient) -> None:
    response = client.post("/api/tables", json={"variant": "standard", "first": "friend"})
    assert response.json()["seat"] == "o"


def test_first_random_gives_both_marks_over_many_tables(client: TestClient) -> None:
    seats = {
        client.post("/api/tables", json={"variant": "standard", "first": "random"}).json()["seat"]
        for _ in range(40)
    }
    assert seats == {"x", "o"}


def test_standard_table_takes_size_and_line(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "standard", "size": 5, "line": 3})
    table = client.get(f"/api/tables/{created.json()['id']}").json()
    assert (table["variant"], table["size"], table["line"]) == ("standard", 5, 3)
    assert table["boards"] is None and table["sends_to"] is None
    assert len(table["legal_moves"]) == 25


def test_standard_line_defaults_follow_the_contract(client: TestClient) -> None:
    for size, line in [(3, 3), (4, 4), (5, 4)]:
        created = client.post("/api/tables", json={"variant": "standard", "size": size})
        assert client.get(f"/api/tables/{created.json()['id']}").json()["line"] == line


def test_line_longer_than_the_board_is_refused_with_422(client: TestClient) -> None:
    response = client.post("/api/tables", json={"variant": "standard", "size": 3, "line": 4})
    assert response.status_code == 422
    assert "line" in response.json()["message"]


def test_line_shorter_than_three_is_refused_with_422(client: TestClient) -> None:
    response = client.post("/api/tables", json={"variant": "standard", "size": 4, "line": 2})
    assert response.status_code == 422


def test_unknown_variant_is_refused_with_a_clear_422(client: TestClient) -> None:
    response = client.post("/api/tables", json={"variant": "chess"})
    assert response.status_code == 422
    assert response.json()["message"].startswith("variant:")


def test_ultimate_with_another_size_is_refused(client: TestClient) -> None:
    response = client.post("/api/tables", json={"variant": "ultimate", "size": 4})
    assert response.status_code == 422


def test_malformed_json_body_is_refused_with_400_and_a_message(client: TestClient) -> None:
    response = client.post(
        "/api/tables", content=b'{"variant": ', headers={"Content-Type": "application/json"}
    )
    assert response.status_code == 400
    assert response.json()["message"] == "the request body is not valid JSON"


def test_first_request_sets_an_httponly_samesite_client_cookie(client: TestClient) -> None:
    response = client.post("/api/tables", json={"variant": "ultimate"})
    cookie = response.headers["set-cookie"]
    assert cookie.startswith("ttt_client=")
    assert "HttpOnly" in cookie and "SameSite=Lax" in cookie
    assert len(client.cookies["ttt_client"]) >= 22
    # Once it has one, a browser keeps it.
    assert "set-cookie" not in client.get("/api/tables/" + response.json()["id"]).headers


# -- seats -------------------------------------------------------------------------------------


def test_friend_takes_the_free_seat(client: TestClient, as_browser: Any) -> None:
    created = client.post("/api/tables", json={"variant": "ultimate", "first": "me"}).json()
    with as_browser(client):
        joined = client.post(f"/api/tables/{created['id']}/seats")
    assert joined.status_code == 200
    assert joined.json()["seat"] == "o"
    assert joined.json()["token"] != created["token"]
    seats = client.get(f"/api/tables/{created['id']}").json()["seats"]
    assert seats["x"]["taken"] and seats["o"]["taken"]


def test_third_person_joining_a_full_table_gets_409(players: Any, as_browser: Any) -> None:
    with as_browser(players.client):
        response = players.client.post(f"/api/tables/{players.id}/seats")
    assert response.status_code == 409
    assert "watch" in response.json()["message"]


def test_seated_browser_joining_again_gets_409(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "ultimate"}).json()
    response = client.post(f"/api/tables/{created['id']}/seats")
    assert response.status_code == 409
    table = client.get(f"/api/tables/{created['id']}").json()
    assert not table["seats"]["o"]["taken"]


def test_joining_an_unknown_table_gets_404(client: TestClient) -> None:
    assert client.post("/api/tables/NoSuchTableAtAll_12345/seats").status_code == 404


# -- reading -----------------------------------------------------------------------------------


def test_table_shows_state_settings_seats_and_score(players: Any) -> None:
    table = players.table()
    assert table["variant"] == "ultimate" and table["size"] == 9 and table["line"] == 3
    assert table["record"] == "" and table["moves"] == [] and table["turn"] == "x"
    assert table["result"] is None and len(table["legal_moves"]) == 81
    assert table["boards"] == [None] * 9 and table["sent_to"] is None
    assert table["score"] == {"x": 0, "o": 0, "draws": 0}
    assert table["rematch"] == {"x": False, "o": False}
    assert table["game"] == 1 and table["ended_by"] is None
    assert set(table["seats"]["x"]) >= {"taken", "connected", "computer"}


def test_unknown_table_gets_404(client: TestClient) -> None:
    response = client.get("/api/tables/NoSuchTableAtAll_12345")
    assert response.status_code == 404
    assert "no table" in response.json()["message"]


def test_garbage_table_id_gets_404(client: TestClient) -> None:
    assert client.get("/api/tables/%27%3B--").status_code == 404


# -- moves -------------------------------------------------------------------------------------


def test_move_answers_the_table_one_version_later(players: Any) -> None:
    before = players.table()
    response = players.move("x", "e5", version=before["version"])
    assert response.status_code == 200
    table = response.json()
    assert table["record"] == "e5" and table["last_move"] == "e5" and table["turn"] == "o"
    assert table["version"] == before["version"] + 1
    assert table["sent_to"] == 4
    assert table["sends_to"]["d4"] == 6  # bottom-left of its board


def test_move_without_token_gets_401(players: Any) -> None:
    response = players.client.post(f"/api/tables/{players.id}/moves", json={"move": "e5"})
    assert response.status_code == 401
    assert response.headers["www-authenticate"] == "Bearer"


def test_move_with_bad_token_gets_401(players: Any) -> None:
    response = players.client.post(
        f"/api/tables/{players.id}/moves", json={"move": "e5"}, headers=bearer("not-a-token")
    )
    assert response.status_code == 401


def test_move_with_another_tables_token_gets_403(players: Any, new_players: Any) -> None:
    other = new_players()
    response = players.client.post(
        f"/api/tables/{players.id}/moves", json={"move": "e5"}, headers=bearer(other.tokens["x"])
    )
    assert response.status_code == 403
    assert "another table" in response.json()["message"]


def test_move_out_of_turn_gets_403(players: Any) -> None:
    response = players.move("o", "e5")
    assert response.status_code == 403
    assert "turn" in response.json()["message"]


def test_move_against_a_stale_version_gets_409_with_the_table(players: Any) -> None:
    version = players.table()["version"]
    players.move("x", "e5", version=version)
    response = players.move("o", "e4", version=version)
    assert response.status_code == 409
    assert response.json()["table"]["record"] == "e5"
    assert players.table()["record"] == "e5"


def test_illegal_moves_get_422_with_the_rules_reason(players: Any) -> None:
    players.play("e5")
    cases = {"e5": "occupied", "a1": "wrong-board", "z9": "off-board", "hello": "malformed"}
    for move, reason in cases.items():
        response = players.move("o", move)
        assert response.status_code == 422, move
        assert response.json()["reason"] == reason
        assert response.json()["message"]


def test_nothing_changes_on_an_error(players: Any) -> None:
    players.play("e5")
    before = players.table()
    players.move("o", "e5")
    players.move("x", "e4")
    players.move("o", "e4", version=before["version"] - 1)
    assert players.table() == before


def test_move_body_without_move_gets_422(players: Any) -> None:
    response = players.client.post(
        f"/api/tables/{players.id}/moves", json={"mov": "e5"}, headers=bearer(players.tokens["x"])
    )
    assert response.status_code == 422
    assert "move" in response.json()["message"]


def test_move_on_unknown_table_gets_404(players: Any) -> None:
    response = players.client.post(
        "/api/tables/NoSuchTableAtAll_12345/moves",
        json={"move": "e5"},
        headers=bearer(players.tokens["x"]),
    )
    assert response.status_code == 404


def test_standard_game_won_by_a_line_scores_for_the_winner(new_players: Any) -> None:
    players = new_players(variant="standard", size=3)
    table = players.play("a1 b1 a2 b2 a3")
    assert table["result"] == "x" and table["ended_by"] == "line"
    assert table["winning_lines"] == [["a1", "a2", "a3"]]
    assert table["legal_moves"] == []
    assert table["score"] == {"x": 1, "o": 0, "draws": 0}
    assert players.move("o", "c3").json()["reason"] == "game-over"


def test_drawn_game_counts_a_draw(new_players: Any) -> None:
    players = new_players(variant="standard", size=3)
    table = players.play("a1 b2 c3 a2 c2 c1 a3 b3 b1")
    assert table["result"] == "draw" and table["ended_by"] == "draw"
    assert table["score"] == {"x": 0, "o": 0, "draws": 1}


# -- resign, rematch ---------------------------------------------------------------------------


def test_resign_ends_the_game_for_the_opponent(players: Any) -> None:
    players.play("e5")
    response = players.post("o", "resign")
    assert response.status_code == 200
    table = response.json()
    assert table["result"] == "x" and table["ended_by"] == "resign"
    assert table["legal_moves"] == [] and table["score"]["x"] == 1
    assert players.move("x", "e4").status_code == 422


def test_resign_without_token_gets_401_and_twice_gets_409(players: Any) -> None:
    assert players.client.post(f"/api/tables/{players.id}/resign").status_code == 401
    players.post("x", "resign")
    assert players.post("o", "resign").status_code == 409


def test_rematch_before_the_end_gets_409(players: Any) -> None:
    assert players.post("x", "rematch").status_code == 409


def test_rematch_swaps_marks_and_the_score_follows_the_person(new_players: Any) -> None:
    players = new_players(variant="standard", size=3)
    players.play("a1 b1 a2 b2 a3")  # the creator (x) wins
    asked = players.post("x", "rematch").json()
    assert asked["rematch"] == {"x": True, "o": False} and asked["game"] == 1
    table = players.post("o", "rematch").json()
    assert table["game"] == 2 and table["record"] == "" and table["result"] is None
    assert table["rematch"] == {"x": False, "o": False}
    # The creator now plays O: their win is counted under "o".
    assert table["score"] == {"x": 0, "o": 1, "draws": 0}
    # The same tokens now play the other mark: the former O moves first.
    creator, guest = players.tokens["x"], players.tokens["o"]
    players.tokens = {"x": guest, "o": creator}
    assert players.move("o", "b2").status_code == 403
    assert players.move("x", "b2").status_code == 200


def test_rematch_only_once_both_asked(new_players: Any) -> None:
    players = new_players(variant="standard", size=3)
    players.play("a1 b1 a2 b2 a3")
    players.post("o", "rematch")
    assert players.table()["game"] == 1
    assert players.post("o", "rematch").json()["game"] == 1


# -- claim ---------------------------------------------------------------------------------------


def test_claim_while_the_opponent_is_here_gets_403(players: Any) -> None:
    players.play("e5")
    response = players.post("x", "claim")
    assert response.status_code == 403


# -- the API's documentation ---------------------------------------------------------------------


def test_openapi_documents_every_endpoint_with_models(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    paths = schema["paths"]
    for path in [
        "/api/tables",
        "/api/tables/{table_id}",
        "/api/tables/{table_id}/seats",
        "/api/tables/{table_id}/moves",
        "/api/tables/{table_id}/resign",
        "/api/tables/{table_id}/rematch",
    ]:
        assert path in paths
    assert {"CreateTable", "TableView", "ErrorBody", "MoveBody"} <= set(
        schema["components"]["schemas"]
    )
    assert client.get("/docs").status_code == 200


def test_tokens_and_cookies_are_stored_only_as_hashes(client: TestClient, settings: Any) -> None:
    import sqlite3

    created = client.post("/api/tables", json={"variant": "ultimate"}).json()
    path = settings.database_url.removeprefix("sqlite:///")
    with sqlite3.connect(path) as db:
        dump = "\n".join(db.iterdump())
    assert created["token"] not in dump
    assert client.cookies["ttt_client"] not in dump
    assert hash_secret(created["token"]) in dump
