"""Looking back: a table keeps every finished game (across rematches) for its review, the
computer's analysis of a finished game (computed once, refused while the game is on), position
codes and records read for the analysis board, tables that start from a position, and the games
a browser played."""

from __future__ import annotations

from concurrent.futures import Executor
from typing import Any

import pytest
from starlette.testclient import TestClient

from tictactoe.server.table.review import Analyst

Players = Any  # conftest.Players: a table with both seats taken

# X wins along the bottom rank on the fifth move.
X_WINS = "a1 a2 b1 b2 c1"


def standard_players(new_players: Any) -> Players:
    return new_players(variant="standard", first="me")


def use_quick_analyst(client: TestClient) -> Analyst:
    computer = client.app.state.tables.computer  # type: ignore[attr-defined]
    analyst = Analyst(lambda: computer.pool, think_ms=15)
    client.app.state.analyst = analyst  # type: ignore[attr-defined]
    return analyst


def test_a_finished_game_has_its_record_result_and_every_position(
    client: TestClient, new_players: Any
) -> None:
    players = standard_players(new_players)
    players.play(X_WINS)
    game = client.get(f"/api/tables/{players.id}/games/1").json()
    assert game["record"] == X_WINS
    assert (game["result"], game["ended_by"]) == ("x", "line")
    assert [step["last_move"] for step in game["steps"]] == [None, *X_WINS.split()]
    assert game["steps"][0]["position"] == ".../.../... x"
    assert game["steps"][-1]["winning_lines"] == [["a1", "b1", "c1"]]


def test_earlier_games_are_kept_across_rematches(client: TestClient, new_players: Any) -> None:
    players = standard_players(new_players)
    players.play(X_WINS)
    players.post("x", "rematch")
    players.post("o", "rematch")
    # The person who was O now plays X (with the same token), and resigns the second game.
    players.tokens = {"x": players.tokens["o"], "o": players.tokens["x"]}
    players.play("b2")
    assert players.post("x", "resign").status_code == 200
    games = client.get(f"/api/tables/{players.id}/games").json()
    assert [(g["game"], g["result"], g["ended_by"], g["moves"]) for g in games] == [
        (1, "x", "line", 5),
        (2, "o", "resign", 1),
    ]
    assert client.get(f"/api/tables/{players.id}/games/1").json()["record"] == X_WINS
    assert client.get(f"/api/tables/{players.id}/games/2").json()["record"] == "b2"


def test_unknown_tables_and_games_are_not_found(client: TestClient, players: Players) -> None:
    assert client.get("/api/tables/nosuchtable/games/1").status_code == 404
    assert client.get(f"/api/tables/{players.id}/games/2").status_code == 404
    assert client.get(f"/api/tables/{players.id}/games/0").status_code == 404
    assert client.get(f"/api/tables/{players.id}/games/2/analysis").status_code == 404


def test_a_game_being_played_has_no_analysis(client: TestClient, players: Players) -> None:
    players.play("e5")
    response = client.get(f"/api/tables/{players.id}/games/1/analysis")
    assert response.status_code == 409
    assert "still being played" in response.json()["message"]


def test_the_analysis_scores_every_position_and_marks_the_losing_move(
    client: TestClient, new_players: Any
) -> None:
    use_quick_analyst(client)
    players = standard_players(new_players)
    players.play(X_WINS)
    analysis = client.get(f"/api/tables/{players.id}/games/1/analysis").json()
    scores = [e["score"] for e in analysis["evaluations"]]
    assert [e["ply"] for e in analysis["evaluations"]] == list(range(6))
    # The empty board is a proven draw; O's a2 loses by force; the end is X's win.
    assert analysis["evaluations"][0]["proven"] == "draw"
    assert analysis["evaluations"][2] == {"ply": 2, "score": 1.0, "proven": "x", "best_move": "b2"}
    assert scores[-1] == 1.0 and analysis["evaluations"][-1]["best_move"] is None
    assert analysis["swings"] == [2]


def test_a_second_viewer_gets_the_kept_analysis_without_new_work(
    client: TestClient, new_players: Any, as_browser: Any
) -> None:
    analyst = use_quick_analyst(client)
    players = standard_players(new_players)
    players.play(X_WINS)
    first = client.get(f"/api/tables/{players.id}/games/1/analysis").json()

    def no_pool() -> Executor:
        raise AssertionError("the analysis was computed again")

    analyst._pool = no_pool
    with as_browser(client):
        second = client.get(f"/api/tables/{players.id}/games/1/analysis")
    assert second.status_code == 200
    assert second.json() == first


def test_position_codes_and_records_are_read_into_positions(client: TestClient) -> None:
    read = client.post("/api/positions", json={"variant": "ultimate", "record": "e5 e4"}).json()
    assert read["steps"][-1]["position"].endswith(" x e4")
    assert read["steps"][-1]["sent_to"] == 7
    code = read["steps"][-1]["position"]
    more = client.post(
        "/api/positions", json={"variant": "ultimate", "position": code, "record": "d2"}
    ).json()
    assert [s["last_move"] for s in more["steps"]] == ["e4", "d2"]
    assert more["start_position"] == code


@pytest.mark.parametrize(
    ("body", "reason", "words"),
    [
        ({"variant": "standard", "position": "xxx/.../... o"}, "invalid-position", "3 marks"),
        ({"variant": "ultimate", "position": "nonsense"}, "invalid-position", "position code"),
        ({"variant": "standard", "record": "b2 b2"}, "occupied", "b2 is already taken"),
        ({"variant": "standard", "record": "z9"}, "off-board", "z9"),
    ],
)
def test_a_bad_code_or_record_is_refused_with_the_rules_reason(
    client: TestClient, body: dict[str, Any], reason: str, words: str
) -> None:
    response = client.post("/api/positions", json=body)
    assert response.status_code == 422
    assert response.json()["reason"] == reason
    assert words in response.json()["message"]


