"""Fan-out inside a process: a table's frame to each of its sockets, the same bytes, the player
waiting for a move first, the claim flag for the claimant alone, nothing older than what went."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tictactoe.server.ops.scope import SEND_TEXT_NOW
from tictactoe.server.table.envelope import encode, table_body
from tictactoe.server.web.connections import Audience, Connection

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
