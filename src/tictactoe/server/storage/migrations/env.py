"""Alembic environment: migrations run on the connection that `migrate.upgrade_to_head` hands in."""

from __future__ import annotations

from alembic import context

from tictactoe.server.storage.schema import metadata

connection = context.config.attributes.get("connection")
if connection is None:
    raise RuntimeError("run migrations through tictactoe.server.storage.migrate.upgrade_to_head")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=connection.dialect.name == "sqlite",
)
with context.begin_transaction():
    context.run_migrations()
