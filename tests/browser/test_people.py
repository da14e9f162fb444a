"""People at a table, in real browsers: names seen by both players (as text), a whole game at one
device, a table joined by its code, a QR code that decodes to the link, a draw offered and
accepted, two strangers paired by "Play someone now", and the watcher count."""

from __future__ import annotations

import re
import subprocess
from collections.abc import Callable
from pathlib import Path

from playwright.sync_api import BrowserContext, Page, expect
from tests.browser.test_tables import create_table, join

NewContext = Callable[..., BrowserContext]
TABLE_URL = re.compile(r"/t/[\w-]+$")


def table_id_of(page: Page) -> str:
    return page.url.rsplit("/", 1)[1]


def test_two_players_see_each_others_names_as_text(new_context: NewContext) -> None:
    host = create_table(new_context(), variant="standard")
    guest = join(new_context(), host.url)
    hostile = "<b>Ana</b>"  # refused: markup is no name
    host.locator("[data-name]").fill(hostile)
    host.locator("[data-name-form] button[type=submit]").click()
    expect(host.locator("[data-error], [data-notice]").first).to_be_attached()
    host.locator("[data-name]").fill("Ana María")
    host.locator("[data-name-form] button[type=submit]").click()
    guest.locator("[data-name]").fill("Νίκος")
    guest.locator("[data-name-form] button[type=submit]").click()
    host_mark = host.locator("[data-board]").get_attribute("data-seat")
    guest_mark = "o" if host_mark == "x" else "x"
    # Each sees their own name with "(you)" by it.
    for page, ana, nikos in (
        (host, "Ana María (you)", "Νίκος"),
        (guest, "Ana María", "Νίκος (you)"),
    ):
        expect(page.locator(f"[data-player={host_mark}] [data-player-name]")).to_have_text(ana)
        expect(page.locator(f"[data-player={guest_mark}] [data-player-name]")).to_have_text(nikos)
    assert host.locator("[data-players] b, [data-player] b").count() == 0
    # The browser offers its name again at its next table.
    again = create_table(host.context, variant="standard")
    expect(again.locator("[data-name]")).to_have_value("Ana María")


def test_a_whole_game_at_one_device(new_context: NewContext) -> None:
    page = create_table(new_context(), variant="standard", opponent="here")
    board = page.locator("[data-board]")
    for move in ("a1", "b1", "a2", "b2", "a3"):
        expect(board.locator(f"button[data-move={move}]")).to_be_enabled()
        turn = board.get_attribute("data-turn")
        board.locator(f"button[data-move={move}]").click()
        expect(board).not_to_have_attribute("data-turn", turn or "")
    expect(board).to_have_attribute("data-result", "x")
    # Both people are here: the card names each side by its mark, and nobody is to be invited.
    for mark in ("x", "o"):
        name = page.locator(f"[data-player={mark}] [data-player-name]")
        expect(name).to_have_text(f"Player {mark.upper()}")
    expect(page.locator("[data-share-card]")).to_be_hidden()
    page.locator("[data-rematch]").click()  # both people are here: the next game starts at once
    expect(board.locator("[data-mark=x], [data-mark=o]")).to_have_count(0)
    expect(board.locator("button[data-move]:enabled")).to_have_count(9)


def test_a_table_joined_by_its_code(new_context: NewContext) -> None:
    host = create_table(new_context(), variant="ultimate")
    code = host.locator("[data-code]").inner_text().strip()
    assert re.fullmatch(r"[2-9A-HJKMNP-Z]{6}", code)
    friend = new_context().new_page()
    friend.goto("/")
    friend.locator("[data-join-code]").fill(code.lower())
    friend.locator("[data-join-code]").press("Enter")
    friend.wait_for_url(f"**/t/{table_id_of(host)}")
    friend.locator("[data-join]").click()
    expect(friend.locator("[data-board]")).not_to_have_attribute("data-seat", "spectator")


def test_the_qr_code_decodes_to_the_tables_link(new_context: NewContext, tmp_path: Path) -> None:
    host = create_table(new_context(), variant="standard")
    image = host.locator("img.qr-code")
    expect(image).to_be_visible()
    shot = tmp_path / "qr.png"
    image.screenshot(path=str(shot))
    decoded = subprocess.run(
        ["zbarimg", "--quiet", "--raw", str(shot)], capture_output=True, text=True, check=True
    ).stdout.strip()
    assert decoded == host.locator("[data-share-link]").input_value()
    assert decoded.endswith(f"/t/{table_id_of(host)}")


