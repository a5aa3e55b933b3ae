"""The chart model (tracker.reports.chart) and the season report (tracker.reports.season, `tracker
report`) on the sample season as `tracker demo` records it: the numbers are those of
docs/walkthrough.md and sample_pgns/README.md's hand derivation."""

from __future__ import annotations

import datetime as dt
import json
import re
from fractions import Fraction
from pathlib import Path

import pytest

from tests.builders import demo_folder
from tests.conftest import run_cli
from tracker.app.histories import PlayerHistory, load_history
from tracker.app.players import resolve_player
from tracker.model import Period, RatingList
from tracker.reports.chart import Chart, chart_model, visible
from tracker.store import open_store


@pytest.fixture(scope="module")
def demo(tmp_path_factory: pytest.TempPathFactory) -> Path:
    return demo_folder(tmp_path_factory)


@pytest.fixture(scope="module")
def history(demo: Path) -> PlayerHistory:
    with open_store(str(demo / "tracker-demo.db")) as store:
        return load_history(store, resolve_player(store, None))


@pytest.fixture(scope="module")
def chart(history: PlayerHistory) -> Chart:
    return chart_model(history)


# --- the chart model ----------------------------------------------------------------------


def test_the_chart_has_every_list_standard_first(chart: Chart) -> None:
    assert [c.rating_list for c in chart.lists] == list(RatingList)
    assert chart.title == (
        "Novák, Tomáš: replayed FIDE rating history (tracker), not FIDE's published list"
    )
    assert chart.footnote == ""  # every fact K needs is recorded by the demo


def test_standard_periods_are_the_walkthroughs(chart: Chart) -> None:
    std = chart.lists[0]
    got = [(str(p.period), p.rating_before, p.change, p.rating) for p in std.periods]
    assert got == [
        ("2025-09", None, None, 1850),
        ("2025-10", 1850, 5, 1855),
        ("2025-11", 1855, 10, 1865),
        ("2025-12", 1865, 10, 1875),
        ("2026-02", 1875, 9, 1884),
        ("2026-03", 1884, -5, 1879),
        ("2026-04", 1879, 1, 1880),
    ]
    assert [p.start for p in std.periods] == [True] + [False] * 6
    assert std.periods[0].official == 1850 and std.periods[0].difference is None
    assert std.start is not None
    assert (std.start.day, std.start.rating) == (dt.date(2025, 9, 1), 1850)
    assert std.start.what == "official 2025-09 list"
    assert [p.games for p in std.periods] == [0, 5, 5, 10, 1, 5, 1]


def test_tournaments_of_a_period(chart: Chart) -> None:
    """December 2025 (docs/walkthrough.md, explain 2025-12): the club championship under
    the October rating (Ro 1855, -4) and the Weinviertel Open under November's (1865, +14)."""
    dec = next(p for p in chart.lists[0].periods if p.period == Period(2025, 12))
    got = [(t.name, t.ro, t.games, t.points, t.change, t.day) for t in dec.tournaments]
    assert got == [
        ("ŠK Lípa Brno Championship 2025", 1855, 5, Fraction(3), -4, dt.date(2025, 10, 22)),
        ("Weinviertel Open 2025", 1865, 5, Fraction(3), 14, dt.date(2025, 11, 21)),
    ]
    text = dec.describe(RatingList.STANDARD)
    assert text.startswith("standard 2025-12: 1875 (1865 +10, 10 games, 6 points)")
    assert "Weinviertel Open 2025 (2025-11-21 to 2025-11-23): 5 games, 3 points, change +14" in text


def test_projection_is_what_next_expects(chart: Chart) -> None:
    std, rapid, blitz = chart.lists
    assert std.projection is not None and rapid.projection is not None
    assert blitz.projection is not None
    assert (
        std.projection.period,
        std.projection.before,
        std.projection.expected,
        std.projection.since,
    ) == (Period(2026, 4), 1879, 1880, Period(2025, 9))
    assert (rapid.projection.period, rapid.projection.expected) == (Period(2026, 4), 1832)
    assert (blitz.projection.period, blitz.projection.expected) == (Period(2026, 1), 1781)
    assert std.projection.describe(RatingList.STANDARD) == (
        "standard: expected 1880 on the 2026-04 list (from the games since the 2025-09 list)"
    )


