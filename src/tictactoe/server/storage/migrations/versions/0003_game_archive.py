"""Looking back at games: the position a table starts from, each finished game kept (its start,
record, result and who played it) for reviews and "My games", and the seats' cookie hashes
indexed so a browser finds its tables.

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("tables", sa.Column("start_position", sa.Text, nullable=True))
    op.create_index("ix_tables_x_client_hash", "tables", ["x_client_hash"])
    op.create_index("ix_tables_o_client_hash", "tables", ["o_client_hash"])
    op.create_table(
        "games",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("game_number", sa.Integer, primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("start_position", sa.Text, nullable=True),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("ended_by", sa.String(16), nullable=True),
        sa.Column("x_client_hash", sa.String(64), nullable=True),
        sa.Column("o_client_hash", sa.String(64), nullable=True),
        sa.Column("x_computer", sa.Boolean, nullable=False),
        sa.Column("o_computer", sa.Boolean, nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("ended_at", sa.Float, nullable=True),
    )
    op.create_index("ix_games_x_client_hash", "games", ["x_client_hash"])
    op.create_index("ix_games_o_client_hash", "games", ["o_client_hash"])


def downgrade() -> None:
    op.drop_index("ix_games_o_client_hash", "games")
    op.drop_index("ix_games_x_client_hash", "games")
    op.drop_table("games")
    op.drop_index("ix_tables_o_client_hash", "tables")
    op.drop_index("ix_tables_x_client_hash", "tables")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("start_position")
