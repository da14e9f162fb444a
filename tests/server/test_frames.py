"""The frames after a move: one small `moved` frame, the same bytes for every socket of the
table, which a client applies to the table it has; a client that missed frames asks for the
whole table (`sync`) and ends with the same table as the server."""

from __future__ import annotations

import json
import random
from typing import Any

from tests.server.following import both_seats_and_a_watcher, follow, next_table, socket_url


def next_moved_text(ws: Any) -> str:
    """The text of the next `moved` frame, exactly as it came (whole tables are skipped)."""
    for _ in range(20):
        text: str = ws.receive_text()
        if json.loads(text)["type"] == "moved":
            return text
    raise AssertionError("no moved frame")


def test_a_move_is_one_small_frame_the_same_bytes_for_every_socket(
    players: Any, as_browser: Any
) -> None:
    with both_seats_and_a_watcher(players, as_browser) as (x, o, watcher):
        whole = json.dumps({"type": "table", "table": next_table(watcher)}, separators=(",", ":"))
        x.send_json({"type": "move", "move": "e5"})
        texts = [next_moved_text(ws) for ws in (x, o, watcher)]
    assert texts[0] == texts[1] == texts[2]
    frame = json.loads(texts[0])
    assert frame["move"] == "e5" and frame["version"] == frame["previous"] + 1
    assert frame["changes"]["turn"] == "o" and frame["changes"]["sent_to"] == 4
    assert "seats" not in frame["changes"]  # nobody came or went
    assert len(texts[0]) * 3 < len(whole), (len(texts[0]), len(whole))


def test_each_moved_frame_brings_a_client_to_the_servers_table(
    players: Any, as_browser: Any
) -> None:
    with as_browser(players.client), players.client.websocket_connect(socket_url(players)) as ws:
        next_table(ws)
        for move, mark in zip("e5 e4 e2 e6".split(), "xoxo", strict=True):
            players.move(mark, move)
            followed = next_table(ws, lambda t, move=move: t["moves"][-1:] == [move])
            assert followed == players.table()


def test_a_client_that_missed_frames_resyncs_and_ends_with_the_servers_table(
    players: Any, as_browser: Any
) -> None:
    with as_browser(players.client), players.client.websocket_connect(socket_url(players)) as ws:
        start = next_table(ws)
        players.play("e5 e4 e2")
        # The client misses the first two moves' frames (as if lost on the way), and any whole
        # table sent before them (a watcher arriving) ...
        missed = 0
        while missed < 2:
            missed += ws.receive_json()["type"] == "moved"
        third = ws.receive_json()
        assert third["type"] == "moved" and third["version"] == start["version"] + 3
        # ... so the third does not follow its table: it asks for the whole table.
        assert follow(ws, third) is None
        whole = next_table(ws)
        assert whole["record"] == "e5 e4 e2" and whole["version"] == third["version"]
        players.play("e6 e8")
        assert next_table(ws, lambda t: t["record"].endswith("e8")) == players.table()
    assert ws.last_table["moves"] == ["e5", "e4", "e2", "e6", "e8"]


def test_the_end_of_a_game_and_the_score_come_in_the_moved_frame(new_players: Any) -> None:
    players = new_players(variant="standard", size=3)
    with players.client.websocket_connect(socket_url(players, "o")) as o:
        next_table(o)
        players.play("a1 b1 a2 b2 a3")
        over = next_table(o, lambda t: t["result"] is not None)
        assert over == players.table()
    assert (over["result"], over["ended_by"], over["score"]["x"]) == ("x", "line", 1)


def test_a_moved_frame_carries_only_what_the_move_changed(players: Any, as_browser: Any) -> None:
    with as_browser(players.client), players.client.websocket_connect(socket_url(players)) as ws:
        next_table(ws)
        players.play("e5")
        frame = json.loads(next_moved_text(ws))
    # Nobody came or went, nothing ended, no board closed, no clock: only the move's own news.
    assert set(frame["changes"]) == {
        "last_move",
        "position",
        "turn",
        "legal_moves",
        "sent_to",
        "sends_to",
    }


def test_a_whole_game_with_offers_and_a_clock_followed_frame_by_frame(
    new_players: Any, as_browser: Any
) -> None:
    """Small boards closing, a takeback and a draw offer cleared by a move, the clock, the end:
    after every move the followed table is the server's."""
    players = new_players(variant="ultimate", takebacks=True, clock_minutes=5, clock_increment=2)
    choose = random.Random(16).choice
    kinds: set[str] = set()
    with as_browser(players.client), players.client.websocket_connect(socket_url(players)) as ws:
        next_table(ws)
        for ply in range(81):
            table = players.table()
            move = choose(table["legal_moves"])
            if ply == 3:  # the player who just moved asks to take it back: the reply clears it
                assert players.post(other_mark(table["turn"]), "takeback").status_code == 200
                next_table(ws, lambda t: t["takeback_asked_by"] is not None)
            if ply == 6:  # a draw offered: the opponent's move declines it
                assert players.post(other_mark(table["turn"]), "draw").status_code == 200
                next_table(ws, lambda t: t["draw_offer"] is not None)
            assert players.move(table["turn"], move).status_code == 200
            frame = ws.receive_json()
            while frame["type"] != "moved":  # a whole table (the watcher's own arrival)
                follow(ws, frame)
                frame = ws.receive_json()
            kinds.update(frame["changes"])
            followed = follow(ws, frame)
            server = players.table()
            assert followed is not None
            # The clock runs between the two reads: compare it apart, everything else as is.
            assert {**followed, "clock": None} == {**server, "clock": None}
            assert followed["clock"]["running"] == server["clock"]["running"]
            if server["result"] is not None:
                break
    assert server["result"] is not None
    assert {"boards", "takeback_asked_by", "draw_offer", "clock", "result", "score"} <= kinds


def other_mark(mark: str) -> str:
    return "o" if mark == "x" else "x"
