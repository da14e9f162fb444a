"""Every form the site serves works from a real browser (issue 21, B1): the private page's join
button taken by a friend in a second browser context, the home form and "Play someone now"
posted without scripts; and an error the server sends to a page is a page, 404s included."""

from __future__ import annotations

from collections.abc import Callable

from playwright.sync_api import BrowserContext, expect

NewContext = Callable[..., BrowserContext]
PHONE = {"viewport": {"width": 360, "height": 780}, "is_mobile": True, "has_touch": True}


def test_a_friend_joins_a_private_table_through_its_page(new_context: NewContext) -> None:
    host = new_context(**PHONE).new_page()
    host.goto("/?private=on&variant=ultimate")
    host.locator("[data-start=friend]").click()
    host.wait_for_url("**/t/*")
    link = host.locator("[data-share-link]").first
    expect(link).to_have_value(host.url.split("?")[0], timeout=10_000)
    friend = new_context(**PHONE).new_page()
    friend.goto(host.url)
    friend.locator("[data-join]").click()
    friend.wait_for_url(host.url.split("?")[0])
    expect(friend.locator("[data-board]")).to_have_attribute("data-seat", "o")
    # The seat is the friend's: a third person is no longer offered it.
    third = new_context(**PHONE, expects_error_pages=True).new_page()
    assert third.goto(host.url).status == 409  # type: ignore[union-attr]
    expect(third.locator("h1")).to_be_visible()
    assert third.locator("[data-join]").count() == 0


def test_the_forms_work_without_scripts(new_context: NewContext) -> None:
    visitor = new_context(java_script_enabled=False).new_page()
    visitor.goto("/?variant=ultimate")
    visitor.locator("[data-start=friend]").click()
    visitor.wait_for_url("**/t/*")
    assert visitor.locator("[data-board]").get_attribute("data-variant") == "ultimate"
    stranger = new_context(java_script_enabled=False, expects_error_pages=True).new_page()
    stranger.goto("/")
    stranger.locator("[data-start=someone]").click()
    stranger.wait_for_url("**/t/*")
    assert stranger.locator("[data-board]").count() == 1
    stranger.goto("/")
    stranger.locator("[data-join-code]").fill("nope")
    stranger.locator("[data-join-code]").press("Enter")
    expect(stranger.locator("h1")).to_be_visible()


def test_an_unknown_address_is_a_page_in_the_visitors_language(new_context: NewContext) -> None:
    page = new_context(locale="de-DE", expects_error_pages=True).new_page()
    answer = page.goto("/some/other/page")
    assert answer is not None and answer.status == 404
    assert answer.headers["content-type"].startswith("text/html")
    expect(page.locator("html")).to_have_attribute("lang", "de")
    expect(page.locator("[data-error=not_found]")).to_be_visible()
    page.locator("a.button.primary").click()
    page.wait_for_url("**/")
