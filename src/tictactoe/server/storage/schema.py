"""The SQL schema of tables and moves (SQLAlchemy Core); Alembic migrations create it."""

from __future__ import annotations

import sqlalchemy as sa

metadata = sa.MetaData()

tables = sa.Table(
    "tables",
    metadata,
    sa.Column("id", sa.String(64), primary_key=True),
    sa.Column("variant", sa.String(16), nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("line", sa.Integer, nullable=False),
    sa.Column("opponent", sa.String(16), nullable=False),
    sa.Column("level", sa.String(16), nullable=True),
    sa.Column("game_number", sa.Integer, nullable=False),
    # The current game's record ("e5 e4 ..."): a table loads with one row read.
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("result", sa.String(8), nullable=True),
    sa.Column("ended_by", sa.String(16), nullable=True),
    sa.Column("version", sa.Integer, nullable=False),
    sa.Column("x_token_hash", sa.String(64), nullable=True, index=True),
    sa.Column("x_client_hash", sa.String(64), nullable=True),
    sa.Column("x_computer", sa.Boolean, nullable=False),
    sa.Column("o_token_hash", sa.String(64), nullable=True, index=True),
    sa.Column("o_client_hash", sa.String(64), nullable=True),
    sa.Column("o_computer", sa.Boolean, nullable=False),
    sa.Column("score_x", sa.Integer, nullable=False),
    sa.Column("score_o", sa.Integer, nullable=False),
    sa.Column("draws", sa.Integer, nullable=False),
    sa.Column("rematch_x", sa.Boolean, nullable=False),
    sa.Column("rematch_o", sa.Boolean, nullable=False),
    sa.Column("created_at", sa.Float, nullable=False),
    sa.Column("updated_at", sa.Float, nullable=False),
    # Migration 0002: the table's settings beyond the game, its clock and its takeback request.
    sa.Column("teams", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("takebacks", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("private", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("clock_seconds", sa.Float, nullable=True),
    sa.Column("clock_increment", sa.Float, nullable=False, server_default="0"),
    sa.Column("x_time", sa.Float, nullable=True),
    sa.Column("o_time", sa.Float, nullable=True),
    sa.Column("clock_since", sa.Float, nullable=True),
    sa.Column("takeback_by", sa.String(1), nullable=True),
    # Teammates beyond the seat holder: "token_hash:client_hash" (client "-" if none), by spaces.
    sa.Column("x_mates", sa.Text, nullable=False, server_default=""),
    sa.Column("o_mates", sa.Text, nullable=False, server_default=""),
    # Migration 0003: the position a table's games start from (None: the usual start).
    sa.Column("start_position", sa.Text, nullable=True),
    # Migration 0005: people at a table (names, the short code, open tables, draw offers).
    sa.Column("code", sa.String(8), nullable=True),
    sa.Column("public", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Column("draw_offer", sa.String(1), nullable=True),
    sa.Column("x_name", sa.String(80), nullable=True),
    sa.Column("o_name", sa.String(80), nullable=True),
    # Migration 0006: whether teammates may join while a game is played.
    sa.Column("teams_open", sa.Boolean, nullable=False, server_default=sa.true()),
    # Migration 0007: who plays X in the first game was decided by a coin toss.
    sa.Column("tossed", sa.Boolean, nullable=False, server_default=sa.false()),
    sa.Index("ix_tables_x_client_hash", "x_client_hash"),
    sa.Index("ix_tables_o_client_hash", "o_client_hash"),
    sa.Index("ix_tables_code", "code", unique=True),
    sa.Index("ix_tables_public_created_at", "public", "created_at"),
)

# Migration 0006: every teammate's seat token, so a token is found by index (the holders' tokens
# are indexed columns of `tables`); written with the table, never changed.
team_tokens = sa.Table(
    "team_tokens",
    metadata,
    sa.Column("token_hash", sa.String(64), primary_key=True),
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), nullable=False),
)

moves = sa.Table(
    "moves",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("game_number", sa.Integer, primary_key=True),
    # The primary key makes a second move at the same ply impossible, whatever the caller does.
    sa.Column("ply", sa.Integer, primary_key=True),
    sa.Column("move", sa.String(4), nullable=False),
    sa.Column("played_at", sa.Float, nullable=False),
)

# Migration 0003: every finished game, kept once the next game at its table starts (reviews, and
# "My games" by the seats' cookie hashes).
games = sa.Table(
    "games",
    metadata,
    sa.Column("table_id", sa.String(64), sa.ForeignKey("tables.id"), primary_key=True),
    sa.Column("game_number", sa.Integer, primary_key=True),
    sa.Column("variant", sa.String(16), nullable=False),
    sa.Column("size", sa.Integer, nullable=False),
    sa.Column("line", sa.Integer, nullable=False),
    sa.Column("start_position", sa.Text, nullable=True),
    sa.Column("record", sa.Text, nullable=False),
    sa.Column("result", sa.String(8), nullable=True),
    sa.Column("ended_by", sa.String(16), nullable=True),
    sa.Column("x_client_hash", sa.String(64), nullable=True, index=True),
    sa.Column("o_client_hash", sa.String(64), nullable=True, index=True),
    sa.Column("x_computer", sa.Boolean, nullable=False),
    sa.Column("o_computer", sa.Boolean, nullable=False),
    sa.Column("level", sa.String(16), nullable=True),
    sa.Column("ended_at", sa.Float, nullable=True),
    # Migration 0004: the cookie hashes of each side's teammates beyond the seat holder, by spaces.
    sa.Column("x_mates", sa.Text, nullable=False, server_default=""),
    sa.Column("o_mates", sa.Text, nullable=False, server_default=""),
)
