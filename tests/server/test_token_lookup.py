"""Looking up the table of a seat token goes by index, never through every table (issue 13: a
wrong token scanned them all, 49.5 ms a request at 200 000 tables on SQLite): holders' and
teammates' tokens alike, on SQLite and PostgreSQL, also after the migration that added it."""

from __future__ import annotations

import dataclasses
from collections.abc import AsyncIterator
from pathlib import Path
from typing import Any

import pytest
import sqlalchemy as sa
from sqlalchemy import event
from tests.server.records import a_table

from tictactoe.server.storage import SeatRecord, Side
from tictactoe.server.storage.sql import SQLStorage


@pytest.fixture(params=["sqlite", "postgresql"])
async def storage(request: pytest.FixtureRequest, tmp_path: Path) -> AsyncIterator[SQLStorage]:
    if request.param == "postgresql":
        url: str = request.getfixturevalue("postgres_url")
    else:
        url = f"sqlite:///{tmp_path / 'store.db'}"
    store = SQLStorage(url)
    await store.start()
    yield store
    await store.close()


async def fill(storage: SQLStorage) -> None:
    for number in range(30):
        await storage.create(
            a_table(
                f"Table{number:02d}Table{number:02d}Table",
                x=Side(SeatRecord(f"{number:02d}" * 32), (SeatRecord(f"{number:02d}ab" * 16),)),
                teams=True,
            )
        )


def sync_engine(storage: SQLStorage) -> sa.Engine:
    engine = storage.engine
    return engine if isinstance(engine, sa.Engine) else engine.sync_engine


async def plans_of_lookup(storage: SQLStorage, token_hash: str) -> list[str]:
    """The query plans of the statements `find_table_by_token_hash` runs."""
    statements: list[tuple[str, Any]] = []

    def record(_conn: Any, _cursor: Any, statement: str, parameters: Any, *_: Any) -> None:
        statements.append((statement, parameters))

    engine = sync_engine(storage)
    event.listen(engine, "before_cursor_execute", record)
    try:
        await storage.find_table_by_token_hash(token_hash)
    finally:
        event.remove(engine, "before_cursor_execute", record)
    assert statements

    def explain(connection: sa.Connection) -> list[str]:
        lines: list[str] = []
        if connection.dialect.name == "postgresql":
            # A small table is read through whatever the cost: make a scan the last resort.
            connection.exec_driver_sql("SET LOCAL enable_seqscan = off")
            prefix = "EXPLAIN "
        else:
            prefix = "EXPLAIN QUERY PLAN "
        for statement, parameters in statements:
            rows = connection.exec_driver_sql(prefix + statement, parameters).all()
            lines += [str(row[-1]) for row in rows]
        return lines

    plans: list[str] = await storage._transaction(explain)
    return plans


@pytest.mark.parametrize("who", ["holder", "teammate", "nobody"])
async def test_a_token_is_looked_up_by_index(storage: SQLStorage, who: str) -> None:
    await fill(storage)
    token = {"holder": "07" * 32, "teammate": "07ab" * 16, "nobody": "f" * 64}[who]
    expected = None if who == "nobody" else "Table07Table07Table"
    assert await storage.find_table_by_token_hash(token) == expected
    plans = await plans_of_lookup(storage, token)
    scans = [line for line in plans if line.startswith("SCAN ") or "Seq Scan" in line]
    assert not scans, plans


async def test_teammates_who_join_later_are_found_too(storage: SQLStorage) -> None:
    table = a_table("LaterLaterLaterLater01", teams=True, x=Side(SeatRecord("1" * 64)))
    await storage.create(table)
    joined = dataclasses.replace(
        table,
        version=2,
        o=Side(mates=(SeatRecord("2" * 64, "3" * 64), SeatRecord("4" * 64, None))),
    )
    await storage.save(joined, expected_version=1)
    assert await storage.find_table_by_token_hash("4" * 64) == table.id
    assert await storage.find_table_by_token_hash("2" * 64) == table.id
    assert await storage.find_table_by_token_hash("3" * 64) is None  # a cookie, not a token


async def test_the_migration_fills_in_the_teammates_of_existing_tables(tmp_path: Path) -> None:
    from alembic import command

    from tictactoe.server.storage.migrate import alembic_config
    from tictactoe.server.storage.rows import row_values

    url = f"sqlite:///{tmp_path / 'old.db'}"
    table = a_table(
        "OldTeamOldTeamOldTeam1",
        teams=True,
        x=Side(SeatRecord("a" * 64, "c" * 64), (SeatRecord("5" * 64, "6" * 64),)),
        o=Side(mates=(SeatRecord("7" * 64, None),)),
    )
    engine = sa.create_engine(url)
    with engine.begin() as connection:  # the database as it was before the index
        command.upgrade(alembic_config(connection), "0005")
        # Only the columns that revision had (later ones, such as teams_open, came after).
        present = {column["name"] for column in sa.inspect(connection).get_columns("tables")}
        row = {"id": table.id, **row_values(table)}
        values = {name: value for name, value in row.items() if name in present}
        names = ", ".join(values)
        slots = ", ".join(f":{name}" for name in values)
        connection.execute(sa.text(f"INSERT INTO tables ({names}) VALUES ({slots})"), values)
    engine.dispose()
    store = SQLStorage(url)
    await store.start()
    try:
        assert await store.find_table_by_token_hash("5" * 64) == table.id
        assert await store.find_table_by_token_hash("7" * 64) == table.id
        assert await store.find_table_by_token_hash("6" * 64) is None
    finally:
        await store.close()
