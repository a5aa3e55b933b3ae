"""The seams of tracker/check/: the analyses (report, reconcile, causes, games, rules, context)
work over plain values and never reach the store; the verb that reads it is tracker.app.check
(the import rule of tests/test_architecture.py, one step finer)."""

from __future__ import annotations

import sys

from tests.conftest import REPO
from tests.test_architecture import _imports

CHECK = REPO / "tracker" / "check"
PURE_TRACKER = (
    "tracker.model",
    "tracker.advice",
    "tracker.fide",
    "tracker.periods",
    "tracker.check",
)


def test_the_analyses_do_not_read_the_store() -> None:
    analyses = sorted(CHECK.glob("*.py"))
    assert {p.stem for p in analyses} >= {"report", "reconcile", "causes", "games", "rules"}
    for path in analyses:
        for name in _imports(path):
            top = name.split(".")[0]
            if top == "tracker":
                ok = any(name == m or name.startswith(m + ".") for m in PURE_TRACKER)
            else:
                ok = top in sys.stdlib_module_names or top == "__future__"
            assert ok, f"tracker/check/{path.name} imports {name}"
