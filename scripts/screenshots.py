"""Takes the screenshots in docs/, each on a desktop and a 360 px phone: the home page, an Ultimate
table mid-game, a question to answer (a takeback asked) and the review of a finished game,
or, with --languages, the home and table pages in the languages named, into docs/languages/.

Usage: uv run --frozen python scripts/screenshots.py [--languages ar ja de]. It starts its own
server on a temporary SQLite file, drives Debian's chromium, and writes
docs/table-ultimate-{desktop,phone}.png, or docs/languages/{home,table}-<language>.png (the fonts
for every script come with scripts/setup).
"""

from __future__ import annotations

import random
import socket
import subprocess
import sys
import tempfile
import time
import urllib.request
from pathlib import Path
from typing import Any

from playwright.sync_api import Browser, BrowserContext, Page, sync_playwright

DOCS = Path(__file__).resolve().parent.parent / "docs"
ARGS = [
    "--headless",
    "--no-sandbox",
    "--disable-gpu",
    "--disable-background-networking",
    "--disable-component-update",
    "--disable-sync",
]


def main(arguments: list[str]) -> int:
    languages = arguments[1:] if arguments[:1] == ["--languages"] else []
    if arguments and not languages:
        print("usage: screenshots.py [--languages CODE ...]", file=sys.stderr)
        return 2
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        port = probe.getsockname()[1]
    base = f"http://127.0.0.1:{port}"
    with tempfile.TemporaryDirectory() as folder:
        server = subprocess.Popen(
            [
                *(sys.executable, "-m", "tictactoe.cli", "serve", "--port", str(port)),
                *("--database", f"sqlite:///{folder}/tables.db"),
            ],
            stdout=subprocess.DEVNULL,
            stderr=subprocess.DEVNULL,
        )
        try:
            for _ in range(100):
                try:
                    urllib.request.urlopen(base + "/", timeout=1)
                    break
                except OSError:
                    time.sleep(0.2)
            if languages:
                shoot_languages(base, languages)
            else:
                shoot(base)
        finally:
            server.terminate()
            server.wait(timeout=10)
    return 0


def game_in_play(base: str, host: BrowserContext, guest: BrowserContext) -> tuple[str, Any]:
    """An Ultimate table 44 moves in, between `host` and `guest`: its URL and the storage state of
    the one to move (whose page shows the cells to play)."""
    table = host.request.post(base + "/api/tables", data={"variant": "ultimate"}).json()
    seat = guest.request.post(f"{base}/api/tables/{table['id']}/seats").json()
    tokens = {table["seat"]: table["token"], seat["seat"]: seat["token"]}
    rng = random.Random(11)
    state = host.request.get(f"{base}/api/tables/{table['id']}").json()
    for _ in range(44):
        state = host.request.post(
            f"{base}/api/tables/{table['id']}/moves",
            data={"move": rng.choice(state["legal_moves"])},
            headers={"Authorization": f"Bearer {tokens[state['turn']]}"},
        ).json()
    mover = host if table["seat"] == state["turn"] else guest
    return str(table["url"]), mover.storage_state()


def shoot_languages(base: str, languages: list[str]) -> None:
    """The home page and a table mid-game on a desktop, in each language."""
    folder = DOCS / "languages"
    folder.mkdir(exist_ok=True)
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        url, storage = game_in_play(base, browser.new_context(), browser.new_context())
        for language in languages:
            context = browser.new_context(
                storage_state=storage, viewport={"width": 1200, "height": 860}
            )
            page = context.new_page()
            page.goto(f"{base}/?lang={language}")
            page.screenshot(path=str(folder / f"home-{language}.png"))
            page.goto(url)
            page.locator("[data-board] button[data-move]:enabled").first.wait_for()
            page.wait_for_timeout(400)
            page.screenshot(path=str(folder / f"table-{language}.png"))
            context.close()
        browser.close()


SCREENS = {
    "desktop": {"viewport": {"width": 1200, "height": 860}},
    "phone": {
        "viewport": {"width": 360, "height": 780},
        "is_mobile": True,
        "has_touch": True,
        "device_scale_factor": 2,
    },
}


