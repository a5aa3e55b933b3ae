"""The store: SQLite (or any SQLAlchemy URL) through SQLAlchemy, schema under Alembic.

This package owns `sqlalchemy` and `alembic`; nothing else imports them. It hands out plain
values (tracker.model and small dataclasses), never ORM rows.

Modules: `schema` (tables), `db` (open, upgrade, the small helpers every module shares), and
one module per job: `games` (the import's writer), `imports` (listing and removing imports,
what an import left), `players` (finding, facts, merge, the player listing), `official`
(published list entries), `history` (what the replay reads; tournament overrides),
`maintenance` (db check, backup, restore).
"""

from tracker.store.db import DEFAULT_DB, Store, open_store

__all__ = ["DEFAULT_DB", "Store", "open_store"]
