"""Limits without gaps (issue 13): every action counts against its address's limit, however it
is sent (HTTP, the socket, a JSON key spelled with escapes, the no-JavaScript form). The test
client's address is not loopback, so no exemption applies."""

from __future__ import annotations

import json
from collections.abc import Iterator
from pathlib import Path
from typing import Any

import pytest
from starlette.testclient import TestClient
from tests.helpers import client_for


@pytest.fixture
def limited(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(
        tmp_path, move_rate=(0.01, 3), join_rate=(0.01, 3), analysis_rate=(0.01, 3)
    ) as client:
        yield client


def seated_table(client: TestClient, **options: Any) -> tuple[dict[str, Any], str]:
    created = client.post("/api/tables", json={"variant": "ultimate", "first": "me", **options})
    assert created.status_code == 201, created.text
    cookies = client.cookies
    client.cookies = {}  # type: ignore[assignment]
    joined = client.post(f"/api/tables/{created.json()['id']}/seats")
    client.cookies = cookies
    assert joined.status_code == 200, joined.text
    return created.json(), joined.json()["token"]


@pytest.mark.parametrize("action", ["takeback", "takeback/decline", "takeback/accept"])
def test_takeback_requests_over_http_count_against_the_action_limit(
    tmp_path: Path, action: str
) -> None:
    with client_for(tmp_path, move_rate=(0.01, 4), join_rate=(100.0, 100)) as client:
        created, _guest = seated_table(client, takebacks=True)
        auth = {"Authorization": f"Bearer {created['token']}"}
        url = f"/api/tables/{created['id']}"
        assert client.post(f"{url}/moves", json={"move": "e5"}, headers=auth).status_code == 200
        statuses = [client.post(f"{url}/{action}", headers=auth).status_code for _ in range(6)]
        assert 429 not in statuses[:3] and statuses[-1] == 429, statuses


def socket_errors(ws: Any, sent: int) -> list[dict[str, Any]]:
    """The answers to `sent` messages, each followed by a ping: the error frames among them."""
    errors, pongs = [], 0
    while pongs < sent:
        answer = ws.receive_json()
        if answer["type"] == "pong":
            pongs += 1
        elif answer["type"] == "error":
            errors.append(answer)
    return errors


@pytest.mark.parametrize(
    "message",
    [
        '{"type": "move", "move": "a1"}',
        # "move" spelled with escapes once skipped the limit
        '{"type": "\\u006dove", "\\u006dove": "a1"}',
        '{"\\u0074ype": "mov\\u0065", "m\\u006Fve": "a1"}',
        '{"type": "takeback"}',
        '{"type": "decline-takeback"}',
        '{"type": "t\\u0061keback"}',
    ],
    ids=["move", "escaped-type", "escaped-key", "takeback", "decline", "escaped-takeback"],
)
def test_socket_actions_count_against_the_address_limit_however_spelled(
    tmp_path: Path, message: str
) -> None:
    with client_for(
        tmp_path, move_rate=(0.01, 3), socket_message_rate=(100.0, 100), join_rate=(100.0, 100)
    ) as client:
        created, _guest = seated_table(client, takebacks=True)
        with client.websocket_connect(
            f"/api/tables/{created['id']}/ws?token={created['token']}"
        ) as ws:
            assert ws.receive_json()["type"] == "table"
            for _ in range(5):
                ws.send_text(message)
                ws.send_text('{"type": "ping"}')
            limited = [e for e in socket_errors(ws, 5) if e["status"] == 429]
            assert len(limited) == 2, limited


def test_the_no_javascript_join_form_counts_against_the_join_limit(limited: TestClient) -> None:
    created = limited.post("/api/tables", json={"variant": "ultimate", "teams": True}).json()
    statuses = []
    for _ in range(5):
        limited.cookies.clear()
        answer = limited.post(f"/t/{created['id']}/seats", follow_redirects=False)
        statuses.append(answer.status_code)
    assert statuses[:3] == [303, 303, 303] and statuses[-1] == 429, statuses


def test_the_analysis_board_counts_against_the_analysis_limit(tmp_path: Path) -> None:
    with client_for(tmp_path, analysis_rate=(0.01, 2), computer_think_ms=5) as client:
        body = {"variant": "standard", "position": ".../.../... x"}
        statuses = [
            client.post("/api/positions/evaluation", json=body).status_code for _ in range(3)
        ]
        assert statuses == [200, 200, 429], statuses
        assert json.loads(client.get("/healthz").text) == {"status": "ok"}


def test_the_socket_message_limit_counts_bytes_not_characters(tmp_path: Path) -> None:
    with client_for(tmp_path, max_message_bytes=4096) as client:
        created = client.post("/api/tables", json={"variant": "ultimate"}).json()
        with client.websocket_connect(f"/api/tables/{created['id']}/ws") as ws:
            assert ws.receive_json()["type"] == "table"
            # 2 000 characters, 6 000 bytes in UTF-8: over the limit.
            ws.send_text('{"type": "ping", "padding": "' + "€" * 2000 + '"}')
            ws.send_text('{"type": "ping"}')
            answers = [ws.receive_json() for _ in range(2)]
            answers = [a for a in answers if a["type"] != "table"] or answers
            assert answers[0]["type"] == "error" and answers[0]["status"] == 413, answers


def test_metrics_are_served_only_when_the_operator_asks(tmp_path: Path) -> None:
    with client_for(tmp_path) as client:
        assert client.get("/metrics").status_code == 404
    with client_for(tmp_path, metrics=True) as client:
        scrape = client.get("/metrics")
        assert scrape.status_code == 200 and "tictactoe_moves_total" in scrape.text
