"""`tracker club` (issue 38 item 3): a club's list, every player the database tracks or a
chosen set (`--fed`, `--ids FILE`), each with the last official rating, the rating expected
on the next list, the change and the games since, every player replayed as `tracker next`
replays them.

The round robin of tests/test_event_show.py gives the figures: each player's change there is
worked by hand from FIDE's tables, and rounded once (.5 away from zero, FIDE's rounding of a
period's change) it is the expected change here. The sample season (a FIDE list imported
first, with its federations, then the season's games) and TWIC 920 (2,245 games of 2012,
nearly a thousand players with a FIDE ID, none with an official rating) check the choice of
players and that every row is what `tracker next` says of that player.
"""

from __future__ import annotations

import csv
import io
import json
from pathlib import Path
from typing import Any

import pytest

from tests import listgen
from tests.conftest import CORPUS, SAMPLES, run_captured, run_cli
from tests.test_event_show import A, B, C, D, E, F, rr  # noqa: F401  (rr: a fixture)
from tracker.model import Period, RatingList

# The round robin's expected ratings on the 2025-12 list: the hand-worked K x (W - We) of
# tests/test_event_show.py (EXPECTED, F_FIRST), the period's only tournament, rounded once.
# A 2700 - 1.50 -> -2 (.5 away from zero); B 2500 - 8.10 -> -8; C 2300 + 1.20 -> +1;
# D 2150 - 6.00 -> -6; E (no FIDE ID, no official rating: from his own Elo tag 1900)
# + 21.40 -> +21; F unrated: the first rating 2062, no change.
ROUND_ROBIN = {
    A[0]: ("official", 2700, 2698, -2),
    B[0]: ("official", 2500, 2492, -8),
    C[0]: ("official", 2300, 2301, 1),
    D[0]: ("official", 2150, 2144, -6),
    E[0]: ("elo-tag", 1900, 1921, 21),
    F[0]: ("unrated", None, 2062, None),
}


