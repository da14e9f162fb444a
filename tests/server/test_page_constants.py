"""The constants the pages' scripts share with the server come from Python only: every page
carries them (`page-constants`), and no script writes one of their lists again."""

from __future__ import annotations

import json
import re
from pathlib import Path

import pytest
from fastapi.testclient import TestClient

from tictactoe.engine.levels import NAMES as LEVEL_NAMES
from tictactoe.rules.standard import DEFAULT_LINE
from tictactoe.server.table.commands import REACTIONS
from tictactoe.server.web.page_constants import BOARD_POSITIONS, page_constants
from tictactoe.server.web.templating import STATIC_DIR

SCRIPTS = sorted(Path(STATIC_DIR).glob("*.js"))
# Each shared list, by its items: a script holding two or more of them as string literals has
# written the list again (one alone may be a single case, as `"centre"` could be).
SHARED_LISTS = {
    "levels": LEVEL_NAMES,
    "board positions": BOARD_POSITIONS,
    "reactions": REACTIONS,
}


def blob(page: str, element_id: str) -> object:
    tag = f'<script type="application/json" id="{element_id}">'
    found = re.search(re.escape(tag) + "(.*?)</script>", page, re.S)
    assert found is not None, f"no {element_id} blob in the page"
    return json.loads(found.group(1))


def test_the_blob_is_what_python_says() -> None:
    constants = page_constants()
    assert constants["levels"] == list(LEVEL_NAMES)
    assert constants["board_positions"] == list(BOARD_POSITIONS)
    assert constants["reactions"] == list(REACTIONS)
    assert {int(size): line for size, line in constants["default_line"].items()} == DEFAULT_LINE


@pytest.mark.parametrize("path", ["/", "/learn", "/puzzles", "/analysis"])
def test_every_page_carries_the_constants(client: TestClient, path: str) -> None:
    response = client.get(path)
    assert response.status_code == 200
    assert blob(response.text, "page-constants") == page_constants()


def test_the_table_page_names_every_level_and_reaction(client: TestClient) -> None:
    created = client.post("/api/tables", json={"variant": "ultimate", "opponent": "computer"})
    page = client.get(f"/t/{created.json()['id']}").text
    labels = blob(page, "level-labels")
    assert isinstance(labels, dict) and sorted(labels) == sorted(LEVEL_NAMES)  # keys sorted
    assert tuple(re.findall(r'data-reaction="([^"]+)"', page)) == REACTIONS


@pytest.mark.parametrize("script", SCRIPTS, ids=lambda path: path.name)
def test_no_script_writes_a_shared_list_again(script: Path) -> None:
    text = script.read_text()
    literals = set(re.findall(r'"([^"\n]*)"', text)) | set(re.findall(r"'([^'\n]*)'", text))
    for name, items in SHARED_LISTS.items():
        again = sorted(literals & set(items))
        assert len(again) < 2, f"{script.name} writes the {name} again: {again}"
    # The default line by size, as an object literal: `{ 3: 3, 4: 4, 5: 4 }`.
    written = ", ".join(f"{size}: {line}" for size, line in DEFAULT_LINE.items())
    assert written not in re.sub(r"\s+", " ", text), f"{script.name} writes the default line"


def test_the_check_sees_a_list_written_again() -> None:
    copied = 'const POSITIONS = ["top-left", "top-middle", "top-right"];'
    literals = set(re.findall(r'"([^"\n]*)"', copied))
    assert len(literals & set(BOARD_POSITIONS)) == 3
