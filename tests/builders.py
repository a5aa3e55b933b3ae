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


def copy_db(template: Path, folder: Path, name: str = "season.db") -> str:
    """A fresh copy of a module's template database in `folder` (each test changes its own)."""
    import shutil

    target = folder / name
    shutil.copyfile(template, target)
    return str(target)


def two_opens_season(db: Path) -> Path:
    """Hand-made (tests/helpers_history.py): official Oct 2025 1850 (K 20); "Autumn Open"
    4-5 Oct 2025 (default list 2025-11): a win vs 1700, a loss vs 2000; "Weinviertel Open
    2025" 21-23 Nov 2025 (default list 2025-12, and no earlier list can rate it: its last
    round is after 1 Nov): a draw vs 1800, a win vs 1900. The player's tag 1850 throughout."""
    from tests.helpers_history import Season
    from tracker.store import open_store

    with open_store(str(db)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
        s.game(t, 1700, 1, own_elo=1850, date="2025-10-04")
        s.game(t, 2000, 0, own_elo=1850, date="2025-10-05")
        w = s.tournament("Weinviertel Open 2025", "2025-11-21", "2025-11-23")
        s.game(w, 1800, "1/2", own_elo=1850, date="2025-11-21")
        s.game(w, 1900, 1, own_elo=1850, date="2025-11-23")
        s.official("2025-10", 1850, k=20)
    return db
