"""The table on phones and desktops: phones emulated with touch at 320, 360 and 390 px wide and a
1280 px desktop. Every language is checked on the narrowest phone (320 px), where its texts have
the least room; the languages with the longest texts (German, Greek, Finnish and French: the
longest words and the most text, see ALL_SCREENS) on every screen. No page scrolls sideways, every
cell and form control is at least 24×24 CSS px (WCAG 2.2 target size), the waiting creator sees
the share link on the first screen, and the actions of the moment (rematch, accepting a takeback,
claiming the win) appear in view without scrolling (every screen in English, the 320 px phone in
the longest languages, right to left and in Japanese). One browser: each screen is a context whose
pages load in parallel, and the tables of the takeback-to-claim check play five at once."""

from __future__ import annotations

import re
from collections.abc import Callable, Iterator
from typing import Any

import pytest
from playwright.sync_api import APIRequestContext, BrowserContext, Page, expect
from tests.browser.test_scripts import CLIPPED

from tictactoe.server.web.templating import LANGUAGES

NewContext = Callable[..., BrowserContext]
SCREENS = {320: 568, 360: 740, 390: 844, 1280: 800}
PHONES = [320, 360, 390]
# The languages whose texts are longest: by the catalogs, Greek, French and German are about 21 %
# longer than English overall, Finnish and German have the longest words (30 and 25 letters). If
# a page fits these on every screen and every language at 320 px, the wider screens have room for
# the others (English is the shortest of all).
ALL_SCREENS = ("de", "el", "fi", "fr")


def screens_for(lang: str) -> list[int]:
    return list(SCREENS) if lang in ALL_SCREENS else [320]


def screen(width: int, **options: Any) -> dict[str, Any]:
    """Context options for a screen `width` px wide (phones: touch and a mobile viewport)."""
    viewport = {"width": width, "height": SCREENS[width]}
    if width in PHONES:
        return {"viewport": viewport, "is_mobile": True, "has_touch": True, **options}
    return {"viewport": viewport, **options}


class Seated:
    """A table created and joined through the API: `tokens[mark]`, and moves by either side."""

    def __init__(self, host: APIRequestContext, guest: APIRequestContext, **body: Any) -> None:
        self.host = host
        created = host.post("/api/tables", data={"first": "me", **body})
        assert created.ok, created.text()
        table = created.json()
        self.id, self.url = table["id"], table["url"]
        joined = guest.post(f"/api/tables/{self.id}/seats")
        assert joined.ok, joined.text()
        self.tokens = {table["seat"]: table["token"], joined.json()["seat"]: joined.json()["token"]}

    def play(self, *moves: str) -> dict[str, Any]:
        table: dict[str, Any] = {}
        for move in moves:
            turn = self.host.get(f"/api/tables/{self.id}").json()["turn"]
            response = self.host.post(
                f"/api/tables/{self.id}/moves",
                data={"move": move},
                headers={"Authorization": f"Bearer {self.tokens[turn]}"},
            )
            assert response.ok, response.text()
            table = response.json()
        return table

    def act(self, mark: str, what: str) -> None:
        bearer = {"Authorization": f"Bearer {self.tokens[mark]}"}
        response = self.host.post(f"/api/tables/{self.id}/{what}", headers=bearer)
        assert response.ok, response.text()


def with_lang(path: str, lang: str) -> str:
    return f"{path}{'&' if '?' in path else '?'}lang={lang}"


SIDEWAYS_AND_SMALL = """() => {
  const small = [...document.querySelectorAll(
      "button, input:not([type=hidden]), select, summary, a.button, [data-board] .cell")]
    .filter((el) => el.checkVisibility() && !el.closest(".visually-hidden, .skip-link"))
    .map((el) => [el, el.getBoundingClientRect()])
    .filter(([, r]) => r.width < 24 || r.height < 24)
    .map(([el, r]) => `${el.outerHTML.slice(0, 80)} ${r.width.toFixed(1)}×${r.height.toFixed(1)}`);
  return {width: document.documentElement.scrollWidth, inner: innerWidth, small};
}"""


