"""bench/tags_bench.py cannot rot: run it on two tiny collections (issue 13's benchmark).

The real run (the pgnmentor files of ../shared/corpus) is never part of the test suite; see
bench/README.md.
"""

from __future__ import annotations

import importlib.util
import json
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.conftest import REPO

pytestmark = pytest.mark.slow  # benchmark smoke: a bench script on generated data

BENCH = REPO / "bench" / "tags_bench.py"


def _bench_module() -> ModuleType:
    spec = importlib.util.spec_from_file_location("tags_bench", BENCH)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    sys.modules[spec.name] = module  # dataclasses look their module up
    spec.loader.exec_module(module)
    return module


def _game(event: str, date: str, rnd: int, opponent: str, elo: int, own: int, player: str) -> str:
    white = rnd % 2 == 1
    w, b = (player, opponent) if white else (opponent, player)
    we, be = (own, elo) if white else (elo, own)
    return (
        f'[Event "{event}"]\n[Site "Testville"]\n[Date "{date}"]\n[Round "{rnd}"]\n'
        f'[White "{w}"]\n[Black "{b}"]\n[Result "1/2-1/2"]\n[WhiteElo "{we}"]\n'
        f'[BlackElo "{be}"]\n\n1. e4 e5 2. Nf3 Nc6 1/2-1/2\n\n'
    )


def _tournament(event: str, month: int, own: int, player: str = "Tester,T") -> str:
    # four draws, one a day, against opponents rated as the player: the change is 0
    return "".join(
        _game(
            event, f"2013.{month:02d}.{10 + r:02d}", r, f"Opponent,{event[0]}{r}", own, own, player
        )
        for r in range(1, 5)
    )


@pytest.mark.bench  # bench script smoke: .ci/run runs it
def test_tags_bench_smoke(tmp_path: Path) -> None:
    corpus = tmp_path / "corpus"
    corpus.mkdir()
    # Tags: 2500 under the Jan list (before the first replayed period: not compared), 2500
    # under Feb (replayed 2500), 2500 under Apr (a quiet list: no history row, counted at the
    # carried 2500), 2530 under May (replayed 2500: -30).
    (corpus / "pgnmentor-Tester.pgn").write_text(
        _tournament("Alpha Open", 1, 2500)
        + _tournament("Beta Open", 2, 2500)
        + _tournament("Gamma Open", 4, 2500)
        + _tournament("Delta Open", 5, 2530),
        encoding="utf-8",
    )
    old = _tournament("Old Open", 3, 2400, player="Oldie,O").replace("2013.", "1990.")
    (corpus / "pgnmentor-Oldie.pgn").write_text(old, encoding="utf-8")
    out_json = tmp_path / "lists.json"
    done = subprocess.run(
        [
            sys.executable,
            str(BENCH),
            "--corpus",
            str(corpus),
            "--workdir",
            str(tmp_path / "work"),
            "--json",
            str(out_json),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr[-3000:]
    assert "| file | player | tagged lists | equal |" in done.stdout
    assert "| pgnmentor-Tester.pgn | Tester,T | 3 | 2 | 67% | 0 | 30 | 2013-05 -30 |" in done.stdout
    assert "| **total** (1 file) | | 3 | 2 | 67% | 0 | 30 | |" in done.stdout
    assert "Not measured" in done.stdout and "pgnmentor-Oldie.pgn" in done.stdout
    assert (tmp_path / "work" / "tags-bench.md").read_text(encoding="utf-8") == done.stdout
    (result,) = json.loads(out_json.read_text(encoding="utf-8"))
    assert result["before_first"] == 1
    assert [(x["period"], x["tag"], x["replayed"], x["row"]) for x in result["lists"]] == [
        ("2013-02", 2500, 2500, True),
        ("2013-04", 2500, 2500, False),
        ("2013-05", 2530, 2500, True),
    ]


def test_calendar_is_the_engines() -> None:
    """The bench writes FIDE's standard list calendar out; it must stay the engine's."""
    from tracker.fide.calendar import is_list_month
    from tracker.model import Period

    bench = _bench_module()
    for year in range(2008, 2027):
        for month in range(1, 13):
            assert bench.is_standard_list_month(year, month) == is_list_month(
                Period(year, month)
            ), (year, month)
