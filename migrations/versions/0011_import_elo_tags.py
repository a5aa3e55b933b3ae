"""what an imported file's Elo tags in rapid and blitz events are: `imports.elo_tags`, 'auto'
(judged tag by tag against the player's standard ratings of the surrounding months),
'standard' (the file prints the standard rating everywhere: `tracker import --tags standard`)
or 'own' (each event prints the rating of its own list) (issue 37).

The files imported before are 'auto', the rule every file had.

Revision ID: 0011
Revises: 0010
Create Date: 2026-12-06 04:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0011"
down_revision = "0010"
branch_labels = None
depends_on = None

_TAGS = "elo_tags = 'auto' OR elo_tags = 'standard' OR elo_tags = 'own'"


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # SQLite adds a column with its CHECK in place (no copy of the table), as 0009
        op.execute(
            "ALTER TABLE imports ADD COLUMN elo_tags VARCHAR(8) DEFAULT 'auto' NOT NULL "
            f"CONSTRAINT ck_imports_elo_tags CHECK ({_TAGS})"
        )
        return
    op.add_column(
        "imports",
        sa.Column("elo_tags", sa.String(length=8), server_default="auto", nullable=False),
    )
    op.create_check_constraint(op.f("ck_imports_elo_tags"), "imports", _TAGS)


def downgrade() -> None:
    if op.get_bind().dialect.name != "sqlite":
        op.drop_constraint(op.f("ck_imports_elo_tags"), "imports", type_="check")
    op.drop_column("imports", "elo_tags")
