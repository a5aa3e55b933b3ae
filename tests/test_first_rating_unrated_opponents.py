"""A first rating earned among unrated opponents, through every reading command (issue 35
item 9: `event list` exited 2, "7/2 points is impossible in 3 games": the points of all the
games of a first tournament against the count of its games against rated opponents).

Spec section 4 (shared/spec/fide-rules.md): only games against rated opponents count toward
a first rating; from 1 Mar 2024 Ra is the average of the rated opponents plus two fictitious
1800 opponents, p = (points + 1) / (games + 2), Ru = Ra + dp(p) (table 8.1.1, p to two
decimals half up). Section 7: Rp = average opponent rating + dp(points / games). Section 1:
a rated player's game against an unrated opponent does not count.

The season (a PGN read by the real importer; Novice, Nick has no Elo tag, no official rating;
the opponents without a BlackElo tag are unrated):

- Autumn Open, 11-15 Sep 2024 (-> Oct 2024 list): 1600 win, unrated win, 1700 draw, unrated
  win, 1650 loss. Rated: 3 games, 1.5 points (not 3.5: the two wins against unrated
  opponents do not count); Rp 1650 + dp(0.50) 0 = 1650. Only 3 games against rated
  opponents (5 needed): no rating on the Oct 2024 list.
- Club Cup, 11-14 Oct 2024 (-> Nov 2024 list): 1550 win, unrated loss, 1620 draw, 1580 win.
  Rated: 3 games, 2.5 points; Rp 4750/3 + dp(0.83) 273 = 1856.33 -> 1856. Pooled with the
  Autumn Open: 6 games, 4 points; Ra = (9700 + 2 x 1800) / 8 = 1662.5, p = 5/8 = 0.625 ->
  0.63, dp 95; Ru = 1757.5 -> first rating 1758 (Nov 2024 list).
- Winter Open, 11-13 Dec 2024 (-> Jan 2025 list), rated 1758, K 40 (fewer than 30 games):
  1700 win (D 58, PD 0.58, +0.42), unrated win (not counted), 1750 loss (D 8, PD 0.51,
  -0.51): 40 x -0.09 = -3.60 -> -4, 1754. Rated: 2 games, 1 point; Rp 1725.
- The season: 8 rated games, 5 points; Rp 13150/8 + dp(0.63) 95 = 1738.75 -> 1739.
"""

from __future__ import annotations

import csv
import io
import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import run_cli

P = "Novice, Nick"
UNRATED = "unrated-opponent"
TOURNAMENTS = [  # (event, month, [(opponent, Elo tag or None, result)])
    (
        "Autumn Open",
        9,
        [
            ("Alpha, A", 1600, "1-0"),
            ("Beta, B", None, "1-0"),
            ("Gamma, C", 1700, "1/2-1/2"),
            ("Delta, D", None, "1-0"),
            ("Eps, E", 1650, "0-1"),
        ],
    ),
    (
        "Club Cup",
        10,
        [
            ("Zeta, Z", 1550, "1-0"),
            ("Eta, H", None, "0-1"),
            ("Theta, T", 1620, "1/2-1/2"),
            ("Iota, I", 1580, "1-0"),
        ],
    ),
    (
        "Winter Open",
        12,
        [("Kappa, K", 1700, "1-0"), ("Lambda, L", None, "1-0"), ("Mu, M", 1750, "0-1")],
    ),
]


def season_pgn() -> str:
    games = []
    for event, month, opponents in TOURNAMENTS:
        for n, (opponent, elo, result) in enumerate(opponents, 1):
            tags = {
                "Event": event,
                "Site": "Town",
                "Date": f"2024.{month:02d}.{10 + n:02d}",
                "Round": str(n),
                "White": P,
                "Black": opponent,
                "Result": result,
                "TimeControl": "5400+30",
            }
            if elo is not None:
                tags["BlackElo"] = str(elo)
            head = "".join(f'[{k} "{v}"]\n' for k, v in tags.items())
            games.append(f"{head}\n1. e4 e5 {result}\n\n")
    return "".join(games)


