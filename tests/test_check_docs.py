"""docs/check.md shows real output: re-run every `$ tracker ...` command of its console
blocks, in order, on a fresh database from the repository root, and compare.

When the sample season or a message changes on purpose, regenerate the blocks with
`python -m tests.test_check_docs --write` and review the diff.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
import sys
import tempfile
from pathlib import Path

import pytest

from tests.conftest import REPO

DOC = REPO / "docs" / "check.md"
BLOCK = re.compile(r"```console\n(.*?)```", re.S)


def _commands(text: str) -> list[tuple[str, str]]:
    """(command, expected output) for every `$ ` line of every console block."""
    found: list[tuple[str, str]] = []
    for block in BLOCK.findall(text):
        parts = re.split(r"^\$ ", block, flags=re.M)
        for part in parts[1:]:
            command, _, output = part.partition("\n")
            found.append((command, output.strip("\n")))
    return found


def _run(command: str, db: Path) -> str:
    args = shlex.split(command)
    assert args[0] == "tracker"
    env = {**os.environ, "TRACKER_DB": str(db), "COLUMNS": "200", "TRACKER_TODAY": "2026-12-04"}
    env.pop("TRACKER_DEBUG", None)
    proc = subprocess.run(
        [sys.executable, "-m", "tracker", *args[1:]],
        cwd=REPO,
        env=env,
        capture_output=True,
        text=True,
        timeout=300,
    )
    return (proc.stdout + proc.stderr).strip("\n")


def _rerun(text: str, db: Path) -> list[tuple[str, str, str]]:
    return [(c, want, _run(c, db)) for c, want in _commands(text)]


@pytest.mark.slow
def test_check_doc_shows_real_output(tmp_path: Path) -> None:
    if not (REPO / "sample_pgns").is_dir():
        pytest.skip("sample_pgns/ missing")
    text = DOC.read_text(encoding="utf-8")
    results = _rerun(text, tmp_path / "season.db")
    assert len(results) >= 10
    for command, want, got in results:
        assert got == want, (
            f"docs/check.md is out of date at `{command}`: regenerate with "
            f"`python -m tests.test_check_docs --write`\n--- doc\n{want}\n--- now\n{got}"
        )


def _write() -> None:
    text = DOC.read_text(encoding="utf-8")
    with tempfile.TemporaryDirectory() as tmp:
        results = iter(_rerun(text, Path(tmp) / "season.db"))

        def block(m: re.Match[str]) -> str:
            lines = []
            for _part in re.split(r"^\$ ", m.group(1), flags=re.M)[1:]:
                command, _, got = next(results)
                lines.append(f"$ {command}\n{got}\n")
            return "```console\n" + "\n".join(lines) + "```"

        DOC.write_text(BLOCK.sub(block, text), encoding="utf-8")


if __name__ == "__main__":
    if sys.argv[1:] == ["--write"]:
        _write()
    else:
        raise SystemExit("usage: python -m tests.test_check_docs --write")
