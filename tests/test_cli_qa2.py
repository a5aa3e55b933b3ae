"""Bugs of the exploratory QA run (13, 14, 16, 18, 25), through the real entry point.

The season (hand-made, tests/helpers_history.py): official Oct 2025 1850; "Autumn Open"
4-5 Oct 2025 (default list 2025-11); "Weinviertel Open 2025" 21-23 Nov 2025 (default list
2025-12, and no earlier list can rate it: its last round is after 1 Nov).
"""

from __future__ import annotations

import csv
import datetime as dt
import io
import json
import re
import shutil
from collections.abc import Sequence
from pathlib import Path

import matplotlib.pyplot as plt
import pytest
from sqlalchemy import insert

from tests.conftest import dump_db, run_cli
from tests.helpers_history import Season
from tracker import listgen
from tracker.errors import BadInput
from tracker.model import Period, RatingList
from tracker.periods import TournamentFact
from tracker.store import open_store
from tracker.store.schema import player_names, players

Run = tuple[int, str, str]


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> Run:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture(scope="module")
def season_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db_path = tmp_path_factory.mktemp("qa2") / "season.db"
    with open_store(str(db_path)) as store:
        s = Season(store, birth_year=1988, rated_games=100)
        t = s.tournament("Autumn Open", "2025-10-04", "2025-10-05")
        s.game(t, 1700, 1, own_elo=1850, date="2025-10-04")
        s.game(t, 2000, 0, own_elo=1850, date="2025-10-05")
        w = s.tournament("Weinviertel Open 2025", "2025-11-21", "2025-11-23")
        s.game(w, 1800, "1/2", own_elo=1850, date="2025-11-21")
        s.game(w, 1900, 1, own_elo=1850, date="2025-11-23")
        s.official("2025-10", 1850, k=20)
    return db_path


@pytest.fixture
def db(season_template: Path, tmp_path: Path) -> str:
    target = tmp_path / "season.db"
    shutil.copyfile(season_template, target)
    return str(target)


def _event_id(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str,
              name: str) -> int:
    code, out, err = run(capsys, monkeypatch, "event", "list", "--format", "json", "--db", db)
    assert code == 0, err
    return int(next(r["id"] for r in json.loads(out) if r["name"] == name))


# --- 18: a reversed --from/--to ----------------------------------------------------------


def test_history_reversed_range_says_so(db: str, capsys: pytest.CaptureFixture[str],
                                        monkeypatch: pytest.MonkeyPatch) -> None:
    for fmt in ("table", "csv", "json"):
        code, out, err = run(capsys, monkeypatch, "history", "--from", "2026-05", "--to",
                             "2025-09", "--format", fmt, "--db", db)
        assert (code, out) == (2, "")
        assert err == ("error: --from 2026-05 is after --to 2025-09: give the earlier period "
                       "with --from\n")
    code, out, err = run(capsys, monkeypatch, "history", "--from", "2025-11", "--to", "2025-11",
                         "--format", "json", "--db", db)
    assert code == 0, err
    assert [r["period"] for r in json.loads(out)] == ["2025-11"]


# --- 13: event set onto a list published before the tournament ----------------------------


