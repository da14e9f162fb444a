"""Requests from other sites (issue 13): a cross-site request never gets a new identity cookie
(it arrives without the SameSite=Lax one, so minting would replace the visitor's), and no
cross-site request may bind a seat or a table to the cookie; the WebSocket's Origin check
compares the scheme too."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path

import pytest
from starlette.testclient import TestClient, WebSocketDenialResponse
from tests.helpers import client_for, new_table

EVIL = {"Origin": "https://evil.example", "Sec-Fetch-Site": "cross-site"}


@pytest.fixture
def client(tmp_path: Path) -> Iterator[TestClient]:
    with client_for(tmp_path, raise_server_exceptions=False) as client:
        yield client


@pytest.mark.parametrize(
    "headers",
    [
        EVIL,
        {"Origin": "https://evil.example"},  # an older browser: Origin only
        {"Sec-Fetch-Site": "cross-site"},  # a browser that sends no Origin on this request
        {"Origin": "null", "Sec-Fetch-Site": "cross-site"},  # a sandboxed frame
        {"Origin": "https://testserver"},  # our host, another scheme
    ],
    ids=["origin-and-fetch-site", "origin", "fetch-site", "null-origin", "other-scheme"],
)
@pytest.mark.parametrize(
    ("method", "path"),
    [("POST", "/healthz"), ("POST", "/api/tables"), ("POST", "/tables"), ("GET", "/healthz")],
)
def test_a_cross_site_request_never_sets_the_identity_cookie(
    client: TestClient, headers: dict[str, str], method: str, path: str
) -> None:
    client.cookies.clear()  # as a cross-site request arrives: without the Lax cookie
    body = {"variant": "ultimate"} if path == "/api/tables" else None
    answer = client.request(method, path, headers=headers, json=body)
    assert "ttt_client" not in answer.headers.get("set-cookie", ""), (answer.status_code, path)


def test_a_top_level_cross_site_navigation_still_gets_a_cookie(client: TestClient) -> None:
    # A link followed from another site carries the Lax cookie: arriving without one, the
    # visitor has none, and gets one as usual.
    headers = {"Sec-Fetch-Site": "cross-site", "Sec-Fetch-Mode": "navigate"}
    answer = client.get("/", headers=headers)
    assert answer.status_code == 200 and "ttt_client=" in answer.headers["set-cookie"]


@pytest.mark.parametrize("headers", [EVIL, {"Origin": "http://evil.example"}])
def test_no_cross_site_request_may_bind_a_seat_or_a_table(
    client: TestClient, headers: dict[str, str]
) -> None:
    table = new_table(client, teams=True)
    private = new_table(client, private=True)
    client.cookies.clear()
    refused = [
        client.post("/api/tables", json={"variant": "ultimate"}, headers=headers),
        client.post("/tables", data={"variant": "ultimate"}, headers=headers),
        client.post(f"/api/tables/{table['id']}/seats", headers=headers),
        client.post(f"/t/{table['id']}/seats", headers=headers, follow_redirects=False),
        client.post(f"/t/{private['id']}/seats", headers=headers, follow_redirects=False),
    ]
    for answer in refused:
        assert answer.status_code == 403, (answer.request.url, answer.status_code)
        assert "another site" in answer.text
    seats = client.get(f"/api/tables/{table['id']}").json()["seats"]
    assert not seats["o"]["taken"]


def test_the_sites_own_pages_and_scripts_without_origin_may_still_bind(
    client: TestClient,
) -> None:
    own = {"Origin": "http://testserver", "Sec-Fetch-Site": "same-origin"}
    assert client.post("/api/tables", json={"variant": "ultimate"}, headers=own).status_code == 201
    assert client.post("/api/tables", json={"variant": "ultimate"}).status_code == 201  # a bot


def test_the_websocket_origin_check_compares_the_scheme(client: TestClient) -> None:
    table = new_table(client)
    url = f"/api/tables/{table['id']}/ws"
    for origin in ("https://testserver", "ftp://testserver"):
        with (
            pytest.raises(WebSocketDenialResponse) as refused,
            client.websocket_connect(url, headers={"Origin": origin}),
        ):
            pass
        assert refused.value.status_code == 403, origin
    with client.websocket_connect(url, headers={"Origin": "http://testserver"}) as ws:
        assert ws.receive_json()["type"] == "table"


def test_a_form_of_this_site_posted_with_a_null_origin_takes_the_seat(client: TestClient) -> None:
    # Chromium sends `Origin: null` on a form post under a strict Referrer-Policy (a page cached
    # from before the site sent `same-origin`); `Sec-Fetch-Site` says the form is this site's.
    private = new_table(client, private=True)
    friend = {"Origin": "null", "Sec-Fetch-Site": "same-origin", "Accept": "text/html"}
    client.cookies.clear()
    answer = client.post(f"/t/{private['id']}/seats", headers=friend, follow_redirects=False)
    assert answer.status_code == 303
    assert client.get(f"/api/tables/{private['id']}").json()["seats"]["o"]["taken"]


def test_a_page_refused_or_not_found_is_an_html_page_in_the_visitors_language(
    client: TestClient,
) -> None:
    page = {"Accept": "text/html,application/xhtml+xml", "Accept-Language": "de"}
    refused = client.post("/tables", data={"variant": "ultimate"}, headers={**EVIL, **page})
    assert refused.status_code == 403
    assert refused.headers["content-type"].startswith("text/html")
    assert 'lang="de"' in refused.text and 'data-error="cross_site"' in refused.text
    assert "content-security-policy" in refused.headers
    missing = client.get("/some/other/page", headers=page)
    assert missing.status_code == 404 and missing.headers["content-type"].startswith("text/html")
    assert 'data-error="not_found"' in missing.text and 'lang="de"' in missing.text
    assert client.get("/some/other/page").json() == {"detail": "Not Found"}  # a script: JSON
    assert client.get("/api/nothing", headers=page).status_code == 404
