"""The database schema: facts only (games, players, tournaments, official entries, the lists
imported and who was looked up on them, the user's overrides). Ratings are derived and never
stored.

SQLAlchemy Core tables. The schema changes only through an Alembic migration in
`migrations/versions/`; `tests/test_store_migrations.py` checks that these tables and the
migrations do not drift.

Conventions: lists are the strings 'standard' / 'rapid' / 'blitz'; periods are 'YYYY-MM'
strings; dates are SQL dates (None when the PGN date is incomplete); integers are 64-bit on
both databases (`Int`: SQLite's INTEGER is, PostgreSQL's is 32-bit, so there BIGINT, since
migration 0006).
"""

from __future__ import annotations

from sqlalchemy import (
    BigInteger,
    Boolean,
    CheckConstraint,
    Column,
    Date,
    DateTime,
    ForeignKey,
    Index,
    Integer,
    LargeBinary,
    MetaData,
    PrimaryKeyConstraint,
    String,
    Table,
    Text,
    UniqueConstraint,
)

NAMING = {
    "ix": "ix_%(table_name)s_%(column_0_N_name)s",
    "uq": "uq_%(table_name)s_%(column_0_N_name)s",
    "ck": "ck_%(table_name)s_%(constraint_name)s",
    "fk": "fk_%(table_name)s_%(column_0_name)s_%(referred_table_name)s",
    "pk": "pk_%(table_name)s",
}

metadata = MetaData(naming_convention=NAMING)

# Every integer column: BIGINT on PostgreSQL (as big as SQLite's INTEGER, which stays as it
# is: INTEGER PRIMARY KEY is SQLite's rowid).
Int = BigInteger().with_variant(Integer(), "sqlite")

LIST_CHECK = "IN ('standard', 'rapid', 'blitz')"
# The same rule as three comparisons, for the big tables: SQLite rebuilds an IN list's lookup
# table for every execution of an INSERT, a third of the cost of storing a game (migration
# 0004).
LIST_COLUMN_CHECK = "\"list\" = 'standard' OR \"list\" = 'rapid' OR \"list\" = 'blitz'"

# A person. `name` is the first spelling seen; `norm_name` the normalized form used for
# matching (see tracker.identity.names). Two spellings are one player only through a FIDE
# ID under names that fit (tracker.identity.names.names_fit) or an explicit merge (which
# records the alias in player_names, and the merge in player_merges).
players = Table(
    "players",
    metadata,
    Column("id", Int, primary_key=True),
    Column("name", Text, nullable=False),
    Column("norm_name", Text, nullable=False, index=True),
    Column("fide_id", Int, nullable=True, unique=True),
    Column("title", String(8), nullable=True),
    Column("federation", String(8), nullable=True),
    # Facts that decide K, recorded by the user or read from official lists.
    Column("birth_year", Int, nullable=True),
    Column("rated_games", Int, nullable=True),  # rated games completed before the replay
    Column("ever_2400", Boolean, nullable=True),
    Column("is_me", Boolean, nullable=False, server_default="0"),
)

# Every spelling that maps to a player (the first spelling, and aliases from merges).
player_names = Table(
    "player_names",
    metadata,
    Column("norm_name", Text, primary_key=True),
    Column(
        "player_id", Int, ForeignKey("players.id", ondelete="CASCADE"), nullable=False, index=True
    ),
)

# One row per import of one source (a file, a member of an archive, or standard input).
imports = Table(
    "imports",
    metadata,
    Column("id", Int, primary_key=True),
    Column("source", Text, nullable=False),
    Column("content_hash", String(64), nullable=False, index=True),
    Column("started_at", DateTime, nullable=False),
    Column("finished_at", DateTime, nullable=True),
    Column("games_read", Int, nullable=False, server_default="0"),
    Column("games_added", Int, nullable=False, server_default="0"),
    Column("duplicates", Int, nullable=False, server_default="0"),
    Column("problems", Int, nullable=False, server_default="0"),
    # what the file's Elo tags in rapid and blitz events are: 'auto', 'standard' or 'own'
    # (tracker.model.EloTags; migration 0011)
    Column("elo_tags", String(8), nullable=False, server_default="auto"),
    CheckConstraint(
        "elo_tags = 'auto' OR elo_tags = 'standard' OR elo_tags = 'own'", name="elo_tags"
    ),
)

