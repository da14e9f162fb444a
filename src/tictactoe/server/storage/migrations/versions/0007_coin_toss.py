"""`tables.tossed`: who plays X in a table's first game was decided by a coin toss (the creator
chose "random"), so that the page can say who won it (issue 21).

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("tossed", sa.Boolean, nullable=False, server_default=sa.false())
    )


def downgrade() -> None:
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("tossed")