def in_view(page: Page, selector: str) -> None:
    """The element is wholly on the screen as it is now: no scrolling needed to reach it."""
    element = page.locator(selector)
    expect(element).to_be_visible()
    box = element.bounding_box()
    assert box is not None
    # The bottom edge of what may be seen: the screen's, or the fixed thumb bar's top over it.
    inner = element.evaluate(
        """el => {
          const bar = document.querySelector("[data-thumb-bar]");
          const fixed = bar && getComputedStyle(bar).position === "fixed" && !bar.contains(el);
          return [innerWidth, fixed ? bar.getBoundingClientRect().top : innerHeight];
        }"""
    )
    assert box["y"] >= 0 and box["y"] + box["height"] <= inner[1], f"{selector} at {box}, {inner}"
    assert box["x"] >= 0 and box["x"] + box["width"] <= inner[0], f"{selector} at {box}, {inner}"


@pytest.mark.parametrize("lang", list(LANGUAGES))
def test_every_page_fits_the_phone_in_every_language_and_every_screen_in_the_longest(
    new_context: NewContext, serious_violations: Callable[[Page], list[str]], lang: str
) -> None:
    # A game in play with a clock and takebacks (the longest settings line and both clocks).
    body = {"variant": "ultimate", "takebacks": True, "clock_minutes": 5, "clock_increment": 3}
    playing = Seated(new_context().request, new_context().request, **body)
    playing.play("e5", "e4", "d2")
    # Every screen's pages start loading at once; then each is checked.
    opened: dict[int, tuple[Page, list[tuple[str, Page]]]] = {}
    for width in screens_for(lang):
        # A creator waiting for the friend, on this screen: the link is on the first screen.
        creator = new_context(**screen(width)).new_page()
        created = creator.request.post("/api/tables", data={"variant": "ultimate"}).json()
        creator.goto(with_lang(created["url"], lang), wait_until="commit")
        watcher = new_context(**screen(width, bypass_csp=True))
        # A game this watcher played and finished: My games lists it, and it has a review.
        finished = Seated(watcher.request, new_context().request, variant="standard")
        finished.play("a1", "a2", "b1", "b2", "c1")
        paths = [
            *("/", "/games/standard", "/games/ultimate", "/analysis?variant=ultimate"),
            *("/my-games", playing.url, f"/t/{finished.id}/games/1", f"/t/{finished.id}/games"),
        ]
        pages = []
        for path in paths:
            page = watcher.new_page()
            page.goto(with_lang(path, lang), wait_until="commit")
            pages.append((path, page))
        opened[width] = (creator, pages)
    for width, (creator, pages) in opened.items():
        expect(creator.locator("[data-board] button[data-move]")).to_have_count(81)
        in_view(creator, "[data-share-link]")
        for path, page in [("the creator's table", creator), *pages]:
            page.wait_for_load_state("load")
            if path == "/my-games":
                expect(page.locator("[data-my-games] [data-game-row]")).to_have_count(1)
            if path == playing.url:
                expect(page.locator("[data-board] [data-mark=x]")).to_have_count(2)
                expect(page.locator("[data-clock=x]")).to_be_visible()
                # A spectator is not asked to share the link.
                expect(page.locator("[data-share-card]")).to_be_hidden()
            found = page.evaluate(SIDEWAYS_AND_SMALL)
            assert page.evaluate(CLIPPED) == [], f"{path} at {width} px: text cut off"
            assert found["width"] <= found["inner"], f"{path} scrolls sideways at {width} px"
            assert found["small"] == [], f"{path} at {width} px: targets under 24×24"
        if width == 320:
            for path, page in pages[:1] + pages[5:6]:
                assert serious_violations(page) == [], f"{path} at {width} px"
        for _, page in pages:
            page.close()


def open_on_phones(
    new_context: NewContext, width: int, lang: str = "en", **body: Any
) -> tuple[Seated, list[Page]]:
    """X and O on phones at a fresh standard table, their pages still loading."""
    contexts = [new_context(**screen(width)), new_context(**screen(width))]
    table = Seated(contexts[0].request, contexts[1].request, variant="standard", **body)
    pages = [context.new_page() for context in contexts]
    for page in pages:
        page.goto(with_lang(table.url, lang), wait_until="commit")
    return table, pages


def by_mark(pages: list[Page]) -> dict[str, Page]:
    """The loaded pages of `open_on_phones` by their seat, once each shows the empty board."""
    marked: dict[str, Page] = {}
    for page in pages:
        page.wait_for_load_state("load")
        marked[page.locator("[data-board]").get_attribute("data-seat") or ""] = page
    for page in marked.values():
        expect(page.locator("[data-board] button[data-move]")).to_have_count(9)
    return marked


