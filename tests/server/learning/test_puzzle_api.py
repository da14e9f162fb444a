"""The puzzle API as the contract's "Learning" part says: a puzzle without its answer, attempts
judged move by move with the defender's reply or the refutation, the day's puzzle, bad attempts
refused with a reason; and the pages, with the contract's hooks."""

from __future__ import annotations

from starlette.testclient import TestClient

from tictactoe import Game
from tictactoe.server.learning.puzzles import all_puzzles, puzzle_by_id


def a_puzzle(win_in: int) -> str:
    return next(p.id for p in all_puzzles() if p.win_in == win_in)


def test_a_puzzle_is_its_position_length_themes_and_rating_never_its_answer(
    client: TestClient,
) -> None:
    puzzle_id = a_puzzle(3)
    answer = client.get(f"/api/puzzles/{puzzle_id}")
    assert answer.status_code == 200
    body = answer.json()
    assert set(body) == {"id", "variant", "position", "win_in", "themes", "rating"}
    assert (body["id"], body["variant"], body["win_in"]) == (puzzle_id, "ultimate", 3)
    assert Game.from_position("ultimate", body["position"]).result is None


def test_the_right_moves_get_the_defenders_replies_until_solved(client: TestClient) -> None:
    puzzle = puzzle_by_id(a_puzzle(3))
    assert puzzle is not None
    line = puzzle.line
    first = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [line[0]]}).json()
    assert (first["correct"], first["solved"], first["reply"]) == (True, False, line[1])
    assert first["steps"][1]["last_move"] == line[1]
    second = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [line[0], line[2]]})
    assert second.json()["reply"] == line[3]
    done = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": list(line[::2])}).json()
    assert (done["correct"], done["solved"]) == (True, True)
    assert done["steps"][0]["result"] == puzzle.start().turn


def test_a_wrong_move_gets_the_reply_that_beats_it(client: TestClient) -> None:
    puzzle = puzzle_by_id(a_puzzle(2))
    assert puzzle is not None
    wrong, reply = next((m, r) for m, r in puzzle.refutations[0].items() if r)
    body = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [wrong]}).json()
    assert (body["correct"], body["solved"], body["refutation"]) == (False, False, [reply])
    assert [step["last_move"] for step in body["steps"]] == [wrong, reply]
    assert "reply" not in body


def test_bad_attempts_are_refused_with_a_reason_and_unknown_puzzles_not_found(
    client: TestClient,
) -> None:
    puzzle = puzzle_by_id(a_puzzle(1))
    assert puzzle is not None
    occupied = next(c for c in ("a9", "b9", "c9", "e5", "i1") if puzzle.start().cell(c))
    refused = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [occupied]})
    assert (refused.status_code, refused.json()["reason"]) == (400, "illegal-move")
    too_many = client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": ["a1", "a2"]})
    assert (too_many.status_code, too_many.json()["reason"]) == (400, "too-many-moves")
    assert client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": []}).status_code == 422
    assert client.post(f"/api/puzzles/{puzzle.id}/attempt", json={"moves": [3]}).status_code == 422
    assert client.get("/api/puzzles/nosuch").status_code == 404
    assert client.post("/api/puzzles/nosuch/attempt", json={"moves": ["a1"]}).status_code == 404


def test_the_next_puzzle_is_near_the_rating_and_skips_the_ones_seen(client: TestClient) -> None:
    easy = client.get("/api/puzzles/next", params={"rating": 600}).json()
    hard = client.get("/api/puzzles/next", params={"rating": 2400}).json()
    assert easy["rating"] < hard["rating"]
    lowest = sorted(all_puzzles(), key=lambda p: (p.rating, p.id))[:20]
    seen = ",".join(p.id for p in lowest)
    fresh = client.get("/api/puzzles/next", params={"rating": 0, "exclude": seen}).json()
    assert fresh["id"] not in seen.split(",")
    assert client.get("/api/puzzles/next", params={"rating": -5}).status_code == 422


def test_the_daily_puzzle_is_the_same_all_day_and_changes_with_the_day(
    client: TestClient,
) -> None:
    days = [f"2026-12-{day:02d}" for day in range(1, 8)]
    ids = [client.get("/api/puzzles/daily", params={"date": d}).json()["id"] for d in days]
    assert client.get("/api/puzzles/daily", params={"date": days[0]}).json()["id"] == ids[0]
    assert len(set(ids)) > 1
    assert client.get("/api/puzzles/daily", params={"date": "someday"}).status_code == 422


def test_the_puzzle_pages_carry_the_contracts_hooks_and_a_shareable_link(
    client: TestClient,
) -> None:
    puzzle_id = a_puzzle(2)
    page = client.get(f"/puzzles/{puzzle_id}")
    assert page.status_code == 200
    assert f'data-puzzle="{puzzle_id}"' in page.text and 'data-puzzle-result=""' in page.text
    assert "data-board" in page.text and 'class="skip-link"' in page.text
    assert f"http://testserver/puzzles/{puzzle_id}" in page.text
    assert "win the game in 2 moves" in page.text
    assert client.get("/puzzles/daily").status_code == 200
    assert client.get("/puzzles").status_code == 200
    assert client.get("/puzzles/nosuch").status_code == 404


def test_the_puzzle_api_is_in_the_openapi_docs(client: TestClient) -> None:
    paths = client.get("/openapi.json").json()["paths"]
    for path in ("/api/puzzles/next", "/api/puzzles/daily", "/api/puzzles/{puzzle_id}"):
        assert "get" in paths[path]
    assert "post" in paths["/api/puzzles/{puzzle_id}/attempt"]
