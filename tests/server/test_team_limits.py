"""Teams have bounds (issue 13: 1 500 joins in 4 s grew one table from 845 B to 31 KB, and any
spectator could join a team game under way and resign for it): at most MAX_TEAM_SIZE people a
side, and a table's creator may close its teams, so that people join only between games."""

from __future__ import annotations

from typing import Any

from starlette.testclient import TestClient

from tictactoe.server.table.decision import MAX_TEAM_SIZE


def join(client: TestClient, table_id: str, **body: Any) -> Any:
    client.cookies.clear()  # another browser each time
    return client.post(f"/api/tables/{table_id}/seats", json=body or None)


def test_a_side_holds_at_most_max_team_size_people(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "standard", "teams": True}).json()
    answers = [join(client, created["id"]) for _ in range(2 * MAX_TEAM_SIZE - 1)]
    assert [a.status_code for a in answers] == [200] * (2 * MAX_TEAM_SIZE - 1)
    before = client.get(f"/api/tables/{created['id']}").json()
    refused = join(client, created["id"])
    assert refused.status_code == 409 and "full" in refused.json()["message"]
    assert join(client, created["id"], side="x").status_code == 409
    after = client.get(f"/api/tables/{created['id']}").json()
    assert after["version"] == before["version"]
    assert [len(after["seats"][mark]["members"]) for mark in "xo"] == [MAX_TEAM_SIZE] * 2


def test_closed_teams_take_people_only_before_a_game_starts(client: TestClient) -> None:
    body = {"variant": "standard", "teams": True, "teams_open": False, "first": "me"}
    created = client.post("/api/tables", json=body).json()
    creator_cookie = client.cookies.get("ttt_client")
    assert join(client, created["id"]).status_code == 200  # the O seat
    assert join(client, created["id"]).status_code == 200  # a teammate, before the first move
    client.cookies.set("ttt_client", creator_cookie)
    auth = {"Authorization": f"Bearer {created['token']}"}
    moved = client.post(f"/api/tables/{created['id']}/moves", json={"move": "b2"}, headers=auth)
    assert moved.status_code == 200
    late = join(client, created["id"])
    assert late.status_code == 409 and "closed" in late.json()["message"]
    assert client.get(f"/api/tables/{created['id']}").json()["teams_open"] is False


def test_open_teams_take_people_during_a_game(client: TestClient) -> None:
    created = client.post(
        "/api/tables", json={"variant": "standard", "teams": True, "first": "me"}
    ).json()
    assert join(client, created["id"]).status_code == 200
    auth = {"Authorization": f"Bearer {created['token']}"}
    client.post(f"/api/tables/{created['id']}/moves", json={"move": "b2"}, headers=auth)
    assert join(client, created["id"]).status_code == 200
    assert client.get(f"/api/tables/{created['id']}").json()["teams_open"] is True
