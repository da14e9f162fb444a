"""The table's WebSocket: frames at once and after every change, errors that leave the socket
open, spectators, authentication by token, message or cookie, presence, claim, reconnect."""

from __future__ import annotations

from pathlib import Path
from typing import Any

from starlette.testclient import TestClient
from starlette.websockets import WebSocketDisconnect
from tests.server.following import (
    both_seats_and_a_watcher,
    error,
    receive_until,
    socket_url,
    table_frame,
)

from tictactoe.server.app import create_app
from tictactoe.server.settings import Settings

Frame = dict[str, Any]


def test_spectator_gets_the_table_at_once(players: Any, as_browser: Any) -> None:
    with as_browser(players.client), players.client.websocket_connect(socket_url(players)) as ws:
        message = ws.receive_json()
    assert message["type"] == "table"
    assert message["table"]["id"] == players.id
    assert message["table"]["version"] == players.table()["version"]
    assert "can_claim_win" not in message and message["seat"] == "spectator"


def test_move_reaches_opponent_and_spectators_with_the_next_version(
    players: Any, as_browser: Any
) -> None:
    with both_seats_and_a_watcher(players, as_browser) as (x, o, watcher):
        version = table_frame(x)["version"]
        x.send_json({"type": "move", "move": "e5", "version": version})
        for ws in (o, watcher, x):
            table = table_frame(ws, lambda t: t["record"] == "e5")
            assert table["version"] == version + 1 and table["turn"] == "o"


def test_move_over_http_reaches_the_sockets(players: Any) -> None:
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        players.move("x", "e5")
        assert table_frame(o, lambda t: t["record"] == "e5")["sent_to"] == 4


def test_refused_moves_are_answered_with_errors_and_the_socket_stays_open(players: Any) -> None:
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        o.send_json({"type": "move", "move": "e5"})
        assert error(o)["status"] == 403
        players.move("x", "e5")
        table_frame(o, lambda t: t["record"] == "e5")
        o.send_json({"type": "move", "move": "e5"})
        refused = error(o)
        assert (refused["status"], refused["reason"]) == (422, "occupied")
        o.send_json({"type": "move", "move": "e4"})
        assert table_frame(o, lambda t: t["record"] == "e5 e4")["turn"] == "x"


def test_stale_version_gets_409_then_the_fresh_table(players: Any) -> None:
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        version = table_frame(o)["version"]
        players.move("x", "e5")
        table_frame(o, lambda t: t["record"] == "e5")
        o.send_json({"type": "move", "move": "e4", "version": version})
        assert error(o)["status"] == 409
        fresh = table_frame(o)
        assert fresh["record"] == "e5" and fresh["version"] == version + 1


def test_spectator_cannot_act(players: Any, as_browser: Any) -> None:
    with as_browser(players.client), players.client.websocket_connect(socket_url(players)) as ws:
        for kind in ("move", "resign", "rematch", "claim"):
            ws.send_json({"type": kind, "move": "e5"})
            assert error(ws)["status"] == 401
    assert players.table()["record"] == ""


def test_malformed_and_oversized_messages_are_refused_without_closing(players: Any) -> None:
    with players.client.websocket_connect(socket_url(players, "x")) as x:
        x.send_text("{not json")
        assert error(x)["status"] == 400
        x.send_text('["a list"]')
        assert "type" in error(x)["message"]
        x.send_json({"type": "dance"})
        assert "unknown" in error(x)["message"]
        x.send_json({"type": "move", "move": 5})
        assert error(x)["status"] == 400
        x.send_text('{"type": "move", "move": "e5", "pad": "' + "x" * 5000 + '"}')
        too_big = error(x)
        assert too_big["status"] == 413 and "too large" in too_big["message"]
        x.send_json({"type": "move", "move": "e5"})
        assert table_frame(x, lambda t: t["record"] == "e5")["version"] > 0


def test_unknown_table_gets_an_error_and_the_socket_closes(client: TestClient) -> None:
    with client.websocket_connect("/api/tables/NoSuchTableAtAll_12345/ws") as ws:
        assert ws.receive_json()["status"] == 404
        try:
            ws.receive_json()
            raise AssertionError("the socket should have closed")
        except WebSocketDisconnect as closed:
            assert closed.code == 4404


def test_bad_token_is_told_and_watches(players: Any, as_browser: Any) -> None:
    url = f"/api/tables/{players.id}/ws?token=not-a-real-token-at-all-1234"
    with as_browser(players.client), players.client.websocket_connect(url) as ws:
        assert ws.receive_json()["status"] == 401
        assert ws.receive_json()["type"] == "table"
        ws.send_json({"type": "move", "move": "e5"})
        assert error(ws)["status"] == 401


