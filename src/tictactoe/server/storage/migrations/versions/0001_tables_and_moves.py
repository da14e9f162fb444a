"""Tables (settings, current game, seats, score, rematch requests) and the log of moves.

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0001"
down_revision = None
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.create_table(
        "tables",
        sa.Column("id", sa.String(64), primary_key=True),
        sa.Column("variant", sa.String(16), nullable=False),
        sa.Column("size", sa.Integer, nullable=False),
        sa.Column("line", sa.Integer, nullable=False),
        sa.Column("opponent", sa.String(16), nullable=False),
        sa.Column("level", sa.String(16), nullable=True),
        sa.Column("game_number", sa.Integer, nullable=False),
        sa.Column("record", sa.Text, nullable=False),
        sa.Column("result", sa.String(8), nullable=True),
        sa.Column("ended_by", sa.String(16), nullable=True),
        sa.Column("version", sa.Integer, nullable=False),
        sa.Column("x_token_hash", sa.String(64), nullable=True),
        sa.Column("x_client_hash", sa.String(64), nullable=True),
        sa.Column("x_computer", sa.Boolean, nullable=False),
        sa.Column("o_token_hash", sa.String(64), nullable=True),
        sa.Column("o_client_hash", sa.String(64), nullable=True),
        sa.Column("o_computer", sa.Boolean, nullable=False),
        sa.Column("score_x", sa.Integer, nullable=False),
        sa.Column("score_o", sa.Integer, nullable=False),
        sa.Column("draws", sa.Integer, nullable=False),
        sa.Column("rematch_x", sa.Boolean, nullable=False),
        sa.Column("rematch_o", sa.Boolean, nullable=False),
        sa.Column("created_at", sa.Float, nullable=False),
        sa.Column("updated_at", sa.Float, nullable=False),
    )
    op.create_index("ix_tables_x_token_hash", "tables", ["x_token_hash"])
    op.create_index("ix_tables_o_token_hash", "tables", ["o_token_hash"])
    op.create_table(
        "moves",
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
        sa.Column("game_number", sa.Integer, primary_key=True),
        sa.Column("ply", sa.Integer, primary_key=True),
        sa.Column("move", sa.String(4), nullable=False),
        sa.Column("played_at", sa.Float, nullable=False),
    )


def downgrade() -> None:
    op.drop_table("moves")
    op.drop_index("ix_tables_o_token_hash", "tables")
    op.drop_index("ix_tables_x_token_hash", "tables")
    op.drop_table("tables")
