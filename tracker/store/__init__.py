"""The store: SQLite (or any SQLAlchemy URL) through SQLAlchemy, schema under Alembic.

This package owns `sqlalchemy` and `alembic`; nothing else imports them. It hands out plain
values (tracker.model and small dataclasses), never ORM rows.

Modules: `schema` (tables), `db` (open, upgrade), and one module per use case that reads or
writes (games, official, ...).
"""

from tracker.store.db import DEFAULT_DB, Store, open_store

__all__ = ["DEFAULT_DB", "Store", "open_store"]
