"""`Table`, the serial owner of a table: commands in, events out, each change stored before it is
published, and the database (not process memory) deciding which of two writers wins."""

from __future__ import annotations

import dataclasses
from typing import Any

import pytest

from tictactoe.server.pubsub.memory import MemoryPubSub
from tictactoe.server.settings import Settings
from tictactoe.server.storage.memory import MemoryStorage
from tictactoe.server.table.actor import Table
from tictactoe.server.table.broadcast import channel_of
from tictactoe.server.table.commands import AskRematch, PlayMove, Refused, Resign, TakeSeat
from tictactoe.server.table.envelope import decode
from tictactoe.server.table.seats import COMPUTER
from tictactoe.server.table.tables import TableOptions, Tables
from tictactoe.server.table.tokens import hash_secret


class Clock:
    def __init__(self) -> None:
        self.now = 1000.0

    def __call__(self) -> float:
        return self.now


async def seated_table(**options: Any) -> tuple[Tables, Table, dict[str, str], list[str]]:
    """A table with both seats taken; returns the tables, the table, persons by mark, and the
    frames published on its channel."""
    storage, pubsub = MemoryStorage(), MemoryPubSub()
    tables = Tables(storage, pubsub, Settings(database_url="memory://"), clock=Clock())
    table, mark, token, _ = await tables.create(
        TableOptions(**{"variant": "ultimate", **options}), None
    )
    guest = hash_secret("guest-token")
    events = await table.apply(TakeSeat(guest, None), None)
    guest_mark = events[0].mark
    assert guest_mark is not None
    persons: dict[str, str] = {mark: hash_secret(token), guest_mark: guest}
    frames: list[str] = []
    await pubsub.subscribe(channel_of(table.id), frames.append)
    return tables, table, persons, frames


async def test_move_returns_its_event_and_bumps_the_version() -> None:
    _, table, persons, _ = await seated_table()
    events = await table.apply(PlayMove("e5"), persons["x"])
    assert [(e.kind, e.mark, e.move, e.version) for e in events] == [("moved", "x", "e5", 3)]
    assert table.record.version == 3 and table.game.record == "e5"


async def test_each_change_is_stored_before_it_is_published() -> None:
    tables, table, persons, frames = await seated_table()
    stored_when_published: list[int] = []

    def check(envelope: str) -> None:
        record = tables.storage._tables[table.id]  # type: ignore[attr-defined]
        stored_when_published.append(record.version)

    await tables.pubsub.subscribe(channel_of(table.id), check)
    await table.apply(PlayMove("e5"), persons["x"])
    assert stored_when_published == [3]
    assert decode(frames[-1]).version == 3 and '"version":3' in decode(frames[-1]).body


async def test_refused_command_stores_and_publishes_nothing() -> None:
    tables, table, persons, frames = await seated_table()
    with pytest.raises(Refused) as refused:
        await table.apply(PlayMove("e5"), persons["o"])
    assert refused.value.status == 403
    assert frames == []
    assert (await tables.storage.load(table.id)).version == 2  # type: ignore[union-attr]


async def test_the_database_decides_when_another_process_wrote_first() -> None:
    tables, table, persons, frames = await seated_table()
    # Another process (same database, its own memory) plays e5 first.
    stored = await tables.storage.load(table.id)
    assert stored is not None
    rival = dataclasses.replace(stored, moves=("e5",), version=stored.version + 1)
    await tables.storage.save(rival, expected_version=stored.version)
    with pytest.raises(Refused) as refused:
        await table.apply(PlayMove("a1"), persons["x"])
    assert refused.value.status == 409
    assert refused.value.table is not None and refused.value.table["record"] == "e5"
    # This process caught up and tells its sockets.
    assert table.game.record == "e5" and '"record":"e5"' in frames[-1]
    await table.apply(PlayMove("e4"), persons["o"])
    assert table.game.record == "e5 e4"


async def test_rematch_swaps_persons_and_scores() -> None:
    _, table, persons, _ = await seated_table(variant="standard", size=3)
    await table.apply(Resign(), persons["o"])
    await table.apply(AskRematch(), persons["x"])
    events = await table.apply(AskRematch(), persons["o"])
    assert [e.kind for e in events] == ["rematch-asked", "game-started"]
    assert table.mark_of(persons["o"]) == "x" and table.mark_of(persons["x"]) == "o"
    assert (table.record.x.score, table.record.o.score) == (0, 1)
    assert table.record.game_number == 2 and table.game.record == ""


async def test_disconnect_on_your_turn_lets_the_opponent_claim_after_the_wait() -> None:
    tables, table, persons, _ = await seated_table()
    clock: Clock = tables._clock  # type: ignore[assignment]
    await table.connect(persons["x"])
    await table.connect(persons["o"])
    await table.apply(PlayMove("e5"), persons["x"])
    await table.disconnect(persons["o"])
    assert not table.can_claim(persons["x"])
    clock.now += 59
    assert not table.can_claim(persons["x"])
    clock.now += 2
    assert table.can_claim(persons["x"]) and not table.can_claim(persons["o"])
    await table.connect(persons["o"])
    assert not table.can_claim(persons["x"])
    table.close()


async def test_computer_never_gets_a_seat_token() -> None:
    _, table, _, _ = await seated_table()
    assert table.mark_of(COMPUTER) is None
    with pytest.raises(Refused):
        await table.apply(TakeSeat(hash_secret("third"), None), None)


async def test_idle_tables_leave_memory_beyond_the_cap_and_come_back_from_storage() -> None:
    storage, pubsub = MemoryStorage(), MemoryPubSub()
    settings = Settings(database_url="memory://", max_open_tables=10)
    tables = Tables(storage, pubsub, settings, clock=Clock())
    busy, _, token, _ = await tables.create(TableOptions("standard"), None)
    await busy.connect(hash_secret(token))  # a socket keeps its table in memory
    watched, *_ = await tables.create(TableOptions("standard"), None)
    await watched.connect(None)  # so does a spectator's
    created = [await tables.create(TableOptions("standard"), None) for _ in range(10)]
    assert tables.open_count <= 10
    assert await tables.get(busy.id) is busy
    assert await tables.get(watched.id) is watched
    evicted = created[0][0]
    assert evicted.id not in tables._open
    assert tables.evicted == 12 - tables.open_count  # counted, for the garbage sweeper
    again = await tables.get(evicted.id)
    assert again is not None and again is not evicted and again.record == evicted.record