def start_on_a_phone(
    new_context: NewContext, width: int, lang: str = "en", **body: Any
) -> tuple[Seated, dict[str, Page]]:
    """X and O on phones at a fresh standard table; returns (table, pages by mark)."""
    table, pages = open_on_phones(new_context, width, lang, **body)
    return table, by_mark(pages)


def all_at_once(cases: dict[str, Iterator[None]]) -> None:
    """Runs the cases side by side: a step of each in turn (a case's step ends at its `yield`), so
    what one case waits for (a page to load, a message over the socket, the server's claim delay)
    comes while the others take their steps. A failure names its case."""
    running = dict(cases)
    while running:
        for name, steps in list(running.items()):
            try:
                next(steps)
            except StopIteration:
                del running[name]
            except AssertionError as error:
                raise AssertionError(f"{name}: {error}") from error


def takeback_rematch_and_claim(new_context: NewContext, width: int, lang: str) -> Iterator[None]:
    table, pages = open_on_phones(new_context, width, lang, takebacks=True)
    yield
    marked = by_mark(pages)
    x, o = marked["x"], marked["o"]
    table.play("b2")
    yield
    expect(o.locator("[data-move=b2]")).to_have_text("X")
    table.act("x", "takeback")
    yield
    in_view(o, "[data-takeback-accept]")
    o.locator("[data-takeback-accept]").click()
    yield
    expect(x.locator("[data-move=b2]")).to_have_text("")
    table.play("a1", "a2", "b1", "b2", "c1")
    yield
    for page, ended in ((x, "won"), (o, "lost")):
        expect(page.locator("[data-play-bar]")).to_have_attribute("data-outcome", ended)
        in_view(page, "[data-rematch]")
        in_view(page, "[data-review-link]")
    expect(x.locator("[data-review-link]")).to_have_attribute("href", f"/t/{table.id}/games/1")
    if lang == "en":
        expect(x.locator("[data-status]")).to_have_text("You won")
        expect(o.locator("[data-status]")).to_have_text("You lost")
    x.locator("[data-rematch]").click()
    o.locator("[data-rematch]").click()
    yield
    # The new game: O of the first game now moves first as X; the old O's turn, then X vanishes.
    expect(o.locator("[data-board]")).to_have_attribute("data-seat", "x")
    in_view(o, "[data-board] [data-move=a3]")
    o.locator("[data-move=b2]").click()
    yield
    expect(x.locator("[data-move=b2]")).to_have_text("X")
    x.context.close()
    # Checked at once: when the claim is offered, the countdown's text changes.
    expect(o.locator("[data-claim-countdown]")).to_be_visible()
    in_view(o, "[data-claim-countdown]")
    if lang == "en":
        expect(o.locator("[data-claim-countdown]")).to_contain_text("claim the win in")
    yield
    expect(o.locator("[data-claim]")).to_be_visible(timeout=15_000)
    in_view(o, "[data-claim]")


# The moment's actions in the languages whose words are longest, one written right to left and one
# that breaks lines between characters; the phone-fit test above checks every language's texts on
# every page at 320 px. Five tables play at once: their claim delays overlap, and few enough pages
# are open that each step stays quick (fifteen tables took 118 s all at once, 104 s five at a
# time and 157 s one at a time).
ACTION_LANGUAGES = (*ALL_SCREENS, "ar", "ja")
TABLES_AT_ONCE = 5


def test_takeback_rematch_and_claim_appear_in_view_without_scrolling(
    new_context: NewContext,
) -> None:
    """On every screen in English and on the 320 px phone in the longest languages, right to left
    and in Japanese, five tables playing at once (one browser, a context per player)."""
    cases = [*((width, "en") for width in SCREENS), *((320, lang) for lang in ACTION_LANGUAGES)]
    for first in range(0, len(cases), TABLES_AT_ONCE):
        all_at_once(
            {
                f"{width} px, {lang}": takeback_rematch_and_claim(new_context, width, lang)
                for width, lang in cases[first : first + TABLES_AT_ONCE]
            }
        )


