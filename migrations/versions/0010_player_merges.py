"""the record of every merge of two players, so that `tracker player unmerge` can put back
what it moved: `player_merges` (which player was kept, the id of the one removed, how and
when) and, per merge, the players rows (`merge_players`: the removed one as it was, the kept
one before and after), the games moved and on which side (`merge_games`), the spellings
(`merge_names`), the official entries (`merge_entries`), the lists looked up on
(`merge_checked`) and the starting-rating overrides (`merge_overrides`).

New tables only, empty: merges made before this revision were not recorded and cannot be
undone. Integers are BIGINT on PostgreSQL and INTEGER on SQLite, as every column since 0006;
`player_merges.id` is AUTOINCREMENT on SQLite, so a merge's number is never reused.

Revision ID: 0010
Revises: 0009
Create Date: 2026-12-06 12:00:00
"""

from __future__ import annotations

import sqlalchemy as sa
from alembic import op

revision = "0010"
down_revision = "0009"
branch_labels = None
depends_on = None

_INT = sa.BigInteger().with_variant(sa.Integer(), "sqlite")
_LIST = "\"list\" = 'standard' OR \"list\" = 'rapid' OR \"list\" = 'blitz'"


def _merge_id(table: str) -> list[sa.schema.SchemaItem]:
    return [
        sa.Column("merge_id", _INT, nullable=False),
        sa.ForeignKeyConstraint(
            ["merge_id"],
            ["player_merges.id"],
            name=op.f(f"fk_{table}_merge_id_player_merges"),
            ondelete="CASCADE",
        ),
    ]


def upgrade() -> None:
    op.create_table(
        "player_merges",
        sa.Column("id", _INT, nullable=False),
        sa.Column("kept_id", _INT, nullable=False),
        sa.Column("gone_id", _INT, nullable=False),
        sa.Column("how", sa.String(length=8), nullable=False),
        sa.Column("source", sa.Text(), nullable=True),
        sa.Column("made_at", sa.DateTime(), nullable=False),
        sa.CheckConstraint(
            "how = 'merge' OR how = 'fide-id' OR how = 'list'", name=op.f("ck_player_merges_how")
        ),
        sa.PrimaryKeyConstraint("id", name=op.f("pk_player_merges")),
        sqlite_autoincrement=True,
    )
    op.create_index(op.f("ix_player_merges_kept_id"), "player_merges", ["kept_id"])
    op.create_index(op.f("ix_player_merges_gone_id"), "player_merges", ["gone_id"])
    op.create_table(
        "merge_players",
        *_merge_id("merge_players"),
        sa.Column("role", sa.String(length=6), nullable=False),
        sa.Column("name", sa.Text(), nullable=False),
        sa.Column("norm_name", sa.Text(), nullable=False),
        sa.Column("fide_id", _INT, nullable=True),
        sa.Column("title", sa.String(length=8), nullable=True),
        sa.Column("federation", sa.String(length=8), nullable=True),
        sa.Column("birth_year", _INT, nullable=True),
        sa.Column("rated_games", _INT, nullable=True),
        sa.Column("ever_2400", sa.Boolean(), nullable=True),
        sa.Column("is_me", sa.Boolean(), nullable=False),
        sa.CheckConstraint(
            "role = 'gone' OR role = 'before' OR role = 'after'",
            name=op.f("ck_merge_players_role"),
        ),
        sa.PrimaryKeyConstraint("merge_id", "role", name=op.f("pk_merge_players")),
    )
    op.create_table(
        "merge_games",
        *_merge_id("merge_games"),
        sa.Column("game_id", _INT, nullable=False),
        sa.Column("side", sa.String(length=5), nullable=False),
        sa.CheckConstraint("side = 'white' OR side = 'black'", name=op.f("ck_merge_games_side")),
        sa.ForeignKeyConstraint(
            ["game_id"], ["games.id"], name=op.f("fk_merge_games_game_id_games"), ondelete="CASCADE"
        ),
        sa.PrimaryKeyConstraint("merge_id", "game_id", name=op.f("pk_merge_games")),
    )
    op.create_index(op.f("ix_merge_games_game_id"), "merge_games", ["game_id"])
    op.create_table(
        "merge_names",
        *_merge_id("merge_names"),
        sa.Column("norm_name", sa.Text(), nullable=False),
        sa.Column("added", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("merge_id", "norm_name", name=op.f("pk_merge_names")),
    )
    op.create_table(
        "merge_entries",
        *_merge_id("merge_entries"),
        sa.Column("entry_id", _INT, nullable=False),
        sa.Column("list", sa.String(length=8), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("rating", _INT, nullable=True),
        sa.Column("games", _INT, nullable=True),
        sa.Column("k", _INT, nullable=True),
        sa.Column("flag", sa.String(length=4), nullable=True),
        sa.Column("title", sa.String(length=8), nullable=True),
        sa.Column("birth_year", _INT, nullable=True),
        sa.Column("source", sa.Text(), nullable=False),
        sa.Column("recorded_at", sa.DateTime(), nullable=False),
        sa.Column("moved", sa.Boolean(), nullable=False),
        sa.CheckConstraint(_LIST, name=op.f("ck_merge_entries_list")),
        sa.PrimaryKeyConstraint("merge_id", "list", "period", name=op.f("pk_merge_entries")),
    )
    op.create_table(
        "merge_checked",
        *_merge_id("merge_checked"),
        sa.Column("list", sa.String(length=8), nullable=False),
        sa.Column("period", sa.String(length=7), nullable=False),
        sa.Column("moved", sa.Boolean(), nullable=False),
        sa.CheckConstraint(_LIST, name=op.f("ck_merge_checked_list")),
        sa.PrimaryKeyConstraint("merge_id", "list", "period", name=op.f("pk_merge_checked")),
    )
    op.create_table(
        "merge_overrides",
        *_merge_id("merge_overrides"),
        sa.Column("tournament_id", _INT, nullable=False),
        sa.Column("rating", _INT, nullable=False),
        sa.Column("moved", sa.Boolean(), nullable=False),
        sa.PrimaryKeyConstraint("merge_id", "tournament_id", name=op.f("pk_merge_overrides")),
    )


def downgrade() -> None:
    for table in (
        "merge_overrides",
        "merge_checked",
        "merge_entries",
        "merge_names",
        "merge_games",
        "merge_players",
    ):
        op.drop_table(table)
    op.drop_index(op.f("ix_player_merges_gone_id"), table_name="player_merges")
    op.drop_index(op.f("ix_player_merges_kept_id"), table_name="player_merges")
    op.drop_table("player_merges")