def run(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture(scope="module")
def template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    folder = tmp_path_factory.mktemp("first")
    (folder / "season.pgn").write_text(season_pgn(), encoding="utf-8")
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.store import open_store

    with open_store(str(folder / "t.db")) as store:
        import_paths(store, [str(folder / "season.pgn")], ImportOptions())
    return folder / "t.db"


@pytest.fixture
def db(template: Path, tmp_path: Path) -> str:
    shutil.copyfile(template, tmp_path / "t.db")
    return str(tmp_path / "t.db")


def ok(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    code, out, err = run(capsys, monkeypatch, *args)
    assert (code, err) == (0, ""), (args, err)
    return out


def test_event_list_counts_the_rated_games_and_their_points(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = json.loads(ok(capsys, monkeypatch, "event", "list", P, "--db", db, "-f", "json"))
    got = [
        (r["name"], r["period"], r["games"], r["points"], r["not_counted"], r["performance"])
        for r in rows
    ]
    assert got == [
        ("Autumn Open", "2024-10", 3, 1.5, 2, 1650),
        ("Club Cup", "2024-11", 3, 2.5, 1, 1856),
        ("Winter Open", "2025-01", 2, 1, 1, 1725),
    ]
    assert [r["not_counted_reasons"] for r in rows[:2]] == [
        [{"reason": UNRATED, "games": 2}],
        [{"reason": UNRATED, "games": 1}],
    ]
    table = ok(capsys, monkeypatch, "event", "list", P, "--db", db)
    assert "Autumn Open" in table and "1650" in table and "1856" in table
    text = ok(capsys, monkeypatch, "event", "list", P, "--db", db, "-f", "csv")
    by_name = {r["name"]: r for r in csv.DictReader(io.StringIO(text))}
    assert (by_name["Autumn Open"]["games"], by_name["Autumn Open"]["points"]) == ("3", "1.5")


def test_history_counts_the_rated_games_and_says_the_others(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    rows = json.loads(ok(capsys, monkeypatch, "history", P, "--db", db, "-f", "json"))
    got = [
        (r["period"], r["games"], r["points"], r["rating_after"], r["not_counted"]) for r in rows
    ]
    assert got == [
        ("2024-10", 3, 1.5, None, [{"reason": UNRATED, "games": 2}]),
        ("2024-11", 6, 4, 1758, [{"reason": UNRATED, "games": 1}]),
        ("2025-01", 2, 1, 1754, [{"reason": UNRATED, "games": 1}]),
    ]
    table = ok(capsys, monkeypatch, "history", P, "--db", db)
    assert (
        "Season 2024-10 to 2025-01 (standard): 8 rated games, 5 points, performance 1739; "
        "unrated -> 1754" in table
    )
    text = ok(capsys, monkeypatch, "history", P, "--db", db, "-f", "csv")
    assert [r["not_counted"] for r in csv.DictReader(io.StringIO(text))] == [
        f"{UNRATED} 2",
        f"{UNRATED} 1",
        f"{UNRATED} 1",
    ]


def test_explain_pools_only_the_games_against_rated_opponents(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    got = json.loads(ok(capsys, monkeypatch, "explain", P, "2024-11", "--db", db, "-f", "json"))
    assert [(g["opponent"], g["counted"], g["reason"]) for g in got["games"]] == [
        ("Zeta, Z", True, "toward a first rating"),
        ("Theta, T", True, "toward a first rating"),
        ("Iota, I", True, "toward a first rating"),
        ("Eta, H", False, UNRATED),
    ]
    text = ok(capsys, monkeypatch, "explain", P, "2024-11", "--db", db)
    assert "  3 games pooled toward a first rating" in text
    # (the Mar 2024 formula, spec section 4: Ra and p count two draws against 1800 beside
    # the 6 games, so p = (4 + 1) / (6 + 2) and the user can redo the figure by hand)
    assert (
        "First rating: 1758 from 6 games, 4 points, average 1662.5 (the average and the "
        "score count 2 fictitious draws against 1800: p = 5/8)" in text
    )
    assert "Games not counted: 1 (unrated-opponent):" in text
    ok(capsys, monkeypatch, "explain", P, "2024-10", "--db", db, "-f", "csv")
    assert "Rating after: 1758 -4 = 1754" in ok(
        capsys, monkeypatch, "explain", P, "2025-01", "--db", db
    )


def test_export_marks_the_games_against_unrated_opponents_not_counted(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    text = ok(capsys, monkeypatch, "export", P, "--what", "games", "--db", db)
    got = [(r["opponent"], r["counted"], r["reason"]) for r in csv.DictReader(io.StringIO(text))]
    unrated = {o for _, _, games in TOURNAMENTS for o, elo, _ in games if elo is None}
    assert got == [
        (o, "no", UNRATED) if o in unrated else (o, "yes", "")
        for _, _, games in TOURNAMENTS
        for o, _, _ in games
    ]
    history = list(csv.DictReader(io.StringIO(ok(capsys, monkeypatch, "export", P, "--db", db))))
    assert [(r["games"], r["points"]) for r in history] == [("3", "1.5"), ("6", "4"), ("2", "1")]


def test_next_target_report_plot_players_exit_0(
    db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    nxt = json.loads(ok(capsys, monkeypatch, "next", P, "--db", db, "-f", "json"))
    assert nxt["expected_rating"] == 1754
    assert [(p["games"], p["points"]) for p in nxt["periods"]] == [(3, 1.5), (6, 4), (2, 1)]
    got = json.loads(
        ok(
            capsys,
            monkeypatch,
            *("target", "1700", P, "--opponents", "1700", "--games", "5", "--db", db),
            *("--start", "2025-01-10", "-f", "json"),
        )
    )
    # 8 rated games completed (the 6 of the first rating and 2), so K 40 (fewer than 30)
    assert (got["rating_before"], got["k"]) == (1754, 40)
    assert "(8 completed)" in got["k_reason"]
    ok(capsys, monkeypatch, "report", P, "--db", db, "-o", str(tmp_path / "r.html"))
    ok(capsys, monkeypatch, "plot", P, "--db", db, "-o", str(tmp_path / "r.svg"))
    assert (tmp_path / "r.html").stat().st_size and (tmp_path / "r.svg").stat().st_size
    ok(capsys, monkeypatch, "players", "--db", db)
    assert ok(capsys, monkeypatch, "db", "check", "--db", db).endswith(
        "ok (integrity and every invariant hold)\n"
    )


def test_check_of_the_first_rating_and_after(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """FIDE publishes 1758 on the Nov 2024 list (6 games), 1758 again in Dec (K 40), 1754 in
    Jan 2025 (2 games): the check matches every period and exits 0."""
    for period, rating, more in (
        ("2024-11", "1758", ("--games", "6")),
        ("2024-12", "1758", ("--k", "40")),
        ("2025-01", "1754", ("--games", "2")),
    ):
        ok(
            capsys,
            monkeypatch,
            *("official", "add", P, "--db", db, "--period", period, "--rating", rating, *more),
        )
    out = ok(capsys, monkeypatch, "check", P, "--db", db)
    assert "All 2 periods checked match." in out
    rows = json.loads(ok(capsys, monkeypatch, "check", P, "--db", db, "-f", "json"))[0]["rows"]
    assert [(r["period"], r["games"], r["status"]) for r in rows] == [
        ("2024-11", 0, "start"),
        ("2024-12", 0, "match"),
        ("2025-01", 2, "match"),
    ]
    rows = json.loads(ok(capsys, monkeypatch, "event", "list", P, "--db", db, "-f", "json"))
    assert [r["games"] for r in rows] == [0, 0, 2]  # inside the starting official rating
