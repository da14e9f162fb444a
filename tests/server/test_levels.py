"""The computer's levels as the site offers them: `GET /api/levels`, the API's schema, the home
page's level picker, and a table at a new level."""

from __future__ import annotations

import re
from typing import get_args

from starlette.testclient import TestClient

from tictactoe.engine import LEVELS, levels
from tictactoe.server.web.levels_api import LevelName


def test_the_levels_endpoint_lists_every_level_weakest_first_with_its_elo(
    client: TestClient,
) -> None:
    answer = client.get("/api/levels")
    assert answer.status_code == 200
    listed = answer.json()
    assert listed == levels()
    assert [level["name"] for level in listed] == list(LEVELS)
    elos = [level["elo"] for level in listed]
    assert elos == sorted(elos) and len(set(elos)) == len(elos)
    assert {"easy", "medium", "hard", "max"} <= set(LEVELS) and LEVELS[-1] == "max"


def test_the_api_accepts_exactly_the_engines_levels(client: TestClient) -> None:
    assert get_args(LevelName) == LEVELS
    for level in (LEVELS[0], LEVELS[-2]):
        body = {"variant": "ultimate", "opponent": "computer", "level": level}
        created = client.post("/api/tables", json=body)
        assert created.status_code == 201
        assert client.get(f"/api/tables/{created.json()['id']}").json()["level"] == level
    refused = client.post(
        "/api/tables", json={"variant": "ultimate", "opponent": "computer", "level": "godlike"}
    )
    assert refused.status_code == 422


def test_the_home_page_offers_every_level_weakest_first_with_its_elo(client: TestClient) -> None:
    page = client.get("/?lang=en").text
    picker = page[
        page.index('<select id="level"') : page.index("</select>", page.index('id="level"'))
    ]
    options = re.findall(r'<option value="([a-z]+)"( selected)?>([^<]+)</option>', picker)
    assert [value for value, _, _ in options] == list(LEVELS)
    assert [value for value, selected, _ in options if selected] == ["medium"]
    for (value, _, label), level in zip(options, levels(), strict=True):
        assert label.endswith(f"Elo {level['elo']}"), (value, label)
    assert "Strongest" in dict((v, t) for v, _, t in options)["max"]


def test_the_level_names_are_translated(client: TestClient) -> None:
    english = client.get("/?lang=en").text
    french = client.get("/?lang=fr").text
    assert "Novice · Elo" in english
    assert 'value="easy">Facile · Elo' in french
