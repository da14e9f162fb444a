"""Security for a site without accounts: headers and a CSP without inline script, cookies, the
WebSocket's Origin check, size and rate limits (429 + Retry-After), spectators who can never
act, and nothing a client sends rendered unescaped."""

from __future__ import annotations

import re
from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from tests.helpers import client_for, new_table


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path) as client:
        yield client


def test_pages_carry_a_csp_without_inline_script_and_the_usual_headers(
    client: TestClient,
) -> None:
    table = new_table(client)
    for path in ("/", f"/t/{table['id']}", "/games/ultimate", "/games/standard"):
        page = client.get(path)
        assert page.status_code == 200, path
        csp = page.headers["content-security-policy"]
        assert "script-src 'self'" in csp and "unsafe-inline" not in csp
        assert "frame-ancestors 'none'" in csp and "object-src 'none'" in csp
        assert page.headers["x-content-type-options"] == "nosniff"
        assert page.headers["x-frame-options"] == "DENY"
        assert page.headers["referrer-policy"] == "same-origin"
        # Every script is a file, or a JSON data blob that the browser never runs.
        for tag in re.findall(r"<script\b[^>]*>", page.text):
            assert (
                'src="/static/' in tag
                or 'src="/strings/' in tag  # the page's translated strings, a file of the site
                or 'type="application/json"' in tag
            ), (path, tag)
        assert not re.search(r"<[^>]+\son[a-z]+\s*=", page.text), path  # no inline handlers
        assert not re.search(r"<[^>]+\sstyle\s*=", page.text), path  # no inline styles either
    api = client.get(f"/api/tables/{table['id']}")
    assert api.headers["x-content-type-options"] == "nosniff"


def test_client_cookie_is_httponly_lax_and_secure_only_behind_a_trusted_tls_proxy(
    tmp_path: Path,
) -> None:
    forwarded = {"X-Forwarded-Proto": "https", "X-Forwarded-For": "203.0.113.9"}
    with client_for(tmp_path) as untrusting:
        cookie = untrusting.get("/", headers=forwarded).headers["set-cookie"]
        assert "HttpOnly" in cookie and "SameSite=Lax" in cookie and "Secure" not in cookie
    with client_for(tmp_path, trusted_proxies=("*",)) as behind_proxy:
        page = behind_proxy.get("/", headers=forwarded)
        assert "; Secure" in page.headers["set-cookie"]
        assert "HttpOnly" in page.headers["set-cookie"]
        assert page.headers["strict-transport-security"].startswith("max-age=")


def test_client_cookie_and_seat_token_carry_at_least_128_random_bits(client: TestClient) -> None:
    table = new_table(client)
    cookie = client.cookies["ttt_client"]
    # URL-safe base64: 6 bits a character.
    assert len(cookie) * 6 >= 128 and len(table["token"]) * 6 >= 128
    assert len(table["id"]) * 6 >= 128
    assert len({new_table(client)["id"] for _ in range(20)}) == 20


def test_websocket_from_a_foreign_origin_is_refused_before_it_opens(tmp_path: Path) -> None:
    with client_for(tmp_path, allowed_origins=("https://friends.example",)) as client:
        table = new_table(client)
        url = f"/api/tables/{table['id']}/ws"
        foreign = client.websocket_connect(url, headers={"Origin": "https://evil.example"})
        with pytest.raises(WebSocketDenialResponse) as refused, foreign:
            pass
        assert refused.value.status_code == 403
        for origin in ("http://testserver", "https://friends.example", None):
            headers = {"Origin": origin} if origin else {}
            with client.websocket_connect(url, headers=headers) as ws:
                assert ws.receive_json()["type"] == "table"


def test_oversized_request_bodies_get_413(client: TestClient) -> None:
    table = new_table(client)
    huge = {"move": "e5", "padding": "x" * 20_000}
    response = client.post(
        f"/api/tables/{table['id']}/moves",
        json=huge,
        headers={"Authorization": f"Bearer {table['token']}"},
    )
    assert response.status_code == 413

    def chunks() -> Iterator[bytes]:  # no Content-Length: counted as it arrives
        for _ in range(40):
            yield b"x" * 1000

    streamed = client.post("/api/tables", content=chunks())
    assert streamed.status_code == 413


def test_creating_tables_too_fast_gets_429_with_retry_after(tmp_path: Path) -> None:
    with client_for(tmp_path, create_rate=(0.1, 3)) as client:
        statuses = [client.post("/api/tables", json={"variant": "ultimate"}) for _ in range(4)]
        assert [r.status_code for r in statuses] == [201, 201, 201, 429]
        assert int(statuses[-1].headers["retry-after"]) >= 1
        assert statuses[-1].json()["status"] == 429
        assert client.get("/").status_code == 200  # reading is not limited


