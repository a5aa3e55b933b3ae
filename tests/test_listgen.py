"""tracker.listgen: deterministic, realistic lists in FIDE's published layouts."""

from __future__ import annotations

import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tracker import listgen
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


@pytest.mark.parametrize("fmt", listgen.FORMATS)
def test_command_line(tmp_path: Path, fmt: str) -> None:
    out = tmp_path / "players_list.zip"
    done = subprocess.run(
        [sys.executable, "-m", "tracker.listgen", "--players", "25", "--format", fmt, "--zip",
         "-o", str(out)], capture_output=True, text=True, check=False)
    assert done.returncode == 0, done.stderr
    with zipfile.ZipFile(out) as zf:
        (member,) = zf.namelist()
        assert member == "players_list" + (".xml" if fmt.endswith("xml") else ".txt")
        body = zf.read(member).decode("utf-8")
    assert body.count("<player>") == 25 or len(body.splitlines()) == 26


def test_command_line_errors(tmp_path: Path) -> None:
    done = subprocess.run(
        [sys.executable, "-m", "tracker.listgen", "--players", "5", "--format", "txt",
         "--period", "2025-13", "-o", str(tmp_path / "x.txt")],
        capture_output=True, text=True, check=False)
    assert done.returncode == 2
    assert done.stderr.strip() == "error: period '2025-13': month must be 01 to 12"