def test_on_touch_after_a_reply_only_the_board_to_play_is_highlighted(
    new_context: NewContext,
) -> None:
    context = new_context(**screen(360))
    table = Seated(context.request, new_context().request, variant="ultimate")
    page = context.new_page()
    page.goto(table.url)
    expect(page.locator("[data-board] button[data-move]:enabled")).to_have_count(81)
    page.locator("[data-move=e5]").tap()
    expect(page.locator("[data-move=e5]")).to_have_text("X")
    table.play("f6")  # O, sent to the centre board, sends X to the top-right board
    expect(page.locator("[data-move=f6]")).to_have_text("O")
    expect(page.locator("[data-board] button[data-move]:enabled")).to_have_count(9)
    page.wait_for_timeout(300)
    assert page.locator(".small-board.playable").evaluate_all(
        "els => els.map(e => e.dataset.smallBoard)"
    ) == ["2"]
    expect(page.locator(".small-board.preview")).to_have_count(0)
    expect(page.locator(".board.preview-free")).to_have_count(0)
    expect(page.locator("[data-hint]")).to_be_hidden()
    assert page.evaluate("() => document.querySelector('[data-board] .cell:focus') === null")


def test_a_reaction_does_not_move_the_board(new_context: NewContext) -> None:
    table, pages = start_on_a_phone(new_context, 360)
    board = pages["x"].locator("[data-board]")
    before = board.bounding_box()
    pages["o"].locator("[data-reaction=wow]").click()
    expect(pages["x"].locator("[data-reaction-shown]")).to_contain_text("Wow")
    assert board.bounding_box() == before
    assert table.id


def test_a_declined_takeback_is_a_passing_notice_not_an_error(new_context: NewContext) -> None:
    table, pages = start_on_a_phone(new_context, 390, takebacks=True)
    # X's page keeps time by Playwright's clock (which runs on), so the notice's 6 s pass at once.
    pages["x"].clock.install()
    table.play("b2")
    pages["x"].locator("[data-takeback]").click()
    pages["o"].locator("[data-takeback-decline]").click()
    notice = pages["x"].locator("[data-notice]")
    expect(notice).to_have_text("Your opponent declined the takeback.")
    expect(pages["x"].locator("[data-error]")).to_be_hidden()
    pages["x"].clock.fast_forward(6_000)
    expect(notice).to_be_hidden()


def test_the_computer_is_shown_thinking_on_its_turn(new_context: NewContext) -> None:
    page = new_context(**screen(360)).new_page()
    created = page.request.post(
        "/api/tables", data={"variant": "ultimate", "opponent": "computer", "first": "me"}
    ).json()
    page.goto(created["url"])
    page.locator("[data-move=e5]").tap()
    seen = page.evaluate(
        """() => new Promise((done) => {
          const board = document.querySelector("[data-board]");
          const check = () => {
            if (board.dataset.turn === "o") done(document.querySelector("[data-status]").className);
            else requestAnimationFrame(check);
          };
          check();
        })"""
    )
    assert "thinking" in seen
    expect(page.locator("[data-status]")).not_to_have_class(re.compile("thinking"), timeout=20_000)


def test_the_home_form_says_when_three_in_a_row_is_a_forced_win(new_context: NewContext) -> None:
    page = new_context(**screen(320)).new_page()
    page.goto("/")
    note = page.locator("[data-forced-win]")
    form = page.locator("form[data-create-table]")
    page.locator("[data-more-options] summary").click()
    expect(note).to_be_hidden()
    form.locator("input[name=size][value='4']").check()
    expect(note).to_be_hidden()
    form.locator("select[name=line]").select_option("3")
    expect(note).to_be_visible()
    form.locator("input[name=size][value='3']").check()
    expect(note).to_be_hidden()


def test_my_games_shows_times_in_the_viewers_time_zone(new_context: NewContext) -> None:
    context = new_context(timezone_id="Asia/Tokyo", locale="en-GB")
    table = Seated(context.request, new_context().request, variant="standard")
    table.play("a1", "a2", "b1", "b2", "c1")
    page = context.new_page()
    page.goto("/my-games")
    when = page.locator("[data-my-games] time").first
    expect(when).not_to_contain_text("UTC")
    shown, iso = when.text_content(), when.get_attribute("datetime")
    assert iso and iso.endswith("+00:00")
    # The same moment written for Tokyo (UTC+9), in the page's language.
    tokyo = page.evaluate(
        """iso => new Intl.DateTimeFormat("en", {dateStyle: "medium", timeStyle: "short",
                                                timeZone: "Asia/Tokyo"}).format(new Date(iso))""",
        iso,
    )
    assert shown == tokyo
