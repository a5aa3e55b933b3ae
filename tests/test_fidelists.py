"""tracker.fidelists: FIDE's TXT and XML lists, plain and zipped, and every way they go wrong.

The hand-written lines below follow the column table of shared/spec/fide-list-formats.md
(0-based, end exclusive): ID 0-15, name 15-76, Fed 76-80, Sex 80-84, Tit 84-89, WTit 89-94,
OTit 94-109, FOA 109-113, rating 113-119, Gms 119-123, K 123-126, B-day 126-132, Flag 132-
(combined: S 113/119/123, R 126/132/136, B 139/145/149, B-day 152-158, Flag 158-).
"""

from __future__ import annotations

import time
import zipfile
from pathlib import Path

import pytest

from tracker import listgen
from tracker.errors import BadInput, NotFound
from tracker.fidelists import (
    ListRow,
    open_list,
    period_from_header,
    period_from_name,
)
from tracker.model import Period, RatingList

# The headers exactly as the spec prints them.
SINGLE_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA JAN23 Gms K  B-day Flag"
)
COMBINED_HEADER = (
    "ID Number      Name                                                         Fed Sex Tit  "
    "WTit OTit           FOA SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
)


def fixed(*fields: tuple[int, str]) -> str:
    """A line with each text placed at its 0-based start column."""
    line = ""
    for start, text in fields:
        line = line.ljust(start) + text
    return line


SINGLE_LINE = fixed((0, "1503014"), (15, "Carlsen, Magnus"), (76, "NOR"), (80, "M"),
                    (84, "GM"), (109, ""), (113, "2831"), (119, "9"), (123, "10"),
                    (126, "1990"))
SINGLE_LINE_WOMAN = fixed((0, "8602980"), (15, "Hou, Yifan"), (76, "CHN"), (80, "F"),
                          (84, "GM"), (89, "WGM"), (94, "IA,FT"), (109, "AGM"),
                          (113, "2633"), (119, "0"), (123, "10"), (126, "1994"), (132, "wi"))
SINGLE_LINE_UNRATED = fixed((0, "45000001"), (15, "Núñez, José"), (76, "ESP"), (80, "M"),
                            (126, "2011"))


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def rows_of(path: Path, **kw: object) -> list[ListRow]:
    with open_list(path, **kw) as lst:  # type: ignore[arg-type]
        return list(lst)


def test_names_and_header_months() -> None:
    assert period_from_name("standard_nov25frl.zip") == Period(2025, 11)
    assert period_from_name("some/dir/blitz_jan23frl_xml.zip") == Period(2023, 1)
    assert period_from_name("players_list.zip") is None
    assert period_from_header("JAN23") == Period(2023, 1)
    assert period_from_header("NOV25") == Period(2025, 11)
    assert period_from_header("SRtng") is None


def test_single_txt_by_hand(tmp_path: Path) -> None:
    path = write(tmp_path / "standard_jan23frl.txt",
                 "\n".join([SINGLE_HEADER, SINGLE_LINE, SINGLE_LINE_WOMAN, "",
                            SINGLE_LINE_UNRATED]) + "\n")
    rows = rows_of(path)
    carlsen, hou, nunez = rows
    assert carlsen.fide_id == 1503014 and carlsen.name == "Carlsen, Magnus"
    assert carlsen.period == Period(2023, 1)
    assert (carlsen.federation, carlsen.sex, carlsen.title, carlsen.birth_year) == (
        "NOR", "M", "GM", 1990)
    (fig,) = carlsen.ratings
    assert (fig.list, fig.rating, fig.games, fig.k) == (RatingList.STANDARD, 2831, 9, 10)
    assert carlsen.flag is None and carlsen.position == 2
    assert (hou.women_title, hou.other_titles, hou.foa_title, hou.flag) == (
        "WGM", "IA,FT", "AGM", "wi")
    assert hou.ratings[0].games == 0
    assert nunez.name == "Núñez, José" and nunez.ratings[0].rating is None
    assert nunez.position == 5  # the blank line 4 is skipped, lines keep their numbers


