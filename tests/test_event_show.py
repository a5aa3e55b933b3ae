"""`tracker event show` (issue 38): one tournament, every player's change as FIDE's tournament
report shows it, each player rated as `tracker explain` rates them.

The round robin: six players in November 2025 (the edition of 1 Oct 2025: a difference above
400 counts as 400, except for a player of 2650 and more), four of them on the 2025-11 list
with their K, one with an Elo tag and no FIDE ID (his facts recorded), one unrated. Every
figure below is worked by hand from FIDE's table 8.1.2 (shared/spec/table-8-1-2.csv) and
table 8.1.1, the steps written beside it; none comes from the tracker.
"""

from __future__ import annotations

import csv
import io
import json
from decimal import Decimal
from pathlib import Path
from typing import Any

import pytest

from tests.conftest import REPO, run_cli

A, B, C, D, E, F = (
    ("Alpha, Anna", 90000001, 2700),
    ("Beta, Boris", 90000002, 2500),
    ("Gamma, Cyril", 90000003, 2300),
    ("Delta, Dora", 90000004, 2150),
    ("Egger, Emil", None, 1900),  # no FIDE ID; his own Elo tag
    ("Fuchs, Franz", 90000006, None),  # unrated: no list, no tag
)
K = {A: 10, B: 10, C: 20, D: 20}  # the K printed on the 2025-11 list

# Berger pairings of six players, white first, and the result (white's view).
ROUNDS = (
    ((A, F, "1-0"), (B, E, "0-1"), (C, D, "1/2-1/2")),
    ((F, D, "0-1"), (E, C, "0-1"), (A, B, "1/2-1/2")),
    ((B, F, "1-0"), (C, A, "0-1"), (D, E, "1/2-1/2")),
    ((F, E, "1/2-1/2"), (A, D, "1-0"), (B, C, "1/2-1/2")),
    ((C, F, "0-1"), (D, B, "0-1"), (E, A, "0-1")),
)

# Per player: (K, games counted, points in them, expected score, K x (W - We)).
# Games against F (unrated) do not count for a rated player.
# A (2700 >= 2650: the true difference): B D 200 -> 0.76, C D 400 -> 0.92, D D 550 -> 0.97,
#   E D 800 -> 1.00; We 3.65, W 3.5, 10 x -0.15 = -1.50.
# B (2500): A D -200 -> 0.24, C D 200 -> 0.76, D D 350 -> 0.89, E D 600 capped to 400 -> 0.92;
#   We 2.81, W 2, 10 x -0.81 = -8.10.
# C (2300): A D -400 -> 0.08, B D -200 -> 0.24, D D 150 -> 0.70, E D 400 -> 0.92; We 1.94,
#   W 2, 20 x 0.06 = +1.20.
# D (2150): A D -550 capped -> 0.08, B D -350 -> 0.11, C D -150 -> 0.30, E D 250 -> 0.81;
#   We 1.30, W 1, 20 x -0.30 = -6.00.
# E (1900, K 20: an adult with 100 games): A D -800 capped -> 0.08, B D -600 capped -> 0.08,
#   C D -400 -> 0.08, D D -250 -> 0.19; We 0.43, W 1.5, 20 x 1.07 = +21.40.
EXPECTED = {
    A: (10, 4, 3.5, "3.65", "-1.50"),
    B: (10, 4, 2, "2.81", "-8.10"),
    C: (20, 4, 2, "1.94", "1.20"),
    D: (20, 4, 1, "1.30", "-6.00"),
    E: (20, 4, 1.5, "0.43", "21.40"),
}
# F's first rating (the Mar 2024 formula: two fictitious 1800 opponents drawn): Ra =
# (2700 + 2500 + 2300 + 2150 + 1900 + 2 x 1800) / 7 = 2164.29; p = (1.5 + 1) / 7 = 0.36,
# dp(0.36) = -102; Ru = 2062.29 -> 2062 (below the 2200 cap, above the 1400 floor).
F_FIRST = 2062


