"""Lines that tell the truth (issue 37, item 3), on real files: the TWIC issue 920
(../shared/corpus/twic0920.pgn.xz, June 2012) and FIDE's list samples
(../shared/spec/fide-list-samples/).

Each line said something false or unhelpful before: a list imported that no game uses was
called "no FIDE list imported"; a check that compared nothing was counted as checked; a
player without games was told to set a tournament's Ro; a re-anchor went unnamed; target
said the games completed twice and without signs.
"""

from __future__ import annotations

import itertools
import re
from decimal import Decimal
from pathlib import Path

import pytest

from tests.conftest import CORPUS, REPO, SPEC, need_shared, run_cli
from tests.listgen import Figures, Player, write_list
from tracker.model import Period

TWIC = CORPUS / "twic0920.pgn.xz"
SAMPLES = SPEC / "fide-list-samples"
# Petrosian,DG (FIDE ID 13301349 in the tags) plays two tournaments of TWIC 920: the 14th
# Dubai Open from 2012-04-15 and the 5th Karen Asrian Memorial from 2012-06-16.
PLAYER = "Petrosian,DG"


def _flat(text: str) -> str:
    """The output with its lines joined (a long line may be wrapped to the terminal)."""
    return " ".join(text.split())


@pytest.fixture
def twic_db(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    need_shared()
    db = str(tmp_path / "t.db")
    code, _, err = run_cli(capsys, monkeypatch, "import", str(TWIC), "--player", PLAYER, "--db", db)
    assert code == 0, err
    return db


def test_history_says_an_imported_list_is_in_force_for_none_of_the_games(
    twic_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The March 2011 list is imported; the games are of April and June 2012. In the
    bi-monthly era (2009-2012: lists in January, March, May, July, September, November)
    the list in force on 2012-04-15 is March 2012's, on 2012-06-16 May 2012's (spec
    section 1, rule 2: the ratings of the list in force at the tournament's start)."""
    code, _, err = run_cli(
        capsys,
        monkeypatch,
        "official",
        "import",
        str(SAMPLES / "standard_mar11frl.txt"),
        "--db",
        twic_db,
    )
    assert code == 0, err
    code, out, err = run_cli(capsys, monkeypatch, "history", "--db", twic_db)
    assert code == 0, err
    text = _flat(out)
    assert "no FIDE list imported" not in text
    assert (
        "Opponents' ratings: Elo tags (no standard list imported is in force for these "
        "games: imported 2011-03; in force 2012-03, 2012-05: tracker official fetch)"
    ) in text


def test_history_says_the_list_in_force_names_none_of_the_opponents(
    twic_db: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """An excerpt of the May 2012 list (in force for the Asrian Memorial of 2012-06-16) that
    holds only Andreikin, who plays the Russian championship: it rates none of Petrosian's
    opponents, who keep their tags."""
    figures = Figures(2686, 9, 10)
    empty = Figures(None, None, None)
    andreikin = Player(
        4158814, "Andreikin, Dmitry", "RUS", "M", "GM", "", "", "", figures, empty, empty, 1990, ""
    )
    listed = tmp_path / "standard_may12frl.txt"
    with listed.open("w", encoding="utf-8", newline="\n") as stream:
        write_list(stream, [andreikin], "txt-2009", period=Period(2012, 5))
    code, _, err = run_cli(capsys, monkeypatch, "official", "import", str(listed), "--db", twic_db)
    assert code == 0, err
    code, out, err = run_cli(capsys, monkeypatch, "history", "--db", twic_db)
    assert code == 0, err
    assert (
        "Opponents' ratings: Elo tags (the imported standard list in force for these games "
        "(2012-05) names none of the opponents)"
    ) in _flat(out)


def test_history_without_any_list_still_says_none_is_imported(
    twic_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, out, err = run_cli(capsys, monkeypatch, "history", "--db", twic_db)
    assert code == 0, err
    assert "Opponents' ratings: Elo tags (no FIDE list imported: tracker official import)" in _flat(
        out
    )


def _official_import(
    db: str, name: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    code, _, err = run_cli(
        capsys, monkeypatch, "official", "import", str(SAMPLES / name), "--db", db
    )
    assert code == 0, err


def test_check_all_says_nothing_was_compared_and_why(
    twic_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The March 2011 sample rates Andreikin, who plays the Russian championship of TWIC 920:
    his only official rating is the one his replay starts from, so nothing is compared."""
    _official_import(twic_db, "standard_mar11frl.txt", capsys, monkeypatch)
    code, out, err = run_cli(capsys, monkeypatch, "check", "--all", "--db", twic_db)
    assert code == 0, err
    text = _flat(out)
    assert "checked, 0 with differences" not in text
    assert (
        "Nothing compared: Andreikin,D has no official standard rating besides the 2011-03 "
        "one the replay starts from; record later ones with `tracker official add` or "
        "`tracker official import`."
    ) in text
    # a later official rating: one player-list compared, and it differs
    code, _, err = run_cli(
        capsys,
        monkeypatch,
        *("official", "add", "Andreikin,D", "--period", "2011-05", "--rating", "2700"),
        *("--games", "5", "--db", twic_db),
    )
    assert code == 0, err
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        *("official", "add", PLAYER, "--period", "2012-03", "--rating", "2463", "--db", twic_db),
    )
    assert code == 0, err
    code, out, _ = run_cli(capsys, monkeypatch, "check", "--all", "--db", twic_db)
    assert code == 1
    assert (
        "1 player-list checked, 1 with differences; 1 more compared nothing (only the "
        "official rating its replay starts from)"
    ) in _flat(out)


def test_check_of_a_period_without_games_advises_importing_them(
    twic_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """FIDE rated 5 games of Andreikin's on the May 2011 list; the database holds none of
    that list: there is no tournament whose Ro could be set, the games are missing."""
    _official_import(twic_db, "standard_mar11frl.txt", capsys, monkeypatch)
    code, _, err = run_cli(
        capsys,
        monkeypatch,
        *("official", "add", "Andreikin,D", "--period", "2011-05", "--rating", "2700"),
        *("--games", "5", "--db", twic_db),
    )
    assert code == 0, err
    code, out, _ = run_cli(capsys, monkeypatch, "check", "Andreikin,D", "--db", twic_db)
    assert code == 1
    text = _flat(out)
    assert "--ro" not in text
    assert (
        "no single cause reproduces the official 2700: no tournament of yours in the database "
        "is rated on the 2011-05 list; import the games FIDE rated on it (`tracker import FILE`)"
    ) in text


# --- next: every jump between two lists is named ------------------------------------------

IVANCHUK = CORPUS / "pgnmentor-Ivanchuk.pgn.xz"
_PERIOD_LINE = re.compile(r"^  (\d{4}-\d\d): (\d+|unrated) -> (\d+|unrated)\b(.*)$")


def test_next_names_the_reanchor_between_two_lists(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Ivanchuk's TCh-HUN 2019-20 game of 2020-02-16 carries his Elo tag 2679, the rating of
    the February 2020 list he played under; that list rated no game of his, and the March
    2020 list starts from 2679. Each list line starts where the line above it ended, or a
    line in between says where the new start came from."""
    need_shared()
    db = str(tmp_path / "iv.db")
    code, _, err = run_cli(
        capsys, monkeypatch, "import", str(IVANCHUK), "--player", "Ivanchuk,V", "--db", db
    )
    assert code == 0, err
    code, out, err = run_cli(capsys, monkeypatch, "next", "--db", db)
    assert code == 0, err
    lines = [m.groups() for line in out.splitlines() if (m := _PERIOD_LINE.match(line))]
    assert len(lines) >= 3
    for (_, _, after, _), (period, before, _, _) in itertools.pairwise(lines):
        assert before == after, (period, out)
    anchor = [x for x in lines if x[0] == "2020-02"]
    assert anchor and anchor[0][2] == "2679"
    assert "re-anchored on the player's Elo tag 2679 in TCh-HUN 2019-20" in anchor[0][3]
    assert [x[1] for x in lines if x[0] == "2020-03"] == ["2679"]


# --- target ---------------------------------------------------------------------------------

SHURAKOV = "Shurakov,D"  # 2257 in the tags of the 16th Voronezh Master Open (June 2012)
_STEP = re.compile(r"^\s*(\d+(?:\.5)?)/9\s+(\S+)\s+(\d+)")


def test_target_signs_the_period_change(
    twic_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The period-change column is signed like every change the tracker prints: a score
    below the expected one loses (-), above it gains (+)."""
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        *("target", "2300", SHURAKOV, "--opponents", "2250", "--games", "9"),
        *("--start", "2012-06-25", "--db", twic_db),
    )
    assert code == 0, err
    steps = [m.groups() for line in out.splitlines() if (m := _STEP.match(line))]
    assert len(steps) == 19
    changes = [change for _, change, _ in steps]
    assert changes[0].startswith("-") and changes[-1].startswith("+")
    for change in changes:
        assert change[0] in "+-" or change == "0.00", changes
        assert change[0] != "+" or Decimal(change) > 0
    # the change rises with the score, so the ratings do too
    assert [Decimal(c) for c in changes] == sorted(Decimal(c) for c in changes)


def test_target_says_the_games_completed_once(
    twic_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Shurakov's replay starts from his Elo tag: the games he completed before it are
    unknown, 30 assumed (policy GAMES_COMPLETED_WHEN_UNKNOWN). K's reason says so once,
    with the command that records the count, not a count beside a "K assumes 30+"."""
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        *("target", "2300", SHURAKOV, "--opponents", "2250", "--games", "9"),
        *("--start", "2012-06-25", "--db", twic_db),
    )
    assert code == 0, err
    text = _flat(out)
    assert "K assumes 30+ rated games completed" not in text
    assert text.count("games completed") == 1
    assert (
        "K 15 (30 rated games completed, assumed (the count before the replay's start is "
        "unknown: `tracker player set 4149734 --rated-games N` records it), under 2400; "
        "assumed, below)."
    ) in text
    assert "K assumes never rated 2400+ on this list" in text


@pytest.fixture
def season_db(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> str:
    """The sample season (sample_pgns/), Novák tracked, none of his facts recorded."""
    db = str(tmp_path / "season.db")
    code, _, err = run_cli(capsys, monkeypatch, "import", str(REPO / "sample_pgns"), "--db", db)
    assert code == 0, err
    code, _, err = run_cli(capsys, monkeypatch, "player", "set", "99012345", "--me", "--db", db)
    assert code == 0, err
    return db


def _target(
    db: str, games: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[int, str, str]:
    return run_cli(
        capsys,
        monkeypatch,
        *("target", "1900", "--opponents", "1850", "--games", games),
        *("--start", "2026-03-13", "--period", "2026-04", "--db", db),
    )


def test_target_splits_the_games_completed_into_counted_and_assumed(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Novák's replay starts from his Elo tag of September 2025 and rates 5 + 5 + 10 + 1 + 5
    = 26 games up to the March 2026 list: 56 completed, 30 of them assumed."""
    code, out, err = _target(season_db, "5", capsys, monkeypatch)
    assert code == 0, err
    text = _flat(out)
    assert "K assumes 30+ rated games completed" not in text
    assert (
        "K 20 (56 rated games completed: 26 since the replay's start and 30 assumed before it "
        "(`tracker player set 99012345 --rated-games N` records the real count), under 2400; "
        "assumed, below)."
    ) in text


def test_target_says_until_when_a_junior_has_k_40(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Born 2008: K 40 to the end of the year of the 18th birthday (Handbook B02, spec
    section 3 rule 2), 2026. With 20 games more the period holds 21: 21 x 40 > 700, K the
    largest whole number with K x 21 <= 700, 33."""
    code, _, err = run_cli(
        capsys, monkeypatch, "player", "set", "99012345", "--birth-year", "2008", "--db", season_db
    )
    assert code == 0, err
    code, out, err = _target(season_db, "5", capsys, monkeypatch)
    assert code == 0, err
    assert "K 40 (junior, born 2008, under 2300: K 40 until the end of 2026)." in _flat(out)
    code, out, err = _target(season_db, "20", capsys, monkeypatch)
    assert code == 0, err
    assert (
        "K 33 (junior, born 2008, under 2300: K 40 until the end of 2026; 700 rule: 21 games "
        "x 40 > 700 -> 33)."
    ) in _flat(out)


def _steps(out: str, games: int) -> list[tuple[str, Decimal]]:
    step = re.compile(rf"^\s*(\d+(?:\.5)?)/{games}\s+(\S+)\s+\d+")
    return [(m[1], Decimal(m[2])) for line in out.splitlines() if (m := step.match(line))]


def test_target_k_is_a_what_if(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The period's change is K x the sum of (score - expected) over all its games (spec
    section 1, rule 5): given K 40 instead of the K 20 the replay derives, every score's
    change doubles exactly; K 10 halves it."""
    code, out, err = _target(season_db, "5", capsys, monkeypatch)
    assert code == 0, err
    k20 = _steps(out, 5)
    assert len(k20) == 11 and "K 20 (" in out
    for k, factor in (("40", Decimal(2)), ("10", Decimal("0.5"))):
        code, out, err = run_cli(
            capsys,
            monkeypatch,
            *("target", "1900", "--opponents", "1850", "--games", "5", "--k", k),
            *("--start", "2026-03-13", "--period", "2026-04", "--db", season_db),
        )
        assert code == 0, err
        assert f"K {k} (what if: K {k} given with --k)." in _flat(out)
        assert "K assumes" not in out  # a K given rests on no fact
        assert _steps(out, 5) == [(p, c * factor) for p, c in k20]


def test_target_k_given_is_cut_by_the_700_rule(
    season_db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """K 40 given over 1 + 20 games: 21 x 40 > 700, K 33 (the largest with K x 21 <= 700)."""
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        *("target", "1900", "--opponents", "1850", "--games", "20", "--k", "40"),
        *("--start", "2026-03-13", "--period", "2026-04", "--db", season_db),
    )
    assert code == 0, err
    assert "K 33 (what if: K 40 given with --k; 700 rule: 21 games x 40 > 700 -> 33)." in _flat(out)


@pytest.mark.parametrize(
    ("rating_list", "period", "k", "known"),
    [
        ("standard", "2026-04", "15", "10, 20 or 40"),  # K 40/20/10 from Jul 2014
        ("standard", "2026-04", "0", "10, 20 or 40"),
        ("standard", "2026-04", "-20", "10, 20 or 40"),
        ("rapid", "2020-05", "40", "20"),  # rapid before Oct 2022: K 20 for everyone
    ],
)
def test_target_k_takes_only_a_k_the_rules_know(
    season_db: str,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    rating_list: str,
    period: str,
    k: str,
    known: str,
) -> None:
    code, out, err = run_cli(
        capsys,
        monkeypatch,
        *("target", "1900", "--opponents", "1850", "--games", "5", f"--k={k}"),
        *("--list", rating_list, "--period", period, "--db", season_db),
    )
    assert code == 2 and out == ""
    assert err == (
        f"error: --k {k} is not a K of the {rating_list} rules for the {period} list: "
        f"give {known}\n"
    )
