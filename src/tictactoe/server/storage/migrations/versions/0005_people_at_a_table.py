"""People at a table: each seat's display name, the table's short code to join by, whether it is
listed among the open tables, and a pending draw offer. Tables made before this get a code here.

Revision ID: 0005
Revises: 0004
Create Date: 2026-12-01
"""

from __future__ import annotations

import secrets

import sqlalchemy as sa
from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None

# The alphabet of table codes (tictactoe.server.table.codes): no 0/O, 1/I/L look-alikes.
_ALPHABET = "23456789ABCDEFGHJKMNPQRSTUVWXYZ"


def upgrade() -> None:
    # Plain ADD COLUMNs: in batch mode SQLite copied `tables` to add a column whose default is an
    # expression (`false`), and dropping the old copy failed on the first table with a move
    # (its foreign key), so no SQLite database with a move in it could reach this revision.
    op.add_column("tables", sa.Column("code", sa.String(8), nullable=True))
    op.add_column(
        "tables", sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false())
    )
    op.add_column("tables", sa.Column("draw_offer", sa.String(1), nullable=True))
    op.add_column("tables", sa.Column("x_name", sa.String(80), nullable=True))
    op.add_column("tables", sa.Column("o_name", sa.String(80), nullable=True))
    connection = op.get_bind()
    tables = sa.table("tables", sa.column("id", sa.String), sa.column("code", sa.String))
    used: set[str] = set()
    for (table_id,) in connection.execute(sa.select(tables.c.id)).all():
        code = _new_code()
        while code in used:
            code = _new_code()
        used.add(code)
        connection.execute(tables.update().where(tables.c.id == table_id).values(code=code))
    op.create_index("ix_tables_code", "tables", ["code"], unique=True)
    op.create_index("ix_tables_public_created_at", "tables", ["public", "created_at"])


def _new_code() -> str:
    return "".join(secrets.choice(_ALPHABET) for _ in range(6))


def downgrade() -> None:
    op.drop_index("ix_tables_public_created_at", "tables")
    op.drop_index("ix_tables_code", "tables")
    with op.batch_alter_table("tables") as batch:
        for column in ("o_name", "x_name", "draw_offer", "public", "code"):
            batch.drop_column(column)
