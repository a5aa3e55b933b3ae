"""The seasons tests build: one builder per shape, with parameters where tests differ only in
values (issue 16 item 7).

- `sample_season_db(db)`: the sample season (`sample_pgns/`) imported into a database.
"""

from __future__ import annotations

from pathlib import Path

from tests.conftest import SAMPLES


def sample_season_db(db: Path) -> Path:
    """A database of the sample season at `db` (every file of sample_pgns/ imported with the
    default options)."""
    from tracker.importer import ImportOptions, import_paths
    from tracker.store import open_store

    with open_store(str(db)) as store:
        import_paths(store, [str(SAMPLES)], ImportOptions())
    return db
