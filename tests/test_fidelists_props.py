"""Invariant: whatever a player's fields, writing them in any published layout and reading
the file back gives the same values (Hypothesis)."""

from __future__ import annotations

import io
import os
import tempfile
import zipfile
from pathlib import Path

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from tests import listgen
from tests.conftest import run_captured
from tests.listgen import Figures, Player
from tracker.lists import MIN_AGE, open_list
from tracker.model import Period, RatingList

pytestmark = pytest.mark.slow  # fuzzing: Hypothesis over list files of every layout

name_part = (
    st.text(
        alphabet=st.characters(
            codec="utf-8",
            categories=("L", "M", "Nd", "Zs", "P", "S"),
            exclude_characters="\x85\xa0\u1680\u2028\u2029",
        ),
        min_size=1,
        max_size=25,
    )
    .map(lambda t: " ".join(t.split()))
    .filter(bool)
)
figures = st.one_of(
    st.just(Figures(None, None, None)),
    st.builds(
        Figures,
        st.integers(1, 3999),
        st.one_of(st.none(), st.integers(0, 999)),
        st.one_of(st.none(), st.sampled_from([10, 15, 20, 30, 40])),
    ),
)
players = st.builds(
    Player,
    fide_id=st.integers(1, 10**9),
    name=st.builds(lambda a, b: f"{a}, {b}", name_part, name_part).map(lambda n: n[:60].strip()),
    federation=st.sampled_from(["GER", "FID", "", "ISL"]),
    sex=st.sampled_from(["M", "F", ""]),
    title=st.sampled_from(["", "GM", "WFM", "CM"]),
    women_title=st.sampled_from(["", "WGM"]),
    other_titles=st.sampled_from(["", "IA", "IA,FT", "DI,FST"]),
    foa_title=st.sampled_from(["", "AIM"]),
    standard=figures,
    rapid=figures,
    blitz=figures,
    birth_year=st.one_of(st.none(), st.integers(1900, 2020)),
    flag=st.sampled_from(["", "i", "w", "wi"]),
)


def _ending_in(title: str) -> Player:
    """The player Hypothesis found: a name whose last word is a title code (`m`) under the
    quarterly lists' TITLE (at 39; their codes stand at 44), once read back without it."""
    none = Figures(None, None, None)
    name = "00000000, 000000000000000000 m"
    return Player(1, name, "GER", "M", title, "", "", "", none, none, none, None, "")


