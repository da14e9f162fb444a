"""Fan-out inside a process: a table's frame to each of its sockets, the same bytes, the player
waiting for a move first, the claim flag for the claimant alone, nothing older than what went;
a socket that joins gets its first frame, then every newer one, none skipped."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tictactoe.server.ops.scope import SEND_TEXT_NOW
from tictactoe.server.pubsub.memory import MemoryPubSub
from tictactoe.server.table.broadcast import channel_of
from tictactoe.server.table.envelope import decode, encode, table_body
from tictactoe.server.web.connections import Audience, Connection, Hub

X_PLAYER, O_PLAYER = "a" * 64, "b" * 64


class WrittenAtOnce:
    """A socket under `tictactoe serve`: frames written by the protocol's SEND_TEXT_NOW."""

    def __init__(self, name: str, log: list[tuple[str, str]]) -> None:
        self.scope: dict[str, Any] = {"extensions": {SEND_TEXT_NOW: self._write}}
        self.name, self.log = name, log

    def _write(self, text: str) -> bool:
        self.log.append((self.name, text))
        return True


class SentTheASGIWay:
    """A socket under another server: `send_text` is a coroutine."""

    def __init__(self, name: str, log: list[tuple[str, str]]) -> None:
        self.scope: dict[str, Any] = {"extensions": {}}
        self.name, self.log = name, log

    async def send_text(self, text: str) -> None:
        await asyncio.sleep(0)
        self.log.append((self.name, text))


def audience_of(sockets: dict[str, Any]) -> Audience:
    audience = Audience("TableIdTableIdTableId1")
    for name, socket in sockets.items():
        audience.connections.add(Connection(socket, {"x": X_PLAYER, "o": O_PLAYER}.get(name), 8))
    return audience


def moved(version: int, first: str) -> str:
    frame = f'{{"type":"moved","version":{version},"previous":{version - 1}}}'
    return encode(frame, version, [X_PLAYER], [O_PLAYER], first=first, kind="f")  # type: ignore[arg-type]


async def test_after_a_move_the_player_to_move_gets_it_first_and_everyone_the_same_bytes() -> None:
    for first in ("x", "o"):
        for _ in range(10):  # whatever order the set holds the sockets in
            log: list[tuple[str, str]] = []
            names = ["x", "o", "watcher"]
            sockets = {name: WrittenAtOnce(name, log) for name in names}
            audience_of(sockets).deliver(moved(7, first))
            assert log[0][0] == first
            assert sorted(name for name, _ in log) == sorted(names)
            assert len({text for _, text in log}) == 1


async def test_each_viewer_gets_their_seat_only_the_claimant_the_claim_and_nothing_older() -> None:
    log: list[tuple[str, str]] = []
    audience = audience_of({name: WrittenAtOnce(name, log) for name in ("x", "o", "watcher")})
    body = table_body((), '{"version":5}')
    audience.deliver(encode(body, 5, [X_PLAYER], [O_PLAYER], claimant="o"))
    frames = {name: json.loads(text) for name, text in log}
    assert {name: frame.get("can_claim_win", False) for name, frame in frames.items()} == {
        "x": False,
        "o": True,
        "watcher": False,
    }
    assert {name: frame["seat"] for name, frame in frames.items()} == {
        "x": "x",
        "o": "o",
        "watcher": "spectator",
    }
    log.clear()
    audience.deliver(moved(4, "x"))  # overtaken: version 5 went out already
    assert log == []


async def test_under_another_server_frames_go_through_a_writer_in_order() -> None:
    log: list[tuple[str, str]] = []
    audience = audience_of({"x": SentTheASGIWay("x", log)})
    for version in (2, 3, 4):
        audience.deliver(moved(version, "x"))
    for _ in range(10):
        await asyncio.sleep(0)
    assert [text for _, text in log] == [
        f'{{"type":"moved","version":{v},"previous":{v - 1}}}' for v in (2, 3, 4)
    ]


def whole_table(version: int) -> str:
    return encode(table_body((), f'{{"version":{version}}}'), version, [X_PLAYER], [O_PLAYER])


def versions_sent(log: list[tuple[str, str]]) -> list[tuple[str, int]]:
    return [
        (frame["type"], frame["version"] if "version" in frame else frame["table"]["version"])
        for frame in (json.loads(text) for _, text in log)
    ]


