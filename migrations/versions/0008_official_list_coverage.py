"""which lists were imported, and who was looked up on them: `official_lists` (one row per
list file and list and period it held, its absolute path as `source`) and `official_checked`
(player, list, period: the import identified the player, by FIDE ID or by a unique name
match, whether the list rated them or not), so the replay can tell "unrated on that list"
from "not known".

New tables only: nothing is copied. Their integers are BIGINT on PostgreSQL and INTEGER on
SQLite, as every column since 0006.

Revision ID: 0008
Revises: 0007
Create Date: 2026-12-03 14:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0008"
down_revision = "0007"
branch_labels = None
depends_on = None

_INT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_LIST = "\"list\" = 'standard' OR \"list\" = 'rapid' OR \"list\" = 'blitz'"


def upgrade() -> None:
    op.create_table(
        "official_lists",
        sa.Column("id", _INT, nullable=False),
        sa.Column("list", sa.String(length=8), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("imported_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(_LIST, name=op.f("ck_official_lists_list")),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_official_lists")),
        sa.UniqueConstraint(
            "list", "period", "source", name=op.f("uq_official_lists_list_period_source")
        ),
    )
    op.create_table(
        "official_checked",
        sa.Column("player_id", _INT, nullable=False),
        sa.Column("list", sa.String(length=8), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.CheckConstraint(_LIST, name=op.f("ck_official_checked_list")),
        sa.ForeignKeyConstraint(
            ["player_id"],
            ["players.id"],
            name=op.f("fk_official_checked_player_id_players"),
            ondelete="CASCADE",
        ),
        sa.PrimaryKeyConstraint("player_id", "list", "period", name=op.f("pk_official_checked")),
    )


def downgrade() -> None:
    op.drop_table("official_checked")
    op.drop_table("official_lists")