@settings(max_examples=40, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(st.lists(players, min_size=1, max_size=8), st.sampled_from(listgen.FORMATS))
@example([_ending_in("")], "txt-2003")
@example([_ending_in("GM")], "txt-2001")
def test_write_then_read_is_identity(people: list[Player], fmt: str) -> None:
    people = [p for p in people if p.name[: listgen.QUARTERLY_NAME].strip(", ")]
    if fmt in ("txt-2001", "txt-2003", "txt-2009"):  # IDs had at most 8 digits then
        people = [p for p in people if p.fide_id < 10**8]
    if fmt == "txt-2003":  # dd.mm.yy: a century is read back within its 100-year window
        people = [
            p
            for p in people
            if p.birth_year is None or 2024 - 99 - MIN_AGE <= p.birth_year <= 2024 - MIN_AGE
        ]
    if not people:
        return
    with tempfile.TemporaryDirectory() as tmp:
        path = Path(tmp) / ("blitz_jan24frl" + (".xml" if fmt.endswith("xml") else ".txt"))
        with path.open("w", encoding="utf-8", newline="\n") as out:
            listgen.write_list(
                out, people, fmt, rating_list=RatingList.BLITZ, period=Period(2024, 1)
            )
        with open_list(path) as lst:
            rows = list(lst)
            assert lst.problems == []
    lists = tuple(RatingList) if fmt.startswith("combined") else (RatingList.BLITZ,)
    assert len(rows) == len(people)
    for row, p in zip(rows, [listgen.published(p, fmt) for p in people], strict=True):
        assert row.fide_id == p.fide_id
        assert row.name == " ".join(p.name.split())
        assert (row.federation or "", row.sex or "", row.title or "") == (
            p.federation,
            p.sex,
            p.title,
        )
        assert (row.women_title or "", row.other_titles or "", row.foa_title or "") == (
            p.women_title,
            p.other_titles,
            p.foa_title,
        )
        assert row.birth_year == p.birth_year and (row.flag or "") == p.flag
        for f in row.ratings:
            want = p.figures(f.list)
            assert f.list in lists
            assert (f.rating, f.k) == (want.rating, want.k)
            # "0" stands for empty in some XML files: games 0 may come back for None
            assert f.games == want.games or (want.games is None and f.games in (0, None))


# --- damaged files of every layout: one line, exit 2, nothing written ----------------------

_BASE_DB: dict[str, bytes] = {}


def _import(db: Path, path: Path) -> tuple[int, str, str]:
    return run_captured(
        "official", "import", str(path), "--all", "--period", "2024-01", "--db", str(db)
    )


@st.composite
def damaged(draw: st.DrawFn) -> tuple[str, str, bytes, bool]:
    fmt = draw(st.sampled_from(listgen.FORMATS))
    people = list(
        listgen.players(
            draw(st.integers(1, 15)), seed=draw(st.integers(1, 30)), period=Period(2024, 1)
        )
    )
    text = io.StringIO()
    listgen.write_list(text, people, fmt, rating_list=RatingList.BLITZ, period=Period(2024, 1))
    data = bytearray(text.getvalue().encode(draw(st.sampled_from(["utf-8", "latin-1"])), "replace"))
    for _ in range(draw(st.integers(1, 3))):
        pos = draw(st.integers(0, len(data)))
        kind = draw(st.sampled_from(["truncate", "insert", "delete", "flip", "long"]))
        if kind == "truncate":
            del data[pos:]
        elif kind == "insert":
            data[pos:pos] = draw(
                st.sampled_from(
                    [
                        b"\x00",
                        b"\n",
                        b"\r",
                        b"<",
                        b"&",
                        b"<!DOCTYPE x>",
                        b"\xff",
                        b"9" * 12,
                        b" " * 30,
                        b"</player>",
                        b"<player>",
                        b"ID Number",
                        b"\n\n\n",
                    ]
                )
            )
        elif kind == "delete":
            del data[pos : pos + draw(st.integers(1, 60))]
        elif kind == "flip":
            if pos < len(data):
                data[pos] = draw(st.integers(0, 255))
        else:
            data[pos:pos] = b"x" * draw(st.sampled_from([1_100, 5_000]))
    zipped = draw(st.booleans())
    return fmt, f"blitz_jan24frl{'.xml' if 'xml' in fmt else '.txt'}", bytes(data), zipped


@settings(
    max_examples=int(os.environ.get("TRACKER_FUZZ_EXAMPLES", "40")),
    deadline=None,
    suppress_health_check=[HealthCheck.too_slow, HealthCheck.data_too_large],
)
@given(damaged())
def test_damaged_files_of_every_layout(case: tuple[str, str, bytes, bool]) -> None:
    """Whatever the damage: exit 0 (the damage left a readable list; malformed rows are
    warnings) or exit 2 with exactly one line naming the file, and then nothing written;
    never a traceback."""
    from tests.conftest import dump_db
    from tracker.store import open_store

    _fmt, name, data, zipped = case
    with tempfile.TemporaryDirectory() as tmp:
        folder = Path(tmp)
        db = folder / "t.db"
        if not _BASE_DB:
            open_store(str(db)).close()
            _BASE_DB["db"] = db.read_bytes()
        db.write_bytes(_BASE_DB["db"])
        path = folder / name
        if zipped:
            path = path.with_suffix(".zip")
            with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED) as zf:
                zf.writestr(name, data)
        else:
            path.write_bytes(data)
        before = dump_db(db)
        code, out, err = _import(db, path)
        assert "Traceback" not in out + err and "internal error" not in err, err
        assert code in (0, 2), (code, err)
        if code == 2:
            assert err.count("\n") == 1 and err.startswith(f"error: {path}"), err
            assert out == ""
            assert dump_db(db) == before
        else:
            assert all(line.startswith("warning: ") for line in err.splitlines()), err
