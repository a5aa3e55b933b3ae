"""The catalog of hostile inputs (issue 7): each input, and the exact message the user sees.

Every case runs `tracker` through its entry point in a fresh folder holding a small
database (two games: Novak, Jan v Svoboda, Petr), the files of tests/data/hostile/ (see
its README) and those made by `make_inputs` into made/ (issue 19: archives, links, bombs,
folders that cannot be shown as files in git). For each: the exit code, stdout and stderr
exactly, never a traceback; for every input that is refused, the database is byte-for-byte
what it was (SQL dump); for every case, the games stored after it are those before it plus
exactly the games it says it added, and `tracker db check` then finds nothing wrong.

Exit codes: 0 done (warnings on stderr name file:line), 1 the command failed (the database
or a file cannot be used), 2 a bad value was given (usage), 4 the database is damaged.
"""

from __future__ import annotations

import bz2
import datetime as dt
import gzip
import io
import os
import random
import re
import shutil
import socket
import sqlite3
import tarfile
import warnings
import zipfile
from collections.abc import Callable, Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import BinaryIO

import pytest

from tests import listgen
from tests.conftest import REPO, PgCluster, dump_db, dump_target, run_cli
from tests.test_fidelists import damaged_zip
from tests.test_import import pgn, write
from tracker.model import Period, RawGame

HOSTILE = REPO / "tests" / "data" / "hostile"
TODAY = dt.date.today()  # (a future list is one after next month's)
NO_TC = (
    "no time control: 1 game put on a list by assumption (standard, or blitz/rapid when "
    "the event name says so); --list states it\n"
)
H = "hostile/"


@dataclass(frozen=True)
class Case:
    id: str
    args: tuple[str, ...]
    code: int
    out: str
    err: str
    changes_db: bool = False  # the input is (partly) stored: the database may change
    stdin: bytes | None = None  # what standard input holds
    patch: Callable[[Path, pytest.MonkeyPatch], None] | None = None  # set up before the run

    @property
    def added(self) -> int:
        """The games the case stores: what its summary line says (0 when it has none)."""
        found = re.search(r"^\d+ files?, [\d,]+ games? read, ([\d,]+) added", self.out, re.M)
        return int(found.group(1).replace(",", "")) if found and self.changes_db else 0


def _report(name: str, line: str, summary: str, tail: str = NO_TC) -> str:
    return f"{H}{name}: {line}\n1 file, {summary}\n{tail}"


