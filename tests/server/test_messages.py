"""The wire, as a client sees it: every frame the server sends has the shape `messages` writes
down; frames carry the decision's events and the viewer's own seat; every refusal has a stable
reason; a message's `id` comes back in its answer; the docs are generated from the same module."""

from __future__ import annotations

from pathlib import Path
from typing import Any, get_args, get_type_hints

import pytest
from pydantic import TypeAdapter
from starlette.testclient import TestClient
from tests.server.conftest import bearer, browser

from tictactoe.server.table import messages
from tictactoe.server.web import message_docs

Frame = dict[str, Any]
_SERVER = {message_docs._type_names(kind)[0]: kind for kind in messages.SERVER_MESSAGE_TYPES}


def checked(ws: Any) -> Frame:
    """The next frame, checked strictly against its TypedDict in `messages`."""
    frame: Frame = ws.receive_json()
    shape = _SERVER[frame["type"]]
    TypeAdapter(shape).validate_python(frame, strict=True)
    extra = set(frame) - set(get_type_hints(shape))
    assert not extra, f"{frame['type']} frame has undocumented fields {extra}"
    return frame


def until(ws: Any, wanted: Any, limit: int = 12) -> Frame:
    for _ in range(limit):
        frame = checked(ws)
        if wanted(frame):
            return frame
    raise AssertionError("no matching frame")


def socket(players: Any, mark: str | None = None) -> str:
    url = f"/api/tables/{players.id}/ws"
    return url if mark is None else f"{url}?token={players.tokens[mark]}"


def event_types(frame: Frame) -> list[str]:
    return [event["type"] for event in frame.get("events", [])]


def test_each_socket_is_told_its_own_seat_and_rematch_swaps_them(
    players: Any, as_browser: Any
) -> None:
    client = players.client
    with (
        client.websocket_connect(socket(players, "x")) as x,
        client.websocket_connect(socket(players, "o")) as o,
        as_browser(client),
        client.websocket_connect(socket(players)) as watcher,
    ):
        assert [checked(ws)["seat"] for ws in (x, o, watcher)] == ["x", "o", "spectator"]
        x.send_json({"type": "resign"})
        over = until(o, lambda f: f["type"] == "table" and f["table"]["result"] == "o")
        assert event_types(over) == ["game-over"]
        assert over["events"][0] == {"type": "game-over", "result": "o", "ended_by": "resign"}
        x.send_json({"type": "rematch"})
        o.send_json({"type": "rematch"})
        fresh = until(x, lambda f: f["type"] == "table" and f["table"]["game"] == 2)
        assert event_types(fresh) == ["rematch-asked", "game-started"]
        assert fresh["seat"] == "o"  # the marks swap: the winner now plays x
        fresh_o = until(o, lambda f: f["type"] == "table" and f["table"]["game"] == 2)
        assert fresh_o["seat"] == "x"
        assert until(watcher, lambda f: f.get("table", {}).get("game") == 2)["seat"] == "spectator"


def test_a_move_frame_carries_its_events_and_an_id_comes_back_in_the_ack(players: Any) -> None:
    with players.client.websocket_connect(socket(players, "x")) as x:
        checked(x)
        x.send_json({"type": "move", "move": "e5", "id": "m-1"})
        moved = until(x, lambda f: f["type"] == "moved")
        assert moved["events"] == [{"type": "moved", "mark": "x", "move": "e5"}]
        ack = until(x, lambda f: f["type"] == "ack")
        assert ack == {"type": "ack", "id": "m-1", "version": moved["version"]}
        x.send_json({"type": "sync", "id": 7})
        whole = until(x, lambda f: f["type"] == "table")
        assert (whole["id"], whole["events"], whole["seat"]) == (7, [], "x")
        x.send_json({"type": "ping", "id": 8})
        assert until(x, lambda f: f["type"] == "pong") == {"type": "pong", "id": 8}


def test_a_declined_takeback_reaches_the_asker_as_an_event(new_players: Any) -> None:
    players = new_players(takebacks=True)
    with (
        players.client.websocket_connect(socket(players, "x")) as x,
        players.client.websocket_connect(socket(players, "o")) as o,
    ):
        x.send_json({"type": "move", "move": "e5"})
        until(o, lambda f: f["type"] == "moved")
        x.send_json({"type": "takeback"})
        until(o, lambda f: f["type"] == "table" and event_types(f) == ["takeback-asked"])
        o.send_json({"type": "decline-takeback"})
        declined = until(x, lambda f: "takeback-declined" in event_types(f))
        assert declined["events"] == [{"type": "takeback-declined", "mark": "o"}]


