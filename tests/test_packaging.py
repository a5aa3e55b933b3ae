"""The package ships what it needs at run time, and the explicit package list is complete."""

from __future__ import annotations

import tomllib

from tests.conftest import REPO


def test_every_subpackage_is_listed_in_pyproject() -> None:
    config = tomllib.loads((REPO / "pyproject.toml").read_text(encoding="utf-8"))
    listed = set(config["tool"]["setuptools"]["packages"])
    on_disk = {
        ".".join(p.parent.relative_to(REPO).parts) for p in (REPO / "tracker").rglob("__init__.py")
    }
    assert on_disk <= listed, f"add to [tool.setuptools] packages: {sorted(on_disk - listed)}"
    assert "tracker.migrations" in listed and "tracker.migrations.versions" in listed


def test_runtime_code_never_reads_shared() -> None:
    for path in (REPO / "tracker").rglob("*.py"):
        text = path.read_text(encoding="utf-8")
        assert "shared/" not in text.replace("shared/DESIGN.md", "").replace("shared/spec", ""), (
            f"{path} refers to ../shared at run time"
        )
