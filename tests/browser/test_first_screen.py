"""The first screen starts a game (issue 21, change 2): the game's choice and the three ways to
start (a friend, the computer, someone now) inside the first viewport of a 320×640 and a 360×780
phone and of a desktop, where the code box and the open tables are in view too; the rest of the
settings are folded under "More options" with today's defaults."""

from __future__ import annotations

from collections.abc import Callable

import pytest
from playwright.sync_api import BrowserContext, Page, expect

NewContext = Callable[..., BrowserContext]
SCREENS = {"phone-320": (320, 640), "phone-360": (360, 780), "desktop": (1280, 800)}
# The languages with the longest texts (see test_phones.py) on the smallest phone as well.
LONGEST = ("de", "el", "fi", "fr")


def in_view(page: Page, selector: str) -> bool:
    box = page.locator(selector).bounding_box()
    size = page.viewport_size
    assert box is not None and size is not None, selector
    return (
        box["y"] >= 0
        and box["y"] + box["height"] <= size["height"]
        and box["x"] >= 0
        and box["x"] + box["width"] <= size["width"]
    )


def test_the_three_ways_to_start_are_on_the_first_screen(new_context: NewContext) -> None:
    pages: list[tuple[str, str, Page]] = []
    for name, (width, height) in SCREENS.items():
        phone = width < 600
        options = {"is_mobile": True, "has_touch": True} if phone else {}
        context = new_context(viewport={"width": width, "height": height}, **options)
        for lang in ("en", *LONGEST) if width == 320 else ("en",):
            page = context.new_page()
            page.goto(f"/?lang={lang}", wait_until="commit")
            pages.append((name, lang, page))
    for name, lang, page in pages:
        page.wait_for_load_state()
        where = f"{name} {lang}"
        for start in ("friend", "computer", "someone"):
            assert in_view(page, f"[data-start={start}]"), (where, start)
        assert in_view(page, "input[name=variant][value=ultimate] + span"), where
        assert page.evaluate("document.documentElement.scrollWidth") <= page.viewport_size["width"]  # type: ignore[index]
        if name == "desktop":
            assert in_view(page, "[data-join-code]") and in_view(page, "#open-heading"), where
        # Folded, with today's defaults: no clock, the creator first, nothing ticked.
        expect(page.locator("[data-more-options]")).not_to_have_attribute("open", "")
        assert page.locator("select[name=clock]").input_value() == "none"
        assert page.locator("input[name=first][value=me]").is_checked()
        assert page.locator("input[name=takebacks]").is_checked() is False


@pytest.mark.parametrize("scripts", [True, False], ids=["scripts", "no-scripts"])
def test_play_the_computer_starts_a_game_against_it_at_the_chosen_level(
    new_context: NewContext, scripts: bool
) -> None:
    page = new_context(java_script_enabled=scripts).new_page()
    page.goto("/?variant=ultimate")
    page.locator("select[name=level]").select_option("easy")
    page.locator("[data-start=computer]").click()
    page.wait_for_url("**/t/*")
    table = page.request.get(f"/api/tables/{page.url.rsplit('/', 1)[1]}").json()
    assert (table["variant"], table["opponent"], table["level"]) == ("ultimate", "computer", "easy")
