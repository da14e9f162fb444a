"""Who is who, on phones: who won the coin toss, said at the start; the opponent called by their
name in the status line, the prompts and the reactions once they have one; a watcher's badge."""

from __future__ import annotations

from typing import Any

from playwright.sync_api import BrowserContext, Page, expect
from tests.browser.test_game_screen import NewContext, phone


def seated(context: BrowserContext, table_id: str) -> str:
    """Takes the free seat for this browser (its cookie keeps it): the seat token."""
    joined = context.request.post(f"/api/tables/{table_id}/seats")
    assert joined.ok, joined.text()
    token: str = joined.json()["token"]
    return token


def name(context: BrowserContext, table_id: str, token: str, chosen: str) -> None:
    answer = context.request.put(
        f"/api/tables/{table_id}/name",
        data={"name": chosen},
        headers={"Authorization": f"Bearer {token}"},
    )
    assert answer.ok, answer.text()


def opened(context: BrowserContext, url: str) -> Page:
    page = context.new_page()
    page.goto(url)
    expect(page.locator("[data-board] button[data-move]").first).to_be_attached()
    return page


def test_the_toss_and_the_names_are_said_in_words(new_context: NewContext) -> None:
    host_context = new_context(**phone(360))
    host_context.new_page().goto("/")  # the browser's cookie first: the table is bound to it
    body: dict[str, Any] = {"variant": "standard", "first": "random"}
    created = host_context.request.post("/api/tables", data=body).json()
    table_id, host_seat = created["id"], created["seat"]
    host = opened(host_context, created["url"])
    # The creator asked for a coin toss: the page says at once who won it.
    expect(host.locator("[data-notice]")).to_have_text(
        "Coin toss: you move first."
        if host_seat == "x"
        else "Coin toss: your opponent moves first."
    )
    guest_context = new_context(**phone(360))
    guest_context.new_page().goto("/")
    guest_token = seated(guest_context, table_id)
    name(host_context, table_id, created["token"], "Ana")
    name(guest_context, table_id, guest_token, "Νίκος")
    guest = opened(guest_context, created["url"])
    expect(guest.locator("[data-notice]")).to_have_text(
        "Coin toss: Ana moves first." if host_seat == "x" else "Coin toss: you move first."
    )
    pages = {host_seat: host, ("o" if host_seat == "x" else "x"): guest}
    names = {host_seat: "Ana", ("o" if host_seat == "x" else "x"): "Νίκος"}
    x, o = pages["x"], pages["o"]
    # Whose move, by name: never "Your opponent's move" once the opponent has one.
    expect(o.locator("[data-status]")).to_have_text(f"{names['x']} to move")
    expect(x.locator("[data-status]")).to_have_text("Your move")
    x.locator("[data-board] [data-move=b2]").tap()
    expect(x.locator("[data-status]")).to_have_text(f"{names['o']} to move")
    # A reaction and a question carry the sender's name.
    o.locator("[data-reaction=wow]").dispatch_event("click")
    expect(x.locator("[data-reaction-shown]")).to_contain_text(f"{names['o']}:")
    o.locator("[data-board] [data-move=a1]").tap()
    x.locator("[data-draw]").dispatch_event("click")
    expect(o.locator("[data-draw-prompt] p")).to_have_text(f"{names['x']} offers a draw.")
    # A third person is watching, and told so; the status names the mover with their mark.
    watcher = opened(new_context(**phone(360)), created["url"])
    expect(watcher.locator("[data-watching]")).to_be_visible()
    expect(watcher.locator("[data-status]")).to_have_text(f"{names['x']} (X) to move")
