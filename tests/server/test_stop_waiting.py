"""Quick pairing's Cancel on the server: the one person at an open table stops waiting, and the
table leaves the open list and quick pairing, while they are still connected."""

from __future__ import annotations

import pytest
from starlette.testclient import TestClient
from tests.server.conftest import bearer, browser
from tests.server.records import a_table

from tictactoe.server.storage import SeatRecord
from tictactoe.server.table.commands import Refused, StopWaiting
from tictactoe.server.table.decision import decide

SETTINGS = {"variant": "standard", "size": 4, "line": 3}


def test_a_table_that_stops_waiting_is_paired_with_nobody(client: TestClient) -> None:
    waiting = client.post("/api/quick", json=SETTINGS).json()
    with client.websocket_connect(f"/api/tables/{waiting['id']}/ws?token={waiting['token']}"):
        listed = client.get("/api/tables?open=true").json()
        assert [table["id"] for table in listed] == [waiting["id"]]
        stopped = client.post(
            f"/api/tables/{waiting['id']}/stop-waiting", headers=bearer(waiting["token"])
        )
        assert stopped.status_code == 200, stopped.text
        assert stopped.json()["public"] is False
        assert client.get("/api/tables?open=true").json() == []
        with browser(client):
            stranger = client.post("/api/quick", json=SETTINGS)
        assert stranger.status_code == 201 and stranger.json()["id"] != waiting["id"]


def test_too_late_to_stop_waiting_once_someone_sat_down(client: TestClient) -> None:
    waiting = client.post("/api/quick", json=SETTINGS).json()
    with browser(client):
        assert client.post(f"/api/tables/{waiting['id']}/seats").status_code == 200
    answer = client.post(
        f"/api/tables/{waiting['id']}/stop-waiting", headers=bearer(waiting["token"])
    )
    assert answer.status_code == 409 and answer.json()["reason"] == "seats-taken"
    assert client.get(f"/api/tables/{waiting['id']}").json()["public"] is True


def test_strangers_cannot_take_a_table_off_the_list(client: TestClient) -> None:
    waiting = client.post("/api/quick", json=SETTINGS).json()
    answer = client.post(f"/api/tables/{waiting['id']}/stop-waiting")
    assert answer.status_code == 401
    assert client.get(f"/api/tables/{waiting['id']}").json()["public"] is True


def test_stopping_is_one_version_and_says_so() -> None:
    record = a_table(public=True)
    decision = decide(record, StopWaiting(), record.x.holder.token_hash, now=5.0)
    assert decision.record.public is False and decision.record.version == record.version + 1
    assert [event.kind for event in decision.events] == ["stopped-waiting"]
    seated = record.replace_side("o", holder=SeatRecord("b" * 64, "d" * 64))
    with pytest.raises(Refused) as refused:
        decide(seated, StopWaiting(), record.x.holder.token_hash, now=6.0)
    assert refused.value.reason == "seats-taken"
