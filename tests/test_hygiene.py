"""One command runs lint, types and tests: `pytest` runs ruff and mypy --strict too."""

from __future__ import annotations

import shutil
import subprocess
import sys

import pytest

from tests.conftest import REPO


def _run(args: list[str]) -> subprocess.CompletedProcess[str]:
    return subprocess.run(args, cwd=REPO, capture_output=True, text=True, timeout=600)


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff not installed")
def test_ruff_clean() -> None:
    proc = _run(["ruff", "check", "--output-format", "concise", "."])
    assert proc.returncode == 0, proc.stdout + proc.stderr


@pytest.mark.skipif(shutil.which("ruff") is None, reason="ruff not installed")
def test_ruff_format_clean() -> None:
    proc = _run(["ruff", "format", "--check", "."])
    assert proc.returncode == 0, proc.stdout + proc.stderr


def test_mypy_strict_clean() -> None:
    proc = _run([sys.executable, "-m", "mypy"])
    assert proc.returncode == 0, proc.stdout + proc.stderr
