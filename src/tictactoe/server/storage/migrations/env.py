"""Alembic environment: migrations run on the connection that `migrate.upgrade_to_head` hands in."""

from __future__ import annotations

from alembic import context

from tictactoe.server.storage.schema import metadata


def run_migrations() -> None:
    connection = context.config.attributes.get("connection")
    if connection is None:
        raise RuntimeError("run migrations through tictactoe.server.storage.migrate")
    context.configure(
        connection=connection,
        target_metadata=metadata,
        render_as_batch=connection.dialect.name == "sqlite",
    )
    with context.begin_transaction():
        context.run_migrations()


# Alembic runs this file inside its environment; anything else (e.g. doctest collection) merely
# imports it, and then there is nothing to run.
if getattr(context, "_proxy", None) is not None:
    run_migrations()
