"""The catalog of hostile inputs (issue 7): each input, and the exact message the user sees.

Every case runs `tracker` through its entry point in a fresh folder holding a small
database (two games: Novak, Jan v Svoboda, Petr) and the files of tests/data/hostile/ (see
its README). For each: the exit code, stdout and stderr exactly, never a traceback; and for
every input that is refused, the database is byte-for-byte what it was (SQL dump).

Exit codes: 0 done (warnings on stderr name file:line), 1 the command failed (the database
or a file cannot be used), 2 a bad value was given (usage).
"""

from __future__ import annotations

import shutil
import sqlite3
from dataclasses import dataclass
from pathlib import Path

import pytest

from tests.conftest import REPO, dump_db, run_cli
from tests.test_import import pgn, write

HOSTILE = REPO / "tests" / "data" / "hostile"
NO_TC = ("no time control: 1 game put on a list by assumption (standard, or blitz/rapid when "
         "the event name says so); --list states it\n")
H = "hostile/"


@dataclass(frozen=True)
class Case:
    id: str
    args: tuple[str, ...]
    code: int
    out: str
    err: str
    changes_db: bool = False  # the input is (partly) stored: the database may change


def _report(name: str, line: str, summary: str, tail: str = NO_TC) -> str:
    return f"{H}{name}: {line}\n1 file, {summary}\n{tail}"


