"""The storage suite: every `Storage` implementation must pass it: in memory, SQLite, and
PostgreSQL (a private cluster from tests/conftest.py)."""

from __future__ import annotations

import asyncio
import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine
from tests.server.records import a_table, moved

from tictactoe.server.storage import (
    DuplicateTableError,
    GameRecord,
    MoveRecord,
    SeatRecord,
    Side,
    StaleVersionError,
    Storage,
    TableRecord,
    TakenBack,
)
from tictactoe.server.storage.backends import open_storage
from tictactoe.server.storage.sql import SAVE_PATHS, SQLStorage

# Every store, and on SQL every way a save is written (`sql.SAVE_PATHS`): each must pass the suite.
STORES = [
    ("memory", None),
    *((database, path) for database, paths in SAVE_PATHS.items() for path in paths),
]


def database_url(kind: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    if kind == "postgresql":
        url: str = request.getfixturevalue("postgres_url")  # a fresh database on the cluster
        return url
    return "memory://" if kind == "memory" else f"sqlite:///{tmp_path / 'store.db'}"


@pytest.fixture(params=STORES, ids=lambda store: "/".join(filter(None, store)))
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[Storage]:
    kind, save_path = request.param
    url = database_url(kind, tmp_path, request)
    store = open_storage(url) if save_path is None else SQLStorage(url, save_path)
    await store.start()
    yield store
    await store.close()


async def test_created_table_loads_back_equal(storage: Storage) -> None:
    table = a_table(o=Side(SeatRecord(computer=True)), opponent="computer", level="max")
    await storage.create(table)
    assert await storage.load(table.id) == table


async def test_unknown_table_loads_as_none(storage: Storage) -> None:
    assert await storage.load("NoSuchTableNoSuchTable") is None


async def test_creating_the_same_id_twice_is_refused(storage: Storage) -> None:
    await storage.create(a_table())
    with pytest.raises(DuplicateTableError):
        await storage.create(a_table())


async def test_save_at_the_expected_version_replaces_and_logs_the_move(storage: Storage) -> None:
    table = a_table()
    await storage.create(table)
    after, move = moved(table, "e5")
    await storage.save(after, expected_version=1, move=move)
    assert await storage.load(table.id) == after
    assert await storage.moves(table.id) == [move]


async def test_save_at_a_stale_version_writes_nothing(storage: Storage) -> None:
    table = a_table()
    await storage.create(table)
    first, first_move = moved(table, "e5")
    await storage.save(first, expected_version=1, move=first_move)
    rival, rival_move = moved(table, "a1")
    with pytest.raises(StaleVersionError):
        await storage.save(rival, expected_version=1, move=rival_move)
    assert await storage.load(table.id) == first
    assert await storage.moves(table.id) == [first_move]


async def test_concurrent_saves_of_one_version_land_exactly_once(storage: Storage) -> None:
    table = a_table()
    await storage.create(table)
    attempts = [moved(table, move) for move in ("e5", "a1", "i9", "b2", "c3")]

    async def attempt(after: TableRecord, move: MoveRecord) -> bool:
        try:
            await storage.save(after, expected_version=1, move=move)
        except StaleVersionError:
            return False
        return True

    landed = await asyncio.gather(*(attempt(after, move) for after, move in attempts))
    assert sum(landed) == 1
    assert len(await storage.moves(table.id)) == 1
    assert (await storage.load(table.id)).version == 2  # type: ignore[union-attr]


async def test_save_of_an_unknown_table_is_stale(storage: Storage) -> None:
    with pytest.raises(StaleVersionError):
        await storage.save(a_table(), expected_version=1)


async def test_moves_are_listed_in_playing_order_across_games(storage: Storage) -> None:
    table = a_table()
    await storage.create(table)
    for move in ("e5", "e4", "d3"):
        after, record = moved(table, move)
        await storage.save(after, expected_version=table.version, move=record)
        table = after
    second = dataclasses.replace(table, game_number=2, moves=(), version=table.version + 1)
    await storage.save(second, expected_version=table.version)
    after, record = moved(second, "a1")
    await storage.save(after, expected_version=second.version, move=record)
    assert [(m.game_number, m.ply, m.move) for m in await storage.moves(table.id)] == [
        (1, 1, "e5"),
        (1, 2, "e4"),
        (1, 3, "d3"),
        (2, 1, "a1"),
    ]


async def test_table_settings_clock_and_teammates_load_back_equal(storage: Storage) -> None:
    table = a_table(
        teams=True,
        takebacks=True,
        private=True,
        clock_seconds=4.5,
        clock_increment=2.0,
        clock_since=1234.5,
        takeback_by="o",
        x=Side(
            SeatRecord("a" * 64, "c" * 64, name="Ana"),
            (SeatRecord("5" * 64, "6" * 64), SeatRecord("7" * 64, None)),
            time_left=3.25,
            score=2,
            rematch=True,
        ),
        o=Side(mates=(SeatRecord("8" * 64, "9" * 64),), time_left=4.5, score=1),
        tossed=True,
    )
    await storage.create(table)
    assert await storage.load(table.id) == table
    assert await storage.find_table_by_token_hash("7" * 64) == table.id
    assert await storage.find_table_by_token_hash("8" * 64) == table.id


async def test_a_takeback_removes_the_undone_moves_and_the_same_plies_can_be_played_again(
    storage: Storage,
) -> None:
    table = a_table()
    await storage.create(table)
    for move in ("e5", "e4", "d3"):
        after, record = moved(table, move)
        await storage.save(after, expected_version=table.version, move=record)
        table = after
    back = dataclasses.replace(table, moves=("e5",), version=table.version + 1)
    await storage.save(back, expected_version=table.version, taken_back=TakenBack(table.id, 1, 2))
    assert await storage.load(table.id) == back
    assert [m.move for m in await storage.moves(table.id)] == ["e5"]
    again, record = moved(back, "a1")
    await storage.save(again, expected_version=back.version, move=record)
    assert [(m.ply, m.move) for m in await storage.moves(table.id)] == [(1, "e5"), (2, "a1")]


async def test_a_stale_takeback_removes_nothing(storage: Storage) -> None:
    table = a_table()
    await storage.create(table)
    after, record = moved(table, "e5")
    await storage.save(after, expected_version=1, move=record)
    back = dataclasses.replace(after, moves=(), version=after.version + 1)
    with pytest.raises(StaleVersionError):
        await storage.save(back, expected_version=1, taken_back=TakenBack(table.id, 1, 1))
    assert [m.move for m in await storage.moves(table.id)] == ["e5"]


async def test_table_is_found_by_a_seat_token_hash(storage: Storage) -> None:
    await storage.create(a_table("TableOneTableOneTable1", x=Side(SeatRecord("1" * 64))))
    await storage.create(a_table("TableTwoTableTwoTable2", o=Side(SeatRecord("2" * 64))))
    assert await storage.find_table_by_token_hash("2" * 64) == "TableTwoTableTwoTable2"
    assert await storage.find_table_by_token_hash("1" * 64) == "TableOneTableOneTable1"
    assert await storage.find_table_by_token_hash("3" * 64) is None


async def test_a_save_given_the_record_it_replaces_writes_what_changed_seats_and_all(
    storage: Storage,
) -> None:
    table = a_table()
    await storage.create(table)
    after, move = moved(table, "e5")
    await storage.save(after, expected_version=1, move=move, previous=table)  # no seat changed
    assert await storage.load(table.id) == after
    seated = dataclasses.replace(after, o=Side(SeatRecord("5" * 64, "6" * 64)), version=3)
    await storage.save(seated, expected_version=2, previous=after)  # a seat taken: indexed
    assert await storage.load(table.id) == seated
    assert await storage.find_table_by_token_hash("5" * 64) == table.id
    assert [t.id for t in await storage.tables_of_client("6" * 64, 10)] == [table.id]
    # A `previous` that is not the stored version is not trusted to say what changed.
    again = dataclasses.replace(seated, x=Side(SeatRecord("7" * 64)), version=4)
    await storage.save(again, expected_version=3, previous=after)
    assert await storage.find_table_by_token_hash("7" * 64) == table.id


async def test_sqlite_keeps_tables_across_reopening(tmp_path: Path) -> None:
    url = f"sqlite:///{tmp_path / 'again.db'}"
    store = SQLStorage(url)
    await store.start()
    table = a_table()
    await store.create(table)
    after, move = moved(table, "e5")
    await store.save(after, expected_version=1, move=move)
    await store.close()
    reopened = SQLStorage(url)
    await reopened.start()  # migrations are already at head: nothing to do, nothing lost
    assert await reopened.load(table.id) == after
    await reopened.close()


async def test_sqlite_closes_after_the_saves_already_on_their_way(tmp_path: Path) -> None:
    # The move writer's connection once closed under a save still running in its thread, which
    # crashed the whole process (SIGSEGV in CI) when a server stopped mid-move.
    url = f"sqlite:///{tmp_path / 'closing.db'}"
    store = SQLStorage(url)
    await store.start()
    tables = [a_table(f"ClosingTable{n:010d}") for n in range(200)]
    for table in tables:
        await store.create(table)
    saves = [
        asyncio.ensure_future(store.save(after, expected_version=1, move=move))
        for after, move in (moved(table, "e5") for table in tables)
    ]
    await asyncio.sleep(0)  # the saves are queued on the writer's thread, none has finished
    for save in saves:
        save.cancel()  # a stopping server cancels its tasks; the thread's work goes on
    await store.close()
    reopened = SQLStorage(url)
    await reopened.start()
    versions = [(await reopened.load(table.id)).version for table in tables]  # type: ignore[union-attr]
    await reopened.close()
    assert set(versions) <= {1, 2}  # each save either landed whole or not at all


async def test_sqlite_runs_in_wal_mode(tmp_path: Path) -> None:
    store = SQLStorage(f"sqlite:///{tmp_path / 'wal.db'}")
    await store.start()
    engine = store.engine
    assert isinstance(engine, Engine)  # SQLite runs inline on the event loop
    with engine.connect() as connection:
        mode = connection.exec_driver_sql("PRAGMA journal_mode").scalar()
    await store.close()
    assert mode == "wal"


async def test_sqlite_checkpoints_in_the_background_not_in_commits(tmp_path: Path) -> None:
    path = tmp_path / "checkpoints.db"
    store = SQLStorage(f"sqlite:///{path}")
    await store.start()
    engine = store.engine
    assert isinstance(engine, Engine)
    with engine.connect() as connection:
        assert connection.exec_driver_sql("PRAGMA wal_autocheckpoint").scalar() == 0
    table = a_table()
    await store.create(table)
    for _ in range(39):
        after, move = moved(table, "e5")
        await store.save(after, expected_version=table.version, move=move)
        table = after
    await store.close()
    # Closing copied everything into the database file and emptied the log.
    wal = Path(f"{path}-wal")
    assert not wal.exists() or wal.stat().st_size == 0
    reopened = SQLStorage(f"sqlite:///{path}")
    await reopened.start()
    assert len(await reopened.moves(table.id)) == 39
    await reopened.close()


# -- games kept for looking back (migration 0003) -------------------------------------------


async def test_a_start_position_loads_back_equal(storage: Storage) -> None:
    code = "/".join(["........."] * 4 + ["....x...."] + ["........."] * 4) + " o e5"
    table = a_table(start_position=code)
    await storage.create(table)
    assert await storage.load(table.id) == table


async def test_a_finished_game_is_kept_once_and_outlives_the_next_game(storage: Storage) -> None:
    table = a_table(o=Side(SeatRecord("b" * 64, "d" * 64)))
    await storage.create(table)
    after, move = moved(table, "e5")
    over = dataclasses.replace(after, result="o", ended_by="resign", updated_at=5.0)
    await storage.save(over, expected_version=1, move=move)
    # Later saves of the same finished game (rematch requests) leave the kept game as it was.
    asked = dataclasses.replace(over.replace_side("x", rematch=True), version=3, updated_at=6.0)
    await storage.save(asked, expected_version=2)
    next_game = dataclasses.replace(
        asked, game_number=2, moves=(), result=None, ended_by=None, version=4, x=over.o, o=over.x
    )
    await storage.save(next_game, expected_version=3)
    kept = await storage.games(table.id)
    assert kept == [GameRecord.ended(over)]
    assert (kept[0].moves, kept[0].result, kept[0].ended_at) == (("e5",), "o", 5.0)
    assert (kept[0].x.client_hash, kept[0].o.client_hash) == ("c" * 64, "d" * 64)


async def test_a_browsers_games_and_tables_are_found_by_its_cookie_newest_first(
    storage: Storage,
) -> None:
    mine, theirs = "c" * 64, "e" * 64
    for n, (client, ended) in enumerate([(mine, 3.0), (theirs, 4.0), (mine, 5.0)]):
        table = a_table(f"TableIdTableIdTableId{n}", x=Side(SeatRecord("a" * 63 + str(n), client)))
        await storage.create(table)
        over = dataclasses.replace(table, result="x", ended_by="line", version=2, updated_at=ended)
        await storage.save(over, expected_version=1)
    games = await storage.games_of_client(mine, limit=10)
    assert [g.table_id for g in games] == ["TableIdTableIdTableId2", "TableIdTableIdTableId0"]
    assert [g.table_id for g in await storage.games_of_client(mine, limit=1)] == [
        "TableIdTableIdTableId2"
    ]
    tables = await storage.tables_of_client(mine, limit=10)
    assert [t.id for t in tables] == ["TableIdTableIdTableId2", "TableIdTableIdTableId0"]
    assert await storage.games_of_client("f" * 64, limit=10) == []


async def test_a_team_game_is_found_by_any_members_cookie(storage: Storage) -> None:
    mate = SeatRecord("f" * 64, "9" * 64)
    table = a_table(teams=True, o=Side(SeatRecord("b" * 64, "d" * 64), (mate,)))
    await storage.create(table)
    assert [t.id for t in await storage.tables_of_client("9" * 64, limit=10)] == [table.id]
    over = dataclasses.replace(table, result="o", ended_by="resign", version=2, updated_at=5.0)
    await storage.save(over, expected_version=1)
    (kept,) = await storage.games_of_client("9" * 64, limit=10)
    assert kept.o.clients == ("d" * 64, "9" * 64)
    assert kept == GameRecord.ended(over)


@pytest.mark.parametrize("knows_previous", [True, False], ids=["changed-columns", "whole-row"])
async def test_every_field_of_both_sides_saved_loads_back_equal(
    storage: Storage, knows_previous: bool
) -> None:
    table = a_table(teams=True, clock_seconds=60.0, clock_since=1.0)
    await storage.create(table)
    newcomer = Side(
        SeatRecord("5" * 64, "6" * 64, name="Βασίλης"),
        (SeatRecord("7" * 64, None), SeatRecord("8" * 64, "9" * 64)),
        time_left=12.5,
        score=3,
        rematch=True,
    )
    after = dataclasses.replace(
        table.replace_side("x", time_left=1.5, score=1), o=newcomer, version=2
    )
    await storage.save(after, expected_version=1, previous=table if knows_previous else None)
    assert await storage.load(table.id) == after
    assert await storage.find_table_by_token_hash("8" * 64) == table.id
    assert [t.id for t in await storage.tables_of_client("9" * 64, 10)] == [table.id]
    swapped = dataclasses.replace(after, x=after.o, o=after.x, version=3)
    await storage.save(swapped, expected_version=2, previous=after if knows_previous else None)
    assert await storage.load(table.id) == swapped
