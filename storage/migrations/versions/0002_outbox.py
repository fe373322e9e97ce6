"""durable delivery: outbox, delivery lanes, sent messages, user prefs, room timers

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0002"
down_revision: str | None = "0001"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.create_table(
        "outbox",
        sa.Column("id", sa.Integer(), primary_key=True, autoincrement=True),
        sa.Column("platform", sa.String(32), nullable=False),
        sa.Column("chat_id", sa.String(64), nullable=False),
        sa.Column("view_key", sa.String(200), nullable=False),
        sa.Column("kind", sa.String(16), nullable=False),
        sa.Column("payload", sa.JSON(), nullable=False),
        sa.Column("fresh", sa.Boolean(), nullable=False),
        sa.Column("seq", sa.Integer(), nullable=False),
        sa.Column("state", sa.String(16), nullable=False),
        sa.Column("attempts", sa.Integer(), nullable=False),
        sa.Column("next_attempt_at", sa.DateTime(), nullable=False),
        sa.Column("created_at", sa.DateTime(), nullable=False),
        sa.Column("last_error", sa.String(512), nullable=True),
        sa.UniqueConstraint("platform", "chat_id", "view_key", name="uq_outbox_key"),
    )
    op.create_index("ix_outbox_due", "outbox", ["platform", "state", "next_attempt_at"])
    op.create_table(
        "delivery_lanes",
        sa.Column("platform", sa.String(32), primary_key=True),
        sa.Column("chat_id", sa.String(64), primary_key=True),
        sa.Column("owner", sa.String(64), nullable=False),
        sa.Column("lease_until", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "messages",
        sa.Column("platform", sa.String(32), primary_key=True),
        sa.Column("chat_id", sa.String(64), primary_key=True),
        sa.Column("view_key", sa.String(200), primary_key=True),
        sa.Column("message_id", sa.String(64), nullable=False),
        sa.Column("fingerprint", sa.String(64), nullable=True),
        sa.Column("round_tag", sa.String(16), nullable=True),
        sa.Column("has_buttons", sa.Boolean(), nullable=False),
        sa.Column("buttons", sa.JSON(), nullable=True),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_index(
        "ix_messages_platform_id", "messages", ["platform", "chat_id", "message_id"]
    )
    op.create_table(
        "prefs",
        sa.Column("platform", sa.String(32), primary_key=True),
        sa.Column("user_id", sa.String(64), primary_key=True),
        sa.Column("name", sa.String(64), primary_key=True),
        sa.Column("value", sa.String(256), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )
    op.create_table(
        "room_timers",
        sa.Column("room_id", sa.String(16), primary_key=True),
        sa.Column("due_at", sa.Float(), nullable=True),
        sa.Column("owner", sa.String(64), nullable=True),
        sa.Column("lease_until", sa.DateTime(), nullable=True),
    )
    op.create_index("ix_room_timers_due", "room_timers", ["due_at"])


def downgrade() -> None:
    op.drop_index("ix_room_timers_due", table_name="room_timers")
    op.drop_table("room_timers")
    op.drop_table("prefs")
    op.drop_index("ix_messages_platform_id", table_name="messages")
    op.drop_table("messages")
    op.drop_table("delivery_lanes")
    op.drop_index("ix_outbox_due", table_name="outbox")
    op.drop_table("outbox")
