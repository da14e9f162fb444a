"""Tables and games stored under every schema (each migration's revision) read back, once the
database is brought to the head, as the records they were: rows written as each revision wrote
them (columns of that revision only, by plain SQL), on SQLite and on PostgreSQL."""

from __future__ import annotations

import dataclasses
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from alembic import command
from alembic.script import ScriptDirectory
from sqlalchemy.ext.asyncio import create_async_engine
from tests.server.records import a_table

from tictactoe.server.storage import (
    GameRecord,
    MoveRecord,
    PlayedSide,
    SeatRecord,
    Side,
    TableRecord,
)
from tictactoe.server.storage.migrate import alembic_config
from tictactoe.server.storage.sql import SAVE_PATHS, SQLStorage, async_database_url

TABLE_ID = "OldTableOldTableOldTab"
HOLDER_X, CLIENT_X, HOLDER_O, CLIENT_O = "1" * 64, "2" * 64, "3" * 64, "4" * 64
MATE, MATE_CLIENT, LONE_MATE = "5" * 64, "6" * 64, "7" * 64

# A team table on the clock whose second game X has just won, O asking for a rematch, as each
# revision's `tables` row held it: the columns each revision added, in order.
TABLE_COLUMNS: dict[str, dict[str, Any]] = {
    "0001": {
        "id": TABLE_ID,
        "variant": "standard",
        "size": 3,
        "line": 3,
        "opponent": "friend",
        "level": None,
        "game_number": 2,
        "record": "a1 b1 a2 b2 a3",
        "result": "x",
        "ended_by": "line",
        "version": 9,
        "x_token_hash": HOLDER_X,
        "x_client_hash": CLIENT_X,
        "x_computer": False,
        "o_token_hash": HOLDER_O,
        "o_client_hash": CLIENT_O,
        "o_computer": False,
        "score_x": 2,
        "score_o": 0,
        "draws": 1,
        "rematch_x": False,
        "rematch_o": True,
        "created_at": 100.0,
        "updated_at": 160.0,
    },
    "0002": {
        "teams": True,
        "takebacks": True,
        "private": True,
        "clock_seconds": 300.0,
        "clock_increment": 2.0,
        "x_time": 250.5,
        "o_time": 280.0,
        "clock_since": None,
        "takeback_by": None,
        "x_mates": f"{MATE}:{MATE_CLIENT} {LONE_MATE}:-",
        "o_mates": "",
    },
    "0003": {"start_position": None},
    "0004": {},
    "0005": {
        "code": "ABCDEF",
        "public": False,
        "draw_offer": None,
        "x_name": "Ana",
        "o_name": "Βασίλης",
    },
    "0006": {"teams_open": False},
    "0007": {"tossed": True},
}
# The first game at the table, kept as it ended (from 0003; its teammates from 0004).
GAME_COLUMNS: dict[str, dict[str, Any]] = {
    "0003": {
        "table_id": TABLE_ID,
        "game_number": 1,
        "variant": "standard",
        "size": 3,
        "line": 3,
        "start_position": None,
        "record": "a1 b1 a2 b2 a3",
        "result": "x",
        "ended_by": "line",
        "x_client_hash": CLIENT_O,
        "o_client_hash": CLIENT_X,
        "x_computer": False,
        "o_computer": False,
        "level": None,
        "ended_at": 120.0,
    },
    "0004": {"x_mates": "", "o_mates": MATE_CLIENT},
}
MOVES = [(2, ply, move, 150.0 + ply) for ply, move in enumerate("a1 b1 a2 b2 a3".split(), 1)]
REVISIONS = list(TABLE_COLUMNS)

# The table as the head reads it; a field that came with a later revision than the database's
# reads as that revision's default.
TABLE = a_table(
    TABLE_ID,
    variant="standard",
    size=3,
    game_number=2,
    moves=("a1", "b1", "a2", "b2", "a3"),
    result="x",
    ended_by="line",
    version=9,
    x=Side(
        SeatRecord(HOLDER_X, CLIENT_X, name="Ana"),
        (SeatRecord(MATE, MATE_CLIENT), SeatRecord(LONE_MATE, None)),
        time_left=250.5,
        score=2,
        rematch=False,
    ),
    o=Side(SeatRecord(HOLDER_O, CLIENT_O, name="Βασίλης"), (), 280.0, 0, rematch=True),
    draws=1,
    created_at=100.0,
    updated_at=160.0,
    teams=True,
    teams_open=False,
    takebacks=True,
    private=True,
    clock_seconds=300.0,
    clock_increment=2.0,
    code="ABCDEF",
    tossed=True,
)
GAME = GameRecord(
    table_id=TABLE_ID,
    game_number=1,
    variant="standard",
    size=3,
    line=3,
    start_position=None,
    moves=TABLE.moves,
    result="x",
    ended_by="line",
    x=PlayedSide(CLIENT_O),
    o=PlayedSide(CLIENT_X, mates=(MATE_CLIENT,)),
    level=None,
    ended_at=120.0,
)


