"""The HTML pages: the language each is rendered in, what every page carries (skip link, Beta
badge, footer with version and commit), the home form's fields, and the table page's seat."""

from __future__ import annotations

import re

import pytest
from starlette.testclient import TestClient
from tests.server.script_strings import page_strings

from tictactoe.server.web import templating
from tictactoe.server.web.templating import LANGUAGES, STATIC_DIR, language_tag

PAGES = ["/", "/games/standard", "/games/ultimate"]


def html_lang(html: str) -> str:
    found = re.search(r'<html lang="([^"]+)"', html)
    assert found, "no <html lang>"
    return found.group(1)


@pytest.mark.parametrize("path", PAGES)
def test_every_page_has_a_skip_link_a_beta_badge_and_the_footer_with_version_and_commit(
    client: TestClient, path: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("TICTACTOE_COMMIT", "abc1234")
    templating.build_info.cache_clear()
    try:
        html = client.get(path).text
    finally:
        templating.build_info.cache_clear()
    assert '<a class="skip-link" href="#main">' in html
    assert '<main id="main"' in html
    assert '<span class="badge">Beta</span>' in html
    version = templating.build_info().version
    assert f"v{version} · abc1234" in html
    assert "No registration. Share the link and start playing." in html


@pytest.mark.parametrize("language", list(LANGUAGES))
def test_lang_query_chooses_the_language_and_is_remembered_in_a_cookie(
    client: TestClient, language: str
) -> None:
    response = client.get(f"/?lang={language}")
    assert html_lang(response.text) == language_tag(language)
    assert response.cookies.get("lang") == language
    assert html_lang(client.get("/games/ultimate").text) == language_tag(language)


def test_the_query_beats_the_cookie_which_beats_accept_language(client: TestClient) -> None:
    client.cookies.set("lang", "sv")
    headers = {"Accept-Language": "cs,en;q=0.5"}
    assert html_lang(client.get("/?lang=fi", headers=headers).text) == "fi"
    client.cookies.clear()
    client.cookies.set("lang", "sv")
    assert html_lang(client.get("/", headers=headers).text) == "sv"
    client.cookies.clear()
    assert html_lang(client.get("/", headers=headers).text) == "cs"


def test_an_unknown_language_falls_back_to_english(client: TestClient) -> None:
    response = client.get("/?lang=xx", headers={"Accept-Language": "sw-KE,sw;q=0.9"})
    assert html_lang(response.text) == "en"
    assert "lang" not in response.cookies


def test_the_home_form_has_the_fields_of_the_api(client: TestClient) -> None:
    html = client.get("/").text
    assert "data-create-table" in html
    for name in ("variant", "size", "line", "first", "opponent", "level"):
        assert f'name="{name}"' in html
    assert '<button type="submit"' in html


def test_game_pages_link_to_the_home_form_with_the_game_preselected(client: TestClient) -> None:
    html = client.get("/games/ultimate").text
    assert 'href="/?variant=ultimate&amp;opponent=computer"' in html
    home = client.get("/?variant=ultimate&opponent=computer").text
    assert re.search(r'name="variant" value="ultimate"\s+checked', home)
    assert re.search(r'<input type="hidden" name="opponent" value="computer">', home)
    assert re.search(r'data-start="computer"\s+class="button big primary"', home)


def test_the_table_page_renders_the_viewers_seat_and_the_share_link(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "ultimate", "first": "me"}).json()
    html = client.get(f"/t/{created['id']}").text
    assert 'data-seat="x"' in html
    assert 'data-variant="ultimate"' in html
    assert f'value="{created["url"]}"' in html
    client.cookies.clear()
    assert 'data-seat="spectator"' in client.get(f"/t/{created['id']}").text


def test_an_unknown_table_is_a_404_page(client: TestClient) -> None:
    response = client.get("/t/AAAAAAAAAAAAAAAAAAAAAA")
    assert response.status_code == 404
    assert 'class="skip-link"' in response.text


def test_the_home_form_works_without_javascript(client: TestClient) -> None:
    response = client.post(
        "/tables",
        data={"variant": "standard", "size": "4", "line": "3", "first": "friend"},
        follow_redirects=False,
    )
    assert response.status_code == 303
    html = client.get(response.headers["location"]).text
    assert 'data-seat="o"' in html
    assert 'data-size="4"' in html


def test_the_language_menu_keeps_the_pages_other_choices(client: TestClient) -> None:
    html = client.get("/?variant=ultimate&opponent=computer&lang=sv").text
    assert 'href="?variant=ultimate&amp;opponent=computer&amp;lang=cs" lang="cs"' in html


def script_keys(name: str) -> set[str]:
    """The English keys a script asks `t()` for, with the board phrases spelled out."""
    source = (STATIC_DIR / name).read_text()
    keys = set(re.findall(r'\bt\("([^"]+)"', source))
    for template in re.findall(r"\bt\(`([^`]+)`\)", source):
        positions = re.search(r"const POSITIONS = \[(.*?)\];", source, re.S)
        assert positions, template
        for position in re.findall(r'"([\w-]+)"', positions.group(1)):
            keys.add(re.sub(r"\$\{POSITIONS\[i\]\}", position, template))
    for value in re.findall(r'\b\w+: "([A-Z][a-z]+)"', source):  # the computer's level names
        keys.add(value)
    return keys


def test_every_string_the_scripts_show_comes_translated_with_the_page(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "ultimate"}).json()
    table_strings = page_strings(client, client.get(f"/t/{created['id']}?lang=fi").text)
    assert script_keys("table.js") - set(table_strings) == set()
    assert "must play in the top-right board" in table_strings
    home_strings = page_strings(client, client.get("/?lang=fi").text)
    assert script_keys("home.js") - set(home_strings) == set()