def test_combined_txt_by_hand_latin1(tmp_path: Path) -> None:
    line = fixed((0, "4100018"), (15, "Müller, Jürgen"), (76, "GER"), (80, "M"), (84, "FM"),
                 (113, "2301"), (119, "4"), (123, "20"), (126, "2250"), (132, "0"),
                 (136, "20"), (152, "1970"), (158, "i"))
    path = write(tmp_path / "players_list_foa.txt", COMBINED_HEADER + "\r\n" + line + "\r\n",
                 encoding="latin-1")
    (row,) = rows_of(path, period=Period(2025, 11))
    assert row.name == "Müller, Jürgen" and row.flag == "i" and row.birth_year == 1970
    assert [(f.list, f.rating, f.games, f.k) for f in row.ratings] == [
        (RatingList.STANDARD, 2301, 4, 20),
        (RatingList.RAPID, 2250, 0, 20),
        (RatingList.BLITZ, None, None, None),
    ]
    # --list on a combined file keeps that list only
    (row,) = rows_of(path, period=Period(2025, 11), rating_list=RatingList.RAPID)
    assert [f.list for f in row.ratings] == [RatingList.RAPID]


XML_SINGLE = """<?xml version="1.0" encoding="UTF-8"?>
<playerslist>
  <player>
    <fideid>1503014</fideid><name>Carlsen, Magnus</name><country>NOR</country><sex>M</sex>
    <title>GM</title><w_title></w_title><o_title></o_title><foa_title></foa_title>
    <rating>2831</rating><games>9</games><k>10</k>
    <birthday>1990</birthday><flag></flag>
  </player>
  <player>
    <fideid>45000001</fideid><name>N&#250;&#241;ez, Jos&#233; &amp; Co</name>
    <rating>0</rating><games></games><k>0</k><birthday></birthday><flag>i</flag>
  </player>
</playerslist>
"""


def test_single_xml_by_hand(tmp_path: Path) -> None:
    path = write(tmp_path / "rapid_jan23frl_xml.xml", XML_SINGLE)
    carlsen, nunez = rows_of(path)
    assert carlsen.period == Period(2023, 1) and carlsen.position == 4  # its <fideid>
    assert [(f.list, f.rating, f.games, f.k) for f in carlsen.ratings] == [
        (RatingList.RAPID, 2831, 9, 10)]
    assert carlsen.title == "GM" and carlsen.women_title is None
    assert nunez.name == "Núñez, José & Co" and nunez.ratings[0].rating is None
    assert nunez.ratings[0].k is None and nunez.flag == "i" and nunez.birth_year is None


# --- generated lists: every format, plain and zipped ------------------------------------


@pytest.mark.parametrize("fmt", listgen.FORMATS)
@pytest.mark.parametrize("zipped", [False, True])
def test_generated_round_trip(tmp_path: Path, fmt: str, zipped: bool) -> None:
    period = Period(2024, 3)
    suffix = ".zip" if zipped else (".xml" if fmt.endswith("xml") else ".txt")
    path = listgen.generate(tmp_path / f"blitz_mar24frl{suffix}", 300, fmt, zipped=zipped,
                            seed=7, rating_list=RatingList.BLITZ, period=period)
    expected = list(listgen.players(300, seed=7, period=period))
    with open_list(path) as lst:
        assert lst.format == ("xml" if fmt.endswith("xml") else "txt")
        rows = list(lst)
        assert lst.problem_count == 0
        assert lst.period == period
        assert lst.position == lst.size > 0
    assert len(rows) == len(expected)
    lists = tuple(RatingList) if fmt.startswith("combined") else (RatingList.BLITZ,)
    for row, p in zip(rows, expected, strict=True):
        assert row.fide_id == p.fide_id and row.name == p.name
        assert (row.federation, row.sex) == (p.federation, p.sex)
        assert (row.title or "", row.women_title or "") == (p.title, p.women_title)
        assert (row.other_titles or "", row.foa_title or "") == (p.other_titles, p.foa_title)
        assert row.birth_year == p.birth_year and (row.flag or "") == p.flag
        assert [(f.list, f.rating, f.k) for f in row.ratings] == [
            (lst_, p.figures(lst_).rating, p.figures(lst_).k) for lst_ in lists]
        # games: blank when there is no rating; "0" in XML may stand for empty
        for f in row.ratings:
            want = p.figures(f.list).games
            assert f.games == want or (want is None and f.games == 0)