CASES = [
    # --- PGN files -------------------------------------------------------------------
    Case(
        "missing-file",
        ("import", "missing.pgn"),
        2,
        "",
        "error: no such file or folder: missing.pgn\n",
    ),
    Case(
        "folder-without-pgn",
        ("import", "emptydir"),
        2,
        "",
        "error: folder emptydir holds no PGN files (.pgn, .pgn.gz, .pgn.bz2, .pgn.xz, .zip, "
        ".tar, .tar.gz, .tgz, .tar.bz2, .tbz2, .tbz, .tar.xz, .txz); "
        "name the files or another folder\n",
    ),
    Case(
        "binary-file",
        ("import", H + "binary.pgn"),
        1,
        f"{H}binary.pgn: not imported: no game found ({H}binary.pgn:1: text outside any game "
        "(no tag header before it): ignored); is it a PGN file?\n"
        "1 file, 0 games read, 0 added, 0 duplicates skipped, 1 problem\n",
        f"warning: {H}binary.pgn:1: text outside any game (no tag header before it): "
        f"ignored\nerror: the file could not be imported (nothing of it was stored): "
        f"{H}binary.pgn\n",
    ),
    Case(
        "empty-file",
        ("import", H + "empty.pgn"),
        1,
        f"{H}empty.pgn: not imported: no game found; is it a PGN file?\n"
        "1 file, 0 games read, 0 added, 0 duplicates skipped, 0 problems\n",
        f"error: the file could not be imported (nothing of it was stored): {H}empty.pgn\n",
    ),
    Case(
        "truncated-game",
        ("import", H + "truncated.pgn"),
        0,
        _report(
            "truncated.pgn",
            "1 game read, 1 added, 1 problem",
            "1 game read, 1 added, 0 duplicates skipped, 1 problem",
        ),
        f"warning: {H}truncated.pgn:14: the file ends inside a tag ([R): it was cut short; the "
        "game of line 11 is not read (download or copy the file again)\n",
        changes_db=True,
    ),
    Case(
        "cut-in-the-result-tag",
        ("import", H + "cut-in-result-tag.pgn"),
        0,
        _report(
            "cut-in-result-tag.pgn",
            "1 game read, 1 added, 1 problem",
            "1 game read, 1 added, 0 duplicates skipped, 1 problem",
        ),
        f'warning: {H}cut-in-result-tag.pgn:17: the file ends inside a tag ([Result "1-): it '
        "was cut short; the game of line 11 is not read (download or copy the file again)\n",
        changes_db=True,
    ),
    Case(
        "broken-tag-quoting",
        ("import", H + "broken-quotes.pgn"),
        0,
        _report(
            "broken-quotes.pgn",
            "1 game read, 0 added, 1 skipped, 2 problems",
            "1 game read, 0 added, 0 duplicates skipped, 1 game not stored (problems), 2 problems",
            "",
        ),
        f'warning: {H}broken-quotes.pgn:5: not a tag pair, ignored: [White "Novak, \\"Jan]\n'
        f"warning: {H}broken-quotes.pgn:1: no White player name: game skipped\n",
        changes_db=True,
    ),
    Case(
        "unknown-result",
        ("import", H + "unknown-result.pgn"),
        0,
        _report(
            "unknown-result.pgn",
            "1 game read, 0 added, 1 skipped, 1 problem",
            "1 game read, 0 added, 0 duplicates skipped, 1 game not stored (problems), 1 problem",
            "",
        ),
        f"warning: {H}unknown-result.pgn:1: unknown result '2-0': game skipped (expected 1-0, "
        "0-1, 1/2-1/2 or *)\n",
        changes_db=True,
    ),
    Case(  # issue 35 item 10: the cut game was stored and counted by its Result tag
        "cut-in-moves",
        ("import", H + "cut-in-moves.pgn"),
        0,
        _report(
            "cut-in-moves.pgn",
            "2 games read, 1 added, 1 skipped, 1 problem",
            "2 games read, 1 added, 0 duplicates skipped, 1 game not stored (problems), 1 problem",
        ),
        f"warning: {H}cut-in-moves.pgn:11: the moves stop before the result (no 0-1 after "
        "them: the file cut short, or a { comment never closed?): game skipped\n",
        changes_db=True,
    ),
    Case(
        "unknown-result-strict",
        ("import", H + "unknown-result.pgn", "--strict"),
        2,
        "",
        f"error: {H}unknown-result.pgn:1: unknown result '2-0': game skipped (expected 1-0, "
        f"0-1, 1/2-1/2 or *) (--strict: nothing of {H}unknown-result.pgn was imported)\n",
    ),
    Case(
        "invalid-utf8",
        ("import", H + "invalid-utf8.pgn"),
        0,
        _report(
            "invalid-utf8.pgn",
            "1 game read, 1 added",
            "1 game read, 1 added, 0 duplicates skipped, 0 problems",
        ),
        "",
        changes_db=True,
    ),
    # a partial date is normal (no warning); "abc" is no rating: said, the game kept
    Case(
        "partial-date-and-odd-elo",
        ("import", H + "odd-tags.pgn"),
        0,
        _report(
            "odd-tags.pgn",
            "1 game read, 1 added, 1 problem",
            "1 game read, 1 added, 0 duplicates skipped, 1 problem",
            NO_TC + "dated only by year (2024): 1 game in 1 tournament in no period: "
            "`tracker event set --year 2024 --period YYYY-MM` pins them all, "
            "`tracker event set --year 2024 --exclude` sets them all aside\n",
        ),
        f"warning: {H}odd-tags.pgn:1: BlackElo 'abc' is not a rating (a whole number from 1 "
        "to 3999): the game is stored without Black's rating\n",
        changes_db=True,
    ),
    Case(
        "unclosed-comment",
        ("import", H + "unbalanced.pgn"),
        0,
        _report(  # (issue 35 item 10: the result is inside the comment: not stored)
            "unbalanced.pgn",
            "2 games read, 1 added, 1 skipped, 2 problems",
            "2 games read, 1 added, 0 duplicates skipped, 1 game not stored (problems), 2 problems",
        ),
        f"warning: {H}unbalanced.pgn:9: a comment opened with {{ is never closed\n"
        f"warning: {H}unbalanced.pgn:1: the moves stop before the result (no 1-0 after them: "
        "the file cut short, or a { comment never closed?): game skipped\n",
        changes_db=True,
    ),
    Case(
        "truncated-gzip",
        ("import", H + "truncated.pgn.gz"),
        1,
        f"{H}truncated.pgn.gz: not imported: cannot read {H}truncated.pgn.gz: Compressed file "
        "ended before the end-of-stream marker was reached\n"
        "1 file, 0 games read, 0 added, 0 duplicates skipped, 0 problems\n",
        f"error: the file could not be imported (nothing of it was stored): {H}truncated.pgn.gz\n",
    ),
    Case(
        "truncated-zip",
        ("import", H + "truncated.zip"),
        2,
        "",
        f"error: {H}truncated.zip is not a readable zip archive (File is not a zip file)\n",
    ),
    Case(
        "zip-without-pgn",
        ("import", H + "no-pgn.zip"),
        2,
        "",
        f"error: {H}no-pgn.zip holds no .pgn file; name a zip with PGN inside\n",
    ),
    Case(
        "unknown-list",
        ("import", H + "odd-tags.pgn", "--list", "bullet"),
        2,
        "",
        "error: unknown list 'bullet': use standard, rapid or blitz\n",
    ),
    Case(
        "unknown-tags",
        ("import", H + "odd-tags.pgn", "--tags", "fide"),
        2,
        "",
        "error: unknown --tags 'fide': use standard (the file prints the standard rating in "
        "every event), own (each event prints its own list's) or auto\n",
    ),
    # --- --db --------------------------------------------------------------------------
    Case(
        "db-is-a-folder",
        ("history", "--db", "emptydir"),
        1,
        "",
        "error: emptydir is a folder, not a database file: give a file path to --db\n",
    ),
    Case(
        "db-not-sqlite",
        ("history", "--db", H + "not-a-database.db"),
        1,
        "",
        f"error: {H}not-a-database.db is not a tracker database (not SQLite): give another "
        "--db path\n",
    ),
    Case(
        "db-corrupt",
        ("history", "--db", H + "corrupt.db"),
        4,
        "",
        f"error: {H}corrupt.db is damaged (database disk image is malformed): `tracker db "
        f"check --db {H}corrupt.db` tells more; restore a backup (`tracker db restore BACKUP`)\n",
    ),
    Case(
        "db-check-corrupt",
        ("db", "check", "--db", H + "corrupt.db"),
        4,
        "",
        f"error: {H}corrupt.db is damaged (database disk image is malformed): restore a "
        "backup (`tracker db restore BACKUP`)\n",
    ),
    Case(
        "db-of-another-program",
        ("history", "--db", "other.db"),
        1,
        "",
        "error: other.db is an SQLite database of another program: pick another --db\n",
    ),
    Case(
        "db-newer-schema",
        ("history", "--db", "newer.db"),
        1,
        "",
        "error: newer.db was written by a newer version of tracker (schema 9999); upgrade "
        "tracker to use it\n",
    ),
    Case(
        "db-folder-missing",
        ("history", "--db", "nofolder/x.db"),
        1,
        "",
        "error: the folder nofolder does not exist: create it or pick --db\n",
    ),
    Case(
        "db-url-of-another-database",
        ("history", "--db", "mysql://u@localhost/x"),
        1,
        "",
        "error: cannot use database 'mysql://u@localhost/x': tracker works on SQLite (a file "
        "path) and PostgreSQL (postgresql+psycopg://USER@HOST/DATABASE) databases only\n",
    ),
    # --- command-line values -------------------------------------------------------------
    Case(
        "sql-in-a-name",
        ("history", "Robert'); DROP TABLE players;--"),
        2,
        "",
        'error: no player matches "Robert\'); DROP TABLE players;--": `tracker players` '
        "lists all 2 players, `tracker players --search PART` those whose name contains "
        "PART\n",
    ),
    Case(
        "emoji-name",
        ("history", "🐴 Horse"),
        2,
        "",
        "error: no player matches '🐴 Horse': `tracker players` lists all 2 players, "
        "`tracker players --search PART` those whose name contains PART\n",
    ),
    Case(
        "quote-in-a-name", ("history", '"Novak'), 0, "", "", changes_db=False
    ),  # out: the history table (checked below: not empty)
    Case(
        "like-wildcard-name",
        ("history", "%"),
        2,
        "",
        "error: '%' is not a player name or FIDE ID\n",
    ),
    Case(
        "period-month-13",
        ("history", "Novak, Jan", "--from", "2025-13"),
        2,
        "",
        "error: --from: period '2025-13': month must be 01 to 12\n",
    ),
    Case(
        "period-words",
        ("history", "Novak, Jan", "--to", "march"),
        2,
        "",
        "error: --to: period 'march' is not of the form YYYY-MM (for example 2025-03)\n",
    ),
    Case(
        "calc-not-an-opponent",
        ("calc", "abc", "--rating", "1500"),
        2,
        "",
        "error: opponent 'abc' is not RATING:SCORE (for example 1650:0.5)\n",
    ),
    Case(
        "calc-score-2",
        ("calc", "1650:2", "--rating", "1500"),
        2,
        "",
        "error: opponent '1650:2': the score '2' must be 1, 0.5 (or 1/2) or 0\n",
    ),
    Case(
        "calc-negative-rating",
        ("calc", "1650:0.5", "--rating", "-5"),
        2,
        "",
        "error: --rating -5: a rating must be between 1 and 3999\n",
    ),
    Case(
        "calc-huge-rating",
        ("calc", "1650:0.5", "--rating", "9" * 23),
        2,
        "",
        f"error: --rating {'9' * 23}: a rating must be between 1 and 3999\n",
    ),
    Case(
        "calc-february-30",
        ("calc", "1650:0.5", "--rating", "1500", "--date", "2025-02-30"),
        2,
        "",
        "error: date '2025-02-30' is not YYYY-MM-DD (for example 2025-03-01)\n",
    ),
    # issue 19: internal errors once (exit 3: the year 10000, OverflowError), a hang
    Case(
        "calc-year-9999",
        ("calc", "1650:0.5", "--rating", "1500", "--date", "9999-12-31"),
        2,
        "",
        "error: date '9999-12-31': the year must be from 1970 to 2999\n",
    ),
    Case(
        "target-year-9999",
        ("target", "1900", "--opponents", "1850", "--games", "9", "--start", "9999-12-31"),
        2,
        "",
        "error: --start '9999-12-31': the year must be from 1970 to 2999\n",
    ),
    Case(
        "target-k-the-rules-do-not-know",
        ("target", "1900", "--opponents", "1850", "--games", "9", "--period", "2026-04")
        + ("--k", "15"),
        2,
        "",
        "error: --k 15 is not a K of the standard rules for the 2026-04 list: give 10, 20 or 40\n",
    ),
    Case(
        "target-a-billion-games",
        ("target", "1900", "--opponents", "1850", "--games", "1000000000"),
        2,
        "",
        "error: --games 1,000,000,000: a tournament of more than 1,000 games? give the games "
        "of one tournament\n",
    ),
    Case(
        "imports-remove-huge-id",
        ("imports", "remove", "9" * 23),
        2,
        "",
        f"error: there is no import {'9' * 23}: `tracker imports` lists them with their ids\n",
    ),
    Case(
        "official-add-huge-games",
        (
            "official",
            "add",
            "Novak, Jan",
            "--period",
            "2025-03",
            "--rating",
            "1900",
            "--games",
            "9" * 23,
        ),
        2,
        "",
        "error: a number given is too large (the most is 9,223,372,036,854,775,807); give a "
        "plausible value\n",
    ),
    Case(
        "official-add-month-13",
        ("official", "add", "Novak, Jan", "--period", "2025-13", "--rating", "1900"),
        2,
        "",
        "error: --period: period '2025-13': month must be 01 to 12\n",
    ),
    Case(
        "official-add-negative",
        ("official", "add", "Novak, Jan", "--period", "2025-03", "--rating", "-1"),
        2,
        "",
        "error: --rating -1 is below 1400, the lowest rating on FIDE's standard list of "
        "2025-03 (the floor: a result below it is published as unrated): give the rating as "
        "the list printed it\n",
    ),
    Case(
        "official-add-sql-name",
        ("official", "add", "x'; DELETE FROM games;--", "--period", "2025-03", "--rating", "1900"),
        2,
        "",
        'error: no player matches "x\'; DELETE FROM games;--": `tracker players` lists all '
        "2 players, `tracker players --search PART` those whose name contains PART\n",
    ),
    Case(
        "player-birth-year",
        ("player", "set", "Novak, Jan", "--birth-year", "-3"),
        2,
        "",
        "error: birth year -3 is not plausible: give a year like 2008\n",
    ),
    Case(
        "merge-with-itself",
        ("player", "merge", "Novak, Jan", "Novak, Jan"),
        2,
        "",
        "error: that is the same player twice: name two different players\n",
    ),
    # --- official list files ---------------------------------------------------------------
    Case(
        "xml-bomb",
        ("official", "import", H + "bomb.xml", "--period", "2025-03"),
        2,
        "",
        f"error: {H}bomb.xml:2: the XML declares a DTD (<!DOCTYPE ...>), which a FIDE list "
        "never does; refused for safety\n",
    ),
    Case(
        "list-wrong-columns",
        ("official", "import", H + "wrong-columns.txt", "--period", "2025-03"),
        2,
        "",
        f"error: {H}wrong-columns.txt:1: the header is not one of FIDE's TXT layouts (no "
        "rating column in 'ID Number Name Fed Sex'): expected 'ID Number', 'Name' and a "
        "rating column named after the month (JAN23, Mar11) or SRtng, RRtng, BRtng "
        "(docs/lists.md)\n",
    ),
    Case(
        "list-an-html-page",
        ("official", "import", H + "standard_mar11frl-page.txt"),
        2,
        "",
        f"error: {H}standard_mar11frl-page.txt: an HTML page (a web page saved from the "
        "browser), not a FIDE list file: download the list file itself (the .zip the page "
        "links to), or let `tracker official fetch` get it\n",
    ),
    Case(
        "list-truncated-zip",
        ("official", "import", H + "truncated.zip", "--period", "2025-03"),
        2,
        "",
        f"error: {H}truncated.zip: the zip archive is damaged (its end is missing: the "
        "download was cut short?): download it again\n",
    ),
    Case(
        "list-binary",
        ("official", "import", H + "binary.pgn", "--period", "2025-03"),
        2,
        "",
        f"error: {H}binary.pgn:1: the header is not one of FIDE's TXT layouts (no 'ID Number' "
        "column in '\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08'): expected 'ID Number', "
        "'Name' and a rating column named after the month (JAN23, Mar11) or SRtng, RRtng, "
        "BRtng (docs/lists.md)\n",
    ),
]