# Games sharing an event. Identity: (event, site, start) where start is EventDate when the
# PGN has one, else the first game's date; `key` is "event|site|start" (the rules for
# same-name events of other years and for unknown dates: see tracker/store/games.py).
tournaments = Table(
    "tournaments",
    metadata,
    Column("id", Int, primary_key=True),
    Column("event", Text, nullable=False),
    Column("site", Text, nullable=False),
    Column("start_date", Date, nullable=True),
    Column("end_date", Date, nullable=True),
    Column("key", Text, nullable=False, unique=True),
    Column("online", Boolean, nullable=False, server_default="0"),
    # User overrides (tracker event set): pin to a period / list, or exclude entirely.
    Column("pinned_period", String(7), nullable=True),
    Column("pinned_list", String(8), nullable=True),
    Column("excluded", Boolean, nullable=False, server_default="0"),
    CheckConstraint(f"pinned_list IS NULL OR pinned_list {LIST_CHECK}", name="pinned_list"),
)
# The importer finds the tournaments of an event by (event, site) (migration 0002).
Index("ix_tournaments_event_site", tournaments.c.event, tournaments.c.site)

# The starting rating FIDE actually used for a player in a tournament (tracker event set
# ID --ro R), when its calculation page shows one that differs from the published list.
ro_overrides = Table(
    "ro_overrides",
    metadata,
    Column(
        "tournament_id", Int, ForeignKey("tournaments.id", ondelete="CASCADE"), primary_key=True
    ),
    Column("player_id", Int, ForeignKey("players.id", ondelete="CASCADE"), primary_key=True),
    Column("rating", Int, nullable=False),
)

games = Table(
    "games",
    metadata,
    Column("id", Int, primary_key=True),
    # The first 16 bytes of the sha256 of the identity (players, date, round, event,
    # moves); unique (migration 0005 cut the 64 hex characters of earlier revisions to 32,
    # migration 0007 stores their 16 bytes).
    Column("identity", LargeBinary(16), nullable=False, unique=True),
    # Looked up by tournament through ix_games_tournament_date (migration 0003 dropped the
    # single-column index: every index on games costs the importer a b-tree insert a game).
    Column("tournament_id", Int, ForeignKey("tournaments.id"), nullable=False),
    Column("import_id", Int, ForeignKey("imports.id"), nullable=True),
    Column("source_line", Int, nullable=True),
    Column("white_id", Int, ForeignKey("players.id"), nullable=False, index=True),
    Column("black_id", Int, ForeignKey("players.id"), nullable=False, index=True),
    Column("date", Date, nullable=True),
    Column("date_tag", String(10), nullable=True),  # as written, e.g. 2024.??.??
    Column("round", Text, nullable=True),
    Column("result", String(7), nullable=False),  # 1-0, 0-1, 1/2-1/2, *
    Column("white_elo", Int, nullable=True),  # parsed; None when missing/unusable
    Column("black_elo", Int, nullable=True),
    # The Elo tags as written, NULL where missing or exactly the parsed rating (most
    # games, migration 0007): a reader takes coalesce(white_elo_tag, CAST(white_elo AS TEXT)).
    Column("white_elo_tag", Text, nullable=True),
    Column("black_elo_tag", Text, nullable=True),
    Column("white_title", String(8), nullable=True),
    Column("black_title", String(8), nullable=True),
    Column("time_control", Text, nullable=True),
    Column("termination", Text, nullable=True),
    Column("variant", Text, nullable=True),  # None for standard chess
    Column("has_moves", Boolean, nullable=False),
    Column("list", String(8), nullable=False),
    Column("list_assumed", Boolean, nullable=False, server_default="0"),  # TC unknown
    # Whether the game counts for rating at all, and why not. Reasons are stable words:
    # unfinished, forfeit, no-moves, variant, setup, time-control, online, unrated-opponent
    # (stored only when neither side has a rating; one-sided cases are decided per player).
    Column("rated", Boolean, nullable=False),
    Column("not_rated_reason", String(32), nullable=True),
    CheckConstraint(LIST_COLUMN_CHECK, name="list"),
)
Index("ix_games_tournament_date", games.c.tournament_id, games.c.date)

