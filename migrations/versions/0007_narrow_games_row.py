"""a narrower games row: the identity as its 16 bytes (BLOB, bytea on PostgreSQL) instead of
32 hexadecimal characters, and an Elo tag stored only where its text differs from the
parsed rating (NULL where the tag is exactly `str(white_elo)`, most games; the readers give
the text back as `coalesce(white_elo_tag, CAST(white_elo AS TEXT))`) (issue 18)

The same 128 bits of the same digest: every identity converts exactly (hex -> bytes), so a
game stored before is still recognized as a duplicate.

SQLite changes a column's type only by copying the table: as migration 0004, the new table
is made from the stored CREATE statement with the identity's type replaced, the rows copied
(each identity through `bytes.fromhex`, a function given to this connection: SQLite 3.40 has
no `unhex()`), the old table dropped, the new one renamed, the indexes made again from their
stored SQL; no other table refers to games. PostgreSQL alters the column in place
(`decode(identity, 'hex')`), its unique index made again by the ALTER.

Revision ID: 0007
Revises: 0006
Create Date: 2026-12-02 01:30:00
"""

from __future__ import annotations

from typing import Any

from alembic import op

revision = "0007"
down_revision = "0006"
branch_labels = None
depends_on = None

_TEXT = "identity VARCHAR(64) NOT NULL"
_BLOB = "identity BLOB NOT NULL"


def _unhex(value: Any) -> bytes:
    if isinstance(value, bytes):
        return value
    text = str(value)
    try:
        return bytes.fromhex(text)
    except ValueError:  # never written by tracker (a hand-made row): kept, as its bytes
        return text.encode("utf-8")


def _hex(value: Any) -> str:
    return value.hex() if isinstance(value, bytes) else str(value)


def _copy_sqlite(old: str, new: str, identity: str, tags: dict[str, str]) -> None:
    """Copy games into a table whose CREATE statement has `old` replaced by `new`, the
    identity through the SQL function `identity` and each column of `tags` as its SQL."""
    conn = op.get_bind()
    create = conn.exec_driver_sql(
        "SELECT sql FROM sqlite_master WHERE type = 'table' AND name = 'games'"
    ).scalar_one()
    if old not in create:
        raise RuntimeError(f"migration 0007: unexpected schema of games: {create}")
    indexes = [
        sql
        for (sql,) in conn.exec_driver_sql(
            "SELECT sql FROM sqlite_master WHERE type = 'index' AND tbl_name = 'games' "
            "AND sql IS NOT NULL ORDER BY name"
        )
    ]
    columns = [str(row[1]) for row in conn.exec_driver_sql("PRAGMA table_info(games)")]
    raw = conn.connection.driver_connection
    assert raw is not None
    raw.create_function("tracker_unhex", 1, _unhex, deterministic=True)
    raw.create_function("tracker_hex", 1, _hex, deterministic=True)
    values = ", ".join(
        f"{identity}(identity)" if c == "identity" else tags.get(c, f'"{c}"') for c in columns
    )
    names = ", ".join(f'"{c}"' for c in columns)
    head, sep, rest = create.partition("(")
    conn.exec_driver_sql(f'CREATE TABLE "_new_games" {sep}' + rest.replace(old, new))
    conn.exec_driver_sql(
        f'INSERT INTO "_new_games" ({names}) SELECT {values} FROM games ORDER BY id'
    )
    conn.exec_driver_sql('DROP TABLE "games"')
    conn.exec_driver_sql('ALTER TABLE "_new_games" RENAME TO "games"')
    for sql in indexes:
        conn.exec_driver_sql(sql)


_SIDES = ("white", "black")


def upgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        # the tag as NULL where it is exactly the rating (a NULL rating: the tag as it is)
        _copy_sqlite(
            _TEXT,
            _BLOB,
            "tracker_unhex",
            {
                f"{s}_elo_tag": f"CASE WHEN {s}_elo_tag = CAST({s}_elo AS TEXT) THEN NULL "
                f"ELSE {s}_elo_tag END"
                for s in _SIDES
            },
        )
        return
    op.execute("ALTER TABLE games ALTER COLUMN identity TYPE bytea USING decode(identity, 'hex')")
    for s in _SIDES:
        op.execute(f"UPDATE games SET {s}_elo_tag = NULL WHERE {s}_elo_tag = CAST({s}_elo AS TEXT)")


def downgrade() -> None:
    if op.get_bind().dialect.name == "sqlite":
        _copy_sqlite(
            _BLOB,
            _TEXT,
            "tracker_hex",
            {f"{s}_elo_tag": f"coalesce({s}_elo_tag, CAST({s}_elo AS TEXT))" for s in _SIDES},
        )
        return
    op.execute(
        "ALTER TABLE games ALTER COLUMN identity TYPE varchar(64) USING encode(identity, 'hex')"
    )
    for s in _SIDES:
        op.execute(
            f"UPDATE games SET {s}_elo_tag = CAST({s}_elo AS TEXT) "
            f"WHERE {s}_elo_tag IS NULL AND {s}_elo IS NOT NULL"
        )
