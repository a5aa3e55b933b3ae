"""One game from two sources that name its event or round differently is stored twice (the
import's duplicate check keys on them): the history says so, in the period's notes, and names
how to leave a tournament out. Games that only look alike are not flagged."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import REPO, run_cli

OLOMOUC = REPO / "sample_pgns" / "2025-10-03_olomouc-open.pgn"
NOTE = "maybe one game stored twice"


def _cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    code, out, err = run_cli(capsys, monkeypatch, *args, "--db", "twice.db")
    assert code == 0, err
    return out


def _notes(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> list[str]:
    """The explain lines of the period that says so, checked against the history's note."""
    rows = json.loads(_cli(capsys, monkeypatch, "history", "99012345", "-f", "json"))
    found: list[str] = []
    for r in rows:
        text = _cli(capsys, monkeypatch, "explain", "99012345", r["period"])
        lines = [x.removeprefix("Note: ") for x in text.splitlines() if NOTE in x]
        n = len(lines)
        assert (
            f"{n} game{'s' if n > 1 else ''} maybe stored twice (explain says which)" in r["note"]
        ) == (n > 0), r["note"]
        found += lines
    return found


@pytest.fixture
def here(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> Path:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)
    shutil.copy(OLOMOUC, tmp_path / "olomouc.pgn")
    return tmp_path


def test_the_same_games_under_another_event_name_are_flagged(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = OLOMOUC.read_text(encoding="utf-8")
    (here / "other.pgn").write_text(
        text.replace('[Event "Olomouc Open 2025"]', '[Event "Olomouc Open"]'), encoding="utf-8"
    )
    _cli(capsys, monkeypatch, "import", "olomouc.pgn", "other.pgn")
    notes = _notes(capsys, monkeypatch)
    # the file holds 5 games of Novák: each is now stored twice; the round-5 forfeit (no
    # moves: Kaczmarek did not appear) counts in neither copy, so it cannot count twice
    # (issue 13: no "stored twice" note for a game that does not count)
    assert len(notes) == 4
    assert not [n for n in notes if "Kaczmarek" in n]
    first = [n for n in notes if "2025-10-03" in n]
    assert len(first) == 1
    assert (
        "against Marek, Lukáš (white, 1-0) in 'Olomouc Open 2025' (event 1) and "
        "'Olomouc Open' (event 2)" in first[0]
    )
    assert "`tracker event set ID --exclude`" in first[0]
    # leaving the copy out silences the note
    _cli(capsys, monkeypatch, "event", "set", "2", "--exclude")
    assert _notes(capsys, monkeypatch) == []


def test_a_round_written_as_round_dot_board_is_flagged(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = OLOMOUC.read_text(encoding="utf-8")
    (here / "boards.pgn").write_text(text.replace('[Round "1"]', '[Round "1.4"]'), encoding="utf-8")
    _cli(capsys, monkeypatch, "import", "olomouc.pgn", "boards.pgn")
    notes = _notes(capsys, monkeypatch)
    assert len(notes) == 1
    assert "in 'Olomouc Open 2025' (event 1), rounds 1 and 1.4" in notes[0]


def test_a_file_imported_once_has_no_such_note(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    _cli(capsys, monkeypatch, "import", "olomouc.pgn")
    assert _notes(capsys, monkeypatch) == []


def test_two_games_of_one_day_in_other_rounds_are_not_flagged(
    here: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # a double round: the same opponent, colour, day and result, in rounds 1 and 2
    game = (
        '[Event "Club Blitz"]\n[Site "Brno CZE"]\n[Date "2025.10.10"]\n[Round "{r}"]\n'
        '[White "Novák, Tomáš"]\n[Black "Marek, Lukáš"]\n[Result "1-0"]\n'
        '[WhiteElo "1855"]\n[BlackElo "1601"]\n[WhiteFideId "99012345"]\n'
        '[BlackFideId "99052213"]\n[TimeControl "{tc}"]\n\n1. e4 {m} 1-0\n\n'
    )
    (here / "double.pgn").write_text(
        game.format(r=1, tc="5400+30", m="e5") + game.format(r=2, tc="5400+30", m="c5"),
        encoding="utf-8",
    )
    _cli(capsys, monkeypatch, "import", "double.pgn")
    assert _notes(capsys, monkeypatch) == []
