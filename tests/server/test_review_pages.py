"""The pages for looking back: a table's games, a game's review, the analysis board (with the
rules' reason for a code it cannot read) and My games, each with the site's frame."""

from __future__ import annotations

import json
import re
from typing import Any

from starlette.testclient import TestClient

X_WINS = "a1 a2 b1 b2 c1"


def blob(html: str, element_id: str) -> Any:
    found = re.search(
        rf'<script type="application/json" id="{element_id}">(.*?)</script>', html, re.S
    )
    assert found, element_id
    return json.loads(found.group(1))


def test_the_review_page_carries_the_game_and_the_site_frame(
    client: TestClient, new_players: Any
) -> None:
    players = new_players(variant="standard", first="me")
    players.play(X_WINS)
    page = client.get(f"/t/{players.id}/games/1")
    assert page.status_code == 200
    game = blob(page.text, "game-data")
    assert (game["record"], game["result"], len(game["steps"])) == (X_WINS, "x", 6)
    assert 'class="skip-link"' in page.text and "v" in page.text and 'class="badge"' in page.text
    assert 'href="/my-games"' in page.text


def test_unknown_games_and_tables_get_the_not_found_page(client: TestClient, players: Any) -> None:
    assert client.get(f"/t/{players.id}/games/5").status_code == 404
    assert client.get("/t/nosuchtable/games").status_code == 404


def test_the_games_page_of_a_table_links_each_finished_game_to_its_review(
    client: TestClient, new_players: Any
) -> None:
    players = new_players(variant="standard", first="me")
    players.play(X_WINS)
    page = client.get(f"/t/{players.id}/games")
    assert f'href="/t/{players.id}/games/1"' in page.text


def test_the_analysis_board_reads_a_record_into_positions(client: TestClient) -> None:
    page = client.get("/analysis", params={"variant": "ultimate", "record": "e5 e4"})
    board = blob(page.text, "analysis-data")
    assert [step["last_move"] for step in board["steps"]] == [None, "e5", "e4"]
    assert "data-read-error" not in page.text


def test_the_analysis_board_says_why_it_cannot_read_a_code(client: TestClient) -> None:
    page = client.get("/analysis", params={"variant": "standard", "position": "xxx/.../... o"})
    assert page.status_code == 200
    assert "data-read-error" in page.text
    assert 'data-read-error-reason="mark-counts"' in page.text
    assert "Marks on the grid: X 3, O 0." in page.text
    # The board still opens, at the start, for another try.
    assert blob(page.text, "analysis-data")["steps"][0]["position"] == ".../.../... x"


def test_my_games_page_lists_the_browsers_games(client: TestClient, new_players: Any) -> None:
    players = new_players(variant="standard", first="me")
    players.play(X_WINS)
    page = client.get("/my-games")
    assert f'data-table-id="{players.id}"' in page.text
    assert f'href="/t/{players.id}/games/1"' in page.text
    # When it ended, in the page's language.
    finnish = client.get("/my-games", params={"lang": "fi"}).text
    assert re.search(
        r'<time datetime="[\d-]+T[\d:.]+\+00:00"[^>]*>\d+\.\d+\.\d{4} [\d.]+ UTC</time>', finnish
    )
