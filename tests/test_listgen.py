"""tests.listgen: deterministic, realistic lists in FIDE's published layouts."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests import listgen
from tests.conftest import SPEC, need_shared
from tests.listgen import Figures, Player
from tracker.model import Period, RatingList

# The headers exactly as shared/spec/fide-list-formats.md prints them (month JAN23).
SINGLE_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA JAN23 Gms K  B-day Flag"
)
COMBINED_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)


def test_headers_are_the_published_ones() -> None:
    assert listgen.txt_header(Period(2023, 1), combined=False) == SINGLE_HEADER
    assert listgen.txt_header(Period(2023, 1), combined=True) == COMBINED_HEADER


def test_deterministic_for_a_seed() -> None:
    a = list(listgen.players(200, seed=3))
    assert a == list(listgen.players(200, seed=3))
    assert a != list(listgen.players(200, seed=4))
    ids = [p.fide_id for p in a]
    assert ids == sorted(set(ids))


def test_realistic_variety() -> None:
    people = list(listgen.players(2_000, seed=1))
    assert any(not p.name.isascii() for p in people)
    assert any(p.standard.rating is None for p in people)
    assert any(p.rapid.rating is None and p.standard.rating is not None for p in people)
    assert {p.flag for p in people} == {"", "i", "w", "wi"}
    titles = {p.title for p in people}
    assert {"GM", "IM", "FM"} <= titles and any(t.startswith("W") for t in titles)
    assert any(p.women_title for p in people) and any(p.other_titles for p in people)
    assert any(p.foa_title for p in people) and any(p.birth_year is None for p in people)
    assert {p.standard.k for p in people} >= {10, 20, 40}
    for p in people:
        for f in (p.standard, p.rapid, p.blitz):
            assert f.rating is None or 1001 <= f.rating <= 2850


def test_txt_columns_sit_where_the_spec_says() -> None:
    for p in listgen.players(300, seed=2):
        line = listgen.txt_line(p, tuple(RatingList)).ljust(170)
        assert line[0:15].strip() == str(p.fide_id)
        assert line[15:76].strip() == p.name[:60].strip()
        assert line[76:80].strip() == p.federation and line[80:84].strip() == p.sex
        assert line[84:89].strip() == p.title and line[89:94].strip() == p.women_title
        assert line[126:132].strip() == ("" if p.rapid.rating is None else str(p.rapid.rating))
        assert line[139:145].strip() == ("" if p.blitz.rating is None else str(p.blitz.rating))
        assert line[152:158].strip() == ("" if p.birth_year is None else str(p.birth_year))
        assert line[158:].strip() == p.flag


def test_latin1_names_only_when_asked(tmp_path: Path) -> None:
    path = listgen.generate(tmp_path / "l.txt", 500, "txt", encoding="latin-1")
    text = path.read_bytes().decode("latin-1")
    assert "ü" in text or "é" in text or "ó" in text


@pytest.mark.slow  # tracker in a subprocess
@pytest.mark.parametrize("fmt", listgen.FORMATS)
def test_command_line(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "players_list.zip"
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.listgen",
            "--players",
            "25",
            "--format",
            fmt,
            "--zip",
            "-o",
            str(out),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(out) as zf:
        (member,) = zf.namelist()
        assert member == "players_list" + (".xml" if "xml" in fmt else ".txt")
        body = zf.read(member).decode("utf-8")
    assert body.count("<player>") == 25 or len(body.strip("\n").splitlines()) == 26


@pytest.mark.slow  # tracker in a subprocess
def test_command_line_errors(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            "-m",
            "tests.listgen",
            "--players",
            "5",
            "--format",
            "txt",
            "--period",
            "2025-13",
            "-o",
            str(tmp_path / "x.txt"),
        ],
        capture_output=True,
        text=True,
        check=False,
    )
    assert done.returncode == 2
    assert done.stderr.strip() == "error: period '2025-13': month must be 01 to 12"


# --- the older layouts, against the verbatim files of FIDE's archive ----------------------

NONE = Figures(None, None, None)


def _sample(name: str) -> list[str]:
    need_shared()
    return (SPEC / "fide-list-samples" / name).read_text(encoding="latin-1").split("\n")


def _player(
    fide_id: int,
    name: str,
    fed: str,
    std: Figures = NONE,
    rapid: Figures = NONE,
    blitz: Figures = NONE,
    *,
    title: str = "",
    sex: str = "",
    birth: int | None = None,
    flag: str = "",
) -> Player:
    return Player(fide_id, name, fed, sex, title, "", "", "", std, rapid, blitz, birth, flag)


def test_old_headers_are_the_published_ones() -> None:
    assert listgen.quarterly_header(Period(2004, 4), births=True) == _sample("APR04FRL.TXT")[0]
    assert listgen.header_2009(Period(2011, 3)) == _sample("standard_mar11frl.txt")[0]
    assert (
        listgen.txt_header(Period(2012, 9), combined=False, foa=False)
        == _sample("rapid_sep12frl.txt")[0]
    )
    assert (
        listgen.txt_header(Period(2015, 1), combined=True, foa=False)
        == _sample("players_list_2015.txt")[0]
    )


def test_old_rows_are_the_published_ones() -> None:
    """Rows of the samples, written again from their values, byte for byte."""
    mar11 = _sample("standard_mar11frl.txt")
    assert (
        listgen.old_line(
            _player(
                4158814, "Andreikin, Dmitry", "RUS", Figures(2686, 9, None), title="GM", birth=1990
            ),
            "txt-2009",
        )
        == mar11[1]
    )
    assert (
        listgen.old_line(
            _player(5031605, "A, Akshaya", "IND", Figures(2019, 32, None), birth=1994, flag="w"),
            "txt-2009",
        )
        == mar11[10]
    )
    assert (
        listgen.old_line(
            _player(10207538, "A E M, Doshtagir", "BAN", Figures(1864, 0, None)), "txt-2009"
        )
        == mar11[4]
    )
    apr04 = _sample("APR04FRL.TXT")
    aagaard = _player(
        1401815, "Aagaard, Jacob", "DEN", Figures(2400, 0, None), title="IM", birth=1973
    )
    line = listgen.old_line(aagaard, "txt-2003")
    assert len(line) == len(apr04[3])
    assert line[:64] == apr04[3][:64] and line[72:] == apr04[3][72:]  # the made-up day/month
    sep12 = _sample("rapid_sep12frl.txt")
    assert (
        listgen.txt_line(
            _player(
                25014510,
                "Aakanksha Hagawane",
                "IND",
                rapid=Figures(1629, 0, 20),
                sex="F",
                birth=2000,
                flag="w",
            ),
            (RatingList.RAPID,),
            foa=False,
        )
        == sep12[2]
    )
    p2015 = _sample("players_list_2015.txt")
    assert (
        listgen.txt_line(
            _player(
                10207538,
                "A E M, Doshtagir",
                "BAN",
                Figures(1840, 0, 40),
                Figures(1836, 0, 20),
                Figures(1860, 0, 20),
                sex="M",
                birth=1974,
            ),
            tuple(RatingList),
            foa=False,
        )
        == p2015[5]
    )
    assert (
        listgen.txt_line(
            _player(
                8605360,
                "A La, Teng Hua",
                "CHN",
                Figures(1915, 0, 40),
                sex="F",
                birth=1993,
                flag="wi",
            ),
            tuple(RatingList),
            foa=False,
        )
        == p2015[7]
    )
    assert (
        listgen.txt_line(
            _player(5716365, "A Hamid, Harman", "MAS", rapid=Figures(1593, 0, 20), sex="M"),
            tuple(RatingList),
            foa=False,
        )
        == p2015[6]
    )