def test_auth_message_makes_a_spectator_a_player(players: Any, as_browser: Any) -> None:
    with as_browser(players.client), players.client.websocket_connect(socket_url(players)) as ws:
        ws.receive_json()
        ws.send_json({"type": "auth", "token": players.tokens["x"]})
        # The spectator leaving (one watcher fewer) and the player arriving are two frames.
        frame = table_frame(ws, lambda t: t["seats"]["x"]["connected"])
        assert frame["watchers"] == 0
        ws.send_json({"type": "move", "move": "e5"})
        table_frame(ws, lambda t: t["record"] == "e5")
        ws.send_json({"type": "auth", "token": "wrong-token-wrong-token-wrong"})
        assert error(ws)["status"] == 401


def test_browser_cookie_identifies_the_seat_without_a_token(players: Any) -> None:
    # The fixture's client created the table, so its cookie holds X.
    with players.client.websocket_connect(socket_url(players)) as ws:
        ws.send_json({"type": "move", "move": "e5"})
        assert table_frame(ws, lambda t: t["record"] == "e5")["seats"]["x"]["connected"]


def test_presence_shows_who_is_connected(players: Any) -> None:
    client = players.client
    with client.websocket_connect(socket_url(players, "x")) as x:
        table_frame(x, lambda t: t["seats"]["x"]["connected"])
        with client.websocket_connect(socket_url(players, "o")):
            table_frame(x, lambda t: t["seats"]["o"]["connected"])
        left = table_frame(x, lambda t: not t["seats"]["o"]["connected"])
        assert left["seats"]["o"]["disconnected_since"] > 0
    assert players.table()["seats"]["x"]["connected"] is False


def test_sync_after_reconnect_gets_the_full_table(players: Any) -> None:
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        seen = table_frame(o)["version"]
    players.play("e5 e4")
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        o.receive_json()
        o.send_json({"type": "sync", "version": seen})
        table = table_frame(o)
        assert table["record"] == "e5 e4" and table["version"] == seen + 2


def test_ping_gets_pong(players: Any) -> None:
    with players.client.websocket_connect(socket_url(players, "x")) as x:
        x.send_json({"type": "ping"})
        receive_until(x, lambda m: m["type"] == "pong")


def test_resign_and_rematch_over_the_socket(new_players: Any) -> None:
    players = new_players(variant="standard", size=3)
    client = players.client
    with (
        client.websocket_connect(socket_url(players, "x")) as x,
        client.websocket_connect(socket_url(players, "o")) as o,
    ):
        x.send_json({"type": "resign"})
        over = table_frame(o, lambda t: t["result"] is not None)
        assert (over["result"], over["ended_by"]) == ("o", "resign")
        x.send_json({"type": "rematch"})
        o.send_json({"type": "rematch"})
        fresh = table_frame(x, lambda t: t["game"] == 2)
        assert fresh["score"] == {"x": 1, "o": 0, "draws": 0}  # the winner now plays x
        # The socket follows its person: the former O now moves first as X.
        o.send_json({"type": "move", "move": "b2"})
        assert table_frame(x, lambda t: t["record"] == "b2")["turn"] == "o"


def test_claim_the_win_when_the_opponent_stays_away_on_their_turn(tmp_path: Path) -> None:
    settings = Settings(database_url=f"sqlite:///{tmp_path / 't.db'}", claim_after_seconds=0.3)
    with TestClient(create_app(settings)) as client:
        created = client.post("/api/tables", json={"variant": "ultimate", "first": "me"}).json()
        table_id, x_token = created["id"], created["token"]
        client.cookies = {}  # type: ignore[assignment]
        o_token = client.post(f"/api/tables/{table_id}/seats").json()["token"]
        url = f"/api/tables/{table_id}/ws?token="
        with client.websocket_connect(url + x_token) as x:
            with client.websocket_connect(url + o_token):
                x.send_json({"type": "move", "move": "e5"})
                table_frame(x, lambda t: t["record"] == "e5")
                x.send_json({"type": "claim"})
                assert error(x)["status"] == 403
            # O left on their turn: after the wait, X is told and may claim.
            receive_until(x, lambda m: m["type"] == "table" and m.get("can_claim_win") is True)
            x.send_json({"type": "claim"})
            over = table_frame(x, lambda t: t["result"] is not None)
        assert (over["result"], over["ended_by"]) == ("x", "abandon")
        assert over["score"]["x"] == 1