def _pgn() -> str:
    games = []
    for number, pairs in enumerate(ROUNDS, start=1):
        for white, black, result in pairs:
            tags = {
                "Event": "Club Round Robin 2025",
                "Site": "Linz AUT",
                "Date": f"2025.11.{9 + number:02d}",
                "EventDate": "2025.11.10",
                "Round": str(number),
                "White": white[0],
                "Black": black[0],
                "Result": result,
                "TimeControl": "7200+30",
            }
            for side, p in (("White", white), ("Black", black)):
                if p[1] is not None:
                    tags[f"{side}FideId"] = str(p[1])
                if p[2] is not None:
                    tags[f"{side}Elo"] = str(p[2])
            head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
            games.append(f"{head}\n1. d4 d5 2. c4 e6 {result}\n")
    return "\n".join(games)


def _cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    code, out, err = run_cli(capsys, monkeypatch, *args)
    assert code == 0, err
    return out


@pytest.fixture
def rr(tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch) -> str:
    """The round robin's database (its path)."""
    db = str(tmp_path / "rr.db")
    pgn = tmp_path / "rr.pgn"
    pgn.write_text(_pgn(), encoding="utf-8")
    _cli(capsys, monkeypatch, "import", str(pgn), "--db", db)
    for p, k in K.items():
        _cli(
            capsys, monkeypatch, "official", "add", str(p[1]), "--period", "2025-11",
            "--rating", str(p[2]), "--k", str(k), "--db", db,
        )  # fmt: skip
    _cli(
        capsys, monkeypatch, "player", "set", E[0], "--rated-games", "100", "--birth-year",
        "1980", "--db", db,
    )  # fmt: skip
    return db