def test_streams_without_reading_everything(tmp_path: Path) -> None:
    path = listgen.generate(tmp_path / "standard_nov25frl.zip", 5_000, "combined-xml",
                            zipped=True)
    with open_list(path) as lst:
        first = next(iter(lst))
        assert first.fide_id > 0
        assert 0 < lst.position < lst.size / 5


# --- the month and the list must be known, and agree ------------------------------------


def test_period_sources_must_agree(tmp_path: Path) -> None:
    body = SINGLE_HEADER + "\n" + SINGLE_LINE + "\n"
    header_only = write(tmp_path / "standard_rating_list.txt", body)
    assert rows_of(header_only)[0].period == Period(2023, 1)
    assert rows_of(header_only, period=Period(2023, 1))[0].period == Period(2023, 1)
    with pytest.raises(BadInput, match="--period says 2023-02 but the header says 2023-01"):
        rows_of(header_only, period=Period(2023, 2))
    wrong_name = write(tmp_path / "standard_feb23frl.txt", body)
    with pytest.raises(BadInput, match="file name standard_feb23frl.txt says 2023-02 but the "
                                       "header says 2023-01"):
        rows_of(wrong_name)


def test_period_missing(tmp_path: Path) -> None:
    path = write(tmp_path / "players_list_xml_foa.xml", XML_SINGLE.replace(
        "<k>10</k>", "<k>10</k><rapid_rating>2800</rapid_rating>"))
    with pytest.raises(BadInput, match="give --period YYYY-MM"):
        rows_of(path)
    rows = rows_of(path, period=Period(2025, 1))
    assert rows[0].ratings[1].rating == 2800


def test_list_missing_or_contradicted(tmp_path: Path) -> None:
    path = write(tmp_path / "list.txt", SINGLE_HEADER + "\n" + SINGLE_LINE + "\n")
    with pytest.raises(BadInput, match="give --list standard"):
        rows_of(path)
    assert rows_of(path, rating_list=RatingList.BLITZ)[0].ratings[0].list == RatingList.BLITZ
    named = write(tmp_path / "rapid_jan23frl.txt", SINGLE_HEADER + "\n" + SINGLE_LINE + "\n")
    with pytest.raises(BadInput, match="the file name says rapid but --list says blitz"):
        rows_of(named, rating_list=RatingList.BLITZ)


# --- malformed input ---------------------------------------------------------------------


def test_malformed_lines_are_skipped_and_reported(tmp_path: Path) -> None:
    bad_rating = SINGLE_LINE[:113] + "28x1  " + SINGLE_LINE[119:]
    bad_flag = SINGLE_LINE + "      zz"
    no_id = " " * 15 + SINGLE_LINE[15:]
    path = write(tmp_path / "standard_jan23frl.txt", "\n".join(
        [SINGLE_HEADER, bad_rating, SINGLE_LINE_WOMAN, bad_flag, no_id]) + "\n")
    with open_list(path) as lst:
        rows = list(lst)
        assert [r.fide_id for r in rows] == [8602980]
        assert lst.problem_count == 3
        assert lst.problems == [
            f"{path}:2: standard rating '28x1' is not a number; line skipped",
            f"{path}:4: flag 'zz' is not i, w or wi; line skipped",
            f"{path}:5: no FIDE ID; line skipped",
        ]


def test_too_many_malformed_lines_refuse_the_file(tmp_path: Path) -> None:
    bad = SINGLE_LINE[:113] + "abc" + SINGLE_LINE[116:]
    path = write(tmp_path / "standard_jan23frl.txt",
                 SINGLE_HEADER + "\n" + "\n".join([bad] * 1_100) + "\n")
    with pytest.raises(BadInput, match="more than 1000 malformed rows"):
        rows_of(path)


def test_malformed_xml_element(tmp_path: Path) -> None:
    path = write(tmp_path / "standard_jan23frl_xml.xml",
                 XML_SINGLE.replace("<rating>2831</rating>", "<rating>twenty</rating>"))
    with open_list(path) as lst:
        assert [r.fide_id for r in lst] == [45000001]
        assert lst.problems == [f"{path}:4: rating 'twenty' is not a number; <player> skipped"]