def test_start_from_an_elo_tag_is_drawn_at_the_list_before(history: PlayerHistory) -> None:
    """Without an official rapid rating the replay starts from his own Elo tag in his first
    rapid event (docs/walkthrough.md): drawn at the list before the first period."""
    from dataclasses import replace

    from tracker.reports.chart import chart_start

    rapid = history.replays[RatingList.RAPID]
    rows = tuple(r for r in rapid.rows if r.period != Period(2025, 9))
    # the same replay, without the recorded 2025-09 entry's start row: the first period
    # starts from the rating before it
    start = chart_start(replace(rapid, rows=rows))
    assert start is not None
    assert (start.day, start.rating) == (dt.date(2025, 11, 1), 1795)


def test_visible_escapes_controls() -> None:
    assert visible("a\x1b[2Jb\u202ec\nd") == "a\\x1b[2Jb\\u202ec\\x0ad"
    assert visible("Novák, Tomáš") == "Novák, Tomáš"


# --- the report ---------------------------------------------------------------------------


def _sections(page: str) -> dict[str, str]:
    return dict(re.findall(r'<section id="(\w+)".*?>(.*?)</section>', page, re.S))


def test_demo_writes_the_report(demo: Path, history: PlayerHistory) -> None:
    page = (demo / "season.html").read_text(encoding="utf-8")
    sections = _sections(page)
    assert list(sections) == ["standard", "rapid", "blitz"]
    for rl, body in sections.items():
        periods = [str(r.period) for r in history.replays[RatingList(rl)].rows]
        assert re.findall(r'<tr data-period="([\d-]+)"', body) == periods
        assert re.findall(rf'<details id="{rl}-([\d-]+)"', body) == periods
        # one point per period in the chart
        assert len(re.findall(r"<g id=\"[^\"]+\" data-period=", body)) == len(periods)


def test_report_content(demo: Path) -> None:
    page = (demo / "season.html").read_text(encoding="utf-8")
    std = _sections(page)["standard"]
    assert 'data-expected="1880"' in std and "2026-04 list" in std
    assert "Season 2025-10 to 2026-04 (standard): 27 rated games, 16 points" in std
    # explain 2025-12, a table per tournament
    dec = std.split('<details id="standard-2025-12"', 1)[1].split("</details>", 1)[0]
    assert "<h4>ŠK Lípa Brno Championship 2025 (2025-10-22 to 2025-11-19): Ro 1855" in dec
    assert (
        "<tr><td>Weinviertel Open 2025</td>" not in dec
        and "<td>Pölzl, Günther</td><td class=n>1788</td><td class=n>77</td>"
        "<td class=n>0.61</td><td class=n>1</td><td class=n>+0.39</td>"
        "<td class=n>+7.80</td>"
        in dec
    )
    assert "Rating after: 1865 +10 = 1875" in dec
    # 2025-11's game without moves: a table of the games not counted, under its heading
    nov = std.split('<details id="standard-2025-11"', 1)[1].split("</details>", 1)[0]
    left = nov.split("<h4>Games not counted: 1 (no-moves)</h4>", 1)[1]
    assert left.startswith('<div class="wide"><table>') and "no-moves" in left.split("</table>")[0]
    # the assumption of 2026-02 (a game without a time control) with its command
    assumptions = std.split('<details class="part assumptions" open>', 1)[1].split("</details>", 1)[
        0
    ]
    assert "games without a time control put on this list by assumption (2026-02)" in (assumptions)
    assert (
        "<code>tracker event list</code>, then <code>tracker event set ID --list LIST</code>"
        in (assumptions)
    )


def test_report_is_self_contained(demo: Path) -> None:
    page = (demo / "season.html").read_text(encoding="utf-8")
    assert page.startswith("<!DOCTYPE html>")
    assert "<script" not in page and "<link" not in page and "@import" not in page
    assert not re.search(r"""(src|href)=["']?(https?:)?//""", page)
    # the only URLs are XML namespaces, which nothing fetches
    assert set(re.findall(r"https?://[^\s\"'<>)]+", page)) == {
        "http://www.w3.org/2000/svg",
        "http://www.w3.org/1999/xlink",
    }