def test_a_table_can_start_from_a_position_and_play_on(client: TestClient, as_browser: Any) -> None:
    code = ".../.x./... o"
    created = client.post(
        "/api/tables", json={"variant": "standard", "position": code, "first": "friend"}
    )
    assert created.status_code == 201
    assert created.json()["seat"] == "o"
    table_id, token = created.json()["id"], created.json()["token"]
    table = client.get(f"/api/tables/{table_id}").json()
    assert (table["position"], table["start_position"], table["record"]) == (code, code, "")
    with as_browser(client):
        assert client.post(f"/api/tables/{table_id}/seats").json()["seat"] == "x"
    moved = client.post(
        f"/api/tables/{table_id}/moves",
        json={"move": "a1"},
        headers={"Authorization": f"Bearer {token}"},
    ).json()
    assert moved["position"] == ".../.x./o.. x"
    assert moved["record"] == "a1"
    game = client.get(f"/api/tables/{table_id}/games/1").json()
    assert game["start_position"] == code
    assert game["steps"][0]["position"] == code


@pytest.mark.parametrize(
    ("position", "reason"),
    [("xx./.../... o", "invalid-position"), ("xxx/oo./... o", "game-over")],
)
def test_a_table_cannot_start_from_a_bad_or_finished_position(
    client: TestClient, position: str, reason: str
) -> None:
    response = client.post("/api/tables", json={"variant": "standard", "position": position})
    assert response.status_code == 422
    assert response.json()["reason"] == reason


def test_my_games_lists_this_browsers_games_newest_first(
    client: TestClient, new_players: Any, as_browser: Any
) -> None:
    first = standard_players(new_players)
    first.play(X_WINS)
    second = new_players(variant="ultimate", first="friend")
    second.play("e5")
    mine = client.get("/api/my-games").json()
    assert [(g["table_id"], g["mark"], g["result"]) for g in mine] == [
        (second.id, "o", None),
        (first.id, "x", "x"),
    ]
    with as_browser(client):
        assert client.get("/api/my-games").json() == []


def test_the_openapi_schema_documents_the_looking_back_endpoints(client: TestClient) -> None:
    schema = client.get("/openapi.json").json()
    for path in (
        "/api/tables/{table_id}/games",
        "/api/tables/{table_id}/games/{number}",
        "/api/tables/{table_id}/games/{number}/analysis",
        "/api/positions",
        "/api/my-games",
    ):
        assert path in schema["paths"], path
    assert "position" in schema["components"]["schemas"]["CreateTable"]["properties"]


def test_a_private_tables_games_are_for_its_players_only(
    client: TestClient, new_players: Any, as_browser: Any
) -> None:
    players = new_players(variant="standard", first="me", private=True)
    players.play(X_WINS)
    assert client.get(f"/api/tables/{players.id}/games/1").status_code == 200
    with as_browser(client):
        for path in ("games", "games/1", "games/1/analysis"):
            response = client.get(f"/api/tables/{players.id}/{path}")
            assert response.status_code == 409, path
            assert response.json()["reason"] == "private"
        # A player's seat token opens them from anywhere.
        token = {"Authorization": f"Bearer {players.tokens['o']}"}
        assert client.get(f"/api/tables/{players.id}/games/1", headers=token).status_code == 200
        assert client.get(f"/t/{players.id}/games/1").status_code == 409


def test_a_dead_worker_gives_a_503_and_a_fresh_pool_next_time(
    client: TestClient, new_players: Any
) -> None:
    from concurrent.futures.process import BrokenProcessPool

    closed = []

    class DeadPool(Executor):
        def submit(self, *args: Any, **kwargs: Any) -> Any:
            raise BrokenProcessPool("a worker died")

    client.app.state.analyst = Analyst(  # type: ignore[attr-defined]
        DeadPool, think_ms=15, on_broken=lambda: closed.append(True)
    )
    players = standard_players(new_players)
    players.play(X_WINS)
    response = client.get(f"/api/tables/{players.id}/games/1/analysis")
    assert response.status_code == 503
    assert closed == [True]


def test_the_computer_names_its_move_in_any_position(client: TestClient) -> None:
    use_quick_analyst(client)
    # X to move with a1 and b1 in a row: c1 wins at once.
    body = {"variant": "standard", "position": "o../o../xx. x"}
    evaluation = client.post("/api/positions/evaluation", json=body).json()
    assert evaluation == {"score": 1.0, "proven": "x", "best_move": "c1"}
    bad = client.post("/api/positions/evaluation", json={**body, "position": "xxx/.../... o"})
    assert bad.status_code == 422
    assert bad.json()["reason"] == "invalid-position"


def test_my_games_lists_a_team_game_for_every_member(
    client: TestClient, new_players: Any, as_browser: Any
) -> None:
    players = new_players(variant="standard", first="me", teams=True)
    with as_browser(client):
        joined = client.post(f"/api/tables/{players.id}/seats")
        assert joined.status_code == 200, joined.text
        seat = joined.json()["seat"]
        players.play(X_WINS)
        mine = client.get("/api/my-games").json()
        assert [(g["table_id"], g["mark"], g["result"]) for g in mine] == [(players.id, seat, "x")]