@pytest.mark.parametrize("header, message", [
    (SINGLE_HEADER.replace("Name", "Nome"), "expected 'Name' at column 16"),
    (" " + SINGLE_HEADER, "expected 'ID' at column 1"),
    (COMBINED_HEADER.replace("RRtng", "XXXXX"), "expected 'RRtng' at column 127"),
    ("fideid;name;rating", "expected 'ID' at column 1, found 'fideid'"),
])
def test_wrong_columns(tmp_path: Path, header: str, message: str) -> None:
    path = write(tmp_path / "standard_jan23frl.txt", header + "\n" + SINGLE_LINE + "\n")
    with pytest.raises(BadInput, match=r"standard_jan23frl.txt:1: the header is not FIDE's "
                                       r"TXT layout \(" + message):
        rows_of(path)


BILLION_LAUGHS = """<?xml version="1.0"?>
<!DOCTYPE lolz [
 <!ENTITY lol "lol">
 <!ENTITY lol1 "&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;&lol;">
 <!ENTITY lol2 "&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;&lol1;">
 <!ENTITY lol3 "&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;&lol2;">
 <!ENTITY lol4 "&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;&lol3;">
 <!ENTITY lol5 "&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;&lol4;">
 <!ENTITY lol6 "&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;&lol5;">
 <!ENTITY lol7 "&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;&lol6;">
 <!ENTITY lol8 "&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;&lol7;">
 <!ENTITY lol9 "&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;&lol8;">
]>
<playerslist><player><fideid>1</fideid><name>&lol9;</name></player></playerslist>
"""

EXTERNAL_ENTITY = """<?xml version="1.0"?>
<!DOCTYPE playerslist [ <!ENTITY xxe SYSTEM "file:///etc/passwd"> ]>
<playerslist><player><fideid>1</fideid><name>&xxe;</name></player></playerslist>
"""

EXTERNAL_DTD = """<?xml version="1.0"?>
<!DOCTYPE playerslist SYSTEM "http://example.invalid/evil.dtd">
<playerslist><player><fideid>1</fideid><name>A, B</name></player></playerslist>
"""


@pytest.mark.parametrize("text", [BILLION_LAUGHS, EXTERNAL_ENTITY, EXTERNAL_DTD],
                         ids=["billion-laughs", "external-entity", "external-dtd"])
@pytest.mark.parametrize("zipped", [False, True])
def test_hostile_xml_is_refused_quickly(tmp_path: Path, text: str, zipped: bool) -> None:
    path = write(tmp_path / "standard_jan23frl_xml.xml", text)
    if zipped:
        zpath = tmp_path / "standard_jan23frl_xml.zip"
        with zipfile.ZipFile(zpath, "w") as zf:
            zf.write(path, path.name)
        path = zpath
    start = time.perf_counter()
    with pytest.raises(BadInput, match=r":2: the XML declares a DTD .*refused for safety"):
        rows_of(path)
    assert time.perf_counter() - start < 1.0


def test_undeclared_entity_is_an_error(tmp_path: Path) -> None:
    path = write(tmp_path / "standard_jan23frl_xml.xml",
                 XML_SINGLE.replace("Carlsen", "&lol9;Carlsen"))
    with pytest.raises(BadInput, match=r":4: the XML is broken \(undefined entity\)"):
        rows_of(path)


def test_truncated_xml(tmp_path: Path) -> None:
    path = write(tmp_path / "standard_jan23frl_xml.xml", XML_SINGLE[:300])
    with pytest.raises(BadInput, match=r"standard_jan23frl_xml.xml:\d+: the XML is broken"):
        rows_of(path)


def test_xml_of_something_else(tmp_path: Path) -> None:
    path = write(tmp_path / "standard_jan23frl_xml.xml", "<html><body/></html>")
    with pytest.raises(BadInput, match="root element is <html>, not <playerslist>"):
        rows_of(path)