# A published list entry (FIDE's downloadable lists, or `tracker official add`).
official_ratings = Table(
    "official_ratings",
    metadata,
    Column("id", Int, primary_key=True),
    Column("player_id", Int, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("list", String(8), nullable=False),
    Column("period", String(7), nullable=False),
    Column("rating", Int, nullable=True),  # None: listed but without a rating
    Column("games", Int, nullable=True),
    Column("k", Int, nullable=True),
    Column("flag", String(4), nullable=True),  # i, w, wi
    Column("title", String(8), nullable=True),
    Column("birth_year", Int, nullable=True),
    Column("source", Text, nullable=False),  # 'manual' or the file name
    Column("recorded_at", DateTime, nullable=False),
    UniqueConstraint("player_id", "list", "period"),
    CheckConstraint(LIST_COLUMN_CHECK, name="list"),
)

# One row per list file imported and (list, period) it held (migration 0008): `source` is the
# file's absolute path, so a later message can name it; the same file again adds nothing.
official_lists = Table(
    "official_lists",
    metadata,
    Column("id", Int, primary_key=True),
    Column("list", String(8), nullable=False),
    Column("period", String(7), nullable=False),
    Column("source", Text, nullable=False),
    Column("imported_at", DateTime, nullable=False),
    # 'whole' (FIDE's whole list: a player it lacks is unrated) or 'excerpt' (migration 0009)
    Column("kind", String(8), nullable=False, server_default="whole"),
    UniqueConstraint("list", "period", "source"),
    CheckConstraint(LIST_COLUMN_CHECK, name="list"),
    CheckConstraint("kind = 'whole' OR kind = 'excerpt'", name="kind"),
)

# "This player was looked up on that list" (migration 0008): written by every list import for
# every player it identified (by FIDE ID, listed or not, or by a unique name match). Checked
# with a rated official_ratings entry: that rating; checked without one: unrated for FIDE on
# that list; not checked: unknown (the replay falls back to the PGN's Elo tag).
official_checked = Table(
    "official_checked",
    metadata,
    Column("player_id", Int, ForeignKey("players.id", ondelete="CASCADE"), nullable=False),
    Column("list", String(8), nullable=False),
    Column("period", String(7), nullable=False),
    PrimaryKeyConstraint("player_id", "list", "period"),
    CheckConstraint(LIST_COLUMN_CHECK, name="list"),
)

# --- merges (migration 0010) -----------------------------------------------------------------
# Every merge of two players (`tracker player merge`, `player set --fide-id N --merge`, a list
# row whose FIDE ID another player holds), recorded with what it moved, so that `tracker
# player unmerge` puts it back: `kept_id` the player kept, `gone_id` the id of the one
# removed (no foreign key: it comes back under that id, where the id is still free). Ids are
# never reused (AUTOINCREMENT on SQLite, a sequence on PostgreSQL): a merge's number, shown
# when it is made, names that merge only. Undoing a merge deletes its record.
MERGE_HOWS = ("merge", "fide-id", "list")
player_merges = Table(
    "player_merges",
    metadata,
    Column("id", Int, primary_key=True),
    Column("kept_id", Int, nullable=False, index=True),
    Column("gone_id", Int, nullable=False, index=True),
    # 'merge' (player merge), 'fide-id' (player set --merge), 'list' (a list's name match)
    Column("how", String(8), nullable=False),
    Column("source", Text, nullable=True),  # the list file of a 'list' merge
    Column("made_at", DateTime, nullable=False),
    CheckConstraint("how = 'merge' OR how = 'fide-id' OR how = 'list'", name="how"),
    sqlite_autoincrement=True,
)


def _merge_id() -> Column[int]:
    return Column(
        "merge_id", Int, ForeignKey("player_merges.id", ondelete="CASCADE"), nullable=False
    )


# The players rows of a merge: the one removed as it was ('gone'), the one kept before and
# after it ('before', 'after': unmerge puts back a fact the merge changed, unless it was
# changed again since).
merge_players = Table(
    "merge_players",
    metadata,
    _merge_id(),
    Column("role", String(6), nullable=False),
    Column("name", Text, nullable=False),
    Column("norm_name", Text, nullable=False),
    Column("fide_id", Int, nullable=True),
    Column("title", String(8), nullable=True),
    Column("federation", String(8), nullable=True),
    Column("birth_year", Int, nullable=True),
    Column("rated_games", Int, nullable=True),
    Column("ever_2400", Boolean, nullable=True),
    Column("is_me", Boolean, nullable=False),
    PrimaryKeyConstraint("merge_id", "role"),
    CheckConstraint("role = 'gone' OR role = 'before' OR role = 'after'", name="role"),
)

# The games a merge moved, and on which side the removed player had them (a game removed
# since, by `tracker imports remove`, leaves the record with it).
merge_games = Table(
    "merge_games",
    metadata,
    _merge_id(),
    Column("game_id", Int, ForeignKey("games.id", ondelete="CASCADE"), nullable=False, index=True),
    Column("side", String(5), nullable=False),
    PrimaryKeyConstraint("merge_id", "game_id"),
    CheckConstraint("side = 'white' OR side = 'black'", name="side"),
)

# The spellings (player_names) a merge moved to the kept player (`added` false), or gave it
# (`added` true: the list's name, the removed player's name where it had no row).
merge_names = Table(
    "merge_names",
    metadata,
    _merge_id(),
    Column("norm_name", Text, nullable=False),
    Column("added", Boolean, nullable=False),
    PrimaryKeyConstraint("merge_id", "norm_name"),
)

# The official entries of the removed player, as they were (`entry_id` their official_ratings
# id): moved to the kept player (`moved`), or dropped (the kept player had the same).
merge_entries = Table(
    "merge_entries",
    metadata,
    _merge_id(),
    Column("entry_id", Int, nullable=False),
    Column("list", String(8), nullable=False),
    Column("period", String(7), nullable=False),
    Column("rating", Int, nullable=True),
    Column("games", Int, nullable=True),
    Column("k", Int, nullable=True),
    Column("flag", String(4), nullable=True),
    Column("title", String(8), nullable=True),
    Column("birth_year", Int, nullable=True),
    Column("source", Text, nullable=False),
    Column("recorded_at", DateTime, nullable=False),
    Column("moved", Boolean, nullable=False),
    PrimaryKeyConstraint("merge_id", "list", "period"),
    CheckConstraint(LIST_COLUMN_CHECK, name="list"),
)

# The lists the removed player was looked up on: moved (`moved`) or already the kept one's.
merge_checked = Table(
    "merge_checked",
    metadata,
    _merge_id(),
    Column("list", String(8), nullable=False),
    Column("period", String(7), nullable=False),
    Column("moved", Boolean, nullable=False),
    PrimaryKeyConstraint("merge_id", "list", "period"),
    CheckConstraint(LIST_COLUMN_CHECK, name="list"),
)

# The removed player's starting-rating overrides: moved (`moved`) or dropped (the kept player
# had one for that tournament).
merge_overrides = Table(
    "merge_overrides",
    metadata,
    _merge_id(),
    Column("tournament_id", Int, nullable=False),
    Column("rating", Int, nullable=False),
    Column("moved", Boolean, nullable=False),
    PrimaryKeyConstraint("merge_id", "tournament_id"),
)
