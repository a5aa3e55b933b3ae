"""games and official_ratings check their list with `=` ... OR, not IN (...)

SQLite builds the IN list's lookup table anew for every execution of an INSERT, so the
`"list" IN ('standard', 'rapid', 'blitz')` check cost a third of the work of storing a game
(callgrind, 87,000 instructions a row with it, 56,000 with the OR form). The same rule, written
as three comparisons.

SQLite changes a CHECK only by copying the table. Alembic's batch mode would do it, but lists
the copied table's constraints in an order that varies from run to run; this migration copies
the table itself, the way SQLite's documentation describes (new table from the stored CREATE
statement with the check replaced, rows copied, old table dropped, new one renamed, indexes
made again from their stored SQL), so every database gets the same schema text. Neither table
is referenced by another, so the copy is safe with foreign keys on. Other databases alter the
constraint in place.

Revision ID: 0004
Revises: 0003
Create Date: 2026-11-30 14:50:00
"""

from __future__ import annotations

from alembic import op

revision = "0004"
down_revision = "0003"
branch_labels = None
depends_on = None

TABLES = ("games", "official_ratings")
_IN = "\"list\" IN ('standard', 'rapid', 'blitz')"
_OR = "\"list\" = 'standard' OR \"list\" = 'rapid' OR \"list\" = 'blitz'"


def _recheck_sqlite(table: str, old: str, new: str) -> None:
    conn = op.get_bind()
    create = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?", (table,)
    ).scalar_one()
    clause = f"CONSTRAINT ck_{table}_list CHECK ({old})"
    if clause not in create:
        raise RuntimeError(f"migration 0004: unexpected schema of {table}: {create}")
    indexes = [
        sql
        for (sql,) in conn.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = ? "
            "AND sql IS NOT NULL ORDER BY name",
            (table,),
        )
    ]
    head, sep, rest = create.partition("(")
    conn.exec_driver_sql(
        f'CREATE TABLE "_new_{table}" {sep}'
        + rest.replace(clause, f"CONSTRAINT ck_{table}_list CHECK ({new})")
    )
    conn.exec_driver_sql(f'INSERT INTO "_new_{table}" SELECT * FROM "{table}"')
    conn.exec_driver_sql(f'DROP TABLE "{table}"')
    conn.exec_driver_sql(f'ALTER TABLE "_new_{table}" RENAME TO "{table}"')
    for sql in indexes:
        conn.exec_driver_sql(sql)


def _recheck(table: str, old: str, new: str) -> None:
    if op.get_bind().dialect.name == "sqlite":
        _recheck_sqlite(table, old, new)
    else:
        op.drop_constraint(op.f(f"ck_{table}_list"), table, type_="check")
        op.create_check_constraint(op.f(f"ck_{table}_list"), table, new)


def upgrade() -> None:
    for table in TABLES:
        _recheck(table, _IN, _OR)


def downgrade() -> None:
    for table in TABLES:
        _recheck(table, _OR, _IN)