def test_truncated_zip(tmp_path: Path) -> None:
    full = listgen.generate(tmp_path / "standard_nov25frl.zip", 3_000, "txt", zipped=True)
    data = full.read_bytes()
    for cut in (len(data) // 2, len(data) - 30):
        broken = tmp_path / f"standard_nov25frl_{cut}.zip"
        broken.write_bytes(data[:cut])
        with pytest.raises(BadInput, match="zip archive is damaged|no FIDE list|not FIDE's"):
            rows_of(broken)


def test_corrupted_zip_member(tmp_path: Path) -> None:
    full = listgen.generate(tmp_path / "standard_nov25frl.zip", 3_000, "txt", zipped=True)
    data = bytearray(full.read_bytes())
    middle = len(data) // 2
    data[middle:middle + 64] = bytes(64)
    full.write_bytes(bytes(data))
    # garbage decompressed before the CRC check fails may first trip the malformed-row limit
    with pytest.raises(BadInput, match="zip archive is damaged or truncated|malformed rows"):
        rows_of(full)


def test_zip_with_other_members(tmp_path: Path) -> None:
    path = tmp_path / "lists.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.txt", SINGLE_HEADER)
        zf.writestr("b.txt", SINGLE_HEADER)
    with pytest.raises(BadInput, match="expected one .txt or .xml list inside the zip, found "
                                       "a.txt, b.txt"):
        rows_of(path)


def test_missing_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="no such file"):
        open_list(tmp_path / "nope.zip")
    with pytest.raises(BadInput, match="is a folder"):
        open_list(tmp_path)
    with pytest.raises(BadInput, match="the file is empty"):
        open_list(write(tmp_path / "standard_jan23frl.txt", "\n\n"))


@pytest.mark.parametrize("fmt", ["combined-txt", "combined-xml"])
def test_only_the_players_asked_for(tmp_path: Path, fmt: str) -> None:
    path = listgen.generate(tmp_path / "players_list.zip", 500, fmt, zipped=True)
    people = list(listgen.players(500))
    wanted = {people[3].fide_id, people[444].fide_id, 1}
    reads: list[int] = []
    with open_list(path, period=Period(2025, 11), only=wanted) as lst:
        lst.on_read = lambda: reads.append(lst.position)
        rows = list(lst)
        assert [r.fide_id for r in rows] == [people[3].fide_id, people[444].fide_id]
        assert lst.filtered == 498 and lst.rows == 2
        assert lst.period == Period(2025, 11) and lst.combined
    assert reads and reads[-1] == lst.size


def _players_xml(ids: list[int], extra: dict[int, str] | None = None) -> str:
    extra = extra or {}
    body = "".join(
        f"  <player>\n    <fideid>{i}</fideid><name>P, {i}</name>\n"
        f"    <rating>{1500 + i % 100}</rating>{extra.get(i, '')}\n  </player>\n"
        for i in ids)
    return f'<?xml version="1.0"?>\n<playerslist>\n{body}</playerslist>\n'


def test_only_keeps_xml_line_numbers_and_counts(tmp_path: Path) -> None:
    ids = list(range(1, 3001))
    text = _players_xml(ids, {2500: "<k>abc</k>", 2000: "<!-- a comment -->"})
    path = write(tmp_path / "standard_jan23frl_xml.xml", text)
    with open_list(path, only={2000, 2500, 2999}) as lst:
        rows = list(lst)
        assert [r.fide_id for r in rows] == [2000, 2999]
        assert lst.filtered == 2997
        line = text.splitlines().index("    <fideid>2500</fideid><name>P, 2500</name>") + 1
        assert lst.problems == [f"{path}:{line}: K 'abc' is not a number; <player> skipped"]
    assert rows[1].position == text.splitlines().index(
        "    <fideid>2999</fideid><name>P, 2999</name>") + 1


def test_only_still_refuses_late_markup(tmp_path: Path) -> None:
    text = _players_xml(list(range(1, 2001))).replace(
        "  <player>\n    <fideid>1500</fideid>",
        '<!DOCTYPE x [<!ENTITY a "b">]>\n  <player>\n    <fideid>1500</fideid>')
    path = write(tmp_path / "standard_jan23frl_xml.xml", text)
    with pytest.raises(BadInput, match="the XML is broken|refused for safety"):
        rows_of(path, only={7})
