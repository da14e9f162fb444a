"""Right to left and East Asian scripts. On an Arabic or Hebrew page the layout runs right to left,
but the board is the very board of the English page (every cell in the same place, a1 bottom left),
and the words the page's script fills in (marks, cell names, numbers) are isolated so that they do
not reorder the sentence around them. CLIPPED finds text cut off by a box too small for it
(Japanese, Chinese and Korean break lines without spaces): test_phones.py runs it on every page
in every language at 320 px, on the pages it has open anyway."""

from __future__ import annotations

from collections.abc import Callable
from typing import Any

from playwright.sync_api import APIRequestContext, BrowserContext, Page, expect

NewContext = Callable[..., BrowserContext]
RIGHT_TO_LEFT = ["ar", "he"]

# Each cell's place on the board as a fraction of the board's width and height (rounded to a
# percent), by name: the same on every page that draws the same board unmirrored.
CELL_PLACES = """() => {
  const board = document.querySelector("[data-board]").getBoundingClientRect();
  return Object.fromEntries([...document.querySelectorAll("[data-board] button[data-move]")]
    .map((cell) => {
      const box = cell.getBoundingClientRect();
      return [cell.dataset.move, [Math.round(100 * (box.x - board.x) / board.width),
                                  Math.round(100 * (box.y - board.y) / board.height)]];
    }));
}"""

# Visible elements whose text is cut off: a box that hides what overflows it (overflow hidden or
# clip, or an ellipsis) while its content is wider or taller than the box. Boxes that scroll are
# left out (what they hold can be reached), and so are the visually hidden texts for screen readers
# (by class, or a 1×1 box like the table's title on a phone).
CLIPPED = """() => [...document.querySelectorAll("body *")]
  .filter((el) => el.checkVisibility() && !el.closest(".visually-hidden, .skip-link"))
  .filter((el) => el.clientWidth > 1 || el.clientHeight > 1) // a 1×1 box: for screen readers only
  .filter((el) => el.textContent.trim() !== "")
  .filter((el) => !["INPUT", "SELECT", "TEXTAREA"].includes(el.tagName))
  .filter((el) => {
    const style = getComputedStyle(el);
    const hides = (value) => value === "hidden" || value === "clip";
    const cuts = hides(style.overflowX) || style.textOverflow === "ellipsis";
    const wide = el.scrollWidth > el.clientWidth + 1 && cuts;
    const tall = el.scrollHeight > el.clientHeight + 1 && hides(style.overflowY);
    return wide || tall;
  })
  .map((el) => `${el.tagName.toLowerCase()}.${el.className} «${el.textContent.trim().slice(0, 40)}»`
    + ` ${el.scrollWidth}×${el.scrollHeight} in ${el.clientWidth}×${el.clientHeight}`)"""


def with_lang(path: str, language: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={language}"


def ultimate_game_in_play(host: APIRequestContext, guest: APIRequestContext) -> str:
    """An Ultimate table with three moves played (O to move, sent to a small board): its URL."""
    created = host.post("/api/tables", data={"variant": "ultimate", "first": "me"}).json()
    joined = guest.post(f"/api/tables/{created['id']}/seats").json()
    tokens = {created["seat"]: created["token"], joined["seat"]: joined["token"]}
    for ply, move in enumerate(("e5", "e4", "d2")):
        bearer = {"Authorization": f"Bearer {tokens['xo'[ply % 2]]}"}
        played = host.post(
            f"/api/tables/{created['id']}/moves", data={"move": move}, headers=bearer
        )
        assert played.ok, played.text()
    return str(created["url"])


def test_the_board_is_the_same_board_on_a_right_to_left_page(new_context: NewContext) -> None:
    url = ultimate_game_in_play(new_context().request, new_context().request)
    pages: dict[str, Page] = {}
    for language in ["en", *RIGHT_TO_LEFT]:  # all three load at once, as a spectator each
        pages[language] = new_context().new_page()
        pages[language].goto(with_lang(url, language), wait_until="commit")
    places: dict[str, Any] = {}
    for language, page in pages.items():
        expect(page.locator("[data-board] button[data-move]")).to_have_count(81)
        expect(page.locator("[data-move=d2]")).to_have_text("X")
        places[language] = page.evaluate(CELL_PLACES)
    english = places["en"]
    assert english["a1"][0] < english["i1"][0] and english["a9"][1] < english["a1"][1]
    for language in RIGHT_TO_LEFT:
        page = pages[language]
        expect(page.locator("html")).to_have_attribute("dir", "rtl")
        expect(page.locator("[data-board]")).to_have_css("direction", "ltr")
        assert places[language] == english, f"the board is mirrored or moved in {language}"
        # The page around the board does run right to left: the site's name is at the right.
        brand = page.locator(".brand").bounding_box()
        width = page.evaluate("() => innerWidth")
        assert brand is not None and brand["x"] + brand["width"] > width / 2, brand
        # The status names the side to move as an isolated "O", whatever words surround it.
        expect(page.locator("[data-status]")).to_contain_text("\u2068O\u2069")


def test_the_english_status_has_no_isolates(new_context: NewContext) -> None:
    """Isolates are for right-to-left pages only: a left-to-right page's text is left as it is."""
    url = ultimate_game_in_play(new_context().request, new_context().request)
    page = new_context().new_page()
    page.goto(with_lang(url, "en"))
    expect(page.locator("[data-status]")).to_contain_text("O to move")
    assert "\u2068" not in page.locator("[data-status]").inner_text()


def test_on_a_right_to_left_page_the_arrow_keys_follow_the_step_buttons(
    new_context: NewContext,
) -> None:
    """The step buttons run right to left there (Start at the right), so ← steps forward."""
    host, guest = new_context().request, new_context().request
    created = host.post("/api/tables", data={"variant": "standard", "first": "me"}).json()
    joined = guest.post(f"/api/tables/{created['id']}/seats").json()
    tokens = {created["seat"]: created["token"], joined["seat"]: joined["token"]}
    for ply, move in enumerate(("a1", "a2", "b1", "b2", "c1")):
        bearer = {"Authorization": f"Bearer {tokens['xo'[ply % 2]]}"}
        host.post(f"/api/tables/{created['id']}/moves", data={"move": move}, headers=bearer)
    page = new_context().new_page()
    page.goto(f"/t/{created['id']}/games/1?lang=he")
    review = page.locator("[data-review-page]")
    page.keyboard.press("Home")
    expect(review).to_have_attribute("data-ply", "0")
    page.keyboard.press("ArrowLeft")
    expect(review).to_have_attribute("data-ply", "1")
    page.keyboard.press("ArrowRight")
    expect(review).to_have_attribute("data-ply", "0")
    start = page.locator("[data-step=first]").bounding_box()
    end = page.locator("[data-step=last]").bounding_box()
    assert start is not None and end is not None and start["x"] > end["x"]
