"""The browser cookie that says who a visitor is survives whatever other cookies the browser
sends, and no Cookie header, however large or odd, holds up the server."""

from __future__ import annotations

import time
from typing import Any

import pytest
from fastapi.testclient import TestClient

from tictactoe.server.web.identity import site_cookies

# Cookies other sites or apps on the same host set, as browsers send them.
STRANGERS = [
    "consent=yes please",
    'prefs={"theme":"dark","n":1}',
    "path=/; expires=Wed, 01 Jan 2031 00:00:00 GMT",
    'quoted="a\\"b\\\\c"',
    "=no-name",
    "lonely",
    "caf\u00e9=cr\u00e8me",
    "a[]=1",
    'huge="' + '\\"' * 4000 + '"',
]


def raw_get(client: TestClient, path: str, cookie: str) -> Any:
    """A request with exactly this Cookie header (the client's jar left out)."""
    saved = client.cookies
    client.cookies = {}  # type: ignore[assignment]
    try:
        return client.get(path, headers={"Cookie": cookie.encode("utf-8")})
    finally:
        client.cookies = saved


@pytest.mark.parametrize("stranger", STRANGERS)
@pytest.mark.parametrize("first", [True, False])
def test_a_strangers_cookie_never_costs_the_visitor_their_seat(
    client: TestClient, stranger: str, first: bool
) -> None:
    created = client.post("/api/tables", json={"variant": "standard"}).json()
    mine = f"ttt_client={client.cookies['ttt_client']}"
    header = f"{stranger}; {mine}" if first else f"{mine}; {stranger}"
    page = raw_get(client, f"/t/{created['id']}", header)
    assert page.status_code == 200
    assert "set-cookie" not in page.headers or "ttt_client" not in page.headers["set-cookie"]
    assert 'data-seat="x"' in page.text or 'data-seat="o"' in page.text


def test_the_first_well_formed_client_cookie_counts() -> None:
    mine, theirs = "A" * 43, "B" * 43
    assert site_cookies(f"ttt_client=bad; ttt_client={mine}; ttt_client={theirs}") == {
        "ttt_client": mine
    }


def test_a_garbled_client_cookie_gets_a_fresh_one(client: TestClient) -> None:
    answer = raw_get(client, "/api/tables?open=true", "ttt_client=%%%; other=1")
    assert answer.status_code == 200
    assert answer.headers["set-cookie"].startswith("ttt_client=")


def test_a_32_kb_cookie_header_costs_the_server_no_noticeable_time(client: TestClient) -> None:
    """Quoted values full of backslash escapes take `http.cookies` quadratic time (CVE-2024-7592,
    Python < 3.11.10): 30 KB used to hold the event loop for ~5 s. The cost is measured as
    processor time, the least of three tries, against the same request without the cookie."""
    evil = 'a="' + '\\"' * (16 * 1024 - 8) + '"'
    assert 32 * 1024 - 32 < len(evil) <= 32 * 1024

    def cost(cookie: str) -> float:
        best = float("inf")
        for _ in range(3):
            started = time.process_time()
            assert raw_get(client, "/", cookie).status_code == 200
            best = min(best, time.process_time() - started)
        return best

    assert cost(evil) - cost("a=1") < 0.020
