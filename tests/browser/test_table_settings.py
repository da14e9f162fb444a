"""Table settings in real browsers: a 2-vs-2 team game in four contexts, a takeback refused and one
accepted (with a quick reaction on the way), and a game on the clock lost on time."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import BrowserContext, Page, expect
from tests.helpers import create_table, join

NewContext = Callable[..., BrowserContext]
MARKED = "[data-board] [data-mark=x], [data-board] [data-mark=o]"


def seat_of(page: Page) -> str:
    seat = page.locator("[data-board]").get_attribute("data-seat")
    assert seat in ("x", "o")
    return seat


def play(page: Page, move: str, marks_after: int) -> None:
    page.locator(f"[data-board] button[data-move={move}]").click()
    expect(page.locator(MARKED)).to_have_count(marks_after)


def test_the_creator_closes_the_teams_from_the_home_form(new_context: NewContext) -> None:
    page = new_context().new_page()
    page.goto("/")
    page.locator("[data-more-options] summary").click()
    closed = page.locator("form[data-create-table] [name=teams_closed]")
    expect(closed).to_be_hidden()  # it counts only for a team table
    page.locator("form[data-create-table] [name=teams]").check()
    expect(closed).to_be_visible()
    page.close()
    table = create_table(new_context(), "teams", "teams_closed")
    table_id = table.url.rsplit("/", 1)[-1]
    settings = table.request.get(f"/api/tables/{table_id}").json()
    assert settings["teams"] is True and settings["teams_open"] is False


def test_a_two_against_two_team_game_in_four_browsers(new_context: NewContext) -> None:
    alice = create_table(new_context(), "teams")
    others = [join(new_context(), alice.url) for _ in range(3)]
    pages = [alice, *others]
    sides: dict[str, list[Page]] = {"x": [], "o": []}
    for page in pages:
        sides[seat_of(page)].append(page)
    assert len(sides["x"]) == 2 and len(sides["o"]) == 2
    for page in pages:
        expect(page.locator("[data-player=x] [data-members] li")).to_have_count(2)
        expect(page.locator("[data-player=o] [data-members] li")).to_have_count(2)
        mine = page.locator(f"[data-player={seat_of(page)}] [data-members] li")
        expect(mine.filter(has_text="You")).to_have_count(1)
        expect(mine.locator("[data-state=online]")).to_have_count(2)
    # Members of a side take turns moving for it; the other side's board stays shut meanwhile.
    (x1, x2), (o1, o2) = sides["x"], sides["o"]
    play(x1, "a1", 1)
    expect(x2.locator("[data-board] button[data-move]:enabled")).to_have_count(0)
    play(o1, "a2", 2)
    play(x2, "b2", 3)
    play(o2, "a3", 4)
    play(x1, "c3", 5)
    for page in pages:
        expect(page.locator("[data-board]")).to_have_attribute("data-result", "x")
    # One member leaving does not leave the side unattended.
    o2.context.close()
    expect(x1.locator("[data-player=o] [data-members] [data-state=offline]")).to_have_count(1)
    expect(x1.locator("[data-player=o] > td > [data-presence]")).to_have_attribute(
        "data-state", "online"
    )


def test_a_takeback_refused_then_one_accepted(new_context: NewContext) -> None:
    alice = create_table(new_context(), "takebacks")
    bob = join(new_context(), alice.url)
    x, o = (alice, bob) if seat_of(alice) == "x" else (bob, alice)
    play(x, "b2", 1)
    expect(o.locator(MARKED)).to_have_count(1)
    x.locator("[data-takeback]").click()
    expect(o.locator("[data-takeback-prompt]")).to_be_visible()
    o.locator("[data-takeback-decline]").click()
    expect(x.locator("[data-notice]")).to_contain_text("declined")
    expect(x.locator(MARKED)).to_have_count(1)
    # A quick reaction reaches the other player, shown in words.
    x.locator("[data-reaction=oops]").click()
    expect(o.locator("[data-reaction-shown]")).to_contain_text("Oops")
    x.locator("[data-takeback]").click()
    o.locator("[data-takeback-accept]").click()
    for page in (x, o):
        expect(page.locator(MARKED)).to_have_count(0)
        expect(page.locator("[data-board]")).to_have_attribute("data-turn", "x")
    expect(x.locator("[data-board] button[data-move]:enabled")).to_have_count(9)


def test_a_game_on_the_clock_is_lost_on_time(new_context: NewContext) -> None:
    context = new_context()
    alice = context.new_page()
    alice.goto("/")  # the browser's cookie first, so the table is bound to it
    body = {"variant": "standard", "first": "me", "clock_minutes": 0.05}  # 3 s each
    created = context.request.post("/api/tables", data=body)
    assert created.ok
    alice.goto(created.json()["url"])
    bob = join(new_context(), alice.url)
    clock = alice.locator("[data-clock=x]")
    expect(clock).to_be_visible()
    # Each side's first move is free: the clock waits until both have moved once.
    expect(clock).to_have_attribute("data-running", "")
    alice.locator("[data-board] [data-move=b2]").click()
    expect(clock).to_have_attribute("data-running", "")
    bob.locator("[data-board] [data-move=a1]").click()
    expect(clock).to_have_attribute("data-running", "true")
    before = clock.inner_text()
    expect(clock).not_to_have_text(before)  # it ticks on the page
    for page in (alice, bob):
        expect(page.locator("[data-board]")).to_have_attribute("data-result", "o", timeout=8_000)
        expect(page.locator("[data-status]")).to_contain_text("ran out of time")
        expect(page.locator("[data-clock=x]")).to_have_text("0:00.0")
    expect(alice.locator("[data-board] button[data-move]:enabled")).to_have_count(0)
