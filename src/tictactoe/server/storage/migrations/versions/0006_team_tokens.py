"""Teammates' seat tokens by index: `team_tokens` (token hash → table), filled from the tables'
`x_mates`/`o_mates`, so looking up a token never reads every table; and `tables.teams_open`, the
creator's choice whether people may join a team while a game is played (issue 13).

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None


def upgrade() -> None:
    op.add_column(
        "tables", sa.Column("teams_open", sa.Boolean, nullable=False, server_default=sa.true())
    )
    team_tokens = op.create_table(
        "team_tokens",
        sa.Column("token_hash", sa.String(64), primary_key=True),
        sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
    )
    tables = sa.table("tables", sa.column("id"), sa.column("x_mates"), sa.column("o_mates"))
    found = op.get_bind().execute(
        sa.select(tables.c.id, tables.c.x_mates, tables.c.o_mates).where(
            sa.or_(tables.c.x_mates != "", tables.c.o_mates != "")
        )
    )
    rows: dict[str, str] = {}
    for table_id, x_mates, o_mates in found:
        for item in f"{x_mates} {o_mates}".split():  # "token_hash:client_hash" each
            rows.setdefault(item.partition(":")[0], table_id)
    if rows:
        op.bulk_insert(team_tokens, [{"token_hash": t, "table_id": i} for t, i in rows.items()])


def downgrade() -> None:
    op.drop_table("team_tokens")
    with op.batch_alter_table("tables") as batch:
        batch.drop_column("teams_open")