def _club(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> dict[str, Any]:
    code, out, err = run_cli(capsys, monkeypatch, "club", *args, "--format", "json")
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def test_the_round_robin_gives_each_player_the_change_worked_from_fide_tables(
    rr: str,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("TRACKER_TODAY", "2025-11-20")  # before the 2025-12 list
    data = _club(capsys, monkeypatch, "--db", rr)
    assert (data["list"], data["chosen"], data["left_out"]) == ("standard", "tracked", [])
    rows = {r["player"]: r for r in data["players"]}
    assert list(rows) == [A[0], B[0], D[0], E[0], F[0], C[0]]  # by name: Gamma after Fuchs
    for name, (start, rating, expected, change) in ROUND_ROBIN.items():
        r = rows[name]
        got = (r["start"], r["rating"], r["expected"], r["change"], r["next_period"])
        assert got == (start, rating, expected, change, "2025-12"), name
        assert r["next_published"] is False and r["assumed"] == [], name
    for p in (A, B, C, D):
        r = rows[p[0]]
        assert (r["official_rating"], r["official_period"], r["games"]) == (p[2], "2025-11", 4)
    # Egger has no FIDE ID: tracked for the facts recorded of him, shown with what is known
    assert (rows[E[0]]["fide_id"], rows[E[0]]["note"]) == (None, "no FIDE ID")
    assert (rows[F[0]]["first_rating"], rows[F[0]]["games"], rows[F[0]]["note"]) == (
        True,
        5,
        "first rating",
    )
    by_change = _club(capsys, monkeypatch, "--sort", "change", "--db", rr)["players"]
    assert [r["player"] for r in by_change] == [E[0], C[0], A[0], D[0], B[0], F[0]]


def test_the_table_fits_100_columns_and_says_what_is_assumed(
    rr: str,  # noqa: F811
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    monkeypatch.setenv("TRACKER_TODAY", "2026-01-10")  # the 2025-12 list is out
    code, out, err = run_cli(capsys, monkeypatch, "club", "--db", rr)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert all(len(x) <= 100 for x in lines), max(lines, key=len)
    assert lines[0] == (
        "Expected standard ratings: 6 players (every player the database tracks), most on "
        "the 2025-12 list"
    )
    row = {x.split(",")[0]: x.split() for x in lines[3:9]}
    assert row["Alpha"][2:8] == ["90000001", "2700", "list", "2025-11", "2698", "2025-12"]
    assert row["Alpha"][8:] == ["-2", "4"]
    assert row["Egger"][2:8] == ["1900", "tag", "1921", "2025-12", "+21", "4"]
    assert " ".join(row["Egger"][8:]) == "no FIDE ID"
    assert row["Fuchs"][2:] == ["90000006", "unrated", "2062", "2025-12", "5", "first", "rating"]
    notes = " ".join(" ".join(lines[10:]).split())
    assert "tag: no official rating: the player's own Elo tag the replay starts from" in notes
    assert (
        "Published already: the next standard list of 6 players (2025-12): FIDE's ratings are "
        "there to read; import the list (`tracker official import FILE`)"
    ) in notes
    # CSV: the same rows
    code, text, err = run_cli(capsys, monkeypatch, "club", "--format", "csv", "--db", rr)
    table = list(csv.DictReader(io.StringIO(text)))
    assert [(r["player"], r["expected"], r["change"]) for r in table] == [
        (name, str(expected), "" if change is None else str(change))
        for name, (_, _, expected, change) in sorted(ROUND_ROBIN.items())  # by name
    ]
    assert {r["next_published"] for r in table} == {"yes"}


def _season_with_federations(folder: Path) -> str:
    """The sample season on top of a FIDE list of 2025-09 that named six of its players with
    their federations (imported first, --all: the list creates them, federation and
    all; the games then find them by FIDE ID)."""
    db = str(folder / "club.db")
    people = [
        (99012345, "Novák, Tomáš", "CZE", 1850),
        (99034567, "Kovářová, Eliška", "CZE", 1432),
        (99021450, "Dvořák, Petr", "CZE", 1968),
        (99070345, "Bauer, Stefan", "AUT", 1927),
        (99090213, "Pölzl, Günther", "AUT", 1788),
        (99061127, "Wójcik, Bartosz", "POL", 2012),
    ]
    none = listgen.Figures(None, None, None)
    rows = [
        listgen.Player(
            fid, name, fed, "M", "", "", "", "", listgen.Figures(r, 5, 20), none, none, 1990, ""
        )
        for fid, name, fed, r in people
    ]
    lst = folder / "standard_sep25frl.txt"
    with lst.open("w", encoding="utf-8") as out:
        listgen.write_list(out, rows, "txt", period=Period(2025, 9))
    for args in (
        ("official", "import", str(lst), "--all", "--db", db),
        ("import", str(SAMPLES), "--db", db),
    ):
        code, _, err = run_captured(*args)
        assert code == 0, err
    return db


@pytest.fixture(scope="module")
def season(tmp_path_factory: pytest.TempPathFactory) -> str:
    return _season_with_federations(tmp_path_factory.mktemp("club"))


def _next(db: str, who: str, rl: RatingList) -> dict[str, Any]:
    code, out, err = run_captured("next", who, "--list", str(rl), "--format", "json", "--db", db)
    assert code == 0, err
    data: dict[str, Any] = json.loads(out)
    return data


def _agrees_with_next(db: str, row: dict[str, Any], rl: RatingList) -> None:
    """A row of `tracker club` is what `tracker next` says of the player."""
    who = str(row["fide_id"]) if row["fide_id"] is not None else row["player"]
    n = _next(db, who, rl)
    assert row["official_rating"] == n["last_official_rating"], row["player"]
    assert row["official_period"] == n["last_official_period"], row["player"]
    assert row["expected"] == n["expected_rating"], row["player"]
    assert row["next_period"] == n["next_period"], row["player"]
    assert row["games"] == sum(p["games"] for p in n["periods"]), row["player"]


@pytest.mark.parametrize("rl", list(RatingList))
def test_every_row_of_the_season_is_what_next_says(
    season: str, rl: RatingList, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    data = _club(capsys, monkeypatch, "--list", str(rl), "--db", season)
    assert data["players"]
    for row in data["players"]:
        _agrees_with_next(season, row, rl)


def test_a_federation_chooses_its_players_and_counts_those_left_out(
    season: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    every = _club(capsys, monkeypatch, "--db", season)
    nothing = [x for x in every["left_out"] if x["why"] == "nothing-on-list"]
    tracked = [r["player"] for r in every["players"]] + [n for x in nothing for n in x["players"]]
    mine = {r["player"]: r for r in every["players"]}
    cze = _club(capsys, monkeypatch, "--fed", "cze", "--db", season)
    assert (cze["chosen"], cze["federation"]) == ("federation", "CZE")
    assert [r["player"] for r in cze["players"]] == [
        "Dvořák, Petr",
        "Kovářová, Eliška",
        "Novák, Tomáš",
    ]
    assert all(r["federation"] == "CZE" for r in cze["players"])
    assert all(r == mine[r["player"]] for r in cze["players"])  # the same replay
    # the six of the list have a federation; every other tracked player is left out, counted
    listed = {"Novák, Tomáš", "Kovářová, Eliška", "Dvořák, Petr", "Bauer, Stefan",
              "Pölzl, Günther", "Wójcik, Bartosz"}  # fmt: skip
    assert [(x["why"], x["count"]) for x in cze["left_out"]] == [
        ("no-federation", len(tracked) - 6)
    ]
    assert set(cze["left_out"][0]["players"]) == set(tracked) - listed
    # the table says how many were left out and why
    monkeypatch.setenv("COLUMNS", "100")
    code, out, err = run_cli(capsys, monkeypatch, "club", "--fed", "AUT", "--db", season)
    assert code == 0, err
    assert out.splitlines()[0].startswith(
        "Expected standard ratings: 2 players (the tracked players of federation AUT)"
    )
    said = " ".join(out.split())
    assert (
        f"Left out: {len(tracked) - 6} tracked players whose federation the database does not have"
    ) in said
    # a federation nobody has: the federations known, one line, exit 2 (a bad value)
    code, out, err = run_cli(capsys, monkeypatch, "club", "--fed", "SVK", "--db", season)
    assert (code, out) == (2, "")
    assert err == (
        f"error: no tracked player of federation SVK ({len(tracked)} tracked, their federations: "
        "CZE 3, AUT 2, POL 1)\n"  # most first
    )


def test_a_file_of_fide_ids_chooses_its_players(
    season: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    members = tmp_path / "members.txt"
    members.write_text(
        "# ŠK Lípa Brno, members\n99012345  # Tomáš\n\n99034567\r\n99012345\n12345678\n",
        encoding="utf-8",
    )
    data = _club(capsys, monkeypatch, "--ids", str(members), "--list", "rapid", "--db", season)
    assert (data["chosen"], data["ids_file"]) == ("ids", str(members))
    assert [r["fide_id"] for r in data["players"]] == [99034567, 99012345]  # by name
    assert data["left_out"] == [{"why": "not-in-database", "count": 1, "players": ["12345678"]}]
    for row in data["players"]:
        _agrees_with_next(season, row, RatingList.RAPID)
    # CSV: the rows on stdout, who was left out on stderr
    code, out, err = run_cli(
        capsys, monkeypatch, "club", "--ids", str(members), "--format", "csv", "--db", season
    )
    assert code == 0 and len(out.splitlines()) == 3
    assert err == (
        f"Not in the database: 1 FIDE ID of {members} (12345678): import their games "
        "(`tracker import`) or their list entries (`tracker official import FILE --all`).\n"
    )


@pytest.fixture(scope="module")
def twic(tmp_path_factory: pytest.TempPathFactory) -> str:
    db = str(tmp_path_factory.mktemp("twic") / "twic.db")
    code, _, err = run_captured("import", str(CORPUS / "twic0920.pgn.xz"), "--db", db)
    assert code == 0, err
    return db


def test_a_twic_issue_tracks_the_players_with_a_fide_id(
    twic: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, "players", "--format", "json", "--db", twic)
    everyone = json.loads(out)
    with_id = [p for p in everyone if p["fide_id"] is not None]
    without = sorted(p["name"] for p in everyone if p["fide_id"] is None)
    data = _club(capsys, monkeypatch, "--db", twic)
    left = {x["why"]: x for x in data["left_out"]}
    # every player with a FIDE ID is tracked: shown, or counted as having nothing on the list
    assert len(data["players"]) + left["nothing-on-list"]["count"] == len(with_id) > 900
    assert sorted(left["untracked"]["players"]) == without  # known by name only
    # each row is `tracker next`'s (one player in 25, and the player of the most games)
    rows = data["players"]
    for row in rows[::25]:
        _agrees_with_next(twic, row, RatingList.STANDARD)
    assert all(r["start"] in ("elo-tag", "unrated") for r in rows)  # no official rating
    # no time control in TWIC: every counted game's list is an assumption, and says so
    assert all(("list" in r["assumed"]) == (r["list_assumed_games"] > 0) for r in rows)
    assert sum(1 for r in rows if "list" in r["assumed"]) > len(rows) / 2
    # the table fits 100 columns, however long the names
    monkeypatch.setenv("COLUMNS", "100")
    code, out, err = run_cli(capsys, monkeypatch, "club", "--db", twic)
    assert code == 0 and len(out.splitlines()) > len(rows)
    assert max(len(x) for x in out.splitlines()) <= 100
    # a federation: none recorded (no list imported), one line, exit 2 (a bad value)
    code, out, err = run_cli(capsys, monkeypatch, "club", "--fed", "CZE", "--db", twic)
    assert (code, out) == (2, "")
    assert err.startswith(
        f"error: no tracked player of federation CZE ({len(with_id):,} tracked, none with a "
        "federation recorded: the database records a player's federation from a FIDE list "
        "that lists them (`tracker official import FILE`)"
    )
    assert err.count("\n") == 1


def test_the_page_is_written_whole_and_refuses_what_it_should(
    rr: str,  # noqa: F811
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    page = tmp_path / "club.html"
    args = ("club", "--html", str(page), "--title", "Linz <Chess> Club", "--db", rr)
    code, out, err = run_cli(capsys, monkeypatch, *args)
    assert (code, out, err) == (0, f"wrote {page} (6 players)\n", "")
    text = page.read_text(encoding="utf-8")
    assert "<h1>Linz &lt;Chess&gt; Club</h1>" in text and "<script" not in text
    assert "`" not in text and "<code>tracker next PLAYER</code>" in text
    code, out, err = run_cli(capsys, monkeypatch, *args)
    assert code == 2 and "--force" in err  # an existing file stays
    code, out, err = run_cli(
        capsys, monkeypatch, "club", "--html", str(page), "--format", "csv", "--db", rr
    )
    assert (code, err) == (2, "error: --html writes the page: leave out --format\n")


def test_the_page_explains_only_the_columns_it_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # Two games of Oct 2025, then the official 2025-11 rating: no game since, so no rating
    # expected, no next list, no change; the page drops those columns, and its legend says
    # nothing of Expected or Change (before: the legend of every column).
    games = "".join(
        f'[Event "Club Open"]\n[Site "Linz AUT"]\n[Date "2025.10.0{i}"]\n[Round "{i}"]\n'
        f'[White "Huber, Anna"]\n[Black "Opp, {i}"]\n[Result "1-0"]\n[WhiteElo "1800"]\n'
        f'[BlackElo "1750"]\n[WhiteFideId "1600001"]\n\n1. e4 e5 1-0\n\n'
        for i in (1, 2)
    )
    (tmp_path / "oct.pgn").write_text(games, encoding="utf-8")
    db = str(tmp_path / "t.db")
    assert run_cli(capsys, monkeypatch, "import", str(tmp_path / "oct.pgn"), "--db", db)[0] == 0
    add = ("official", "add", "1600001", "--period", "2025-11", "--rating", "1815", "--db", db)
    assert run_cli(capsys, monkeypatch, *add)[0] == 0
    page = tmp_path / "club.html"
    code, _, err = run_cli(capsys, monkeypatch, "club", "--html", str(page), "--db", db)
    assert code == 0, err
    text = page.read_text(encoding="utf-8")
    heads = text.split("<thead>", 1)[1].split("</thead>", 1)[0]
    assert ">Rating</th>" in heads and "Expected" not in heads and "Change" not in heads
    legend = text.split('<p class="note">', 1)[1].split("</p>", 1)[0]
    assert legend.startswith("Rating: the last official rating")
    assert "Expected" not in legend and "Change" not in legend
    assert "Games: the games counted since" in legend


def test_a_page_of_one_player_says_one_player(
    season: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    # the line after the page is written counts its players: "1 player", not "1 players"
    members = tmp_path / "one.txt"
    members.write_text("99012345\n", encoding="utf-8")
    page = tmp_path / "one.html"
    code, out, err = run_cli(
        capsys, monkeypatch, "club", "--ids", str(members), "--html", str(page), "--db", season
    )
    assert (code, out, err) == (0, f"wrote {page} (1 player)\n", "")
