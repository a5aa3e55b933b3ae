"""`tracker demo` on sample_pgns/: it runs, re-runs, and its replay matches the README's
hand derivation (sample_pgns/README.md, "Hand derivation": standard 1850 on the 2025-09
list, +5 -> 1855 on 2025-10, +10 -> 1865 on 2025-11, +10 -> 1875 on 2025-12)."""

from __future__ import annotations

import csv
import io
import re
from pathlib import Path

import pytest

from tests.conftest import SAMPLES, run_cli
from tracker.cli import demo as demo_module


def run(
    args: list[str], capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


def _readme() -> str:
    return (SAMPLES / "README.md").read_text(encoding="utf-8")


def test_anchor_constants_match_the_sample_readme() -> None:
    text = _readme()
    section = text.split("## Official anchor", 1)[1].split("\n## ", 1)[0]
    rows = re.findall(
        r"^\| (standard|rapid|blitz) \| (\d{4}-\d{2}) \| (\d+) \| (\d+) \|", section, re.M
    )
    assert {r[0]: int(r[2]) for r in rows} == {
        str(k): v for k, v in demo_module.SAMPLE_ANCHORS.items()
    }
    assert {r[1] for r in rows} == {str(demo_module.SAMPLE_ANCHOR_PERIOD)}
    assert {int(r[3]) for r in rows} == {demo_module.SAMPLE_ANCHOR_K}
    assert f"born {demo_module.SAMPLE_BIRTH_YEAR}" in section
    assert f"{demo_module.SAMPLE_RATED_GAMES} standard rated games" in section
    assert str(demo_module.SAMPLE_PLAYER_FIDE_ID) in section


@pytest.mark.slow
def test_demo_runs_twice_and_matches_the_hand_derivation(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    out_dir = tmp_path / "demo-out"
    code, out, err = run(["demo", "--output-dir", str(out_dir)], capsys, monkeypatch)
    assert code == 0, err
    assert (out_dir / "tracker-demo.db").exists()
    assert (out_dir / "history.png").read_bytes()[:4] == b"\x89PNG"
    rows = list(
        csv.DictReader(io.StringIO((out_dir / "history.csv").read_text(encoding="utf-8-sig")))
    )
    std = {r["period"]: r for r in rows if r["list"] == "standard"}
    assert std["2025-09"]["rating_after"] == "1850"
    # The README's hand derivation, period by period.
    assert (std["2025-10"]["change_exact"], std["2025-10"]["rating_after"]) == ("5.40", "1855")
    assert (std["2025-11"]["change_exact"], std["2025-11"]["rating_after"]) == ("10.20", "1865")
    assert std["2025-12"]["rating_before"] == "1865"
    assert (std["2025-12"]["change_exact"], std["2025-12"]["rating_after"]) == ("10.40", "1875")
    assert "Next, try:" in out
    # Re-running adds nothing and gives the same history.
    code, out2, err = run(["demo", "--output-dir", str(out_dir)], capsys, monkeypatch)
    assert code == 0, err
    assert "0 added" in out2
    again = (out_dir / "history.csv").read_text(encoding="utf-8-sig")
    assert list(csv.DictReader(io.StringIO(again))) == rows


def test_demo_without_samples_says_what_to_do(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run(
        ["demo", "--output-dir", str(tmp_path / "o"), "--samples", str(tmp_path / "missing")],
        capsys,
        monkeypatch,
    )
    assert code == 1 and "--samples" in err and "Traceback" not in err


def test_demo_never_adds_its_season_to_a_real_database(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Issue 19, item 10: `demo --db REAL.db` added the demo season to a real database and
    switched the tracked player."""
    from tests.conftest import dump_db

    real = tmp_path / "real.db"
    game = (
        '[Event "Club"]\n[Site "Here"]\n[Date "2025.10.04"]\n[Round "1"]\n'
        '[White "Real, Player"]\n[Black "Other, One"]\n[Result "1-0"]\n'
        '[WhiteElo "1700"]\n[BlackElo "1700"]\n\n1. e4 e5 1-0\n'
    )
    (tmp_path / "mine.pgn").write_text(game, encoding="utf-8")
    code, _, err = run(
        ["import", str(tmp_path / "mine.pgn"), "--db", str(real)], capsys, monkeypatch
    )
    assert code == 0, err
    before = dump_db(real)
    code, out, err = run(
        ["demo", "--db", str(real), "--output-dir", str(tmp_path / "o")], capsys, monkeypatch
    )
    assert code == 2 and out == ""
    assert (
        err.startswith(
            f"error: {real} holds 1 import that is not the sample season "
            f"(first: {tmp_path / 'mine.pgn'})"
        )
        and err.count("\n") == 1
    )
    assert dump_db(real) == before
    assert not (tmp_path / "o").exists()  # nothing made, not even the output folder
