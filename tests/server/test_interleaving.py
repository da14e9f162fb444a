"""Commands and reads at one table at once, interleaved where a real store awaits: the serial owner
keeps the table right (two joins from one browser, a refresh during a save)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tictactoe.server.pubsub.memory import MemoryPubSub
from tictactoe.server.settings import Settings
from tictactoe.server.storage.memory import MemoryStorage
from tictactoe.server.table.broadcast import channel_of
from tictactoe.server.table.commands import (
    AskTakeback,
    OfferDraw,
    PlayMove,
    Refused,
    Resign,
    SetName,
    TakeSeat,
)
from tictactoe.server.table.envelope import decode
from tictactoe.server.table.seats import members, other
from tictactoe.server.table.tables import TableOptions, Tables
from tictactoe.server.table.tokens import hash_secret
from tictactoe.server.web.connections import Hub


class AwaitingStorage(MemoryStorage):
    """Memory storage that yields before and after each save, as a real database does."""

    async def save(self, *args: Any, **kwargs: Any) -> None:
        await asyncio.sleep(0)
        await super().save(*args, **kwargs)
        await asyncio.sleep(0)


def tables_on(storage: MemoryStorage, shared: bool = False) -> Tables:
    tables = Tables(storage, MemoryPubSub(), Settings(database_url="memory://"))
    tables.shared = shared
    return tables


async def test_joins_at_once_from_one_browser_take_one_place() -> None:
    tables = tables_on(AwaitingStorage())
    created = await tables.create(TableOptions(variant="standard", teams=True), "creator")
    table = created.table

    async def join(index: int) -> str:
        try:
            await table.apply(TakeSeat(hash_secret(f"token-{index}"), "one-browser"), None)
        except Refused as refusal:
            return f"refused {refusal.status}"
        return "seated"

    answers = await asyncio.gather(*(join(index) for index in range(4)))
    assert sorted(answers) == ["refused 409"] * 3 + ["seated"]
    browsers = [holder.client_hash for mark in ("x", "o") for holder in members(table.record, mark)]
    assert browsers.count("one-browser") == 1


async def test_a_refresh_during_a_save_waits_for_the_command() -> None:
    storage = AwaitingStorage()
    tables = tables_on(storage, shared=True)
    created = await tables.create(TableOptions(variant="standard"), "creator")
    table = created.table
    await table.apply(TakeSeat(hash_secret("guest"), "guest"), None)
    frames: list[str] = []
    await table._pubsub.subscribe(channel_of(table.id), frames.append)
    before = table.record.version
    move = asyncio.ensure_future(table.apply(PlayMove("b2"), hash_secret(created.token)))
    for _ in range(2):
        await asyncio.sleep(0)  # the move is saved now, not yet adopted
    await asyncio.gather(table.refresh(), move)
    moved = [json.loads(decode(frame).body) for frame in frames]
    moved = [frame for frame in moved if frame.get("type") == "moved"]
    assert [(frame["previous"], frame["version"]) for frame in moved] == [(before, before + 1)]


class GatedPubSub(MemoryPubSub):
    """In-process pub/sub whose subscriptions are confirmed only when the test says so."""

    def __init__(self) -> None:
        super().__init__()
        self.confirm = asyncio.Event()

    async def subscribe(self, channel: str, callback: Any) -> Any:
        unsubscribe = await super().subscribe(channel, callback)
        await self.confirm.wait()
        return unsubscribe


async def test_sockets_leaving_while_the_subscription_is_set_up_leak_nothing() -> None:
    pubsub = GatedPubSub()
    hub = Hub(pubsub)
    first, second = object(), object()
    joining = asyncio.ensure_future(hub.join("T", first))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    await hub.join("T", second)  # type: ignore[arg-type]
    await hub.leave("T", second)  # type: ignore[arg-type]
    pubsub.confirm.set()
    await joining
    assert hub.connection_count == 1
    await hub.leave("T", first)  # type: ignore[arg-type]
    assert hub.connection_count == 0 and pubsub.subscriber_count(channel_of("T")) == 0


async def test_a_socket_that_leaves_before_its_subscription_lands_leaks_nothing() -> None:
    pubsub = GatedPubSub()
    hub = Hub(pubsub)
    only = object()
    joining = asyncio.ensure_future(hub.join("T", only))  # type: ignore[arg-type]
    await asyncio.sleep(0)
    await hub.leave("T", only)  # type: ignore[arg-type]
    pubsub.confirm.set()
    await joining
    assert hub.connection_count == 0 and pubsub.subscriber_count(channel_of("T")) == 0


class YieldingStorage(MemoryStorage):
    """Memory storage whose saves yield `pauses` times first (a real store awaits there)."""

    def __init__(self, pauses: int) -> None:
        super().__init__()
        self.pauses = pauses

    async def save(self, *args: Any, **kwargs: Any) -> None:
        for _ in range(self.pauses):
            await asyncio.sleep(0)
        await super().save(*args, **kwargs)


COMMANDS = ("move", "other move", "takeback", "draw", "resign", "name")


def command_of(table: Any, action: str) -> Any:
    legal = table.game.legal_moves()
    return {
        "move": lambda: PlayMove(legal[0], table.record.version),
        "other move": lambda: PlayMove(legal[-1], table.record.version),
        "takeback": AskTakeback,
        "draw": OfferDraw,
        "resign": Resign,
        "name": lambda: SetName("Ana"),
    }[action]()


async def two_players(storage: MemoryStorage) -> tuple[Any, dict[str, str]]:
    tables = tables_on(storage)
    created = await tables.create(TableOptions(variant="standard", takebacks=True), "creator")
    table = created.table
    await table.apply(TakeSeat(hash_secret("guest"), "guest"), None)
    people = {created.mark: hash_secret(created.token), other(created.mark): hash_secret("guest")}
    await table.apply(PlayMove("b2"), people["x"])
    return table, people


async def outcome(table: Any, command: Any, by: str) -> bool:
    try:
        await table.apply(command, by)
    except Refused:
        return False
    return True


@settings(max_examples=200, deadline=None)
@given(
    first=st.tuples(st.sampled_from(("x", "o")), st.sampled_from(COMMANDS)),
    second=st.tuples(st.sampled_from(("x", "o")), st.sampled_from(COMMANDS)),
    pauses=st.integers(0, 3),
    steps=st.integers(0, 8),
)
def test_two_commands_interleaved_at_every_await_end_as_if_one_ran_after_the_other(
    first: tuple[str, str], second: tuple[str, str], pauses: int, steps: int
) -> None:
    """The second command starts `steps` loop steps after the first, that is at each of the
    first's awaits in turn (the save yields `pauses` times): the table ends as one of the two
    orders run one after the other would leave it, stored as shown, its frames in order."""

    async def at_once() -> tuple[Any, list[bool], list[int]]:
        table, people = await two_players(YieldingStorage(pauses))
        versions: list[int] = []
        await table._pubsub.subscribe(
            channel_of(table.id), lambda f: versions.append(decode(f).version)
        )
        # Both as sent: built on the table before either runs.
        sent = [command_of(table, first[1]), command_of(table, second[1])]
        one = asyncio.ensure_future(outcome(table, sent[0], people[first[0]]))
        for _ in range(steps):
            await asyncio.sleep(0)
        two = asyncio.ensure_future(outcome(table, sent[1], people[second[0]]))
        accepted = list(await asyncio.gather(one, two))
        assert table._storage._tables[table.id] == table.record  # stored as shown
        return table, accepted, versions

    async def in_order(order: tuple[int, int], commands: list[Any]) -> Any:
        table, people = await two_players(YieldingStorage(0))
        plays = (first, second)
        for index in order:
            await outcome(table, commands[index], people[plays[index][0]])
        return table.record

    async def check() -> None:
        table, accepted, versions = await at_once()
        start = versions[0] - 1 if versions else table.record.version
        assert versions == list(range(start + 1, table.record.version + 1))  # no gap, no repeat
        # The commands as sent (built on the table before either ran), in either order.
        reference, _ = await two_players(YieldingStorage(0))
        commands = [command_of(reference, first[1]), command_of(reference, second[1])]
        ends = [await in_order(order, commands) for order in ((0, 1), (1, 0))]
        shown = table.record
        assert any(
            (end.moves, end.result, end.draw_offer, end.version)
            == (shown.moves, shown.result, shown.draw_offer, shown.version)
            for end in ends
        ), (accepted, shown, ends)

    asyncio.run(check())