def test_a_draw_offered_and_accepted(new_context: NewContext) -> None:
    host = create_table(new_context(), variant="ultimate", first="me")
    guest = join(new_context(), host.url)
    host.locator("[data-board] button[data-move=e5]").click()
    expect(guest.locator("[data-draw]")).to_be_visible()
    guest.locator("[data-draw]").click()
    expect(host.locator("[data-draw-prompt]")).to_contain_text("draw")
    host.locator("[data-draw]").click()
    for page in (host, guest):
        expect(page.locator("[data-board]")).to_have_attribute("data-result", "draw")
        expect(page.locator("[data-draws]")).to_have_text("1")


def test_play_someone_now_pairs_two_strangers(new_context: NewContext) -> None:
    first = new_context().new_page()
    first.goto("/?variant=standard&size=5&line=4")
    first.locator("[data-quick]").click()
    first.wait_for_url(TABLE_URL)
    table = table_id_of(first)
    watcher = new_context().new_page()
    watcher.goto("/")
    expect(watcher.locator(f"[data-open-tables] a[href='/t/{table}']")).to_have_count(1)
    second = new_context().new_page()
    second.goto("/?variant=standard&size=5&line=4")
    second.locator("[data-quick]").click()
    second.wait_for_url(f"**/t/{table}")
    expect(second.locator("[data-board]")).not_to_have_attribute("data-seat", "spectator")
    expect(first.locator("[data-board] button[data-move]:enabled").first).to_be_attached()
    # Full now: gone from the list at its next refresh.
    expect(watcher.locator(f"[data-open-tables] a[href='/t/{table}']")).to_have_count(
        0, timeout=15_000
    )


def test_the_watcher_count_rises_when_a_third_person_opens_the_link(
    new_context: NewContext,
) -> None:
    host = create_table(new_context(), variant="standard")
    join(new_context(), host.url)
    expect(host.locator("[data-watchers]")).to_have_text("0")
    spectator = new_context().new_page()
    spectator.goto(host.url)
    expect(host.locator("[data-watchers]")).to_have_text("1")
    spectator.close()
    expect(host.locator("[data-watchers]")).to_have_text("0")


def test_the_light_dark_switch_follows_the_system_then_remembers(new_context: NewContext) -> None:
    page = new_context(color_scheme="dark").new_page()
    page.goto("/")
    toggle = page.locator("[data-theme-toggle]")
    expect(toggle).to_have_attribute("aria-pressed", "true")  # the system's choice: dark
    background = "() => getComputedStyle(document.body).backgroundColor"
    dark = page.evaluate(background)
    toggle.click()
    expect(toggle).to_have_attribute("aria-pressed", "false")
    assert page.evaluate(background) != dark
    page.reload()
    expect(page.locator("html")).to_have_attribute("data-theme", "light")
    assert page.evaluate(background) != dark


def test_sound_waits_for_a_touch_and_the_mute_switch_is_remembered(
    new_context: NewContext,
) -> None:
    host_context = new_context()
    # Count the audio contexts the page makes: none may exist before the visitor touched it.
    host_context.add_init_script(
        """window.audioContexts = 0; const Real = window.AudioContext;
           window.AudioContext = class extends Real {
             constructor(...a) { super(...a); window.audioContexts += 1; } };"""
    )
    host = create_table(host_context, variant="standard", first="friend")
    guest = join(new_context(), host.url)
    guest.locator("[data-board] button[data-move=b2]").click()
    expect(host.locator("[data-board] [data-mark=x]")).to_have_count(1)
    assert host.evaluate("window.audioContexts") == 0
    host.locator("[data-board] button[data-move=a1]").click()  # the first touch
    guest.locator("[data-board] button[data-move=c3]").click()
    expect(host.locator("[data-board] [data-mark=x]")).to_have_count(2)
    host.wait_for_function("window.audioContexts === 1")
    switch = host.locator("[data-sound]")
    expect(switch).to_have_attribute("aria-pressed", "true")
    switch.click()
    expect(switch).to_have_attribute("aria-pressed", "false")
    host.reload()
    expect(host.locator("[data-sound]")).to_have_attribute("aria-pressed", "false")
