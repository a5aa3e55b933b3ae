"""`tracker official import` records what a list row says of a player the games brought in
first (federation, title, birth year), as it does for a player it creates (`--all`): so
`tracker club --fed` finds them. A fact the database has already is never overwritten.

The list is FIDE's real Mar 2011 excerpt (../shared/spec/fide-list-samples/
standard_mar11frl.txt): Andreikin, Dmitry, 4158814, title g (GM), RUS, born 1990; A, Akshaya,
5031605, IND, born 1994, flag w (a woman, no title).
"""

from __future__ import annotations

import sqlite3
from pathlib import Path

import pytest

from tests.conftest import SHARED_MISSING, SPEC, run_cli

LIST = SPEC / "fide-list-samples" / "standard_mar11frl.txt"

pytestmark = pytest.mark.skipif(not LIST.is_file(), reason=SHARED_MISSING)


def _game(white: str, black: str, wid: str, bid: str) -> str:
    ids = "".join(f'[{side}FideId "{i}"]\n' for side, i in (("White", wid), ("Black", bid)) if i)
    return (
        f'[Event "Aeroflot Open 2011"]\n[Site "Moscow RUS"]\n[Date "2011.02.15"]\n'
        f'[Round "1"]\n[White "{white}"]\n[Black "{black}"]\n[Result "1-0"]\n'
        f'[WhiteElo "2686"]\n[BlackElo "2019"]\n{ids}\n1. e4 e5 1-0\n'
    )


def _facts(db: str) -> dict[str, tuple[str | None, str | None, int | None]]:
    with sqlite3.connect(db) as conn:
        rows = conn.execute("SELECT name, federation, title, birth_year FROM players")
        return {name: (fed, title, born) for name, fed, title, born in rows}


def test_a_list_fills_the_federation_of_players_the_games_brought(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Andreikin comes with his FIDE ID from the PGN; Akshaya without one (found by name).
    pgn = tmp_path / "aeroflot.pgn"
    pgn.write_text(_game("Andreikin,D", "A, Akshaya", "4158814", ""), encoding="utf-8")
    db = str(tmp_path / "t.db")
    code, _, err = run_cli(
        capsys, monkeypatch, "import", str(pgn), "--player", "Andreikin,D", "--db", db
    )
    assert code == 0, err
    code, out, err = run_cli(capsys, monkeypatch, "club", "--fed", "RUS", "--db", db)
    assert code == 2 and "none with a federation recorded" in err

    code, out, err = run_cli(capsys, monkeypatch, "official", "import", str(LIST), "--db", db)
    assert code == 0, err
    facts = _facts(db)
    assert facts["Andreikin,D"] == ("RUS", "GM", 1990)
    assert facts["A, Akshaya"] == ("IND", None, 1994)
    code, out, err = run_cli(capsys, monkeypatch, "club", "--fed", "RUS", "--db", db)
    assert code == 0, err
    assert "Andreikin,D" in out and "4158814" in out


def test_a_list_does_not_overwrite_what_the_database_has(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pgn = tmp_path / "aeroflot.pgn"
    pgn.write_text(_game("Andreikin,D", "Other,X", "4158814", ""), encoding="utf-8")
    db = str(tmp_path / "t.db")
    code, _, err = run_cli(
        capsys, monkeypatch, "import", str(pgn), "--player", "Andreikin,D", "--db", db
    )
    assert code == 0, err
    with sqlite3.connect(db) as conn:
        conn.execute("UPDATE players SET federation = 'FID', title = 'IM' WHERE fide_id = 4158814")
    code, _, err = run_cli(capsys, monkeypatch, "official", "import", str(LIST), "--db", db)
    assert code == 0, err
    assert _facts(db)["Andreikin,D"] == ("FID", "IM", 1990)
