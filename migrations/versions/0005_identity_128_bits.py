"""game identities keep the first 32 hexadecimal characters of their sha256 (128 bits): the
unique identity index is half as big, and an import into a big database makes half the page
reads and writes for it (issue 6; 128 bits leave no chance of two games colliding)

Revision ID: 0005
Revises: 0004
Create Date: 2026-11-30 18:30:00
"""

from __future__ import annotations

from alembic import op

revision = "0005"
down_revision = "0004"
branch_labels = None
depends_on = None


def upgrade() -> None:
    # The importer writes the first 32 characters of the same digest from now on, so a game
    # stored before is still recognized as a duplicate.
    op.execute("UPDATE games SET identity = substr(identity, 1, 32) WHERE length(identity) > 32")


def downgrade() -> None:
    # The rest of each digest is gone: identities stay at 32 characters (an import by code of
    # revision 0004 or older would not see these games as duplicates of its own).
    pass