# --- issue 19: inputs made at run time (made/) --------------------------------------------

M = "made/"
ZEROS = 24 << 20  # past RATIO_FLOOR (16 MiB): the ratio limit looks at it
BLANK_MIB = 64  # blank lines after a list's header (a zip of some 66 KB)


def _game(i: int | str) -> bytes:
    return pgn(Round=f"m{i}", White="Dvorak, Ema", Black="Kral, Ota").encode()


def _long_games(n: int) -> bytes:
    """n games of ~100 KB (a long comment): more than one read block of the parser."""
    return b"".join(
        pgn(
            f"1. e4 {{{'x' * 100_000}}} e5",
            Round=f"long{i}",
            White="Dvorak, Ema",
            Black="Kral, Ota",
        ).encode()
        for i in range(n)
    )


_MADE: dict[str, bytes] = {}


def _imported(pgn_file: Path, work: Path) -> bytes:
    """The bytes of a new database holding `pgn_file`, imported (made in `work`)."""
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.store import open_store

    db = work / "made-import.db"
    with open_store(str(db)) as store:
        import_paths(store, [str(pgn_file)], ImportOptions())
    data = db.read_bytes()
    for leftover in work.glob("made-import.db*"):
        leftover.unlink()
    return data


TERMINAL_NAME = "Evil\x1b]0;pwned\x07\x1b[2J\u202eX\x85Y\x08"  # OSC, CSI, RLO, C1, BS


