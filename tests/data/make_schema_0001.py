"""Rebuild tests/data/schema-0001.db: a database of the first released schema (0001).

Run from the repository root: `python tests/data/make_schema_0001.py`. The schema comes
from the 0001 migration itself (Alembic, `upgrade 0001`), the rows are written by hand in
plain SQL below (the facts of two tiny made-up games, one official entry, one import), so
the file does not depend on any later code. tests/test_db_maintenance.py upgrades a copy to
head and checks every row below is still there.
"""

from __future__ import annotations

import sqlite3
import sys
from pathlib import Path

from tracker.store.db import make_engine, migrate

TARGET = Path(__file__).with_name("schema-0001.db")

ROWS = """
INSERT INTO imports VALUES (1, 'club.pgn', '{h}', '2025-03-02 10:00:00.000000',
    '2025-03-02 10:00:01.000000', 2, 2, 0, 0);
INSERT INTO players VALUES (1, 'Novák, Jan', 'jan novak', 99012345, 'FM', 'CZE', 2009, 12, 0, 1);
INSERT INTO players VALUES (2, 'Svoboda, Petr', 'petr svoboda', NULL, NULL, NULL, NULL, NULL,
    NULL, 0);
INSERT INTO player_names VALUES ('jan novak', 1);
INSERT INTO player_names VALUES ('petr svoboda', 2);
INSERT INTO player_names VALUES ('novak j', 1);
INSERT INTO tournaments VALUES (1, 'Club Open', 'Brno CZE', '2025-03-01', '2025-03-02',
    'Club Open|Brno CZE|2025-03-01', 0, NULL, NULL, 0);
INSERT INTO games VALUES (1, '{g1}', 1, 1, 1, 1, 2, '2025-03-01', '2025.03.01', '1', '1-0',
    1850, 1720, '1850', '1720', 'FM', NULL, '5400+30', NULL, NULL, 1, 'standard', 0, 1, NULL);
INSERT INTO games VALUES (2, '{g2}', 1, 1, 9, 2, 1, '2025-03-02', '2025.03.02', '2',
    '1/2-1/2', 1720, 1850, '1720', '1850', NULL, 'FM', '5400+30', NULL, NULL, 1, 'standard',
    0, 1, NULL);
INSERT INTO official_ratings VALUES (1, 1, 'standard', '2025-04', 1861, 2, 40, NULL, 'FM',
    2009, 'manual', '2025-04-01 09:00:00.000000');
INSERT INTO ro_overrides VALUES (1, 2, 1725);
"""


def main() -> None:
    if TARGET.exists():
        TARGET.unlink()
    engine = make_engine(f"sqlite:///{TARGET}")
    migrate(engine, "0001")
    engine.dispose()
    con = sqlite3.connect(TARGET)
    con.executescript(ROWS.format(h="a" * 64, g1="1" * 64, g2="2" * 64))
    con.commit()
    con.execute("VACUUM")
    con.close()
    print(f"wrote {TARGET}", file=sys.stderr)


if __name__ == "__main__":
    main()