async def test_a_joining_socket_gets_its_first_frame_then_the_newer_frames_heard_meanwhile() -> (
    None
):
    log: list[tuple[str, str]] = []
    hub = Hub(MemoryPubSub())
    table_id = "TableIdTableIdTableId1"
    watching = Connection(WrittenAtOnce("watching", log), None, 8)  # type: ignore[arg-type]
    joining = Connection(WrittenAtOnce("joining", log), None, 8)  # type: ignore[arg-type]
    await hub.join(table_id, watching)
    hub.admit(table_id, watching, 1, decode(whole_table(1)).frame_for(None))
    await hub.join(table_id, joining)
    assert hub.connection_count == 2
    # While the joining socket's table is read (storage may be ahead of the bus, or behind it),
    # moves 2 and 3 go by: the socket already in the audience gets them, the joining one not yet.
    audience = hub._audiences[table_id]
    audience.deliver(moved(2, "o"))
    audience.deliver(moved(3, "x"))
    hub.admit(table_id, joining, 2, decode(whole_table(2)).frame_for(None))
    audience.deliver(moved(4, "o"))
    sent = {
        name: versions_sent([entry for entry in log if entry[0] == name])
        for name in ("watching", "joining")
    }
    assert sent["watching"] == [("table", 1), ("moved", 2), ("moved", 3), ("moved", 4)]
    # Move 2 is in the table it was read at: it gets move 3 after it, then move 4.
    assert sent["joining"] == [("table", 2), ("moved", 3), ("moved", 4)]


async def test_a_socket_that_leaves_before_its_first_frame_is_forgotten() -> None:
    log: list[tuple[str, str]] = []
    bus = MemoryPubSub()
    hub = Hub(bus)
    table_id = "TableIdTableIdTableId1"
    joining = Connection(WrittenAtOnce("joining", log), None, 8)  # type: ignore[arg-type]
    await hub.join(table_id, joining)
    await hub.leave(table_id, joining)
    hub.admit(table_id, joining, 1, decode(whole_table(1)).frame_for(None))
    assert log == []
    assert hub.connection_count == 0
    assert hub.closed_sockets == 1
    assert bus.subscriber_count(channel_of(table_id)) == 0


async def test_a_socket_whose_first_frame_is_ahead_of_the_bus_gets_nothing_older_than_it() -> None:
    log: list[tuple[str, str]] = []
    hub = Hub(MemoryPubSub())
    table_id = "TableIdTableIdTableId1"
    watching = Connection(WrittenAtOnce("watching", log), None, 8)  # type: ignore[arg-type]
    joining = Connection(WrittenAtOnce("joining", log), None, 8)  # type: ignore[arg-type]
    alone = Connection(WrittenAtOnce("alone", log), None, 8)  # type: ignore[arg-type]
    await hub.join(table_id, watching)
    hub.admit(table_id, watching, 1, decode(whole_table(1)).frame_for(None))
    # Storage has moves 2 to 5; the bus has brought none of them yet.
    await hub.join(table_id, joining)
    hub.admit(table_id, joining, 5, decode(whole_table(5)).frame_for(None))
    await hub.join("OtherTableOtherTable12", alone)
    hub.admit("OtherTableOtherTable12", alone, 5, decode(whole_table(5)).frame_for(None))
    for frame in (moved(2, "o"), moved(3, "x"), whole_table(3), moved(4, "o"), moved(5, "x")):
        hub._audiences[table_id].deliver(frame)
        hub._audiences["OtherTableOtherTable12"].deliver(frame)
    hub._audiences[table_id].deliver(moved(6, "o"))
    hub._audiences["OtherTableOtherTable12"].deliver(moved(6, "o"))
    sent = {
        name: versions_sent([entry for entry in log if entry[0] == name])
        for name in ("watching", "joining", "alone")
    }
    assert sent["watching"] == [
        ("table", 1),
        ("moved", 2),
        ("moved", 3),
        ("table", 3),
        ("moved", 4),
        ("moved", 5),
        ("moved", 6),
    ]
    # Never the table at 3 after the one at 5 (a page would show a move undone); move 5 again,
    # as one it has, is ignored.
    assert sent["joining"] == [("table", 5), ("moved", 5), ("moved", 6)]
    assert sent["alone"] == [("table", 5), ("moved", 5), ("moved", 6)]
