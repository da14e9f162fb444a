"""What a player's page says when the other side answers by playing on, or agrees: told by the
frame's events (`takeback-lapsed`, `draw-lapsed`, `taken-back`), not worked out by comparing the
table before and after."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import APIRequestContext, BrowserContext, expect

NewContext = Callable[..., BrowserContext]


def act(side: APIRequestContext, table: str, token: str, path: str, **body: Any) -> None:
    answer = side.post(
        f"/api/tables/{table}/{path}",
        headers={"Authorization": f"Bearer {token}"},
        data=body or None,
    )
    assert answer.ok, answer.text()


def test_lapsed_questions_and_an_agreed_takeback_are_said_to_the_asker(
    new_context: NewContext,
) -> None:
    hosts, guests = new_context(), new_context()
    created = hosts.request.post(
        "/api/tables", data={"variant": "ultimate", "first": "me", "takebacks": True}
    )
    assert created.ok, created.text()
    table, x = created.json()["id"], created.json()["token"]
    joined = guests.request.post(f"/api/tables/{table}/seats")
    assert joined.ok, joined.text()
    o = joined.json()["token"]
    host, guest = hosts.new_page(), guests.new_page()
    host.goto(f"/t/{table}")
    guest.goto(f"/t/{table}")
    host_notice, guest_notice = host.locator("[data-notice]"), guest.locator("[data-notice]")

    act(hosts.request, table, x, "moves", move="e5")
    act(hosts.request, table, x, "takeback")
    expect(guest.locator("[data-takeback-prompt]")).to_be_visible()
    act(guests.request, table, o, "moves", move="d4")  # O plays on instead of answering
    expect(host_notice).to_have_text("Your opponent played on: your takeback request lapsed.")

    act(guests.request, table, o, "draw")  # offered on X's turn
    act(hosts.request, table, x, "moves", move="a1")
    expect(guest_notice).to_have_text("Your opponent played on: your draw offer lapsed.")
    expect(host_notice).not_to_have_text("Your opponent played on: your draw offer lapsed.")

    act(guests.request, table, o, "moves", move="b2")
    act(hosts.request, table, x, "takeback")
    act(guests.request, table, o, "takeback/accept")
    expect(host_notice).to_have_text("Move taken back.")
    expect(host.locator("[data-board] [data-move=a1]")).to_have_text("")
