"""Share links come from trusted data (issue 13): with TICTACTOE_PUBLIC_URL set, always from it;
without it, each socket's frames link to the address that socket itself used, so a request with
a made-up Host header changes only what its own sender sees, never the links anyone else shares."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from tests.helpers import client_for


def forged_host(client: TestClient, host: str) -> TestClient:
    """A client of the same running app whose requests say `Host: host`."""
    return TestClient(client.app, base_url=f"http://{host}")


def table_frames(ws: Any, count: int) -> list[dict[str, Any]]:
    frames: list[dict[str, Any]] = []
    while len(frames) < count:
        message = ws.receive_json()
        if message["type"] == "table":
            frames.append(message["table"])
    return frames


def test_a_forged_host_header_does_not_change_anyone_elses_links(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        # The first requests after the start come with a forged Host.
        forged_host(client, "evil.example").post("/api/tables", json={"variant": "ultimate"})
        created = client.post(
            "/api/tables", json={"variant": "ultimate", "first": "me", "opponent": "here"}
        ).json()  # two at one device: the move needs nobody else seated
        url = f"/api/tables/{created['id']}/ws"
        with client.websocket_connect(f"ws://evil.example{url}") as forged:
            assert table_frames(forged, 1)[0]["url"].startswith("http://evil.example/")
            with client.websocket_connect(f"{url}?token={created['token']}") as player:
                first = table_frames(player, 1)[0]
                assert first["url"] == f"http://testserver/t/{created['id']}"
                player.send_json({"type": "move", "move": "e5"})
                # A move goes out as a small `moved` frame; the whole table (with its link) comes
                # on a sync, as it does after a version gap.
                while player.receive_json()["type"] != "moved":
                    pass
                player.send_json({"type": "sync", "version": 0})
                frame = table_frames(player, 1)[0]
                assert frame["moves"] == ["e5"]
                assert frame["url"] == f"http://testserver/t/{created['id']}"
        with client.websocket_connect(url) as later:
            assert table_frames(later, 1)[0]["url"] == f"http://testserver/t/{created['id']}"
        page = client.get(f"/t/{created['id']}")
        assert "evil.example" not in page.text


def test_the_public_url_wins_over_any_host_header(tmp_path: Path) -> None:
    with client_for(tmp_path, public_url="https://ttt.example") as client:
        created = client.post("/api/tables", json={"variant": "ultimate"}).json()
        assert created["url"] == f"https://ttt.example/t/{created['id']}"
        url = f"/api/tables/{created['id']}/ws"
        for host in ("evil.example", "testserver"):
            with client.websocket_connect(f"ws://{host}{url}") as ws:
                assert table_frames(ws, 1)[0]["url"] == f"https://ttt.example/t/{created['id']}"
        assert (
            client.get(f"/api/tables/{created['id']}")
            .json()["url"]
            .startswith("https://ttt.example/")
        )
        assert (
            "evil.example"
            not in forged_host(client, "evil.example").get(f"/t/{created['id']}").text
        )
