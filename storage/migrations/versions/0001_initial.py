"""initial schema: players, rooms, rounds, settlements, arrangements, score ledger

Revision ID: 0001
Revises:
Create Date: 2026-11-29
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0001"
down_revision: str | None = None
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "players",
        sa.Column("player_key", sa.String(96), primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("user_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(256), nullable=False),
        sa.Column("last_seen", sa.DateTime(), nullable=False),
        sa.UniqueConstraint("platform", "user_id", name="uq_players_platform_user"),
    )
    op.create_table(
        "rooms",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("status", sa.String(16), nullable=False),
        sa.Column("version", sa.Integer(), nullable=False),
        sa.Column("language", sa.String(16), nullable=True),
        sa.Column("state", sa.JSON(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index(
        "uq_rooms_open_chat",
        "rooms",
        ["platform", "chat_id"],
        unique=True,
        sqlite_where=sa.text("status = 'open'"),
        postgresql_where=sa.text("status = 'open'"),
    )
    op.create_index("ix_rooms_status", "rooms", ["status"])
    op.create_table(
        "rounds",
        sa.Column(
            "room_id",
            sa.String(16),
            sa.ForeignKey("rooms.room_id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round_no", sa.Integer(), primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("deck", sa.JSON(), nullable=False),
        sa.Column("salt", sa.String(128), nullable=False),
        sa.Column("deck_hash", sa.String(128), nullable=False),
        sa.Column("seats", sa.JSON(), nullable=False),
        sa.Column("options", sa.JSON(), nullable=False),
        sa.Column("started_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "settlements",
        sa.Column(
            "room_id",
            sa.String(16),
            sa.ForeignKey("rooms.room_id", ondelete="CASCADE"),
            primary_key=True,
        ),
        sa.Column("round_no", sa.Integer(), primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("settled_at", sa.DateTime(), nullable=False),
        sa.Column("detail", sa.JSON(), nullable=False),
    )
    op.create_table(
        "arrangements",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("round_no", sa.Integer(), primary_key=True),
        sa.Column("player_key", sa.String(96), primary_key=True),
        sa.Column("lanes", sa.JSON(), nullable=True),
        sa.Column("special", sa.String(64), nullable=True),
        sa.Column("auto_arranged", sa.Boolean(), nullable=False),
        sa.Column("escaped", sa.Boolean(), nullable=False),
    )
    op.create_table(
        "score_ledger",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("round_no", sa.Integer(), primary_key=True),
        sa.Column("player_key", sa.String(96), primary_key=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("name", sa.String(256), nullable=False),
        sa.Column("points", sa.Integer(), nullable=False),
        sa.Column("win", sa.Boolean(), nullable=False),
        sa.Column("scoops", sa.Integer(), nullable=False),
        sa.Column("home_run", sa.Boolean(), nullable=False),
        sa.Column("special", sa.String(64), nullable=True),
        sa.Column("is_ai", sa.Boolean(), nullable=False),
        sa.Column("settled_at", sa.DateTime(), nullable=False),
    )
    op.create_index(
        "ix_score_ledger_chat_time", "score_ledger", ["platform", "chat_id", "settled_at"]
    )
    op.create_index("ix_score_ledger_player", "score_ledger", ["player_key"])


def downgrade() -> None:
    op.drop_table("score_ledger")
    op.drop_table("arrangements")
    op.drop_table("settlements")
    op.drop_table("rounds")
    op.drop_index("ix_rooms_status", table_name="rooms")
    op.drop_index("uq_rooms_open_chat", table_name="rooms")
    op.drop_table("rooms")
    op.drop_table("players")
