"""drop ix_games_tournament_id: ix_games_tournament_date (tournament_id, date) serves every
lookup by tournament, and each index on games costs every import a b-tree insert per game

Revision ID: 0003
Revises: 0002
Create Date: 2026-11-30 14:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0003"
down_revision = "0002"
branch_labels = None
depends_on = None


def upgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.drop_index("ix_games_tournament_id")


def downgrade() -> None:
    with op.batch_alter_table("games", schema=None) as batch_op:
        batch_op.create_index("ix_games_tournament_id", ["tournament_id"], unique=False)
