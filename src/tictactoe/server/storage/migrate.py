"""Runs the Alembic migrations in `migrations/` programmatically, so start-up brings any database
up to date without an `alembic.ini` on disk (`alembic_config` is that file's equivalent)."""

from __future__ import annotations

from pathlib import Path

from alembic import command
from alembic.config import Config
from sqlalchemy.engine import Connection

MIGRATIONS_DIR = Path(__file__).resolve().parent / "migrations"


def alembic_config(connection: Connection | None = None) -> Config:
    """The Alembic configuration; with a connection, migrations run on it (inside its transaction).

    >>> alembic_config().get_main_option("script_location").endswith("migrations")
    True
    """
    config = Config()
    config.set_main_option("script_location", str(MIGRATIONS_DIR))
    if connection is not None:
        config.attributes["connection"] = connection
    return config


def upgrade_to_head(connection: Connection) -> None:
    """Applies every migration the database has not seen yet."""
    command.upgrade(alembic_config(connection), "head")
