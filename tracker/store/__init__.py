"""The store: SQLite (or any SQLAlchemy URL) through SQLAlchemy, schema under Alembic.

This package owns `sqlalchemy` and `alembic`; nothing else imports them, and only the
library's verbs (tracker.app) import it. It hands out plain values (tracker.model and small
dataclasses), never ORM rows.

Modules: `schema` (tables), `db` (open, upgrade, the small helpers every module shares), and
one module per job: `games` (the import's writer), `imports` (listing and removing imports,
what an import left), `players` (finding, facts, the player listing), `merges` (merges,
recorded and undone), `official` (published list entries), `lists` (which lists were
imported and who was looked up on them, names matched to list rows), `reading` (what the
replay reads; tournament overrides), `events` (a tournament's players), `maintenance` (db
check, backup, restore).
"""

from tracker.store.db import DEFAULT_DB, Store, open_store

__all__ = ["DEFAULT_DB", "Store", "open_store"]