def test_joining_too_fast_gets_429(tmp_path: Path) -> None:
    with client_for(tmp_path, join_rate=(0.1, 2)) as client:
        ids = [new_table(client)["id"] for _ in range(3)]
        statuses = []
        for table_id in ids:
            client.cookies.clear()
            statuses.append(client.post(f"/api/tables/{table_id}/seats").status_code)
        assert statuses == [200, 200, 429]


def test_moving_too_fast_gets_429_and_nothing_changes(tmp_path: Path) -> None:
    with client_for(tmp_path, move_rate=(0.1, 2)) as client:
        table = new_table(client, first="me", opponent="friend")
        client.cookies.clear()  # the friend, in another browser, takes the other seat
        assert client.post(f"/api/tables/{table['id']}/seats").status_code == 200
        auth = {"Authorization": f"Bearer {table['token']}"}
        url = f"/api/tables/{table['id']}/moves"
        statuses = [client.post(url, json={"move": "e5"}, headers=auth).status_code]
        statuses += [client.post(url, json={"move": "a1"}, headers=auth).status_code]
        refused = client.post(url, json={"move": "a2"}, headers=auth)
        assert statuses == [200, 403]  # the second is O's turn: refused, but it counted
        assert refused.status_code == 429 and refused.headers["retry-after"]
        assert client.get(f"/api/tables/{table['id']}").json()["moves"] == ["e5"]


def test_opening_sockets_too_fast_gets_429_at_the_handshake(tmp_path: Path) -> None:
    with client_for(tmp_path, join_rate=(0.1, 2)) as client:
        url = f"/api/tables/{new_table(client)['id']}/ws"
        for _ in range(2):
            with client.websocket_connect(url) as ws:
                ws.receive_json()
        with pytest.raises(WebSocketDenialResponse) as refused, client.websocket_connect(url):
            pass
        assert refused.value.status_code == 429
        assert refused.value.headers["retry-after"]


def test_a_flooding_socket_gets_429_frames_and_stays_open(tmp_path: Path) -> None:
    with client_for(tmp_path, socket_message_rate=(0.1, 5)) as client:
        url = f"/api/tables/{new_table(client)['id']}/ws"
        with client.websocket_connect(url) as ws:
            assert ws.receive_json()["type"] == "table"
            for _ in range(8):
                ws.send_json({"type": "ping"})
            answers = []
            while len(answers) < 8:
                message = ws.receive_json()
                if message["type"] != "table":  # presence updates come and go
                    answers.append(message)
            # Refusals are sent by the limiter at once, answers through the socket's queue.
            assert sorted(a["type"] for a in answers) == ["error"] * 3 + ["pong"] * 5
            errors = [a for a in answers if a["type"] == "error"]
            assert all(e["status"] == 429 and e["retry_after"] >= 1 for e in errors)
            ws.send_json({"type": "sync"})  # still open; still limited
            assert ws.receive_json()["status"] == 429


def test_spectators_can_never_act(client: TestClient) -> None:
    table = new_table(client)
    client.cookies.clear()  # a different browser, with no seat
    with client.websocket_connect(f"/api/tables/{table['id']}/ws") as ws:
        before = ws.receive_json()["table"]
        for message in (
            {"type": "move", "move": "e5"},
            {"type": "move", "move": "e5", "version": before["version"]},
            {"type": "resign"},
            {"type": "rematch"},
            {"type": "claim"},
            {"type": "auth", "token": "A" * 43},
        ):
            ws.send_json(message)
            while (answer := ws.receive_json())["type"] == "table":
                pass  # presence and watcher counts come and go
            assert answer["type"] == "error" and answer["status"] in (401, 403), message
    for action in ("resign", "rematch", "claim"):
        assert client.post(f"/api/tables/{table['id']}/{action}").status_code == 401
    assert client.get(f"/api/tables/{table['id']}").json()["version"] == before["version"]


PAYLOADS = ['<script>alert("x")</script>', '"><img src=x onerror=alert(1)>', "{{7*7}}</title>"]


@pytest.mark.parametrize("payload", PAYLOADS)
def test_nothing_a_client_sends_is_rendered_unescaped(client: TestClient, payload: str) -> None:
    table = new_table(client)
    for path, params in (
        ("/", {"variant": payload, "lang": payload, "opponent": payload}),
        (f"/t/{table['id']}", {"lang": payload}),
        ("/t/" + payload, {}),
        ("/games/ultimate", {"lang": payload}),
    ):
        page = client.get(path, params=params, headers={"Accept-Language": payload})
        assert payload not in page.text, path
        assert "<img src=x" not in page.text and "alert(" not in page.text, path
    client.cookies.set("lang", payload)
    assert payload not in client.get("/").text