CASES = [
    # --- PGN files -------------------------------------------------------------------
    Case("missing-file", ("import", "missing.pgn"), 1, "",
         "error: no such file or folder: missing.pgn\n"),
    Case("folder-without-pgn", ("import", "emptydir"), 1, "",
         "error: folder emptydir holds no PGN files (.pgn, .pgn.gz, .pgn.bz2, .pgn.xz, .zip, "
         ".tar, .tar.gz, .tgz, .tar.bz2, .tbz2, .tbz, .tar.xz, .txz); "
         "name the files or another folder\n"),
    Case("binary-file", ("import", H + "binary.pgn"), 1,
         f"{H}binary.pgn: not imported: no game found ({H}binary.pgn:1: text outside any game "
         "(no tag header before it): ignored); is it a PGN file?\n"
         "1 file, 0 games read, 0 added, 0 duplicates skipped, 1 problem\n",
         f"warning: {H}binary.pgn:1: text outside any game (no tag header before it): "
         f"ignored\nerror: 1 of 1 files could not be imported (nothing of them was stored): "
         f"{H}binary.pgn\n"),
    Case("empty-file", ("import", H + "empty.pgn"), 1,
         f"{H}empty.pgn: not imported: no game found; is it a PGN file?\n"
         "1 file, 0 games read, 0 added, 0 duplicates skipped, 0 problems\n",
         "error: 1 of 1 files could not be imported (nothing of them was stored): "
         f"{H}empty.pgn\n"),
    Case("truncated-game", ("import", H + "truncated.pgn"), 0,
         _report("truncated.pgn", "2 games read, 1 added, 1 skipped, 2 problems",
                 "2 games read, 1 added, 0 duplicates skipped, 1 game not stored (problems), "
                 "2 problems"),
         f"warning: {H}truncated.pgn:14: not a tag pair, ignored: [R\n"
         f"warning: {H}truncated.pgn:11: no White player name: game skipped\n",
         changes_db=True),
    Case("broken-tag-quoting", ("import", H + "broken-quotes.pgn"), 0,
         _report("broken-quotes.pgn", "1 game read, 0 added, 1 skipped, 2 problems",
                 "1 game read, 0 added, 0 duplicates skipped, 1 game not stored (problems), "
                 "2 problems", ""),
         f'warning: {H}broken-quotes.pgn:5: not a tag pair, ignored: [White "Novak, \\"Jan]\n'
         f"warning: {H}broken-quotes.pgn:1: no White player name: game skipped\n",
         changes_db=True),
    Case("unknown-result", ("import", H + "unknown-result.pgn"), 0,
         _report("unknown-result.pgn", "1 game read, 0 added, 1 skipped, 1 problem",
                 "1 game read, 0 added, 0 duplicates skipped, 1 game not stored (problems), "
                 "1 problem", ""),
         f"warning: {H}unknown-result.pgn:1: unknown result '2-0': game skipped (expected 1-0, "
         "0-1, 1/2-1/2 or *)\n", changes_db=True),
    Case("unknown-result-strict", ("import", H + "unknown-result.pgn", "--strict"), 2, "",
         f"error: {H}unknown-result.pgn:1: unknown result '2-0': game skipped (expected 1-0, "
         f"0-1, 1/2-1/2 or *) (--strict: nothing of {H}unknown-result.pgn was imported)\n"),
    Case("invalid-utf8", ("import", H + "invalid-utf8.pgn"), 0,
         _report("invalid-utf8.pgn", "1 game read, 1 added",
                 "1 game read, 1 added, 0 duplicates skipped, 0 problems"), "",
         changes_db=True),
    # a partial date is normal (no warning); "abc" is no rating: said, the game kept
    Case("partial-date-and-odd-elo", ("import", H + "odd-tags.pgn"), 0,
         _report("odd-tags.pgn", "1 game read, 1 added, 1 problem",
                 "1 game read, 1 added, 0 duplicates skipped, 1 problem"),
         f"warning: {H}odd-tags.pgn:1: BlackElo 'abc' is not a rating (a whole number from 1 "
         "to 3999): the game is stored without Black's rating\n",
         changes_db=True),
    Case("unclosed-comment", ("import", H + "unbalanced.pgn"), 0,
         _report("unbalanced.pgn", "2 games read, 2 added, 1 problem",
                 "2 games read, 2 added, 0 duplicates skipped, 1 problem",
                 NO_TC.replace("1 game", "2 games")),
         f"warning: {H}unbalanced.pgn:9: a comment opened with {{ is never closed\n",
         changes_db=True),
    Case("truncated-gzip", ("import", H + "truncated.pgn.gz"), 1,
         f"{H}truncated.pgn.gz: not imported: cannot read {H}truncated.pgn.gz: Compressed file "
         "ended before the end-of-stream marker was reached\n"
         "1 file, 0 games read, 0 added, 0 duplicates skipped, 0 problems\n",
         "error: 1 of 1 files could not be imported (nothing of them was stored): "
         f"{H}truncated.pgn.gz\n"),
    Case("truncated-zip", ("import", H + "truncated.zip"), 2, "",
         f"error: {H}truncated.zip is not a readable zip archive (File is not a zip file)\n"),
    Case("zip-without-pgn", ("import", H + "no-pgn.zip"), 2, "",
         f"error: {H}no-pgn.zip holds no .pgn file; name a zip with PGN inside\n"),
    Case("unknown-list", ("import", H + "odd-tags.pgn", "--list", "bullet"), 2, "",
         "error: unknown list 'bullet': use standard, rapid or blitz\n"),
    # --- --db --------------------------------------------------------------------------
    Case("db-is-a-folder", ("history", "--db", "emptydir"), 1, "",
         "error: emptydir is a folder, not a database file: give a file path to --db\n"),
    Case("db-not-sqlite", ("history", "--db", H + "not-a-database.db"), 1, "",
         f"error: {H}not-a-database.db is not a tracker database (not SQLite): give another "
         "--db path\n"),
    Case("db-corrupt", ("history", "--db", H + "corrupt.db"), 4, "",
         f"error: {H}corrupt.db is damaged (database disk image is malformed): `tracker db "
         f"check --db {H}corrupt.db` tells more; restore a backup (`tracker db backup`)\n"),
    Case("db-check-corrupt", ("db", "check", "--db", H + "corrupt.db"), 4, "",
         f"error: {H}corrupt.db is damaged (database disk image is malformed): restore a "
         "backup (`tracker db backup`)\n"),
    Case("db-of-another-program", ("history", "--db", "other.db"), 1, "",
         "error: other.db is an SQLite database of another program: pick another --db\n"),
    Case("db-newer-schema", ("history", "--db", "newer.db"), 1, "",
         "error: newer.db was written by a newer version of tracker (schema 9999); upgrade "
         "tracker to use it\n"),
    Case("db-folder-missing", ("history", "--db", "nofolder/x.db"), 1, "",
         "error: the folder nofolder does not exist: create it or pick --db\n"),
    Case("db-url-without-driver", ("history", "--db", "postgresql://u@localhost/x"), 1, "",
         "error: cannot use database 'postgresql://u@localhost/x': No module named 'psycopg'\n"),
    # --- command-line values -------------------------------------------------------------
    Case("sql-in-a-name", ("history", "Robert'); DROP TABLE players;--"), 1, "",
         "error: no player matches \"Robert'); DROP TABLE players;--\": `tracker players` "
         "lists all 2 players, `tracker players --search PART` those whose name contains "
         "PART\n"),
    Case("emoji-name", ("history", "🐴 Horse"), 1, "",
         "error: no player matches '🐴 Horse': `tracker players` lists all 2 players, "
         "`tracker players --search PART` those whose name contains PART\n"),
    Case("quote-in-a-name", ("history", '"Novak'), 0,
         "", "", changes_db=False),  # out: the history table (checked below: not empty)
    Case("like-wildcard-name", ("history", "%"), 2, "",
         "error: '%' is not a player name or FIDE ID\n"),
    Case("period-month-13", ("history", "Novak, Jan", "--from", "2025-13"), 2, "",
         "error: --from: period '2025-13': month must be 01 to 12\n"),
    Case("period-words", ("history", "Novak, Jan", "--to", "march"), 2, "",
         "error: --to: period 'march' is not of the form YYYY-MM (for example 2025-03)\n"),
    Case("calc-not-an-opponent", ("calc", "abc", "--rating", "1500"), 2, "",
         "error: opponent 'abc' is not RATING:SCORE (for example 1650:0.5)\n"),
    Case("calc-score-2", ("calc", "1650:2", "--rating", "1500"), 2, "",
         "error: opponent '1650:2': the score '2' must be 1, 0.5 (or 1/2) or 0\n"),
    Case("calc-negative-rating", ("calc", "1650:0.5", "--rating", "-5"), 2, "",
         "error: --rating -5: a rating must be between 1 and 3999\n"),
    Case("calc-huge-rating", ("calc", "1650:0.5", "--rating", "9" * 23), 2, "",
         f"error: --rating {'9' * 23}: a rating must be between 1 and 3999\n"),
    Case("calc-february-30", ("calc", "1650:0.5", "--rating", "1500", "--date", "2025-02-30"),
         2, "", "error: date '2025-02-30' is not YYYY-MM-DD (for example 2025-03-01)\n"),
    Case("official-add-month-13", ("official", "add", "Novak, Jan", "--period", "2025-13",
                                   "--rating", "1900"), 2, "",
         "error: --period: period '2025-13': month must be 01 to 12\n"),
    Case("official-add-negative", ("official", "add", "Novak, Jan", "--period", "2025-03",
                                   "--rating", "-1"), 2, "",
         "error: rating -1 is out of range: give a rating from 1 to 3999\n"),
    Case("official-add-sql-name", ("official", "add", "x'; DELETE FROM games;--", "--period",
                                   "2025-03", "--rating", "1900"), 1, "",
         "error: no player matches \"x'; DELETE FROM games;--\": `tracker players` lists all "
         "2 players, `tracker players --search PART` those whose name contains PART\n"),
    Case("player-birth-year", ("player", "set", "Novak, Jan", "--birth-year", "-3"), 2, "",
         "error: birth year -3 is not plausible: give a year like 2008\n"),
    Case("merge-with-itself", ("player", "merge", "Novak, Jan", "Novak, Jan"), 2, "",
         "error: that is the same player twice: name two different players\n"),
    # --- official list files ---------------------------------------------------------------
    Case("xml-bomb", ("official", "import", H + "bomb.xml", "--period", "2025-03"), 2, "",
         f"error: {H}bomb.xml:2: the XML declares a DTD (<!DOCTYPE ...>), which a FIDE list "
         "never does; refused for safety\n"),
    Case("list-wrong-columns", ("official", "import", H + "wrong-columns.txt", "--period",
                                "2025-03"), 2, "",
         f"error: {H}wrong-columns.txt:1: the header is not FIDE's TXT layout (expected 'Tit' "
         "at column 85, found ''): is this a FIDE rating list?\n"),
    Case("list-truncated-zip", ("official", "import", H + "truncated.zip", "--period",
                                "2025-03"), 2, "",
         f"error: {H}truncated.zip:1: the header is not FIDE's TXT layout (expected 'ID' at "
         "column 1, found 'PK\\x03\\x04\\x14\\x00'): is this a FIDE rating list?\n"),
    Case("list-binary", ("official", "import", H + "binary.pgn", "--period", "2025-03"), 2, "",
         f"error: {H}binary.pgn:1: the header is not FIDE's TXT layout (expected 'ID' at "
         "column 1, found '\\x00\\x01\\x02\\x03\\x04\\x05'): is this a FIDE rating list?\n"),
]

