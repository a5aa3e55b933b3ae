"""An import into a damaged database stops at once with the damaged-database line and exit
code 4 (not "file not imported" for every file, exit 1)."""

from __future__ import annotations

from collections.abc import Iterator
from pathlib import Path
from typing import BinaryIO

import pytest

from tests.conftest import REPO, run_cli
from tracker.model import RawGame

SAMPLES = REPO / "sample_pgns"


def test_an_import_into_a_damaged_database_stops_with_exit_4(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = tmp_path / "c.db"
    code, _, err = run_cli(
        capsys,
        monkeypatch,
        "import",
        "--db",
        str(db),
        str(SAMPLES / "2025-09-12_brno-autumn-open.pgn"),
    )
    assert code == 0, err
    with db.open("r+b") as f:  # page 3 (a table's b-tree) overwritten
        f.seek(3 * 4096)
        f.write(b"\xff" * 4096)
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        "import",
        "--db",
        str(db),
        str(SAMPLES / "2025-10-03_olomouc-open.pgn"),
        str(SAMPLES / "2025-11-21_weinviertel-open.pgn"),
    )
    assert code == 4, (out, err)
    assert "not imported" not in out + err
    assert err.count("\n") == 1 and err.startswith(f"error: {db} is damaged"), err


# -- issue 19, item 3: a file that changes during its import ------------------------------


def _long_games(n: int, tag: str = "") -> bytes:
    """n games of ~100 KB each (a long comment): more than one read block of the parser,
    so a file cut during the import is read cut."""
    from tests.test_import import pgn

    return b"".join(
        pgn(f"1. e4 {{{'x' * 100_000}}} e5", Round=f"{tag}{i}").encode() for i in range(n)
    )


def _games(db: Path) -> int:
    import sqlite3

    con = sqlite3.connect(db)
    try:
        return int(con.execute("SELECT count(*) FROM games").fetchone()[0])
    finally:
        con.close()


@pytest.mark.parametrize("workers", [False, True])
@pytest.mark.parametrize("change", ["cut", "appended", "replaced"])
def test_a_file_that_changes_during_its_import_fails_whole(
    tmp_path: Path, workers: bool, change: str
) -> None:
    """Cut mid-import, 33,160 of 55,393 games were stored under the hash of the whole file
    (taken by a second read): the complete file was then "already imported" and its other
    games could never be imported. The file's size, times and inode are now compared before
    and after: a file that changed fails whole, and imports once it is complete."""
    import os

    from tracker.app.importing import ImportOptions, import_paths, import_sources
    from tracker.files.sources import iter_sources
    from tracker.pgn import read_games
    from tracker.store import open_store

    f = tmp_path / "live.pgn"
    whole = _long_games(40)
    f.write_bytes(whole)

    def reader(stream: BinaryIO, name: str) -> Iterator[RawGame]:
        for n, raw in enumerate(read_games(stream, name)):
            if n == 0:
                if change == "cut":  # a copy that starts again, cut short for now
                    with f.open("r+b") as w:
                        w.truncate(len(whole) // 2)
                elif change == "appended":
                    with f.open("ab") as w:
                        w.write(_long_games(5, "late"))
                else:  # written beside and renamed over it
                    (tmp_path / "new.pgn").write_bytes(whole[: len(whole) // 2])
                    os.replace(tmp_path / "new.pgn", f)
            yield raw

    db = tmp_path / "t.db"
    with open_store(str(db)) as store:
        report = import_sources(
            store, iter_sources([str(f)]), ImportOptions(workers=workers), reader=reader
        )
        (rep,) = report.sources
        assert rep.error == (
            f"{f}: the file changed while it was being imported (written to, "
            "cut or replaced): nothing of it was stored; import it again once "
            "it is complete"
        ), rep
        assert rep.added == 0 and _games(db) == 0
        f.write_bytes(whole)
        again = import_paths(store, [str(f)], ImportOptions(workers=workers))
    assert again.total("added") == 40 and not again.failed and _games(db) == 40


def test_a_limit_reached_in_a_worker_stops_the_import(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 5, in a forked worker: the refusal crosses the pipe and still stops the run."""
    import gzip

    from tracker.app.importing import ImportOptions, import_paths
    from tracker.errors import TrackerError
    from tracker.files.sources import Limits
    from tracker.importer import batches
    from tracker.store import open_store

    monkeypatch.setattr(batches, "WORKER_MIN_BYTES", 0)
    (tmp_path / "a.pgn").write_bytes(_long_games(2, "a"))
    (tmp_path / "b.pgn.gz").write_bytes(gzip.compress(_long_games(30, "b")))
    (tmp_path / "c.pgn").write_bytes(_long_games(2, "c"))
    done: list[str] = []
    db = tmp_path / "t.db"
    with (
        open_store(str(db)) as store,
        pytest.raises(
            TrackerError, match=(r"b.pgn.gz: more than 1M once decompressed: refused")
        ) as caught,
    ):
        import_paths(
            store,
            [str(tmp_path)],
            ImportOptions(workers=True),
            on_source=lambda s: done.append(s.name),
            limits=Limits(max_size=1 << 20),
        )
    assert caught.value.exit_code == 2
    assert done == [str(tmp_path / "a.pgn")] and _games(db) == 2