def make_inputs(made: Path) -> None:
    """The hostile inputs of issue 19, made in `made` (the slow ones once per session)."""
    if not _MADE:
        _MADE["zeros.pgn.bz2"] = bz2.compress(bytes(ZEROS))
        _MADE["big.pgn.gz"] = gzip.compress(b"".join(_game(i) for i in range(6_000)))
        _MADE["first.db"] = _imported(HOSTILE / "first-event-unrated.pgn", made.parent)
        _MADE["years.db"] = _imported(HOSTILE / "year-only-events.pgn", made.parent)
    made.mkdir()
    for name, data in _MADE.items():
        (made / name).write_bytes(data)
    with warnings.catch_warnings(), zipfile.ZipFile(made / "twice.zip", "w") as zf:
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        zf.writestr("x.pgn", _game(1))
        zf.writestr("x.pgn", _game(2))
    for data in (_game(3), _game(4)):  # `tar -r`: a newer copy appended
        with tarfile.open(made / "appended.tar", "a") as tf:
            info = tarfile.TarInfo("x.pgn")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    folder = made / "folder"
    (folder / "sub").mkdir(parents=True)
    (folder / "a.pgn").write_bytes(_game(5))
    (folder / "sub" / "b.pgn").write_bytes(_game(6))
    (folder / "damaged.zip").write_bytes(b"PK\x03\x04 not really a zip")
    with zipfile.ZipFile(folder / "photos.zip", "w") as zf:
        zf.writestr("cat.jpg", b"\xff\xd8")
    (folder / "dangling.pgn").symlink_to("gone.pgn")
    (folder / "loop.pgn").symlink_to("loop.pgn")
    (made / "loop.pgn").symlink_to("loop.pgn")
    (made / "dangling.pgn").symlink_to("gone.pgn")
    looped = made / "looped"
    (looped / "sub").mkdir(parents=True)
    (looped / "c.pgn").write_bytes(_game(7))
    (looped / "sub" / "up").symlink_to("..")
    (looped / "sub" / "up2").symlink_to(".")
    (made / "locked").mkdir()
    (made / "locked" / "a.pgn").write_bytes(_game(8))
    (made / "locked" / "inner").mkdir()
    (made / "locked" / "inner" / "x.pgn").write_bytes(_game(9))
    (made / "live.pgn").write_bytes(_long_games(30))
    (made / "terminal.pgn").write_bytes(  # names that would retitle and clear the terminal
        pgn(White=TERMINAL_NAME, Event="Open\x1b[2J", Round="t1").encode()
        + b'[Black "x\x1b]0;t\x07\n'
        + pgn(Round="t2", Black=TERMINAL_NAME).encode()
    )
    junk = "".join(f'[T{i} "v"]\n' for i in range(5_000))  # the stored tags after 5,000 others
    (made / "many-tags.pgn").write_text(
        '[Event "Open"]\n[Site "X"]\n[Date "2025.10.04"]\n[Round "1"]\n'
        + junk
        + '[White "Late, White"]\n[Black "Late, Black"]\n[Result "1-0"]\n\n1. e4 1-0\n',
        encoding="utf-8",
    )
    (made / "empty.db").write_bytes(b"")
    (made / "db-link.png").symlink_to("../tracker.db")
    with zipfile.ZipFile(made / "forged.zip", "w") as zf:  # a member name forging a line
        zf.writestr("a\nforged.pgn: 99 games read, 99 added\x1b[2J.pgn", _game(11))
    (made / "one.pgn").write_bytes(_game(12))
    (made / "two-spellings.pgn").write_bytes(  # one name, two spellings that may be one person
        pgn(Round="s1", White="Ivanchuk, V", Black="Kral, Ota").encode()
        + pgn(Round="s2", White="Ivanchuk, Vassily", Black="Dvorak, Ema").encode()
    )
    (made / "pipes").mkdir()
    (made / "pipes" / "a.pgn").write_bytes(_game(10))
    os.mkfifo(made / "pipes" / "pipe.pgn")  # opened, it would wait for a writer
    # issue 30: outputs that are not regular files
    (made / "null.csv").symlink_to(os.devnull)  # a symlink to a character device
    (made / "gone.png").symlink_to("nothing.png")
    sock = socket.socket(socket.AF_UNIX)
    sock.bind(str(made / "socket.db"))
    sock.close()
    (made / ".h.csv.k1ll3d_x.part").write_bytes(b"half a CSV")  # what a killed export left
    listgen.generate(made / "players_list.xml", 3, "xml")  # a list that says no month
    # issue 37: a FIDE list as FIDE zips it, gzipped, and zipped in a folder of games
    one_row = (HOSTILE / "standard_one_row.txt").read_bytes()
    with zipfile.ZipFile(made / "standard_mar11frl.zip", "w") as zf:
        zf.writestr("standard_mar11frl.txt", one_row)
    (made / "standard_mar11frl.txt.gz").write_bytes(gzip.compress(one_row))
    (made / "with-list").mkdir()
    (made / "with-list" / "a.pgn").write_bytes(_game(13))
    shutil.copy(made / "standard_mar11frl.zip", made / "with-list")
    # issue 35: list files that are no list, damaged, or hold what no FIDE list holds
    if "blanks" not in _MADE:
        buffer = io.BytesIO()
        with (
            zipfile.ZipFile(buffer, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as zf,
            zf.open("standard_nov25frl.txt", "w", force_zip64=True) as out,
        ):
            out.write(listgen.txt_header(Period(2025, 11), combined=False).encode() + b"\n")
            for _ in range(BLANK_MIB):
                out.write(b"\n" * (1 << 20))
        _MADE["blanks"] = buffer.getvalue()
    (made / "standard_nov25frl_blanks.zip").write_bytes(_MADE["blanks"])
    for damage in ("crc", "size", "method-99"):
        damaged_zip(made / f"standard_nov25frl_{damage}.zip", damage)
    lists = made / "lists"
    lists.mkdir()
    damaged_zip(lists / "rapid_nov25frl.zip", "crc")
    listgen.generate(lists / "standard_nov25frl.zip", 3, "txt", zipped=True)
    xml = listgen.generate(made / "standard_nov25frl.xml", 3, "xml").read_text(encoding="utf-8")
    (made / "standard_nov25frl_utf7.xml").write_text(
        xml.replace('encoding="UTF-8"', 'encoding="utf-7"'), encoding="utf-8"
    )
    rows = listgen.generate(made / "standard_nov25frl.txt", 3, "txt").read_bytes().split(b"\n")
    rows[2] = rows[2][:17] + b"\x00" + rows[2][18:]  # a NUL byte in a name
    (made / "standard_nov25frl.txt").write_bytes(b"\n".join(rows))
    (made / "standard_nov25frl.xml").write_text(  # a title of 200 letters, a federation of 40
        re.sub(
            "<country>[^<]*</country>",
            "<country>" + "N" * 40 + "</country>",
            re.sub("<title>[^<]*</title>", "<title>" + "G" * 200 + "</title>", xml, count=1),
            count=2,
        ).replace("<country>" + "N" * 40 + "</country>", "<country>NOR</country>", 1),
        encoding="utf-8",
    )
    (made / "far.pgn").write_text(  # its list would be of the year 10000
        pgn(Event="Far Open", Date="9999.12.31", Round="far"), encoding="utf-8"
    )


def _damaged_cache(folder: Path) -> None:
    """cache/standard_mar25frl.zip: the start of a zip, and nothing after it."""
    (folder / "cache").mkdir()
    (folder / "cache" / "standard_mar25frl.zip").write_bytes(b"PK\x03\x04 cut short")


def _unreadable_inner(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """made/locked/inner cannot be listed (simulated: the tests may run as root)."""
    real = os.scandir

    def scandir(path: str | os.PathLike[str] = ".") -> Iterator[os.DirEntry[str]]:
        if os.path.normpath(str(path)) == os.path.join("made", "locked", "inner"):
            raise PermissionError(13, "Permission denied", str(path))
        return real(path)

    monkeypatch.setattr(os, "scandir", scandir)


def _cut_while_read(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """made/live.pgn is cut to half its size once its first game is read."""
    import tracker.pgn

    real = tracker.pgn.read_games

    def read_games(stream: BinaryIO, name: str, first_line: int = 1) -> Iterator[RawGame]:
        for n, raw in enumerate(real(stream, name, first_line)):
            if n == 0 and name == M + "live.pgn":
                with open(M + "live.pgn", "r+b") as f:
                    f.truncate(os.path.getsize(M + "live.pgn") // 2)
            yield raw

    monkeypatch.setattr(tracker.pgn, "read_games", read_games)


def _both(name: str, summary: str) -> str:
    return (
        f"{M}{name}:x.pgn: 1 game read, 1 added\n{M}{name}:x.pgn (copy 2): 1 game read, "
        "1 added\n"
        f"{summary}\n{NO_TC.replace('1 game', '2 games')}"
    )


_FOLDER_OUT = (
    f"{M}folder/a.pgn: 1 game read, 1 added\n"
    f"{M}folder/damaged.zip: not imported: {M}folder/damaged.zip is not a readable zip archive "
    "(File is not a zip file)\n"
    f"{M}folder/dangling.pgn: not imported: {M}folder/dangling.pgn is a symbolic link to "
    "gone.pgn, which does not exist; fix or remove the link\n"
    f"{M}folder/loop.pgn: not imported: {M}folder/loop.pgn is a symbolic link that leads back "
    "to itself (a loop); fix or remove the link\n"
    f"{M}folder/photos.zip: not imported: {M}folder/photos.zip holds no .pgn file; name a zip "
    "with PGN inside\n"
    f"{M}folder/sub/b.pgn: 1 game read, 1 added\n"
    "6 files, 2 games read, 2 added, 0 duplicates skipped, 0 problems\n"
    + NO_TC.replace("1 game", "2 games")
)

CASES += [
    Case(
        "zip-two-members-one-name",
        ("import", M + "twice.zip"),
        0,
        _both("twice.zip", "2 files, 2 games read, 2 added, 0 duplicates skipped, 0 problems"),
        "",
        changes_db=True,
    ),
    Case(
        "tar-with-appended-copy",
        ("import", M + "appended.tar"),
        0,
        _both("appended.tar", "2 files, 2 games read, 2 added, 0 duplicates skipped, 0 problems"),
        "",
        changes_db=True,
    ),
    Case(
        "folder-with-bad-entries",
        ("import", M + "folder"),
        1,
        _FOLDER_OUT,
        f"error: 4 of 6 files could not be imported (nothing of them was stored): "
        f"{M}folder/damaged.zip, {M}folder/dangling.pgn, {M}folder/loop.pgn, "
        f"{M}folder/photos.zip\n",
        changes_db=True,
    ),
    Case(
        "link-loop-named",
        ("import", M + "loop.pgn"),
        2,
        "",
        f"error: {M}loop.pgn is a symbolic link that leads back to itself (a loop); fix or "
        "remove the link\n",
    ),
    Case(
        "dangling-link-named",
        ("import", M + "dangling.pgn"),
        2,
        "",
        f"error: {M}dangling.pgn is a symbolic link to gone.pgn, which does not exist; fix or "
        "remove the link\n",
    ),
    Case(
        "glob-through-link-loops",
        ("import", M + "looped/**/*.pgn"),
        0,
        f"{M}looped/c.pgn: 1 game read, 1 added\n"
        "1 file, 1 game read, 1 added, 0 duplicates skipped, 0 problems\n" + NO_TC,
        "",
        changes_db=True,
    ),
    Case(
        "unreadable-subfolder",
        ("import", M + "locked"),
        1,
        f"{M}locked/a.pgn: 1 game read, 1 added\n"
        f"{M}locked/inner: not imported: folder {M}locked/inner cannot be read (Permission "
        "denied); nothing in it was imported: check its rights\n"
        "2 files, 1 game read, 1 added, 0 duplicates skipped, 0 problems\n" + NO_TC,
        f"error: 1 of 2 files could not be imported (nothing of it was stored): {M}locked/inner\n",
        changes_db=True,
        patch=_unreadable_inner,
    ),
    Case(
        "named-pipe-in-a-folder",
        ("import", M + "pipes"),
        1,
        f"{M}pipes/a.pgn: 1 game read, 1 added\n"
        f"{M}pipes/pipe.pgn: not imported: {M}pipes/pipe.pgn is a named pipe, not a file: not "
        "read from a folder (it could wait for ever); name it itself to read it\n"
        "2 files, 1 game read, 1 added, 0 duplicates skipped, 0 problems\n" + NO_TC,
        "error: 1 of 2 files could not be imported (nothing of it was stored): "
        f"{M}pipes/pipe.pgn\n",
        changes_db=True,
    ),
    Case(
        "bz2-bomb",
        ("import", M + "zeros.pgn.bz2"),
        2,
        "",
        f"error: {M}zeros.pgn.bz2: decompresses to over 1,000 times its size: refused as a "
        "decompression bomb; if the file is genuine, raise --max-ratio\n",
    ),
    Case(
        "past-max-size",
        ("import", M + "big.pgn.gz", "--max-size", "512K"),
        2,
        "",
        f"error: {M}big.pgn.gz: more than 512K once decompressed: refused (a decompression "
        "bomb?); if the file is genuine, raise --max-size\n",
    ),
    Case(
        "max-size-not-a-size",
        ("import", M + "big.pgn.gz", "--max-size", "0"),
        2,
        "",
        "error: --max-size '0' is not a size: give bytes, or a number with K, M, G or T (for "
        "example 20G)\n",
    ),
    Case(
        "endless-stdin",
        ("import", "-", "--max-size", "2M"),
        2,
        "",
        "error: standard input holds more than 2M: refused (nothing of it was imported); if "
        "it is genuine, raise --max-size or name the file instead\n",
        stdin=bytes(3 << 20),
    ),
    Case(
        "control-characters-in-names",
        ("import", M + "terminal.pgn"),
        0,
        f"{M}terminal.pgn: 2 games read, 2 added, 1 problem\n"
        "1 file, 2 games read, 2 added, 0 duplicates skipped, 1 problem\n"
        + NO_TC.replace("1 game", "2 games"),
        f'warning: {M}terminal.pgn:11: not a tag pair, ignored: [Black "x\\x1b]0;t\\x07\n',
        changes_db=True,
    ),
    Case(
        "newline-in-a-member-name",
        ("import", M + "forged.zip"),
        0,
        f"{M}forged.zip:a\\nforged.pgn: 99 games read, 99 added\\x1b[2J.pgn: 1 game read, "
        "1 added\n1 file, 1 game read, 1 added, 0 duplicates skipped, 0 problems\n" + NO_TC,
        "",
        changes_db=True,
    ),
    Case(
        "player-typo",
        ("import", M + "one.pgn", "--player", "Novk, Jan"),
        0,
        f"{M}one.pgn: 1 game read, 1 added\n"
        "1 file, 1 game read, 1 added, 0 duplicates skipped, 0 problems\n" + NO_TC,
        "warning: --player 'Novk, Jan' not marked: no player matches 'Novk, Jan': `tracker "
        "players` lists all 4 players, `tracker players --search PART` those whose name "
        "contains PART; the games are stored: mark your player with `tracker player set "
        "PLAYER --me`\n",
        changes_db=True,
    ),
    Case(
        "player-two-spellings",
        ("import", M + "two-spellings.pgn", "--player", "Ivanchuk"),
        2,
        f"{M}two-spellings.pgn: 2 games read, 2 added\n"
        "1 file, 2 games read, 2 added, 0 duplicates skipped, 0 problems\n"
        + NO_TC.replace("1 game", "2 games"),
        "error: --player 'Ivanchuk' not marked: 2 players match 'Ivanchuk', spellings that "
        "may be one person's (the same surname, given names that fit, not two FIDE IDs, no "
        "game between them): Ivanchuk, V (1 game); Ivanchuk, Vassily (1 game); they are not "
        "taken for one person on their names alone: if they are one, `tracker player merge "
        "'Ivanchuk, V' 'Ivanchuk, Vassily'` makes them one, then `tracker player set "
        "'Ivanchuk, V' --me` marks them; if not, `tracker player set NAME --me` marks the one "
        "you mean; the games are stored\n",
        changes_db=True,
    ),
    Case(
        "player-not-a-name",
        ("import", M + "one.pgn", "--player", "%"),
        2,
        "",
        "error: '%' is not a player name or FIDE ID\n",
    ),
    Case(
        "file-cut-during-import",
        ("import", M + "live.pgn"),
        1,
        f"{M}live.pgn: not imported: the file changed while it was being imported (written "
        "to, cut or replaced): nothing of it was stored; import it again once it is "
        "complete\n1 file, 0 games read, 0 added, 0 duplicates skipped, 1 problem\n",
        f"warning: {M}live.pgn:151: the file ends inside a tag ([Even): it was cut short; the "
        "game of line 151 is not read (download or copy the file again)\n"  # where it was cut
        "error: the file could not be imported (nothing of it was stored): "
        f"{M}live.pgn\n",
        patch=_cut_while_read,
    ),
    # --- issue 19: outputs, reading commands, values --------------------------------------
    Case(
        "tags-past-the-cap",
        ("import", M + "many-tags.pgn"),
        0,
        f"{M}many-tags.pgn: 1 game read, 1 added, 1 problem\n"
        "1 file, 1 game read, 1 added, 0 duplicates skipped, 1 problem\n" + NO_TC,
        f"warning: {M}many-tags.pgn:1: 4504 tags beyond the first 500 ignored\n",
        changes_db=True,
    ),
    Case(
        "export-onto-the-database",
        ("export", "--output", "tracker.db", "--force"),
        2,
        "",
        "error: tracker.db is the database (tracker.db): writing there would destroy it; "
        "give another file name\n",
    ),
    Case(
        "plot-through-a-link-to-the-database",
        ("plot", "--output", M + "db-link.png"),
        2,
        "",
        f"error: {M}db-link.png is the database (tracker.db): writing there would "
        "destroy it; give another file name\n",
    ),
    Case(
        "history-on-an-empty-file",
        ("history", "--db", M + "empty.db"),
        1,
        "",
        f"error: {M}empty.db is an empty file, not a tracker database: import games first: "
        f"tracker import FILE --db {M}empty.db\n",
    ),
    Case(
        "demo-on-a-real-database",
        ("demo", "--db", "tracker.db", "--output-dir", "d"),
        2,
        "",
        "error: tracker.db holds 1 import that is not the sample season (first: "
        "base.pgn): the demo would add a fictitious season to it and mark its player as "
        "yours; run it on a database of its own (leave out --db, or give a new file)\n",
    ),
    # --- issue 30: outputs, dates, backups, lists -----------------------------------------
    Case(
        "export-into-a-link-to-a-device",
        ("export", "Novak", "-o", M + "null.csv", "--force"),
        0,
        f"wrote {M}null.csv (1 row)\n",
        "",
    ),
    Case(
        "plot-through-a-dangling-link",
        ("plot", "Novak", "-o", M + "gone.png", "--force"),
        2,
        "",
        f"error: {M}gone.png is a symlink to nothing.png, which does not exist: give the "
        "file itself\n",
    ),
    Case(
        "backup-onto-a-socket",
        ("db", "backup", M + "socket.db", "--force"),
        2,
        "",
        f"error: {M}socket.db is a socket: give a regular file, a character device or a FIFO\n",
    ),
    Case(
        "export-after-a-killed-export",
        ("export", "Novak", "-o", M + "h.csv"),
        0,
        f"wrote {M}h.csv (1 row)\n",
        f"note: removed {M}.h.csv.k1ll3d_x.part, left by a write that did not finish\n",
    ),
    Case(
        "import-a-date-past-2999",
        ("import", M + "far.pgn"),
        0,
        _report(
            "far.pgn",
            "1 game read, 1 added, 1 problem",
            "1 game read, 1 added, 0 duplicates skipped, 1 problem",
        ).replace(H, M),
        f"warning: {M}far.pgn:1: Date '9999.12.31' is after 2999-12-31, the last date the "
        "tracker rates: the game is stored without it (in no period); check the file\n",
        changes_db=True,
    ),
    Case(
        "official-import-a-future-list",
        ("official", "import", M + "players_list.xml", "--period", "2999-12", "--list", "standard"),
        2,
        "",
        f"error: {M}players_list.xml is the list of 2999-12, a future list: today is "
        f"{TODAY.isoformat()}, and the latest list FIDE can have published is "
        f"{Period.of(TODAY).next()}\n",
    ),
    # --- official fetch (issue 34): none reaches the network (tests/test_official_fetch.py
    # runs a server on 127.0.0.1 for those that do) --------------------------------------
    Case(
        "fetch-offline-nothing-in-the-cache",
        ("official", "fetch", "--offline", "--cache", "cache"),
        1,
        "standard 2025-03: not in the cache (cache): run without --offline to download it\n"
        "fetched: 0\nfrom the cache: 0\nmissing: 1 (standard 2025-03)\n",
        "error: 1 list not had: standard 2025-03 (why and what to do: above)\n",
    ),
    Case(
        "fetch-a-damaged-file-in-the-cache",
        ("official", "fetch", "--offline", "--cache", "cache"),
        1,
        "standard 2025-03: the file in the cache (cache/standard_mar25frl.zip) was damaged "
        "and is removed: run without --offline to download it again\n"
        "fetched: 0\nfrom the cache: 0\nmissing: 1 (standard 2025-03)\n",
        "error: 1 list not had: standard 2025-03 (why and what to do: above)\n",
        patch=lambda folder, _: _damaged_cache(folder),
    ),
    Case(
        "fetch-an-ftp-base-url",
        ("official", "fetch", "--base-url", "ftp://example.org/lists/"),
        2,
        "",
        "error: --base-url 'ftp://example.org/lists/' is not an http:// or https:// address "
        "of a folder: give one like https://ratings.fide.com/download/\n",
    ),
    Case(
        "fetch-before-fides-folder",
        ("official", "fetch", "--period", "1999-01"),
        2,
        "",
        "error: --period 1999-01: FIDE's download folder starts with the list of 2001-01; "
        "older lists are not available there: give a month from 2001-01 on\n",
    ),
    Case(
        "fetch-a-cache-that-is-a-file",
        ("official", "fetch", "--cache", H + "empty.pgn"),
        2,
        "",
        f"error: --cache {H}empty.pgn is not a folder: give a folder\n",
    ),
    Case(  # issue 35 item 9: exited 2, "7/2 points is impossible in 3 games"
        "event-list-first-event-unrated-opponents",
        ("event", "list", "Novice, Nick", "--db", M + "first.db"),
        0,
        "Novice, Nick: tournaments\n\n"
        "Id  Tournament   Start       End         List      Period   Rated  Points    Rp  "
        "Change  Not counted  Override\n"
        "──  ───────────  ──────────  ──────────  ────────  ───────  ─────  ──────  ────  "
        "──────  ───────────  ────────\n"
        " 1  Autumn Open  2024-09-11  2024-09-15  standard  2024-10      3     1.5  1650  "
        "                  2\n",
        "",
    ),
    Case(  # issue 36: "no date" for the tournaments dated by a year or a month
        "event-show-a-name-of-tournaments-dated-by-year",
        ("event", "show", "Club Cup", "--db", M + "years.db"),
        2,
        "",
        "error: 4 tournaments match 'Club Cup': 1 Club Cup (Brno CZE, 1989, 1 game); 2 Club "
        "Cup (Brno CZE, 2011, 1 game); 3 Club Cup (Brno CZE, 2011-05, 1 game); 4 Club Cup "
        "(Brno CZE, no date, 1 game); give the id\n",
    ),
    Case(  # issue 36: ? as their start and end
        "event-list-tournaments-dated-by-year",
        ("event", "list", "--db", M + "years.db"),
        0,
        "Every tournament (no player tracked: `tracker event show ID` shows one)\n\n"
        "Id  Tournament  Site      Start    End      Games\n"
        "──  ──────────  ────────  ───────  ───────  ─────\n"
        " 1  Club Cup    Brno CZE  1989     1989         1\n"
        " 2  Club Cup    Brno CZE  2011     2011         1\n"
        " 3  Club Cup    Brno CZE  2011-05  2011-05      1\n"
        " 4  Club Cup    Brno CZE  ?        ?            1\n",
        "",
    ),
    # --- issue 35: list files that are no list, damaged, or of values no list holds ---------
    Case(
        "official-import-blank-lines-after-a-header",
        ("official", "import", M + "standard_nov25frl_blanks.zip"),
        2,
        "",
        f"error: {M}standard_nov25frl_blanks.zip: no players in the list: is it the right file?\n",
    ),
    Case(
        "official-import-a-zip-with-a-bad-crc",
        ("official", "import", M + "standard_nov25frl_crc.zip"),
        2,
        "",
        f"error: {M}standard_nov25frl_crc.zip: the zip archive is damaged (Bad CRC-32 for file "
        "'standard_nov25frl.txt'): download it again\n",
    ),
    Case(
        "official-import-a-zip-whose-directory-lies-about-a-size",
        ("official", "import", M + "standard_nov25frl_size.zip"),
        2,
        "",
        f"error: {M}standard_nov25frl_size.zip: the zip archive is damaged (Bad CRC-32 for file "
        "'standard_nov25frl.txt'): download it again\n",
    ),
    Case(
        "official-import-a-zip-of-an-unknown-method",
        ("official", "import", M + "standard_nov25frl_method-99.zip"),
        2,
        "",
        f"error: {M}standard_nov25frl_method-99.zip: the zip archive is damaged (That "
        "compression method is not supported): download it again\n",
    ),
    Case(
        "official-import-a-folder-with-a-damaged-zip-first",
        ("official", "import", M + "lists"),
        2,
        f"{M}lists/rapid_nov25frl.zip: not imported: the zip archive is damaged (Bad CRC-32 for "
        "file 'standard_nov25frl.txt'): download it again\n"
        f"{M}lists/standard_nov25frl.zip: 2025-11 (standard): 3 players read; 0 in the "
        "database; 3 others skipped (--all keeps them); 0 entries written; an excerpt (FIDE's "
        "whole list of 2025-11 has 150,000 rows or more): the players it lacks keep their "
        "earlier rating or Elo tag (--whole if it is the whole list)\n"
        "2 files: 1 read, 1 not imported\n",
        "error: 1 of 2 files could not be imported (nothing of it was stored; why: above): "
        f"{M}lists/rapid_nov25frl.zip\n",
        changes_db=True,  # (the list read is recorded: official_lists)
    ),
    Case(
        "official-import-an-xml-in-utf-7",
        ("official", "import", M + "standard_nov25frl_utf7.xml"),
        2,
        "",
        f"error: {M}standard_nov25frl_utf7.xml:1: the XML declares the encoding utf-7, which "
        "the reader cannot use: FIDE's lists are UTF-8 or ISO-8859-1; is the file damaged?\n",
    ),
    Case(
        "official-import-a-title-and-a-federation-no-list-holds",
        ("official", "import", M + "standard_nov25frl.xml", "--all"),
        0,
        f"{M}standard_nov25frl.xml: 2025-11 (standard): 1 players read; 1 kept (1 new); 1 entry "
        "written; an excerpt (FIDE's whole list of 2025-11 has 150,000 rows or more): the "
        "players it lacks keep their earlier rating or Elo tag (--whole if it is the whole "
        "list)\n",
        f"warning: {M}standard_nov25frl.xml:3: title '{'G' * 20}' is not a FIDE title; <player> "
        "skipped\n"
        f"warning: {M}standard_nov25frl.xml:4: federation '{'N' * 20}' is not three letters; "
        "<player> skipped\n"
        f"warning: {M}standard_nov25frl.xml: 2 malformed rows skipped\n",
        changes_db=True,
    ),
    Case(
        "official-import-a-name-with-a-nul-byte",
        ("official", "import", M + "standard_nov25frl.txt", "--all"),
        0,
        f"{M}standard_nov25frl.txt: 2025-11 (standard): 2 players read; 2 kept (2 new); 1 "
        "entry written; an excerpt (FIDE's whole list of 2025-11 has 150,000 rows or more): "
        "the players it lacks keep their earlier rating or Elo tag (--whole if it is the whole "
        "list)\n",
        f"warning: {M}standard_nov25frl.txt:3: name 'Ku\\x00ar-Rossi, Noël' holds a control "
        "character; line skipped\n"
        f"warning: {M}standard_nov25frl.txt: 1 malformed row skipped\n",
        changes_db=True,
    ),
    Case(
        "official-k-zero",
        ("official", "add", "Novak", "--period", "2025-10", "--rating", "1800", "--k", "0"),
        2,
        "",
        "error: K 0 is not a K FIDE prints: give one from 1 to 40 (10, 15, 20, 25, 30 or "
        "40), or leave --k out\n",
    ),
    # --- issue 34 ------------------------------------------------------------------------
    Case(
        "official-import-whole-and-excerpt",
        (
            "official",
            "import",
            M + "players_list.xml",
            "--period",
            "2025-11",
            "--whole",
            "--excerpt",
        ),
        2,
        "",
        "error: give --whole or --excerpt, not both\n",
    ),
]

# issue 38: `tracker event show` and `report --event` of a tournament that is not there, or
# asked for badly: the candidates, or what to give.
CASES += [
    Case(
        "event-show-unknown-id",
        ("event", "show", "7"),
        2,
        "",
        "error: no tournament with id 7 (the ids run 1 to 1; `tracker event list` gives a "
        "player's); the latest: 1 Club Open (Brno CZE, 2025-03-01, 2 games)\n",
    ),
    Case(
        "event-show-misspelt-name",
        ("event", "show", "Club Opn"),
        2,
        "",
        "error: no tournament matches 'Club Opn'; the nearest: 1 Club Open (Brno CZE, "
        "2025-03-01, 2 games)\n",
    ),
    Case(
        "event-show-unknown-name",
        ("event", "show", "Weekend"),
        2,
        "",
        "error: no tournament matches 'Weekend': give its id from `tracker event list` or "
        "part of its name\n",
    ),
    Case(
        "event-show-empty-name",
        ("event", "show", " "),
        2,
        "",
        "error: give the tournament's id (from `tracker event list`) or its name\n",
    ),
    Case(
        "event-show-bad-sort",
        ("event", "show", "1", "--sort", "points"),
        2,
        "",
        "error: --sort 'points': use standing or change\n",
    ),
    Case(
        "event-show-bad-list",
        ("event", "show", "1", "--list", "bullet"),
        2,
        "",
        "error: unknown list 'bullet': use standard, rapid or blitz\n",
    ),
    Case(
        "report-event-and-player",
        ("report", "--event", "1", "Novak, Jan"),
        2,
        "",
        "error: give a player or --event TOURNAMENT, not both\n",
    ),
    # --- a club's list (tracker club) ------------------------------------------------
    Case(
        "club-nobody-tracked",
        ("club",),
        1,
        "",
        "error: no player is tracked yet: the list shows the players with games and a FIDE "
        "ID, an official rating or a recorded fact, and yours (`tracker player set NAME "
        "--me`); 2 players have games but none of these\n",
    ),
    Case(
        "club-ids-bad-line",
        ("club", "--ids", "hostile/club-ids.txt"),
        2,
        "",
        "error: hostile/club-ids.txt:3: 'Novak, Jan' is not a FIDE ID: give one FIDE ID a "
        "line (its digits, like 1503014); # starts a comment\n",
    ),
    Case(
        "club-ids-binary",
        ("club", "--ids", "hostile/binary.pgn"),
        2,
        "",
        "error: hostile/binary.pgn:1: '\\x00\\x01\\x02\\x03\\x04\\x05\\x06\\x07\\x08' is not a "
        "FIDE ID: give one FIDE ID a line (its digits, like 1503014); # starts a comment\n",
    ),
    Case(
        "club-ids-empty",
        ("club", "--ids", "hostile/empty.pgn"),
        2,
        "",
        "error: --ids hostile/empty.pgn: no FIDE ID in it (one a line; # starts a comment)\n",
    ),
    Case(
        "club-ids-missing",
        ("club", "--ids", "missing.txt"),
        2,
        "",
        "error: --ids missing.txt: no such file\n",
    ),
    Case(
        "club-ids-folder",
        ("club", "--ids", "emptydir"),
        2,
        "",
        "error: --ids emptydir: a folder, not a file of FIDE IDs\n",
    ),
    Case(
        "club-ids-strangers",
        ("club", "--ids", "hostile/club-ids-strangers.txt"),
        2,
        "",
        "error: none of the 2 FIDE IDs of hostile/club-ids-strangers.txt is a player of the "
        "database (first: 1503014, 4158814): import their games first (`tracker import`), or "
        "their list entries (`tracker official import FILE --all`)\n",
    ),
    Case(
        "club-fed-not-a-code",
        ("club", "--fed", "Czech"),
        2,
        "",
        "error: --fed 'Czech': give a federation's three-letter code as FIDE's lists have "
        "it, like CZE or GER\n",
    ),
    Case(
        "club-fed-and-ids",
        ("club", "--fed", "CZE", "--ids", "hostile/club-ids.txt"),
        2,
        "",
        "error: give --fed or --ids, not both\n",
    ),
    Case(
        "club-bad-sort",
        ("club", "--sort", "rating"),
        2,
        "",
        "error: --sort 'rating': use name or change\n",
    ),
    Case(
        "club-title-without-page",
        ("club", "--title", "Club"),
        2,
        "",
        "error: --title is the page's heading: give it with --html FILE\n",
    ),
]


def _holder_of_111111(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database gets "Novák, Petr", FIDE ID 111111 (hostile/standard_holder.txt imported
    with --all, through the library): beside the base's "Novak, Jan", a player of the same
    surname who holds a FIDE ID (issue 35)."""
    from tracker.app.official import import_lists, list_targets
    from tracker.store import open_store

    targets, several = list_targets([Path(H + "standard_holder.txt")])
    with open_store("tracker.db") as store:
        for outcome in import_lists(store, targets, several=several, keep_all=True):
            assert outcome.summary is not None and outcome.summary.created == 1


def _dated_only_by_2024(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database gets tournament 2, Club Open of `2024.??.??` (hostile/odd-tags.pgn
    imported through the library): a tournament dated only by a year (issue 37)."""
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.store import open_store

    with open_store("tracker.db") as store:
        import_paths(store, [H + "odd-tags.pgn"], ImportOptions())


# issue 37: `tracker event set --year YYYY` settles every tournament dated only by that year:
# asked badly, or of a year no tournament is dated by, it says what to give
CASES += [
    Case(
        "event-set-year-and-id",
        ("event", "set", "1", "--year", "2024", "--exclude"),
        2,
        "",
        "error: give a tournament ID (from `tracker event list`) or --year YYYY, not both\n",
    ),
    Case(
        "event-set-neither-id-nor-year",
        ("event", "set", "--exclude"),
        2,
        "",
        "error: give a tournament ID (from `tracker event list`), or --year YYYY for every "
        "tournament dated only by that year\n",
    ),
    Case(
        "event-set-year-huge",
        ("event", "set", "--year", "99999999999999999999", "--exclude"),
        2,
        "",
        "error: --year 99999999999999999999 is not the year of a Date tag: give one like 2011\n",
    ),
    Case(
        "event-set-year-no-tournament",
        ("event", "set", "--year", "2011", "--exclude"),
        2,
        "",
        "error: --year 2011: no tournament is dated only by the year 2011 (Date tags like "
        "2011.??.?? and no whole date); `tracker event list` shows the tournaments\n",
    ),
    Case(
        "event-set-year-with-ro",
        ("event", "set", "--year", "2024", "--ro", "1850"),
        2,
        "",
        "error: --ro is one tournament's: give its ID, not --year\n",
    ),
    Case(
        "event-set-year-to-a-list-before-it",
        ("event", "set", "--year", "2024", "--period", "2024-01"),
        2,
        "",
        "error: tournament 2 (Club Open, dated 2024) cannot be rated on the 2024-01 list "
        "(dated 2024-01-01, before it was over): give a later list (if its dates in the PGN "
        "are wrong and FIDE's page says otherwise, add --force)\n",
        patch=_dated_only_by_2024,  # (the dump before the run is taken after the set-up)
    ),
]


# --- issue 35: one person, one player ---------------------------------------------------------

CASES += [
    Case(
        "list-row-of-another-players-fide-id",
        ("official", "import", H + "standard_one_row.txt"),
        0,
        f"{H}standard_one_row.txt: 2011-03 (standard): 1 players read; 1 in the database; 1 "
        "entry written; an excerpt (FIDE's whole list of 2011-03 has 50,000 rows or more): "
        "the players it lacks keep their earlier rating or Elo tag (--whole if it is the "
        "whole list)\n",  # (Novák, Petr's, by the FIDE ID)
        "warning: standard_one_row.txt: Novak, Jan fits Novak, Jan (FIDE ID 111111) on the "
        "list, but FIDE ID 111111 belongs to Novák, Petr, whose given names are not Novak, "
        "Jan's: if they are one person, say so with `tracker player merge 111111 'Novak, "
        "Jan'`\n",
        changes_db=True,  # (the list and who it looked up are recorded; nobody is merged)
        patch=_holder_of_111111,
    ),
    Case(
        "player-set-a-fide-id-another-player-holds",
        ("player", "set", "Novak, Jan", "--fide-id", "111111"),
        2,
        "",
        "error: FIDE ID 111111 already belongs to Novák, Petr: nothing changed; if Novak, Jan "
        "is that person, `tracker player set 'Novak, Jan' --fide-id 111111 --merge` makes "
        "them one; otherwise check the FIDE ID\n",
        patch=_holder_of_111111,
    ),
    Case(
        "pgn-fide-id-of-a-player-of-another-name",
        ("import", H + "fide-id-of-another.pgn"),
        0,
        _report(
            "fide-id-of-another.pgn",
            "2 games read, 2 added",
            "2 games read, 2 added, 0 duplicates skipped, 0 problems",
            NO_TC.replace("1 game", "2 games"),
        ),
        f"warning: {H}fide-id-of-another.pgn:12: White Novak, Jan has WhiteFideId 111111, the "
        "FIDE ID of Novák, Petr, whose given names are not Novak, Jan's: the game is filed "
        "under Novak, Jan, without the FIDE ID; if they are one person, `tracker player merge "
        "111111 'Novak, Jan'` makes them one\n",
        changes_db=True,
    ),
]


def _two_spellings(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The database gets "Ivanchuk, V" and "Ivanchuk, Vassily", a game each, never met, no
    FIDE ID (made/two-spellings.pgn imported through the library): two spellings that may be
    one person's."""
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.store import open_store

    with open_store("tracker.db") as store:
        import_paths(store, [M + "two-spellings.pgn"], ImportOptions())


# a player argument that fits spellings that may be one person's: in any command, the line
# names them with their games and the merge (nothing merged, nobody picked); names of two
# people (Novak, Jan beside Novák, Petr) keep the line that asks for more of the name
TWO_SPELLINGS = (
    "error: 2 players match 'Ivanchuk', spellings that may be one person's (the same surname, "
    "given names that fit, not two FIDE IDs, no game between them): Ivanchuk, V (1 game); "
    "Ivanchuk, Vassily (1 game); they are not taken for one person on their names alone: if "
    "they are one, `tracker player merge 'Ivanchuk, V' 'Ivanchuk, Vassily'` makes them one, "
    "and 'Ivanchuk' names them then; if not, give the spelling you mean\n"
)
CASES += [
    Case(
        "history-two-spellings", ("history", "Ivanchuk"), 2, "", TWO_SPELLINGS, patch=_two_spellings
    ),
    Case(
        "player-set-two-spellings",
        ("player", "set", "Ivanchuk", "--me"),
        2,
        "",
        TWO_SPELLINGS,
        patch=_two_spellings,
    ),
    Case(
        "official-add-two-spellings",
        ("official", "add", "Ivanchuk", "--period", "2025-03", "--rating", "2700"),
        2,
        "",
        TWO_SPELLINGS,
        patch=_two_spellings,
    ),
    Case(
        "history-two-people-one-surname",
        ("history", "Novak"),
        2,
        "",
        "error: 2 players match 'Novak': Novak, Jan (FIDE ID -); Novák, Petr (FIDE ID 111111); "
        "give more of the name or the FIDE ID\n",
        patch=_holder_of_111111,
    ),
]


# --- issue 35: a full disk, damaged databases -------------------------------------------


def _full_disk(folder: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """The disk is full: SQLite may add no page to the database (`PRAGMA max_page_count` at
    the pages it has, on every connection: SQLite's own "database or disk is full"); and
    made/standard_nov25frl.txt, a list of 500 players, needs many."""
    import tracker.store.db

    listgen.generate(folder / "made" / "standard_nov25frl.txt", 500, "txt")
    real = tracker.store.db._sqlite_pragmas

    def full(dbapi_conn: sqlite3.Connection, record: object) -> None:
        real(dbapi_conn, record)
        pages = dbapi_conn.execute("PRAGMA page_count").fetchone()[0]
        dbapi_conn.execute(f"PRAGMA max_page_count = {pages}")

    monkeypatch.setattr(tracker.store.db, "_sqlite_pragmas", full)


def _damaged(how: Callable[[BinaryIO, int], None]) -> Callable[[Path, pytest.MonkeyPatch], None]:
    """A patch that makes damaged.db: a copy of the database, damaged by `how` (given the
    file open for writing and its size)."""

    def make(folder: Path, _monkeypatch: pytest.MonkeyPatch) -> None:
        shutil.copy(folder / "tracker.db", folder / "damaged.db")
        with (folder / "damaged.db").open("r+b") as fh:
            how(fh, (folder / "tracker.db").stat().st_size)

    return make


def _random_bytes_in_the_middle(fh: BinaryIO, size: int) -> None:
    fh.seek(size // 2 // 4096 * 4096)
    fh.write(random.Random(35).randbytes(2 * 4096))


def _cut_in_half(fh: BinaryIO, size: int) -> None:
    fh.truncate(size // 2 // 4096 * 4096)


def _zeroed_header(fh: BinaryIO, size: int) -> None:
    fh.write(bytes(100))


RESTORE = "restore a backup (`tracker db restore BACKUP`)"
CASES += [
    Case(
        "official-import-onto-a-full-disk",
        ("official", "import", M + "standard_nov25frl.txt", "--all"),
        1,
        "",
        "error: cannot write to the database: database or disk is full\n",
        patch=_full_disk,
    ),
    Case(
        "db-check-random-bytes-in-the-middle",
        ("db", "check", "--db", "damaged.db"),
        4,
        "damaged.db: unreadable: the database cannot be read: database disk image is malformed; "
        + RESTORE
        + "\n",
        "error: damaged.db: 1 problem found; the file is damaged: " + RESTORE + "\n",
        patch=_damaged(_random_bytes_in_the_middle),
    ),
    Case(
        "db-check-truncated",
        ("db", "check", "--db", "damaged.db"),
        4,
        "",
        f"error: damaged.db is damaged (database disk image is malformed): {RESTORE}\n",
        patch=_damaged(_cut_in_half),
    ),
    Case(
        "db-check-zeroed-header",
        ("db", "check", "--db", "damaged.db"),
        4,
        "",
        f"error: damaged.db is damaged (its first bytes, SQLite's header, are zeros): {RESTORE}\n",
        patch=_damaged(_zeroed_header),
    ),
    Case(
        "history-on-a-zeroed-header",
        ("history", "Novak", "--db", "damaged.db"),
        4,
        "",
        "error: damaged.db is damaged (its first bytes, SQLite's header, are zeros): "
        f"`tracker db check --db damaged.db` tells more; {RESTORE}\n",
        patch=_damaged(_zeroed_header),
    ),
    Case(
        "import-into-a-truncated-database",
        ("import", H + "odd-tags.pgn", "--db", "damaged.db"),
        4,
        "",
        "error: damaged.db is damaged (database disk image is malformed): "
        f"`tracker db check --db damaged.db` tells more; {RESTORE}\n",
        patch=_damaged(_cut_in_half),
    ),
]

# --- issue 37 item 6: a FIDE list where games are asked for; arguments out of order; an output
# folder that takes no file ------------------------------------------------------------------


def _a_list(name: str) -> str:
    return (
        f"error: {name} is a FIDE rating list, not PGN games: import it with "
        f"`tracker official import {name}`\n"
    )


CASES += [
    Case(
        "list-txt-to-import",
        ("import", H + "standard_one_row.txt"),
        2,
        "",
        _a_list(H + "standard_one_row.txt"),
    ),
    Case(
        "list-xml-to-import",
        ("import", M + "players_list.xml"),
        2,
        "",
        _a_list(M + "players_list.xml"),
    ),
    Case(
        "list-zip-to-import",
        ("import", M + "standard_mar11frl.zip"),
        2,
        "",
        _a_list(M + "standard_mar11frl.zip"),
    ),
    Case(
        "list-gz-to-import",
        ("import", M + "standard_mar11frl.txt.gz"),
        2,
        "",
        _a_list(M + "standard_mar11frl.txt.gz"),
    ),
    Case(  # the folder goes on: its games are imported, the list is named with its command
        "list-in-a-folder",
        ("import", M + "with-list"),
        1,
        f"{M}with-list/a.pgn: 1 game read, 1 added\n"
        f"{M}with-list/standard_mar11frl.zip: not imported: "
        + _a_list(M + "with-list/standard_mar11frl.zip")[len("error: ") :]
        + "2 files, 1 game read, 1 added, 0 duplicates skipped, 0 problems\n"
        + NO_TC,
        "error: 1 of 2 files could not be imported (nothing of it was stored): "
        f"{M}with-list/standard_mar11frl.zip\n",
        changes_db=True,
    ),
    Case(
        "explain-period-before-player",
        ("explain", "2025-11", "Novak, Jan"),
        2,
        "",
        "error: the player comes first, then the period: tracker explain 'Novak, Jan' 2025-11\n",
    ),
    Case(
        "report-into-proc",
        ("report", "Novak, Jan", "--output", "/proc/x.html"),
        2,
        "",
        "error: cannot write in /proc (a folder of the system, where no file can be made): name "
        "a file in a folder where you can write (the current folder, your home)\n",
    ),
]

_BASE: dict[str, bytes] = {}
# The cases that run on PostgreSQL too (TRACKER_DB): the imports that reach the database, to
# store a file (partly) or to roll it back whole; not those refused before (a missing file, a
# bad option: the same on any database), nor those of a SQLite file (--db, tracker.db named).
ON_POSTGRESQL = [
    c
    for c in CASES
    if c.args[0] == "import"
    and "--db" not in c.args
    and "tracker.db" not in c.out + c.err
    and (c.changes_db or "not imported" in c.out or "nothing of" in c.err)
]
RUNS = [pytest.param(c, "sqlite", id=c.id) for c in CASES] + [
    pytest.param(c, "postgresql", id=f"{c.id}-postgresql", marks=pytest.mark.slow)
    for c in ON_POSTGRESQL
]


@pytest.fixture
def target(backend: str, tmp_path: Path, request: pytest.FixtureRequest) -> str:
    """The database of the run: tracker.db in the folder, or a PostgreSQL database holding
    the same two games (TRACKER_DB names it)."""
    if backend == "sqlite":
        return "tracker.db"
    cluster: PgCluster = request.getfixturevalue("pg_cluster")
    if not cluster.has("hostile_base"):
        from tracker.app.importing import ImportOptions, import_paths
        from tracker.store import open_store

        url = cluster.create("hostile_base")
        write(tmp_path / "base.pgn", pgn(Round="1"), pgn(Round="2", Result="0-1"))
        with open_store(url) as store:
            import_paths(store, [str(tmp_path / "base.pgn")], ImportOptions())
    return cluster.new_database(request, template="hostile_base")


@pytest.fixture
def folder(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str], target: str
) -> Path:
    """A folder with tracker.db (two games), hostile/, emptydir/, other.db and newer.db;
    TRACKER_DB set when the run is on PostgreSQL."""
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)
    shutil.copytree(HOSTILE, tmp_path / "hostile")
    make_inputs(tmp_path / "made")
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
    if target != "tracker.db":
        monkeypatch.setenv("TRACKER_DB", target)
    return tmp_path


def _dump(target: str) -> list[str]:
    return dump_db(Path(target)) if target == "tracker.db" else dump_target(target)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.mark.slow  # the catalog of hostile inputs: 300 whole command runs, each database dumped
@pytest.mark.parametrize(("case", "backend"), RUNS, indirect=["backend"])
def test_catalog(
    case: Case,
    folder: Path,
    target: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    with monkeypatch.context() as patched:
        if case.stdin is not None:
            import sys

            import tracker.files.spool

            held = case.stdin  # bytes here (the class body does not see the narrowing)

            class Stdin:
                buffer = io.BytesIO(held)

            patched.setattr(sys, "stdin", Stdin())
            patched.setattr(tracker.files.spool, "_STDIN", None)
        if case.patch is not None:
            case.patch(folder, patched)
        before = _dump(target)  # (after the set-up: a patch may add to the database)
        games = _games(before)
        code, out, err = run(capsys, monkeypatch, *case.args)
    assert "Traceback" not in out + err and "internal error" not in err
    if case.id == "quote-in-a-name":  # the quote is not part of a name: Novak's history
        assert code == 0 and "Novak, Jan: standard rating history" in out and err == ""
    else:
        assert (code, out, err) == (case.code, case.out, case.err)
    after = _dump(target)
    if not case.changes_db:
        assert after == before
    assert _games(after) == games + case.added
    if after != before:  # (unchanged: the base, checked below)
        holds = (
            "every invariant holds; the server keeps its own integrity"
            if "://" in target
            else "integrity and every invariant hold"
        )
        assert run(capsys, monkeypatch, "db", "check")[:2] == (0, f"{target}: ok ({holds})\n")


def test_the_base_database_passes_db_check(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    assert run(capsys, monkeypatch, "db", "check")[0] == 0


def _games(dump: list[str]) -> int:
    """The games of a dump (of SQLite's, or of dump_target)."""
    return sum(line.startswith(('INSERT INTO "games"', "games: ")) for line in dump)


def test_catalog_ids_are_unique() -> None:
    assert len({c.id for c in CASES}) == len(CASES)


def test_the_reliability_page_counts_the_catalog() -> None:
    # docs/reliability.md's table says how many inputs the catalog holds: it said 126 when
    # the catalog had grown to 140
    text = (REPO / "docs" / "reliability.md").read_text(encoding="utf-8")
    assert f"| {len(CASES)} inputs |" in text


# --- bugs found here, now fixed (regression tests), and known ones (xfail, strict) ---


def test_huge_fide_id_is_a_clean_error(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, "history", "9" * 24)
    assert code in (1, 2) and "internal error" not in err and err.startswith("error: ")


def test_calc_bad_opponent_rating_is_named(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, "calc", "🐴:1", "--rating", "1500")
    assert code == 2 and "score" not in err and "rating" in err


def test_nul_in_a_tag_is_reported(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, "import", H + "nul-bytes.pgn")
    assert code == 0 and f"{H}nul-bytes.pgn:6:" in err


def test_newline_in_a_name_is_one_error_line(
    folder: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run(capsys, monkeypatch, "history", "Nobody\nElse")
    assert code == 2 and err.startswith("error: ") and err.count("\n") == 1, err