def expected_table(revision: str) -> TableRecord:
    """`TABLE` as a database left at `revision` holds it, read at the head (the code a later
    revision draws for it aside)."""
    table = TABLE
    if revision < "0007":
        table = dataclasses.replace(table, tossed=False)
    if revision < "0006":
        table = dataclasses.replace(table, teams_open=True)
    if revision < "0005":
        table = table.replace_side("x", holder=SeatRecord(HOLDER_X, CLIENT_X))
        table = table.replace_side("o", holder=SeatRecord(HOLDER_O, CLIENT_O))
    if revision < "0002":
        table = dataclasses.replace(
            table,
            x=Side(table.x.holder, score=2),
            o=Side(table.o.holder, rematch=True),
            teams=False,
            takebacks=False,
            private=False,
            clock_seconds=None,
            clock_increment=0.0,
        )
    return table


def expected_games(revision: str) -> list[GameRecord]:
    if revision < "0003":
        return []
    return [GAME if revision >= "0004" else dataclasses.replace(GAME, o=PlayedSide(CLIENT_X))]


def columns_at(columns: dict[str, dict[str, Any]], revision: str) -> dict[str, Any]:
    return {k: v for r, added in columns.items() if r <= revision for k, v in added.items()}


def store_as_at(connection: sa.Connection, revision: str) -> None:
    """The schema as `revision` left it, and the rows as that version of the site wrote them."""
    command.upgrade(alembic_config(connection), revision)
    row = columns_at(TABLE_COLUMNS, revision)
    connection.execute(sa.table("tables", *map(sa.column, row)).insert(), row)
    names = ("table_id", "game_number", "ply", "move", "played_at")
    moves = [dict(zip(names, (TABLE_ID, *move), strict=True)) for move in MOVES]
    connection.execute(sa.table("moves", *map(sa.column, names)).insert(), moves)
    if revision >= "0003":
        game = columns_at(GAME_COLUMNS, revision)
        connection.execute(sa.table("games", *map(sa.column, game)).insert(), game)
    if revision >= "0006":  # teammates' tokens by index, written with the table
        tokens = [{"token_hash": token, "table_id": TABLE_ID} for token in (MATE, LONE_MATE)]
        columns = (sa.column("token_hash"), sa.column("table_id"))
        connection.execute(sa.table("team_tokens", *columns).insert(), tokens)


def test_every_revision_is_tried() -> None:
    """A new migration comes with its columns here, so databases left just before it are tried."""
    scripts = ScriptDirectory.from_config(alembic_config())
    assert sorted(script.revision for script in scripts.walk_revisions()) == REVISIONS


@pytest.mark.parametrize("revision", REVISIONS)
@pytest.mark.parametrize("database", list(SAVE_PATHS))
async def test_a_table_stored_at_an_earlier_revision_reads_back_and_plays_on_at_the_head(
    database: str, revision: str, tmp_path: Path, request: pytest.FixtureRequest
) -> None:
    if database == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
    else:
        url = f"sqlite:///{tmp_path / 'old.db'}"
    engine = create_async_engine(async_database_url(url))
    async with engine.begin() as connection:
        await connection.run_sync(store_as_at, revision)
    await engine.dispose()
    store = SQLStorage(url)
    await store.start()  # brings the schema to the head
    try:
        loaded = await store.load(TABLE_ID)
        assert loaded is not None and loaded.code is not None and len(loaded.code) == 6
        assert dataclasses.replace(loaded, code="ABCDEF") == expected_table(revision)
        assert await store.moves(TABLE_ID) == [MoveRecord(TABLE_ID, *move) for move in MOVES]
        assert await store.games(TABLE_ID) == expected_games(revision)
        teammate_found = TABLE_ID if revision >= "0002" else None
        assert await store.find_table_by_token_hash(LONE_MATE) == teammate_found
        assert await store.find_table_by_token_hash(HOLDER_O) == TABLE_ID
        # ... and the table goes on: X asks for the rematch too, and the next game starts.
        asked = dataclasses.replace(loaded.replace_side("x", rematch=True), version=10)
        await store.save(asked, expected_version=9, previous=loaded)
        next_game = dataclasses.replace(
            asked,
            x=dataclasses.replace(asked.o, rematch=False),
            o=dataclasses.replace(asked.x, rematch=False),
            game_number=3,
            moves=(),
            result=None,
            ended_by=None,
            version=11,
        )
        await store.save(next_game, expected_version=10, previous=asked)
        assert await store.load(TABLE_ID) == next_game
    finally:
        await store.close()