def test_report_assumed_k_is_listed(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Without the player's facts (walkthrough's rapid: K assumes 30+ rated games), the
    assumption and the command that records it are in the report."""
    db = str(tmp_path / "t.db")
    from tests.conftest import SAMPLES

    code, _, err = run_cli(
        capsys, monkeypatch, "import", str(SAMPLES), "--db", db, "--player", "99012345"
    )
    assert code == 0, err
    code, _, err = run_cli(
        capsys, monkeypatch, "report", "--list", "rapid", "-o", str(tmp_path / "r.html"), "--db", db
    )
    assert code == 0, err
    page = (tmp_path / "r.html").read_text(encoding="utf-8")
    assert list(_sections(page)) == ["rapid"]
    assert "K assumes 30+ rated games completed" in page
    assert "<code>tracker player set 99012345 --rated-games N</code>" in page or (
        "<code>tracker official add 99012345" in page
    )


HOSTILE_PLAYER = "<script>alert(1)</script> $x^2$ \x1b]0;owned\x07\u202eEvil, Eve"
HOSTILE_EVENT = '<img src=x onerror=alert(2)> Open $ & \x1b[2J "quoted"'


def _hostile_pgn() -> str:
    games = []
    for i, (opp, result) in enumerate(
        (("Smith, John", "1-0"), ("Doe, Jane", "1/2-1/2"), ("Roe, Rick", "0-1")), start=1
    ):
        games.append(
            f'[Event "{HOSTILE_EVENT}"]\n[Site "Brno"]\n[Date "2025.10.0{i + 2}"]\n'
            f'[Round "{i}"]\n[White "{HOSTILE_PLAYER}"]\n[Black "{opp}"]\n[Result "{result}"]\n'
            f'[WhiteElo "1850"]\n[BlackElo "18{i}0"]\n[TimeControl "5400+30"]\n\n'
            f"1. e4 e5 2. Nf3 Nc6 {result}\n"
        )
    return "\n".join(games)


def test_hostile_names_are_escaped(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    pgn = tmp_path / "hostile.pgn"
    pgn.write_text(_hostile_pgn(), encoding="utf-8")
    db = str(tmp_path / "h.db")
    code, _, err = run_cli(capsys, monkeypatch, "import", str(pgn), "--db", db)
    assert code == 0, err
    code, out, err = run_cli(capsys, monkeypatch, "players", "--format", "json", "--db", db)
    assert code == 0, err
    who = next(p["id"] for p in json.loads(out) if "Evil" in p["name"])
    code, _, err = run_cli(
        capsys,
        monkeypatch,
        "player",
        "set",
        str(who),
        "--me",
        "--birth-year",
        "1980",
        "--rated-games",
        "100",
        "--no-ever-2400",
        "--db",
        db,
    )
    assert code == 0, err
    for out in ("h.html", "h.svg", "h.png"):
        command = "report" if out.endswith("html") else "plot"
        code, _, err = run_cli(capsys, monkeypatch, command, "-o", str(tmp_path / out), "--db", db)
        assert code == 0, err
    for out in ("h.html", "h.svg"):
        text = (tmp_path / out).read_text(encoding="utf-8")
        assert "<script" not in text and "<img" not in text
        assert not re.search("[\x00-\x08\x0b\x0c\x0e-\x1f\x7f\u202e]", text)
        assert "\\x1b]0;owned\\x07" in text and "\\u202e" in text
    page = (tmp_path / "h.html").read_text(encoding="utf-8")
    assert "&lt;script&gt;alert(1)&lt;/script&gt;" in page
    assert "&lt;img src=x onerror=alert(2)&gt; Open $ &amp;" in page
    svg = (tmp_path / "h.svg").read_text(encoding="utf-8")
    assert "&lt;img src=x onerror=alert(2)&gt;" in svg  # the tournament's hover title
    import xml.dom.minidom

    xml.dom.minidom.parseString(svg.encode("utf-8"))  # still well-formed XML


def test_cli_refuses_the_database_and_an_existing_file(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(demo / "tracker-demo.db")
    before = Path(db).read_bytes()
    code, _, err = run_cli(capsys, monkeypatch, "report", "-o", db, "--db", db, "--force")
    assert code == 2 and "is the database" in err and err[-1] == "\n" and err.count("\n") == 1
    assert Path(db).read_bytes() == before
    target = tmp_path / "season.html"
    target.write_text("mine", encoding="utf-8")
    code, _, err = run_cli(capsys, monkeypatch, "report", "-o", str(target), "--db", db)
    assert code == 2 and "already exists" in err and "--force" in err
    assert target.read_text(encoding="utf-8") == "mine"
    code, out, err = run_cli(
        capsys, monkeypatch, "report", "-o", str(target), "--db", db, "--force"
    )
    assert code == 0, err
    assert out.strip() == f"wrote {target}"
    assert target.read_text(encoding="utf-8").startswith("<!DOCTYPE html>")


def test_cli_default_output_and_lists(
    demo: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    monkeypatch.chdir(tmp_path)
    db = str(demo / "tracker-demo.db")
    code, out, err = run_cli(
        capsys, monkeypatch, "report", "--list", "blitz", "-l", "rapid", "--db", db
    )
    assert code == 0, err
    page = (tmp_path / "season.html").read_text(encoding="utf-8")
    assert list(_sections(page)) == ["rapid", "blitz"]  # standard first, then by list
    code, _, err = run_cli(
        capsys, monkeypatch, "report", "--list", "bullet", "-o", "x.html", "--db", db
    )
    assert code == 2 and err.startswith("error:")
    code, _, err = run_cli(
        capsys, monkeypatch, "report", "Nobody At All", "-o", "y.html", "--db", db
    )
    assert code == 2 and err.startswith("error:") and not (tmp_path / "y.html").exists()


# --- a long career reads at a glance (issue 28) ----------------------------------------------


def _part(page: str, cls: str) -> tuple[bool, str]:
    """The <details class="part CLS"> of a page: whether it is open, and its body."""
    found = re.search(rf'<details class="part {cls}"( open)?><summary>(.*?)</summary>', page)
    assert found is not None, cls
    return found.group(1) is not None, found.group(2)


def test_a_short_season_shows_its_detail_open(demo: Path) -> None:
    std = _sections((demo / "season.html").read_text(encoding="utf-8"))["standard"]
    for part in ("history", "assumptions", "periods"):
        assert _part(std, part)[0], part
    assert (
        _part(std, "history")[1] == 'History <span class="muted">(7 periods, 2025-09 to '
        "2026-04)</span>"
    )
    # the games since the last official list: six periods, listed
    assert "<p>Games since the last official standard list" in std


@pytest.fixture(scope="module")
def long_page(tmp_path_factory: pytest.TempPathFactory) -> str:
    from tests.builders import long_career
    from tracker.reports.season import season_report

    db = long_career(tmp_path_factory.mktemp("long") / "long.db")
    with open_store(str(db)) as store:
        history = load_history(store, resolve_player(store, None))
    return season_report(history)


def test_a_long_career_folds_its_detail(long_page: str) -> None:
    """144 periods, 1152 games: the headline, the chart and the next list in view, the rest
    in closed <details> with a summary line."""
    std = _sections(long_page)["standard"]
    assert "1152 rated games" in std.split("<figure", 1)[0]  # the headline, first
    parts = {cls: _part(std, cls) for cls in ("since", "history", "periods")}
    assert not any(is_open for is_open, _ in parts.values())
    assert (
        parts["history"][1] == 'History <span class="muted">(145 periods, 2013-01 to '
        "2025-01)</span>"
    )
    assert "144 periods, 2013-02 to 2025-01, 1152 games" in parts["since"][1]
    assert len(re.findall(r'<details id="standard-[\d-]+" class="period">', std)) == 145
    # nothing but the detail is folded: the chart and the next list are outside any details
    outside = re.sub(r"<details.*</details>", "", std, flags=re.S)
    assert '<figure class="chart">' in outside and 'data-expected="1943"' in outside
    text = re.sub(r"<figure.*</figure>", "", outside, flags=re.S)  # the chart's hovers
    assert "<table" not in text and "<li>" not in text and "Club Open" not in text


def test_commands_show_as_code_never_in_backticks(demo: Path, long_page: str) -> None:
    """The sentences of the terminal name commands in backticks; the page shows them as code
    (issue 38: no raw backtick on a page)."""
    page = (demo / "season.html").read_text(encoding="utf-8")
    assert "<code>tracker event set ID --list LIST</code>" in page
    for text in (page, long_page):
        assert "`" not in text