def shoot(base: str) -> None:
    with sync_playwright() as driver:
        browser = driver.chromium.launch(executable_path="/usr/bin/chromium", args=ARGS)
        for name, options in SCREENS.items():
            context = browser.new_context(**options)  # type: ignore[arg-type]
            page = context.new_page()
            page.goto(base + "/?variant=ultimate")
            page.wait_for_timeout(300)
            page.screenshot(path=str(DOCS / f"home-{name}.png"))
            context.close()
        host, guest = browser.new_context(), browser.new_context()
        table = Played(host, guest, base, takebacks=True)
        table.play(44, seed=11)
        # Mid-game, as the player to move sees it: on a desktop with the mouse over a playable
        # cell (its preview); on a phone its first screen, the thumb bar in reach.
        for name, options in SCREENS.items():
            page = table.page_of(table.mover(), browser, options)
            cells = page.locator("[data-board] button[data-move]:enabled")
            cells.first.wait_for()
            if name == "desktop":
                cells.nth(1).hover()
            page.wait_for_timeout(400)
            page.screenshot(path=str(DOCS / f"table-ultimate-{name}.png"))
            page.context.close()
        # A question: the player who just moved asks to take it back; the other sees the prompt.
        asker = table.waiting()
        table.act(asker, "takeback")
        for name, options in SCREENS.items():
            page = table.page_of(table.mover(), browser, options)
            page.locator("[data-takeback-prompt]").wait_for()
            page.wait_for_timeout(400)
            page.screenshot(path=str(DOCS / f"prompt-{name}.png"))
            page.context.close()
        table.act(table.mover(), "takeback/decline")
        table.play(200, seed=3)  # to the end
        for name, options in SCREENS.items():
            page = table.page_of("x", browser, options)
            page.goto(f"{table.url}/games/1")
            page.locator("[data-chart-box] svg polyline").wait_for(timeout=60_000)
            page.evaluate("scrollTo(0, 0)")
            page.wait_for_timeout(400)
            page.screenshot(path=str(DOCS / f"review-{name}.png"))
            page.context.close()
        browser.close()


class Played:
    """An Ultimate table of two browser contexts, played through the API."""

    def __init__(
        self, host: BrowserContext, guest: BrowserContext, base: str, **body: object
    ) -> None:
        self.base = base
        self.host = host
        table = host.request.post(base + "/api/tables", data={"variant": "ultimate", **body}).json()
        seat = guest.request.post(f"{base}/api/tables/{table['id']}/seats").json()
        self.id, self.url = table["id"], table["url"]
        self.tokens = {table["seat"]: table["token"], seat["seat"]: seat["token"]}
        self.storage = {table["seat"]: host.storage_state(), seat["seat"]: guest.storage_state()}

    def state(self) -> dict[str, Any]:
        state: dict[str, Any] = self.host.request.get(f"{self.base}/api/tables/{self.id}").json()
        return state

    def mover(self) -> str:
        return str(self.state()["turn"])

    def waiting(self) -> str:
        return "o" if self.mover() == "x" else "x"

    def play(self, moves: int, seed: int) -> None:
        rng = random.Random(seed)
        state = self.state()
        for _ in range(moves):
            if state["result"] is not None:
                return
            state = self.host.request.post(
                f"{self.base}/api/tables/{self.id}/moves",
                data={"move": rng.choice(state["legal_moves"])},
                headers={"Authorization": f"Bearer {self.tokens[state['turn']]}"},
            ).json()

    def act(self, mark: str, what: str) -> None:
        bearer = {"Authorization": f"Bearer {self.tokens[mark]}"}
        self.host.request.post(f"{self.base}/api/tables/{self.id}/{what}", headers=bearer)

    def page_of(self, mark: str, browser: Browser, options: dict[str, Any]) -> Page:
        context = browser.new_context(storage_state=self.storage[mark], **options)  # type: ignore[arg-type]
        page = context.new_page()
        page.goto(self.url)
        return page


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
