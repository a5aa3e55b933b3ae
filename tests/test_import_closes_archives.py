"""An import closes the archives it read (item 7 of the remnants): the zip of the sample
season stayed open after `import_paths` returned (kept for a next member that never came),
and a pytest-xdist worker ended with a ResourceWarning for it."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tests.conftest import SAMPLES
from tracker.app.importing import ImportOptions, import_paths
from tracker.store import open_store

ZIPS = sorted(SAMPLES.glob("*.zip"))


def _open_files() -> set[str]:
    found = set()
    for fd in os.listdir("/proc/self/fd"):
        try:
            found.add(os.readlink(f"/proc/self/fd/{fd}"))
        except OSError:
            continue
    return found


@pytest.mark.skipif(not Path("/proc/self/fd").is_dir() or not ZIPS, reason="no /proc or no zip")
def test_an_import_leaves_no_archive_open(tmp_path: Path) -> None:
    with open_store(str(tmp_path / "t.db")) as store:
        report = import_paths(store, [str(z) for z in ZIPS], ImportOptions())
        assert report.sources and not any(s.error for s in report.sources)
        still = {str(z.resolve()) for z in ZIPS} & _open_files()
    assert still == set()
