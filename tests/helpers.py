"""Helpers shared by the test suites: a site in-process on its own SQLite file, a raw socket
watched for the server closing it, and the browser tests' way of opening and joining a table
like a person would."""

from __future__ import annotations

import contextlib
import re
import socket
import time
from collections.abc import Iterator
from pathlib import Path
from typing import Any

from fastapi.testclient import TestClient
from playwright.sync_api import BrowserContext, Page, WebSocketRoute, expect
from tests.scaleout.services import ServerProcess

from tictactoe.server.app import create_app
from tictactoe.server.settings import Settings


def client_for(
    tmp_path: Path, *, raise_server_exceptions: bool = True, **settings: Any
) -> TestClient:
    """The site in-process, on a SQLite file of its own, with these settings."""
    url = f"sqlite:///{tmp_path / 'tables.db'}"
    app = create_app(Settings(database_url=url, **settings))
    return TestClient(app, raise_server_exceptions=raise_server_exceptions)


def new_table(client: TestClient, **options: Any) -> dict[str, Any]:
    """An Ultimate table created through the API (201), with these options."""
    created = client.post("/api/tables", json={"variant": "ultimate", **options})
    assert created.status_code == 201, created.text
    body: dict[str, Any] = created.json()
    return body


@contextlib.contextmanager
def serving(database: str, env: dict[str, str] | None = None) -> Iterator[ServerProcess]:
    """A real `tictactoe serve` on `database` (no Redis), removed afterwards."""
    process = ServerProcess(database, None, env=env)
    try:
        process.start()
        yield process
    finally:
        process.remove()


def closed_within(connection: socket.socket, seconds: float) -> bool:
    """Whether the server closes `connection` within `seconds` (reading whatever it says)."""
    connection.settimeout(seconds)
    deadline = time.monotonic() + seconds
    try:
        while time.monotonic() < deadline:
            if not connection.recv(4096):
                return True
    except TimeoutError:
        return False
    except ConnectionResetError:
        return True
    return False


# -- browsers -------------------------------------------------------------------------------------


def create_table(
    context: BrowserContext, *checks: str, clock: str | None = None, **choices: str
) -> Page:
    """Fills in the home page's form like a person would (radio `choices` such as
    `variant="ultimate"`, `first="me"`; `line`, `level` and `clock` chosen from their lists; the
    `checks` boxes ticked), starts against `choices["opponent"]` (a friend), and lands on the new
    table with its whole board drawn."""
    page = context.new_page()
    page.goto("/")
    form = page.locator("form[data-create-table]")
    form.locator("[data-more-options]").evaluate("details => details.open = true")
    for name in ("variant", "size", "first"):
        if name in choices:
            form.locator(f"input[name={name}][value='{choices[name]}']").check()
    for name in ("line", "level"):
        if name in choices:
            form.locator(f"select[name={name}]").select_option(choices[name])
    for name in checks:
        form.get_by_role("checkbox").and_(form.locator(f"[name={name}]")).check()
    if clock is not None:
        form.locator("select[name=clock]").select_option(clock)
    form.locator(f"[data-start={choices.get('opponent', 'friend')}]").click()
    page.wait_for_url(re.compile(r"/t/[\w-]+$"))
    size = 9 if choices.get("variant") == "ultimate" else int(choices.get("size", "3"))
    expect(page.locator("[data-board] button[data-move]")).to_have_count(size * size)
    return page


def join(context: BrowserContext, url: str, seat: str | None = None) -> Page:
    """Opens the table at `url` and takes the free seat (`seat`: the one it must be)."""
    page = context.new_page()
    page.goto(url)
    page.locator("[data-join]").click()
    board = page.locator("[data-board]")
    if seat is None:
        expect(board).not_to_have_attribute("data-seat", "spectator")
    else:
        expect(board).to_have_attribute("data-seat", seat)
    return page


class RoutedSocket:
    """A page's table socket routed through the test: passed to the server while `through`,
    else it reaches nobody (the test may answer it, or let it hear nothing). `sockets` are the
    page's connections, the latest last."""

    def __init__(self, page: Page) -> None:
        self.through = True
        self.sockets: list[WebSocketRoute] = []
        page.route_web_socket(re.compile(r"/ws$"), self._route)
        self._page = page

    def _route(self, socket: WebSocketRoute) -> None:
        if self.through:
            socket.connect_to_server()
        self.sockets.append(socket)

    def drop(self) -> int:
        """Closes the latest connection; how many there have been."""
        connections = len(self.sockets)
        self.sockets[-1].close()
        return connections

    def await_reconnect(self, connections: int) -> None:
        """Waits for the page's next connection after `connections` (its back-off's first retry
        comes within a second)."""
        for _ in range(100):
            if len(self.sockets) > connections:
                return
            self._page.wait_for_timeout(50)
        raise AssertionError("the page did not reconnect")
