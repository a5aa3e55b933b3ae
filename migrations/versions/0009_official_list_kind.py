"""which kind each imported list file was: `official_lists.kind`, 'whole' (FIDE's whole list
of its month: a player it lacks is unrated for FIDE) or 'excerpt' (a few of its rows: a
player it lacks keeps what they had) (issue 34).

The files imported before were all taken as whole (every player they lacked was recorded as
looked up): they stay 'whole'; importing an excerpt again judges it by its rows and records
what it lacks as not known.

Revision ID: 0009
Revises: 0008
Create Date: 2026-12-05 10:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0009"
down_revision = "0008"
branch_labels = None
depends_on = None

_KIND = "kind = 'whole' OR kind = 'excerpt'"


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its CHECK in place (no copy of the table); the check
        # then reads as schema.py's table-level one, after the list's.
        op.execute(
            "ALTER TABLE official_lists ADD COLUMN kind VARCHAR(8) DEFAULT 'whole' NOT NULL "
            f"CONSTRAINT ck_official_lists_kind CHECK ({_KIND})"
        )
        return
    op.add_column(
        "official_lists",
        sa.Column("kind", sa.String(length=8), server_default="whole", nullable=False),
    )
    op.create_check_constraint(op.f("ck_official_lists_kind"), "official_lists", _KIND)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(op.f("ck_official_lists_kind"), "official_lists", type_="check")
    # (SQLite 3.35 and later drops a column whose CHECK is its own, in place)
    op.drop_column("official_lists", "kind")