def _show(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> list[dict[str, Any]]:
    rows: list[dict[str, Any]] = json.loads(
        _cli(capsys, monkeypatch, "event", "show", *args, "--format", "json")
    )
    return rows


def test_a_round_robin_gives_every_player_the_change_worked_from_fide_tables(
    rr: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = {r["player"]: r for r in _show(capsys, monkeypatch, "Club Round Robin 2025", "--db", rr)}
    assert len(rows) == 6
    for p, (k, games, points, expected, change) in EXPECTED.items():
        r = rows[p[0]]
        assert (r["status"], r["period"], r["ro"], r["k"]) == ("rated", "2025-12", p[2], k), p
        assert (r["games"], r["points"], r["expected"]) == (games, points, expected), p
        assert r["change_exact"] == change, p
        assert r["fide_id"] == p[1]
        # the game against the unrated player did not count, and says why
        assert [n["reason"] for n in r["not_counted"]] == ["unrated-opponent"], p
    # Ro from the official list of the start, or the player's own tag (E: no list entry)
    assert {r["player"]: (r["ro_source"], r["ro_list"]) for r in rows.values()} == {
        **{p[0]: ("official", "2025-11") for p in K},
        E[0]: ("elo-tag", None),
        F[0]: ("unrated", None),
    }
    f = rows[F[0]]
    assert (f["status"], f["games"], f["points"], f["change_exact"]) == (
        "first-rating",
        5,
        1.5,
        None,
    )
    first = f["first_rating"]
    assert (first["rating"], first["games"], first["needed"], first["missing"]) == (
        F_FIRST,
        5,
        5,
        0,
    )
    # standings: A 4.5, B 3, then C, D, E on 2 (by Ro), F 1.5
    order = [r["player"] for r in _show(capsys, monkeypatch, "Club Round Robin 2025", "--db", rr)]
    assert order == [A[0], B[0], C[0], D[0], E[0], F[0]]
    assert [r["rank"] for r in rows.values()] == [1, 2, 3, 3, 3, 6]
    by_change = _show(capsys, monkeypatch, "Club Round Robin 2025", "--sort", "change", "--db", rr)
    assert [r["player"] for r in by_change] == [E[0], C[0], A[0], D[0], B[0], F[0]]


def test_event_show_and_explain_agree_to_the_cent(
    rr: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = _show(capsys, monkeypatch, "1", "--db", rr)
    for r in rows:
        who = str(r["fide_id"]) if r["fide_id"] is not None else r["player"]
        data = json.loads(
            _cli(capsys, monkeypatch, "explain", who, "2025-12", "--format", "json", "--db", rr)
        )
        mine = [g for g in data["games"] if g["tournament"] == "Club Round Robin 2025"]
        counted = [g for g in mine if g["counted"] and g["ro_source"] is not None]
        if r["status"] == "rated":
            total = sum(Decimal(g["k_change"]) for g in counted)
            assert Decimal(r["change_exact"]) == total, r["player"]
            assert {g["ro"] for g in counted} == {r["ro"]}
            assert {g["k"] for g in counted} == {r["k"]}
            assert data["change_exact"] == r["change_exact"]  # one tournament in the period
        else:
            assert r["first_rating"]["rating"] == data["rating_after"] == F_FIRST


def test_the_table_fits_100_columns_and_names_what_it_assumed(
    rr: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.setenv("COLUMNS", "100")
    out = _cli(capsys, monkeypatch, "event", "show", "club round", "--db", rr)
    lines = out.splitlines()
    assert all(len(x) <= 100 for x in lines), max(lines, key=len)
    assert " ".join(out.split()).startswith(  # (the title wraps at 100 columns)
        "Club Round Robin 2025 (Linz AUT, 2025-11-10 to 2025-11-14): standard, rated on the "
        "2025-12 list, 6 players"
    )
    row = {x.split()[1].rstrip(","): x for x in lines if x[:3].strip().isdigit()}
    assert "90000001  2700  list 2025-11  10  4  3.5  3.65   -1.50" in row["Alpha"]
    assert "1900  tag" in row["Egger"] and "+21.40" in row["Egger"]
    assert lines[lines.index(row["Egger"]) + 1] == "    not counted: unrated-opponent 1; no FIDE ID"
    assert "first rating 2062 (5 games)" in out
    assert "list: the official rating on the list in force at the start" in out
    # CSV: the same rows, one line each
    text = _cli(capsys, monkeypatch, "event", "show", "1", "--format", "csv", "--db", rr)
    table = list(csv.DictReader(io.StringIO(text)))
    assert [r["change_exact"] for r in table] == ["-1.50", "-8.10", "1.20", "-6.00", "21.40", ""]
    assert table[0]["not_counted"] == "unrated-opponent 1"
    assert table[5]["first_rating"] == "2062"


def test_unknown_and_ambiguous_tournaments_list_the_candidates(
    rr: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    two = tmp_path / "two.pgn"
    two.write_text(
        _pgn()
        .replace("Club Round Robin 2025", "Club Round Robin 2025 B")
        .replace("2025.11", "2025.12"),
        encoding="utf-8",
    )
    _cli(capsys, monkeypatch, "import", str(two), "--db", rr)
    code, out, err = run_cli(capsys, monkeypatch, "event", "show", "Round Robin", "--db", rr)
    assert (code, out) == (2, "")
    assert err == (
        "error: 2 tournaments match 'Round Robin': 1 Club Round Robin 2025 (Linz AUT, "
        "2025-11-10, 15 games); 2 Club Round Robin 2025 B (Linz AUT, 2025-12-10, 15 games); "
        "give the id\n"
    )
    # the exact name wins over a longer one that contains it
    rows = _show(capsys, monkeypatch, "club round robin 2025", "--db", rr)
    assert rows[0]["period"] == "2025-12"
    code, out, err = run_cli(capsys, monkeypatch, "event", "show", "77", "--db", rr)
    assert code == 2
    assert err.startswith("error: no tournament with id 77 (the ids run 1 to 2; ")
    assert "the latest: 2 Club Round Robin 2025 B" in err and err.count("\n") == 1
    code, out, err = run_cli(capsys, monkeypatch, "event", "show", "Club Round Robbin", "--db", rr)
    assert code == 2
    assert err.startswith("error: no tournament matches 'Club Round Robbin'; the nearest: 1 Club")
    code, out, err = run_cli(capsys, monkeypatch, "event", "show", "1", "--sort", "x", "--db", rr)
    assert (code, err) == (2, "error: --sort 'x': use standing or change\n")


def test_a_tournament_on_two_lists_says_which_it_shows(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "two.db")
    games = ["[Event " + g for g in _pgn().split("[Event ")[1:]]
    # the last round played at rapid: its three games are on the rapid list
    last = [g.replace("7200+30", "900+10") for g in games[-3:]]
    (tmp_path / "t.pgn").write_text("".join(games[:-3] + last), encoding="utf-8")
    _cli(capsys, monkeypatch, "import", str(tmp_path / "t.pgn"), "--db", db)
    monkeypatch.setenv("COLUMNS", "100")
    out = _cli(capsys, monkeypatch, "event", "show", "1", "--db", db)
    assert "Shown: the standard list; the tournament also has 3 games on the rapid list " in out
    assert "(--list rapid)." in out
    code, out, err = run_cli(
        capsys, monkeypatch, "event", "show", "1", "--list", "rapid", "--format", "json",
        "--db", db,
    )  # fmt: skip
    assert (code, err) == (
        0,
        "Shown: the rapid list; the tournament also has 12 games on the standard list "
        "(--list standard).\n",
    )
    rows = json.loads(out)
    assert sorted(r["played"] for r in rows) == [1, 1, 1, 1, 1, 1]
    assert all(r["period"] == "2025-12" for r in rows)


def test_a_twic_open_shows_unrated_players_and_players_without_fide_id(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "twic.db")
    twic = REPO.parent / "shared" / "corpus" / "twic0920.pgn.xz"
    _cli(capsys, monkeypatch, "import", str(twic), "--db", db)
    rows = {r["player"]: r for r in _show(capsys, monkeypatch, "Teplice Open 2012", "--db", db)}
    # Mirakjan has no FideId tag and no Elo: unrated, his 6 games against rated opponents
    # toward a first rating (before Jul 2014: 9 games needed)
    m = rows["Mirakjan,Mikajel"]
    assert (m["fide_id"], m["status"], m["ro_source"], m["games"]) == (
        None,
        "first-rating",
        "unrated",
        6,
    )
    assert (m["first_rating"]["needed"], m["first_rating"]["missing"]) == (9, 3)
    unrated = [r for r in rows.values() if r["status"] == "first-rating"]
    assert len(unrated) == 9
    for r in unrated:
        assert r["change_exact"] is None and r["first_rating"]["needed"] == 9
    # a player whose only game had no moves: nothing counted, and why
    w = rows["Wimmer,Mi"]
    assert (w["status"], w["games"], [n["reason"] for n in w["not_counted"]]) == (
        "not-counted",
        0,
        ["no-moves"],
    )
    # every rated player's change is that of their own replay (explain's figures)
    rated = [r for r in rows.values() if r["status"] == "rated"]
    assert len(rated) == 124
    assert all(Decimal(r["change_exact"]) * 100 % 1 == 0 for r in rated)  # two decimals


def test_event_list_of_a_database_that_tracks_nobody_lists_every_tournament(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """An arbiter's database of a TWIC issue tracks no player: `event list` gave "no player
    given and none is tracked", though `event show` asks for an id from it. It lists every
    tournament with the id `event show` takes; once a player is tracked, theirs."""
    db = str(tmp_path / "twic.db")
    twic = REPO.parent / "shared" / "corpus" / "twic0920.pgn.xz"
    _cli(capsys, monkeypatch, "import", str(twic), "--db", db)
    every = json.loads(_cli(capsys, monkeypatch, "event", "list", "--db", db, "-f", "json"))
    (teplice,) = [t for t in every if t["name"] == "Teplice Open 2012"]
    assert set(teplice) == {"id", "name", "site", "start", "end", "partial_date", "games"}
    shown = _show(capsys, monkeypatch, str(teplice["id"]), "--db", db)
    assert len(shown) > 100  # (its players: the open of the test above)
    monkeypatch.setenv("COLUMNS", "80")
    table = _cli(capsys, monkeypatch, "event", "list", "--db", db)
    assert table.startswith("Every tournament (no player tracked")
    assert max(len(x) for x in table.splitlines()) <= 80
    rows = list(
        csv.DictReader(
            io.StringIO(_cli(capsys, monkeypatch, "event", "list", "--db", db, "-f", "csv"))
        )
    )
    assert len(rows) == len(every)
    _cli(capsys, monkeypatch, "player", "set", "Mirakjan,Mikajel", "--me", "--db", db)
    mine = json.loads(_cli(capsys, monkeypatch, "event", "list", "--db", db, "-f", "json"))
    assert [t["name"] for t in mine] == ["Teplice Open 2012"]


def test_the_place_follows_the_score_an_unplayed_win_included(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    # A double round of four (Oct 2025), every game played but one: Beta wins against Delta
    # without a move. FIDE: an unplayed game counts in the tournament's standings, not for
    # the rating (spec section 1.3). Scores: Alpha 1/2 + 1/2 + 1/2 = 1.5; Beta 1/2 + 1
    # (unplayed) + 0 = 1.5; Gamma 0 + 1/2 + 1 = 1.5; Delta 1 + 0 (unplayed) + 1/2 = 1.5:
    # all share place 1. Beta's points in rated games: 0.5 (Delta's: 1.5).
    quad = [("Alpha, A", 2300, 1), ("Beta, B", 2200, 2), ("Gamma, C", 2100, 3)]
    quad.append(("Delta, D", 2000, 4))
    games = [(0, 1, "1/2-1/2"), (2, 3, "0-1"), (0, 2, "1/2-1/2"), (1, 3, "1-0")]
    games += [(3, 0, "1/2-1/2"), (1, 2, "0-1")]
    text = ""
    for n, (w, b, res) in enumerate(games, 1):
        (wn, we, wi), (bn, be, bi) = quad[w], quad[b]
        moves = "" if (w, b) == (1, 3) else "1. e4 e5 2. Nf3 Nc6 "
        text += (
            f'[Event "Linz Quad 2025"]\n[Site "Linz AUT"]\n[Date "2025.10.0{(n + 1) // 2}"]\n'
            f'[Round "{n}"]\n[White "{wn}"]\n[Black "{bn}"]\n[Result "{res}"]\n'
            f'[WhiteElo "{we}"]\n[BlackElo "{be}"]\n[WhiteFideId "{9100000 + wi}"]\n'
            f'[BlackFideId "{9100000 + bi}"]\n\n{moves}{res}\n\n'
        )
    (tmp_path / "quad.pgn").write_text(text, encoding="utf-8")
    db = str(tmp_path / "t.db")
    assert run_cli(capsys, monkeypatch, "import", str(tmp_path / "quad.pgn"), "--db", db)[0] == 0
    code, out, err = run_cli(capsys, monkeypatch, "event", "show", "1", "--db", db)
    assert code == 0, err
    lines = out.splitlines()
    head = lines[2].split()
    assert head[:4] == ["#", "Player", "Score", "FIDE"]
    rows = {" ".join(line.split()[1:3]): line.split() for line in lines[4:8]}
    beta, delta = rows["Beta, B"], rows["Delta, D"]
    pts = head.index("Pts")  # (the name is two words, and so is the header FIDE ID)
    assert (beta[0], beta[3], beta[pts]) == ("1", "1.5", "0.5")
    assert (delta[0], delta[3], delta[pts]) == ("1", "1.5", "1.5")
    assert all(r[0] == "1" and r[3] == "1.5" for r in rows.values())
    assert "#: the place by Score, the points of every finished game, as the tournament's" in out
    data = _show(capsys, monkeypatch, "1", "--db", db)
    by_name = {r["player"]: r for r in data}
    assert (by_name["Beta, B"]["rank"], by_name["Beta, B"]["score"]) == (1, 1.5)
