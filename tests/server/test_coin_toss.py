"""Who plays X in a table's first game, when the creator left it to a coin: the table says the coin
chose (`tossed`), so that the page can say who won the toss."""

from __future__ import annotations

from starlette.testclient import TestClient


def test_the_table_says_when_a_coin_toss_chose_who_plays_x(client: TestClient) -> None:
    for first, tossed in (("random", True), ("me", False), ("friend", False)):
        created = client.post("/api/tables", json={"variant": "standard", "first": first}).json()
        assert client.get(f"/api/tables/{created['id']}").json()["tossed"] is tossed, first
