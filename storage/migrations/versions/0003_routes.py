"""shard routing: outbox.route and chat_routes

Revision ID: 0003
Revises: 0002
Create Date: 2026-12-01
"""

from __future__ import annotations

from collections.abc import Sequence

import sqlalchemy as sa
from alembic import op

revision: str = "0003"
down_revision: str | None = "0002"
branch_labels: str | Sequence[str] | None = None
depends_on: str | Sequence[str] | None = None


def upgrade() -> None:
    op.add_column("outbox", sa.Column("route", sa.BigInteger(), nullable=True))
    op.create_table(
        "chat_routes",
        sa.Column("platform", sa.String(32), primary_key=True),
        sa.Column("chat_id", sa.String(64), primary_key=True),
        sa.Column("route", sa.BigInteger(), nullable=False),
        sa.Column("updated_at", sa.DateTime(), nullable=False),
    )


def downgrade() -> None:
    op.drop_table("chat_routes")
    with op.batch_alter_table("outbox") as batch:
        batch.drop_column("route")
