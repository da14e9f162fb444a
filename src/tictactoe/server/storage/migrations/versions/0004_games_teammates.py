"""Teammates in the kept games: the cookie hashes of each side's members beyond the seat holder
(space-separated), so "My games" lists a team game for every member.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-29
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column("games", sa.Column("x_mates", sa.Text, nullable=False, server_default=""))
    op.add_column("games", sa.Column("o_mates", sa.Text, nullable=False, server_default=""))


def downgrade() -> None:
    with op.batch_alter_table("games") as batch:
        batch.drop_column("o_mates")
        batch.drop_column("x_mates")
