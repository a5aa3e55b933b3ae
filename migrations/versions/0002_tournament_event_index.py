"""index tournaments by event and site (the importer looks them up per batch)

Revision ID: 0002
Revises: 0001
Create Date: 2026-11-30 12:05:00
"""

from __future__ import annotations

from alembic import op

revision = "0002"
down_revision = "0001"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.create_index("ix_tournaments_event_site", ["event", "site"], unique=False)


def downgrade() -> None:
    with op.batch_alter_table("tournaments", schema=None) as batch_op:
        batch_op.drop_index("ix_tournaments_event_site")
