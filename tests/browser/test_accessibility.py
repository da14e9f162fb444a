"""axe-core (from npm, see tests/browser/package.json) finds no serious or critical accessibility
violation on any page in any language, in light and dark; and every page says its language."""

from __future__ import annotations

from collections.abc import Callable, Iterator

import pytest
from playwright.sync_api import APIRequestContext, Browser, BrowserContext, Page, expect

from tictactoe.server.web.templating import LANGUAGES, language_tag

NewContext = Callable[..., BrowserContext]
PAGES = ["/", "/games/standard", "/games/ultimate", "/analysis", "/my-games"]
# The dark scheme changes colours, not words: contrast is checked in dark in English and in
# Finnish (long words, text that wraps), and in light in every language. This keeps the browser
# run within the test command's time budget.
DARK_TOO = {"en", "fi"}


def a_table_mid_game(host: APIRequestContext, guest: APIRequestContext) -> str:
    """An Ultimate table some moves in (seen by the tests from a third browser)."""
    created = host.post("/api/tables", data={"variant": "ultimate", "first": "me"})
    assert created.ok
    table = created.json()
    joined = guest.post(f"/api/tables/{table['id']}/seats")
    assert joined.ok
    tokens = {table["seat"]: table["token"], joined.json()["seat"]: joined.json()["token"]}
    state = host.get(f"/api/tables/{table['id']}").json()
    for _ in range(12):
        mover = state["turn"]
        move = sorted(state["legal_moves"])[0]
        response = host.post(
            f"/api/tables/{table['id']}/moves",
            data={"move": move},
            headers={"Authorization": f"Bearer {tokens[mover]}"},
        )
        assert response.ok, response.text()
        state = response.json()
    return str(table["url"])


def a_finished_game_review(host: APIRequestContext, guest: APIRequestContext) -> str:
    """The review page of a 3×3 game X won in five moves."""
    table = host.post("/api/tables", data={"variant": "standard", "first": "me"}).json()
    tokens = {
        "x": table["token"],
        "o": guest.post(f"/api/tables/{table['id']}/seats").json()["token"],
    }
    for ply, move in enumerate("a1 a2 b1 b2 c1".split()):
        response = host.post(
            f"/api/tables/{table['id']}/moves",
            data={"move": move},
            headers={"Authorization": f"Bearer {tokens['xo'[ply % 2]]}"},
        )
        assert response.ok, response.text()
    return f"/t/{table['id']}/games/1"


@pytest.fixture(scope="module")
def games(browser: Browser, base_url: str) -> Iterator[tuple[str, str]]:
    """(a table mid-game, a finished game's review): made once, read in every language."""
    host, guest = (browser.new_context(base_url=base_url) for _ in range(2))
    yield (
        a_table_mid_game(host.request, guest.request),
        a_finished_game_review(host.request, guest.request),
    )
    host.close()
    guest.close()


@pytest.mark.parametrize("language", LANGUAGES)
def test_no_serious_accessibility_violations_on_any_page(
    new_context: NewContext,
    serious_violations: Callable[[Page], list[str]],
    games: tuple[str, str],
    language: str,
) -> None:
    table_url, review = games
    for scheme in ("light", "dark") if language in DARK_TOO else ("light",):
        # Injecting axe-core is an inline script, which the site's CSP rightly refuses.
        page = new_context(color_scheme=scheme, bypass_csp=True).new_page()
        for path in [*PAGES, table_url, review, review.rsplit("/", 1)[0]]:
            separator = "&" if "?" in path else "?"
            page.goto(f"{path}{separator}lang={language}")
            expect(page.locator("html")).to_have_attribute("lang", language_tag(language))
            if path == table_url:
                expect(page.locator("[data-board] button[data-move]")).to_have_count(81)
            if path == review:  # checked with its chart drawn
                expect(page.locator("[data-review-page]")).to_have_attribute(
                    "data-analysis", "ready", timeout=30_000
                )
            assert serious_violations(page) == [], f"{path} in {language}, {scheme}"