_BASE: dict[str, bytes] = {}


@pytest.fixture
def folder(tmp_path: Path, monkeypatch: pytest.MonkeyPatch,
           capsys: pytest.CaptureFixture[str]) -> Path:
    """A folder with tracker.db (two games), hostile/, emptydir/, other.db and newer.db."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)
    shutil.copytree(HOSTILE, tmp_path / "hostile")
    (tmp_path / "emptydir").mkdir()
    db = tmp_path / "tracker.db"
    if not _BASE:
        write(tmp_path / "base.pgn", pgn(Round="1"), pgn(Round="2", Result="0-1"))
        assert run(capsys, monkeypatch, "import", "base.pgn")[0] == 0
        _BASE["db"] = db.read_bytes()
    db.write_bytes(_BASE["db"])
    con = sqlite3.connect(tmp_path / "other.db")
    con.execute("CREATE TABLE notes (x)")
    con.commit()
    con.close()
    shutil.copy(db, tmp_path / "newer.db")
    con = sqlite3.connect(tmp_path / "newer.db")
    con.execute("UPDATE alembic_version SET version_num = '9999'")
    con.commit()
    con.close()
    return tmp_path


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.mark.parametrize("case", CASES, ids=[c.id for c in CASES])
def test_catalog(case: Case, folder: Path, capsys: pytest.CaptureFixture[str],
                 monkeypatch: pytest.MonkeyPatch) -> None:
    before = dump_db(folder / "tracker.db")
    code, out, err = run(capsys, monkeypatch, *case.args)
    assert "Traceback" not in out + err and "internal error" not in err
    if case.id == "quote-in-a-name":  # the quote is not part of a name: Novak's history
        assert code == 0 and "Novak, Jan: standard rating history" in out and err == ""
    else:
        assert (code, out, err) == (case.code, case.out, case.err)
    if not case.changes_db:
        assert dump_db(folder / "tracker.db") == before


def test_catalog_ids_are_unique() -> None:
    assert len({c.id for c in CASES}) == len(CASES)


# --- bugs found here, now fixed (regression tests), and known ones (xfail, strict) ---


def test_huge_fide_id_is_a_clean_error(folder: Path, capsys: pytest.CaptureFixture[str],
                                       monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "history", "9" * 24)
    assert code in (1, 2) and "internal error" not in err and err.startswith("error: ")


def test_calc_bad_opponent_rating_is_named(folder: Path, capsys: pytest.CaptureFixture[str],
                                          monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "calc", "🐴:1", "--rating", "1500")
    assert code == 2 and "score" not in err and "rating" in err


def test_nul_in_a_tag_is_reported(folder: Path, capsys: pytest.CaptureFixture[str],
                                  monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "import", H + "nul-bytes.pgn")
    assert code == 0 and f"{H}nul-bytes.pgn:6:" in err


def test_newline_in_a_name_is_one_error_line(folder: Path, capsys: pytest.CaptureFixture[str],
                                             monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "history", "Nobody\nElse")
    assert code == 1 and err.startswith("error: ") and err.count("\n") == 1, err
