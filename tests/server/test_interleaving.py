"""Commands and reads at one table at once, interleaved where a real store awaits: the serial owner
keeps the table right (two joins from one browser, a refresh during a save)."""

from __future__ import annotations

import asyncio
import json
from typing import Any

from tictactoe.server.pubsub.memory import MemoryPubSub
from tictactoe.server.settings import Settings
from tictactoe.server.storage.memory import MemoryStorage
from tictactoe.server.table.actor import channel_of
from tictactoe.server.table.commands import PlayMove, Refused, TakeSeat
from tictactoe.server.table.envelope import decode
from tictactoe.server.table.seats import members
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