@pytest.mark.parametrize("period", ["2025-10", "2025-11"])
def test_event_set_refuses_a_list_before_the_last_round(
        db: str, period: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    tid = _event_id(capsys, monkeypatch, db, "Weinviertel Open 2025")
    before = dump_db(Path(db))
    code, out, err = run(capsys, monkeypatch, "event", "set", str(tid), "--period", period,
                         "--db", db)
    assert (code, out) == (2, "")
    assert err == (f"error: tournament {tid} (Weinviertel Open 2025, played 2025-11-21 to "
                   f"2025-11-23) cannot be rated on the {period} list (dated {period}-01, "
                   "before its last round): the first standard list it can land on is "
                   "2025-12 (if its dates in the PGN are wrong and FIDE's page says "
                   "otherwise, add --force)\n")
    assert dump_db(Path(db)) == before


@pytest.mark.parametrize("period", ["2025-12", "2026-01"])
def test_event_set_accepts_a_list_after_the_last_round(
        db: str, period: str, capsys: pytest.CaptureFixture[str],
        monkeypatch: pytest.MonkeyPatch) -> None:
    tid = _event_id(capsys, monkeypatch, db, "Weinviertel Open 2025")
    code, out, err = run(capsys, monkeypatch, "event", "set", str(tid), "--period", period,
                         "--db", db)
    assert code == 0, err
    assert out == f"tournament {tid} (Weinviertel Open 2025): period {period}\n"


def test_pin_rules() -> None:
    from tracker.store.history import check_pin
    one_day = TournamentFact(id=3, name="Cup", start=dt.date(2025, 11, 30),
                             end=dt.date(2025, 11, 30))
    check_pin(one_day, Period(2025, 12), RatingList.STANDARD)  # the day before the list
    with pytest.raises(BadInput, match=r"played 2025-11-30\) cannot be rated on the 2025-11"):
        check_pin(one_day, Period(2025, 11), RatingList.STANDARD)
    old = TournamentFact(id=4, name="Old", start=dt.date(2010, 1, 10), end=dt.date(2010, 1, 12))
    with pytest.raises(BadInput, match="FIDE published no standard list that month"):
        check_pin(old, Period(2010, 2), RatingList.STANDARD)  # two-monthly lists then
    with pytest.raises(BadInput, match="first standard list it can land on is 2010-03"):
        check_pin(old, Period(2010, 1), RatingList.STANDARD)
    check_pin(TournamentFact(id=5, name="Undated"), Period(2010, 1), RatingList.STANDARD)


# --- 14: official add of a list FIDE has not published yet ---------------------------------


def test_official_add_refuses_a_future_list(db: str, capsys: pytest.CaptureFixture[str],
                                            monkeypatch: pytest.MonkeyPatch) -> None:
    today = dt.date.today()
    nxt = Period.of(today).next()
    before = dump_db(Path(db))
    code, out, err = run(capsys, monkeypatch, "official", "add", "99012345", "--period",
                         str(nxt.next()), "--rating", "1850", "--db", db)
    assert (code, out) == (2, "")
    assert err == (f"error: --period {nxt.next()} is a future list: today is "
                   f"{today.isoformat()}, and the latest list FIDE can have published is "
                   f"{nxt}\n")
    assert dump_db(Path(db)) == before
    code, out, err = run(capsys, monkeypatch, "official", "add", "99012345", "--period",
                         str(nxt), "--rating", "1850", "--db", db)
    assert code == 0, err
    assert out == f"recorded Novák, Tomáš: standard {nxt} 1850\n"


def test_future_list_boundary() -> None:
    from tracker.cli.official import check_published
    check_published(Period(2026, 1), today=dt.date(2025, 12, 30))
    check_published(Period(2026, 1), today=dt.date(2025, 12, 1))
    with pytest.raises(BadInput, match="today is 2025-12-31.* published is 2026-01"):
        check_published(Period(2026, 2), today=dt.date(2025, 12, 31))


# --- 16: one x label per list month -------------------------------------------------------


def _labels(replayed: Sequence[tuple[dt.date, int]],
            official: Sequence[tuple[dt.date, int]] = ()) -> list[str]:
    from tracker.plot import Series, draw_history
    fig = draw_history([Series("standard", replayed, official)], title="t")
    try:
        fig.canvas.draw()
        ax = fig.axes[0]
        low, high = ax.get_xlim()
        return [t.get_text() for t in ax.get_xticklabels()
                if low <= t.get_position()[0] <= high]
    finally:
        plt.close(fig)


def _months(first: Period, n: int) -> list[tuple[dt.date, int]]:
    out, p = [], first
    for i in range(n):
        out.append((p.list_date, 1800 + i % 7))
        p = p.next()
    return out


def test_chart_one_period_one_label() -> None:
    assert _labels([(dt.date(2025, 10, 1), 1685)]) == ["2025-10"]
    assert _labels([], [(dt.date(2025, 10, 1), 1685)]) == ["2025-10"]


def test_chart_two_lists_two_labels() -> None:
    """The QA case (Marek): blitz on 2025-10, standard on 2025-11 (drawn as one series here:
    the ticks depend only on the dates)."""
    assert _labels([(dt.date(2025, 10, 1), 1685)], [(dt.date(2025, 11, 1), 1593)]) == [
        "2025-10", "2025-11"]


@pytest.mark.parametrize("n", [2, 3, 7, 12, 13, 25, 40, 61, 120, 121, 180, 240])
def test_chart_labels_never_repeat(n: int) -> None:
    """From 2 list months to 20 years: distinct labels, at most 12, inside the data's span."""
    points = _months(Period(2008, 7), n)
    labels = _labels(points)
    assert labels and len(labels) == len(set(labels)) <= 12, labels
    assert all(re.fullmatch(r"\d{4}-\d{2}", x) for x in labels), labels
    assert labels == sorted(labels)
    assert labels[0] >= "2008-07" and labels[-1] <= str(Period.of(points[-1][0]))
    if n <= 12:
        assert len(labels) == n  # every month on a short span
    else:
        assert len(labels) >= 4


def test_cli_plot_writes_the_chart(db: str, tmp_path: Path, capsys: pytest.CaptureFixture[str],
                                   monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "plot", "-o", str(tmp_path / "h.png"), "--db", db)
    assert code == 0, err
    assert (tmp_path / "h.png").read_bytes()[:4] == b"\x89PNG"


# --- 25: small inconsistencies -----------------------------------------------------------


@pytest.mark.parametrize("k", ["0", "41", "100"])
def test_calc_k_from_1_to_40(k: str, capsys: pytest.CaptureFixture[str],
                             monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "calc", "--rating", "1500", "--k", k, "1500:1")
    assert (code, out) == (2, "")
    assert err == ("error: --k must be a positive whole number up to 40 (usually 40, 20 or 10; "
                   f"30, 25 or 15 in older editions; less by the 700 rule), not {k}\n")


@pytest.mark.parametrize("k", ["1", "15", "40"])
def test_calc_k_accepted(k: str, capsys: pytest.CaptureFixture[str],
                         monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "calc", "--rating", "1500", "--k", k,
                         "--format", "json", "1500:1")
    assert code == 0, err
    assert json.loads(out)["k"] == int(k)


def test_one_rating_limit() -> None:
    from tracker import fidelists, model, target
    from tracker.cli import calc
    from tracker.importer import prepare
    from tracker.store import history, official
    assert model.MAX_RATING == 3999
    for module in (calc, official, history, target, fidelists, prepare):
        assert module.MAX_RATING is model.MAX_RATING, module.__name__


def test_official_list_csv_ends_lines_with_crlf(db: str, capsys: pytest.CaptureFixture[str],
                                                monkeypatch: pytest.MonkeyPatch) -> None:
    code, out, err = run(capsys, monkeypatch, "official", "list", "99012345", "--format", "csv",
                         "--db", db)
    assert code == 0, err
    assert out == ("list,period,rating,games,k,flag,title,birth_year,source\r\n"
                   "standard,2025-10,1850,,20,,,,test\r\n")


def test_event_list_csv_flags_are_yes_no(db: str, capsys: pytest.CaptureFixture[str],
                                         monkeypatch: pytest.MonkeyPatch) -> None:
    tid = _event_id(capsys, monkeypatch, db, "Weinviertel Open 2025")
    assert run(capsys, monkeypatch, "event", "set", str(tid), "--period", "2026-01",
               "--db", db)[0] == 0
    code, out, err = run(capsys, monkeypatch, "event", "list", "--format", "csv", "--db", db)
    assert code == 0, err
    assert out.endswith("\r\n") and "\n" not in out.replace("\r\n", "")
    rows = list(csv.DictReader(io.StringIO(out)))
    assert [(r["name"], r["pinned"], r["excluded"]) for r in rows] == [
        ("Autumn Open", "no", "no"), ("Weinviertel Open 2025", "yes", "no")]
    code, out, err = run(capsys, monkeypatch, "event", "list", "--format", "json", "--db", db)
    assert [r["pinned"] for r in json.loads(out)] == [False, True]  # JSON keeps booleans


def test_history_start_row_difference(db: str, capsys: pytest.CaptureFixture[str],
                                      monkeypatch: pytest.MonkeyPatch) -> None:
    """docs/export.md: difference = rating_after - official_rating when both are known; the
    start row's rating_after is the official rating, so 0."""
    code, out, err = run(capsys, monkeypatch, "history", "--format", "csv", "--db", db)
    assert code == 0, err
    start = next(csv.DictReader(io.StringIO(out)))
    assert (start["period"], start["rating_after"], start["official_rating"],
            start["difference"]) == ("2025-10", "1850", "1850", "0")
    code, out, err = run(capsys, monkeypatch, "history", "--format", "json", "--db", db)
    rows = json.loads(out)
    assert rows[0]["difference"] == 0
    assert all(r["difference"] is None for r in rows[1:])  # no official rating there
    code, out, err = run(capsys, monkeypatch, "history", "--db", db)
    start_line = next(line for line in out.splitlines() if line.startswith("2025-10"))
    assert start_line.split() == ["2025-10", "1850", "1850", "start:", "official", "rating"]


def test_official_import_one_other_skipped(tmp_path: Path, db_path: Path,
                                           capsys: pytest.CaptureFixture[str],
                                           monkeypatch: pytest.MonkeyPatch) -> None:
    people = list(listgen.players(2, seed=1))
    with open_store(str(db_path)) as store, store.engine.begin() as conn:
        name, fid = people[0].name, people[0].fide_id
        pid = conn.execute(insert(players).values(
            name=name, norm_name=name.lower(), fide_id=fid)).inserted_primary_key[0]
        conn.execute(insert(player_names).values(norm_name=name.lower(), player_id=pid))
    path = listgen.generate(tmp_path / "standard_nov25frl.zip", 2, "txt", zipped=True)
    code, out, err = run(capsys, monkeypatch, "official", "import", str(path), "--db",
                         str(db_path))
    assert code == 0, err
    assert "; 1 in the database; 1 other skipped (--all keeps them); " in out
