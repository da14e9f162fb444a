"""Teams have bounds (issue 13: 1 500 joins in 4 s grew one table from 845 B to 31 KB, and any
spectator could join a team game under way and resign for it): at most MAX_TEAM_SIZE people a
side, and a table's creator may close its teams, so that people join only between games."""

from __future__ import annotations

import re
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


def created_without_javascript(client: TestClient, **fields: str) -> Any:
    form = {"variant": "standard", "opponent": "friend", **fields}
    response = client.post("/tables", data=form, follow_redirects=False)
    assert response.status_code == 303
    table_id = response.headers["location"].removeprefix("/t/")
    return client.get(f"/api/tables/{table_id}").json()


def test_the_home_form_lets_the_creator_close_the_teams(client: TestClient) -> None:
    html = client.get("/").text
    assert re.search(r'<input type="checkbox" name="teams_closed"[^>]*>', html)
    assert "teams-closed-help" in html
    closed = created_without_javascript(client, teams="on", teams_closed="on")
    assert closed["teams"] is True and closed["teams_open"] is False
    opened = created_without_javascript(client, teams="on")
    assert opened["teams"] is True and opened["teams_open"] is True


def test_closed_teams_mean_nothing_without_teams(client: TestClient) -> None:
    plain = created_without_javascript(client, teams_closed="on")
    assert plain["teams"] is False and plain["teams_open"] is True


def test_the_home_form_keeps_closed_teams_from_the_query(client: TestClient) -> None:
    html = client.get("/?opponent=friend&teams=on&teams_closed=on").text
    assert re.search(r'name="teams_closed"[^>]*checked', html)
    assert not re.search(r'name="teams_closed"[^>]*checked', client.get("/").text)
