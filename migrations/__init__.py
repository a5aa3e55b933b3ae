"""Alembic environment of tracker (installed as the `tracker.migrations` package)."""
