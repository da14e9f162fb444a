"""Browser tests: a real `tictactoe serve` on a free port with a temporary SQLite file, driven by
Debian's chromium through Playwright. Every browser context records its console errors and
uncaught page errors, and a test fails if any page logged one."""

from __future__ import annotations

import os
import socket
import subprocess
import sys
import time
import urllib.request
from collections.abc import Callable, Iterator
from pathlib import Path

import pytest
from playwright.sync_api import (
    Browser,
    BrowserContext,
    ConsoleMessage,
    Page,
    Playwright,
    sync_playwright,
)

CHROMIUM = "/usr/bin/chromium"
CLAIM_AFTER_SECONDS = 2
CHROMIUM_ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def free_port() -> int:
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return int(probe.getsockname()[1])


def wait_until_up(url: str, process: subprocess.Popen[bytes], seconds: float = 30) -> None:
    deadline = time.monotonic() + seconds
    while time.monotonic() < deadline:
        if process.poll() is not None:
            raise RuntimeError(f"tictactoe serve exited with {process.returncode}")
        try:
            with urllib.request.urlopen(url, timeout=2) as response:
                if response.status == 200:
                    return
        except OSError:
            time.sleep(0.2)
    raise RuntimeError(f"tictactoe serve did not answer at {url} within {seconds} s")


@pytest.fixture(scope="session")
def server_folder(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return tmp_path_factory.mktemp("server")


@pytest.fixture(scope="session")
def database_path(server_folder: Path) -> Path:
    """The session's server's SQLite file (a test may lock it to make the database unreachable)."""
    return server_folder / "tables.db"


@pytest.fixture(scope="session")
def base_url(server_folder: Path, database_path: Path) -> Iterator[str]:
    """The address of a fresh server, on its own SQLite file, for the whole session."""
    port = free_port()
    log = (server_folder / "serve.log").open("wb")
    process = subprocess.Popen(
        [
            *(sys.executable, "-m", "tictactoe.cli", "serve", "--port", str(port)),
            *("--database", f"sqlite:///{database_path}"),
        ],
        stdout=log,
        stderr=subprocess.STDOUT,
        # A short claim delay lets a test claim the win of a vanished opponent in seconds.
        env={
            **os.environ,
            "TICTACTOE_COMMIT": "browsertest",
            "TICTACTOE_CLAIM_AFTER_SECONDS": str(CLAIM_AFTER_SECONDS),
        },
    )
    url = f"http://127.0.0.1:{port}"
    try:
        wait_until_up(url + "/", process)
        yield url
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        log.close()


@pytest.fixture(scope="session")
def playwright() -> Iterator[Playwright]:
    with sync_playwright() as driver:
        yield driver


@pytest.fixture(scope="session")
def browser(playwright: Playwright) -> Iterator[Browser]:
    chromium = playwright.chromium.launch(executable_path=CHROMIUM, args=CHROMIUM_ARGS)
    yield chromium
    chromium.close()


NewContext = Callable[..., BrowserContext]
AXE = Path(__file__).parent / "node_modules" / "axe-core" / "axe.min.js"


@pytest.fixture(scope="session")
def serious_violations() -> Callable[[Page], list[str]]:
    """axe-core's serious and critical violations on a page (opened with `bypass_csp=True`)."""
    assert AXE.is_file(), "axe-core is missing: run scripts/setup"

    def run(page: Page) -> list[str]:
        page.add_script_tag(path=str(AXE))
        found: list[dict[str, object]] = page.evaluate(
            """async () => (await axe.run(document, {resultTypes: ["violations"]})).violations
                 .filter(v => v.impact === "serious" || v.impact === "critical")
                 .map(v => ({id: v.id, impact: v.impact,
                             nodes: v.nodes.map(n => n.target.join(" "))}))"""
        )
        return [f"{v['id']} ({v['impact']}): {v['nodes']}" for v in found]

    return run


@pytest.fixture
def new_context(browser: Browser, base_url: str) -> Iterator[NewContext]:
    """Opens separate browser contexts (separate cookies: separate people); fails the test if any
    of their pages logged a console error or threw."""
    contexts: list[BrowserContext] = []
    errors: list[str] = []

    def open_context(**options: object) -> BrowserContext:
        # A test that opens an error page on purpose (a 404, a full private table) says so.
        expects_error_pages = bool(options.pop("expects_error_pages", False))
        context = browser.new_context(base_url=base_url, **options)  # type: ignore[arg-type]
        context.set_default_timeout(10_000)

        def on_console(message: ConsoleMessage) -> None:
            if message.type != "error":
                return
            if expects_error_pages and message.text.startswith("Failed to load resource"):
                return
            errors.append(f"console: {message.text} ({message.location})")

        context.on("console", on_console)
        context.on(
            "page",
            lambda page: page.on("pageerror", lambda error: errors.append(f"page error: {error}")),
        )
        contexts.append(context)
        return context

    yield open_context
    for context in contexts:
        context.close()
    assert errors == [], "the pages logged errors:\n" + "\n".join(errors)
