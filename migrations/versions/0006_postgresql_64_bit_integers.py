"""integers are 64-bit on PostgreSQL too: every INTEGER column becomes BIGINT there (and the
sequences of the ids bigint), as SQLite's INTEGER always was; a FIDE ID of up to 12 digits,
or any number SQLite takes, fits both databases alike (issue 17). Nothing changes on SQLite.

Revision ID: 0006
Revises: 0005
Create Date: 2026-12-01 23:30:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0006"
down_revision = "0005"
branch_labels = None
depends_on = None

# table -> its integer columns (schema.py's `Int`), the id first where it has one
COLUMNS = {
    "players": ("id", "fide_id", "birth_year", "rated_games"),
    "player_names": ("player_id",),
    "imports": ("id", "games_read", "games_added", "duplicates", "problems"),
    "tournaments": ("id",),
    "ro_overrides": ("tournament_id", "player_id", "rating"),
    "games": (
        "id",
        "tournament_id",
        "import_id",
        "source_line",
        "white_id",
        "black_id",
        "white_elo",
        "black_elo",
    ),
    "official_ratings": ("id", "player_id", "rating", "games", "k", "birth_year"),
}


def _retype(new: str, kind: type[sa.types.TypeEngine[int]]) -> None:
    if op.get_bind().dialect.name != "postgresql":
        return  # sqlite: INTEGER is 64-bit already
    for table, columns in COLUMNS.items():
        for column in columns:
            op.alter_column(table, column, type_=kind())
        if columns[0] == "id":
            op.execute(f"ALTER SEQUENCE {table}_id_seq AS {new}")


def upgrade() -> None:
    _retype("bigint", sa.BigInteger)


def downgrade() -> None:
    _retype("integer", sa.Integer)
