"""Table settings beyond the game: teams, takebacks, a clock, private tables.

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None

# Every column has a default (or allows NULL), so tables stored before keep working unchanged.
_COLUMNS = (
    ("teams", sa.Boolean, False, sa.false()),
    ("takebacks", sa.Boolean, False, sa.false()),
    ("private", sa.Boolean, False, sa.false()),
    ("clock_seconds", sa.Float, True, None),
    ("clock_increment", sa.Float, False, "0"),
    ("x_time", sa.Float, True, None),
    ("o_time", sa.Float, True, None),
    ("clock_since", sa.Float, True, None),
    ("takeback_by", sa.String(1), True, None),
    ("x_mates", sa.Text, False, ""),
    ("o_mates", sa.Text, False, ""),
)


def upgrade() -> None:
    for name, kind, nullable, default in _COLUMNS:
        op.add_column("tables", sa.Column(name, kind, nullable=nullable, server_default=default))


def downgrade() -> None:
    # SQLite drops columns only by rebuilding the table: batch mode does that on both databases.
    with op.batch_alter_table("tables") as batch:
        for name, *_ in reversed(_COLUMNS):
            batch.drop_column(name)
