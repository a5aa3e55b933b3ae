"""Alembic environment: run by tracker.store.db with a connection already open."""

from __future__ import annotations

from alembic import context

from tracker.store.schema import metadata

config = context.config
connection = config.attributes.get("connection")
if connection is None:  # pragma: no cover - tracker always passes its connection
    raise RuntimeError("tracker migrations run through `tracker db upgrade`, not the alembic CLI")

context.configure(
    connection=connection,
    target_metadata=metadata,
    render_as_batch=True,  # SQLite cannot ALTER most things: batch mode copies the table
    compare_type=True,
)
with context.begin_transaction():
    context.run_migrations()