@pytest.mark.parametrize(
    ("message", "status", "reason"),
    [
        ({"type": "move", "move": "e5", "id": 1}, 403, "not-your-turn"),
        ({"type": "move", "move": "z9", "id": "two"}, 422, "off-board"),
        ({"type": "move", "move": "e5", "version": 1, "id": 3}, 409, "stale-version"),
        ({"type": "name", "name": "<b>", "id": 4}, 422, "bad-name"),
        ({"type": "draw", "id": 5}, 409, "no-opponent"),
        ({"type": "dance", "id": 6}, 400, "unknown-type"),
        ({"type": "move", "move": 5, "id": 7}, 400, "bad-message"),
        ({"type": "react", "reaction": "boo", "id": 8}, 422, "bad-reaction"),
        ({"type": "claim", "id": 9}, 403, "opponent-here"),
    ],
)
def test_every_refusal_names_its_reason_and_echoes_the_id(
    client: TestClient, message: Frame, status: int, reason: str
) -> None:
    created = client.post("/api/tables", json={"variant": "ultimate", "first": "me"}).json()
    url = f"/api/tables/{created['id']}/ws?token={created['token']}"
    if reason != "no-opponent":
        with browser(client):
            client.post(f"/api/tables/{created['id']}/seats")
    if reason in ("not-your-turn", "stale-version"):
        # X has moved: it is O's turn, at version 3 or later.
        client.post(
            f"/api/tables/{created['id']}/moves",
            json={"move": "a1"},
            headers=bearer(created["token"]),
        )
    with client.websocket_connect(url) as ws:
        checked(ws)
        ws.send_json(message)
        refused = until(ws, lambda f: f["type"] == "error")
    assert (refused["status"], refused["reason"], refused["id"]) == (status, reason, message["id"])


def test_http_refusals_name_their_reason_too(players: Any) -> None:
    client = players.client
    cases = [
        (client.post(f"/api/tables/{players.id}/moves", json={"move": "e5"}), "no-token"),
        (players.move("o", "e5"), "not-your-turn"),
        (players.move("x", "j1"), "off-board"),
        (client.get("/api/tables/nosuchtable"), "no-table"),
        (
            client.post("/api/tables", content=b"{", headers={"content-type": "application/json"}),
            "bad-json",
        ),
        (client.post("/api/tables", json={"variant": "chess"}), "bad-request"),
        (players.post("x", "rematch"), "game-in-progress"),
    ]
    for response, reason in cases:
        body = response.json()
        assert (body["status"], body["reason"]) == (response.status_code, reason), body
        assert isinstance(body["message"], str) and body["message"]


def test_the_reasons_are_listed_once_with_their_meaning() -> None:
    assert set(get_args(messages.Reason)) == set(messages.REASONS)
    rules_reasons = {"malformed", "off-board", "occupied", "wrong-board", "closed-board"}
    assert rules_reasons <= set(messages.REASONS)


def test_the_docs_are_generated_from_the_messages(client: TestClient) -> None:
    described = client.get("/openapi.json").json()["info"]["description"]
    assert message_docs.markdown() in described
    document = client.get("/api/asyncapi.json").json()
    assert document["asyncapi"].startswith("3.")
    sent = {name for name in document["components"]["messages"] if name.startswith("server-")}
    assert sent == {f"server-{name}" for name in _SERVER}
    committed = Path(__file__).parents[2] / "docs" / "messages.md"
    assert committed.read_text() == message_docs.markdown(), (
        "docs/messages.md is out of date: "
        "uv run --frozen python -m tictactoe.server.web.message_docs > docs/messages.md"
    )


def test_every_acting_message_has_its_command_and_http_and_socket_share_them() -> None:
    from tictactoe.server.table.messages import ACTIONS as ACTING_MESSAGES
    from tictactoe.server.web import actions, websocket

    # `move` and `name` carry more than their type: the handler builds their commands.
    assert set(websocket._ACTIONS) | {"move", "name"} == ACTING_MESSAGES
    for action in actions.ACTIONS:
        if action.message is not None:
            assert websocket._ACTIONS[action.message] == action.command_for(None), action.path
