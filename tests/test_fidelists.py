"""tracker.lists: FIDE's TXT and XML lists, plain and zipped, and every way they go wrong.

The hand-written lines below follow the column table of shared/spec/fide-list-formats.md
(0-based, end exclusive): ID 0-15, name 15-76, Fed 76-80, Sex 80-84, Tit 84-89, WTit 89-94,
OTit 94-109, FOA 109-113, rating 113-119, Gms 119-123, K 123-126, B-day 126-132, Flag 132-
(combined: S 113/119/123, R 126/132/136, B 139/145/149, B-day 152-158, Flag 158-).
"""

from __future__ import annotations

import time
import zipfile
from collections.abc import Container
from pathlib import Path

import pytest

from tests import listgen
from tests.conftest import SPEC, need_shared
from tracker.errors import BadInput, NotFound
from tracker.lists import (
    MAX_LINE,
    MAX_MARKUP,
    ListRow,
    TxtLayout,
    birth_year_of,
    list_from_name,
    open_list,
    period_from_header,
    period_from_name,
    read_header,
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


SINGLE_LINE = fixed(
    (0, "1503014"),
    (15, "Carlsen, Magnus"),
    (76, "NOR"),
    (80, "M"),
    (84, "GM"),
    (109, ""),
    (113, "2831"),
    (119, "9"),
    (123, "10"),
    (126, "1990"),
)
SINGLE_LINE_WOMAN = fixed(
    (0, "8602980"),
    (15, "Hou, Yifan"),
    (76, "CHN"),
    (80, "F"),
    (84, "GM"),
    (89, "WGM"),
    (94, "IA,FT"),
    (109, "AGM"),
    (113, "2633"),
    (119, "0"),
    (123, "10"),
    (126, "1994"),
    (132, "wi"),
)
SINGLE_LINE_UNRATED = fixed(
    (0, "45000001"), (15, "Núñez, José"), (76, "ESP"), (80, "M"), (126, "2011")
)


def write(path: Path, text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes(text.encode(encoding))
    return path


def rows_of(
    path: Path,
    *,
    period: Period | None = None,
    rating_list: RatingList | None = None,
    only: Container[int] | None = None,
) -> list[ListRow]:
    with open_list(path, period=period, rating_list=rating_list, only=only) as lst:
        return list(lst)


def test_names_and_header_months() -> None:
    assert period_from_name("standard_nov25frl.zip") == Period(2025, 11)
    assert period_from_name("some/dir/blitz_jan23frl_xml.zip") == Period(2023, 1)
    assert period_from_name("players_list.zip") is None
    assert period_from_header("JAN23") == Period(2023, 1)
    assert period_from_header("NOV25") == Period(2025, 11)
    assert period_from_header("SRtng") is None


def test_single_txt_by_hand(tmp_path: Path) -> None:
    path = write(
        tmp_path / "standard_jan23frl.txt",
        "\n".join([SINGLE_HEADER, SINGLE_LINE, SINGLE_LINE_WOMAN, "", SINGLE_LINE_UNRATED]) + "\n",
    )
    rows = rows_of(path)
    carlsen, hou, nunez = rows
    assert carlsen.fide_id == 1503014 and carlsen.name == "Carlsen, Magnus"
    assert carlsen.period == Period(2023, 1)
    assert (carlsen.federation, carlsen.sex, carlsen.title, carlsen.birth_year) == (
        "NOR",
        "M",
        "GM",
        1990,
    )
    (fig,) = carlsen.ratings
    assert (fig.list, fig.rating, fig.games, fig.k) == (RatingList.STANDARD, 2831, 9, 10)
    assert carlsen.flag is None and carlsen.position == 2
    assert (hou.women_title, hou.other_titles, hou.foa_title, hou.flag) == (
        "WGM",
        "IA,FT",
        "AGM",
        "wi",
    )
    assert hou.ratings[0].games == 0
    assert nunez.name == "Núñez, José" and nunez.ratings[0].rating is None
    assert nunez.position == 5  # the blank line 4 is skipped, lines keep their numbers


def test_combined_txt_by_hand_latin1(tmp_path: Path) -> None:
    line = fixed(
        (0, "4100018"),
        (15, "Müller, Jürgen"),
        (76, "GER"),
        (80, "M"),
        (84, "FM"),
        (113, "2301"),
        (119, "4"),
        (123, "20"),
        (126, "2250"),
        (132, "0"),
        (136, "20"),
        (152, "1970"),
        (158, "i"),
    )
    path = write(
        tmp_path / "players_list_foa.txt",
        COMBINED_HEADER + "\r\n" + line + "\r\n",
        encoding="latin-1",
    )
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
        (RatingList.RAPID, 2831, 9, 10)
    ]
    assert carlsen.title == "GM" and carlsen.women_title is None
    assert nunez.name == "Núñez, José & Co" and nunez.ratings[0].rating is None
    assert nunez.ratings[0].k is None and nunez.flag == "i" and nunez.birth_year is None


# --- generated lists: every format, plain and zipped ------------------------------------


@pytest.mark.parametrize("fmt", listgen.FORMATS)
@pytest.mark.parametrize("zipped", [False, True])
def test_generated_round_trip(tmp_path: Path, fmt: str, zipped: bool) -> None:
    period = Period(2024, 3)
    xml = "xml" in fmt
    suffix = ".zip" if zipped else (".xml" if xml else ".txt")
    encoding = "latin-1" if fmt.startswith("txt-") else "utf-8"
    path = listgen.generate(
        tmp_path / f"blitz_mar24frl{suffix}",
        300,
        fmt,
        zipped=zipped,
        seed=7,
        rating_list=RatingList.BLITZ,
        period=period,
        encoding=encoding,
    )
    expected = [
        listgen.published(p, fmt)
        for p in listgen.players(300, seed=7, period=period, latin1=encoding != "utf-8")
    ]
    with open_list(path) as lst:
        assert lst.format == ("xml" if xml else "txt")
        rows = list(lst)
        assert lst.problem_count == 0
        assert lst.period == period
        assert lst.position == lst.size > 0
    assert len(rows) == len(expected)
    lists = tuple(RatingList) if fmt.startswith("combined") else (RatingList.BLITZ,)
    for row, p in zip(rows, expected, strict=True):
        assert row.fide_id == p.fide_id and row.name == p.name
        assert (row.federation, row.sex or "") == (p.federation, p.sex)
        assert (row.title or "", row.women_title or "") == (p.title, p.women_title)
        assert (row.other_titles or "", row.foa_title or "") == (p.other_titles, p.foa_title)
        assert row.birth_year == p.birth_year and (row.flag or "") == p.flag
        assert [(f.list, f.rating, f.k) for f in row.ratings] == [
            (lst_, p.figures(lst_).rating, p.figures(lst_).k) for lst_ in lists
        ]
        # games: blank when there is no rating; "0" in XML may stand for empty
        for f in row.ratings:
            want = p.figures(f.list).games
            assert f.games == want or (want is None and f.games == 0)


def test_streams_without_reading_everything(tmp_path: Path) -> None:
    path = listgen.generate(tmp_path / "standard_nov25frl.zip", 5_000, "combined-xml", zipped=True)
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
    with pytest.raises(
        BadInput, match="file name standard_feb23frl.txt says 2023-02 but the header says 2023-01"
    ):
        rows_of(wrong_name)


def test_period_missing(tmp_path: Path) -> None:
    path = write(
        tmp_path / "players_list_xml_foa.xml",
        XML_SINGLE.replace("<k>10</k>", "<k>10</k><rapid_rating>2800</rapid_rating>"),
    )
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
    path = write(
        tmp_path / "standard_jan23frl.txt",
        "\n".join([SINGLE_HEADER, bad_rating, SINGLE_LINE_WOMAN, bad_flag, no_id]) + "\n",
    )
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
    path = write(
        tmp_path / "standard_jan23frl.txt", SINGLE_HEADER + "\n" + "\n".join([bad] * 1_100) + "\n"
    )
    with pytest.raises(BadInput, match="more than 1000 malformed rows"):
        rows_of(path)


def test_malformed_xml_element(tmp_path: Path) -> None:
    path = write(
        tmp_path / "standard_jan23frl_xml.xml",
        XML_SINGLE.replace("<rating>2831</rating>", "<rating>twenty</rating>"),
    )
    with open_list(path) as lst:
        assert [r.fide_id for r in lst] == [45000001]
        assert lst.problems == [f"{path}:4: rating 'twenty' is not a number; <player> skipped"]


@pytest.mark.parametrize(
    "header, message",
    [
        (SINGLE_HEADER.replace("Name", "Nome"), "no 'Name' column in 'ID Number Nome Fed Sex"),
        (COMBINED_HEADER.replace("RRtng", "XXXXX"), "no RRtng column beside the other lists'"),
        ("fideid;name;rating", "no 'ID Number' column in 'fideid;name;rating'"),
        (
            "ID Number      Name                                                         Fed Sex",
            "no rating column in 'ID Number Name Fed Sex'",
        ),
    ],
)
def test_wrong_columns(tmp_path: Path, header: str, message: str) -> None:
    path = write(tmp_path / "standard_jan23frl.txt", header + "\n" + SINGLE_LINE + "\n")
    with pytest.raises(BadInput) as caught:
        rows_of(path)
    text = str(caught.value)
    assert text.startswith(f"{path}:1: the header is not one of FIDE's TXT layouts ({message}")
    assert text.endswith(
        "): expected 'ID Number', 'Name' and a rating column named after the "
        "month (JAN23, Mar11) or SRtng, RRtng, BRtng (docs/lists.md)"
    )
    assert "\n" not in text


def test_header_shifted_or_with_unknown_words(tmp_path: Path) -> None:
    """Columns come from the header's words: trailing blanks, CRLF and a word of no known
    column change nothing (the unknown column is read by none)."""
    header = SINGLE_HEADER.replace("OTit ", "Xyzw ")
    path = write(
        tmp_path / "standard_jan23frl.txt", header + "   \r\n" + SINGLE_LINE_WOMAN + "\r\n"
    )
    (row,) = rows_of(path)
    assert (row.fide_id, row.name, row.other_titles, row.foa_title, row.flag) == (
        8602980,
        "Hou, Yifan",
        None,
        "AGM",
        "wi",
    )
    assert row.ratings[0].rating == 2633


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


@pytest.mark.parametrize(
    "text",
    [BILLION_LAUGHS, EXTERNAL_ENTITY, EXTERNAL_DTD],
    ids=["billion-laughs", "external-entity", "external-dtd"],
)
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
    path = write(
        tmp_path / "standard_jan23frl_xml.xml", XML_SINGLE.replace("Carlsen", "&lol9;Carlsen")
    )
    with pytest.raises(BadInput, match=r":4: the XML is broken \(undefined entity\)"):
        rows_of(path)


def test_truncated_xml(tmp_path: Path) -> None:
    path = write(tmp_path / "standard_jan23frl_xml.xml", XML_SINGLE[:300])
    with pytest.raises(BadInput, match=r"standard_jan23frl_xml.xml:\d+: the XML is broken"):
        rows_of(path)


def test_xml_of_something_else(tmp_path: Path) -> None:
    path = write(tmp_path / "standard_jan23frl_xml.xml", "<players><player/></players>")
    with pytest.raises(BadInput, match="root element is <players>, not <playerslist>"):
        rows_of(path)


@pytest.mark.parametrize(
    "head",
    [
        "<!DOCTYPE html>\n<html><body/></html>",
        "<html><body/></html>",
        '\ufeff  <?xml version="1.0"?>\n<html xmlns="http://www.w3.org/1999/xhtml"/>',
    ],
)
def test_an_html_page_is_said_to_be_one(tmp_path: Path, head: str) -> None:
    # (before: "the XML declares a DTD" or "the root element is <html>")
    for name in ("standard_jan23frl.txt", "standard_jan23frl_xml.xml"):
        path = write(tmp_path / name, head)
        with pytest.raises(BadInput, match=r": an HTML page \(a web page saved from"):
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
    data[middle : middle + 64] = bytes(64)
    full.write_bytes(bytes(data))
    # garbage decompressed before the CRC check fails may first trip the malformed-row limit
    # or the line cap
    with pytest.raises(
        BadInput, match="zip archive is damaged or truncated|malformed rows|a line longer than"
    ):
        rows_of(full)


def test_zip_with_other_members(tmp_path: Path) -> None:
    path = tmp_path / "lists.zip"
    with zipfile.ZipFile(path, "w") as zf:
        zf.writestr("a.txt", SINGLE_HEADER)
        zf.writestr("b.txt", SINGLE_HEADER)
    with pytest.raises(
        BadInput, match="expected one .txt or .xml list inside the zip, found a.txt, b.txt"
    ):
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
        for i in ids
    )
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
    assert (
        rows[1].position
        == text.splitlines().index("    <fideid>2999</fideid><name>P, 2999</name>") + 1
    )


def test_only_still_refuses_late_markup(tmp_path: Path) -> None:
    text = _players_xml(list(range(1, 2001))).replace(
        "  <player>\n    <fideid>1500</fideid>",
        '<!DOCTYPE x [<!ENTITY a "b">]>\n  <player>\n    <fideid>1500</fideid>',
    )
    path = write(tmp_path / "standard_jan23frl_xml.xml", text)
    with pytest.raises(BadInput, match="the XML is broken|refused for safety"):
        rows_of(path, only={7})


# --- every era: the verbatim samples of FIDE's archive ------------------------------------
#
# The expected values were written by reading the files in shared/spec/fide-list-samples/
# by eye (column by column), not from the reader's output. Per row: FIDE ID, name,
# federation, title, [(list, rating, games, K)], birth year, flag.

S, R, B = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ
Expected = tuple[
    int,
    str,
    str | None,
    str | None,
    list[tuple[RatingList, int | None, int | None, int | None]],
    int | None,
    str | None,
]
SAMPLE_ROWS: dict[str, tuple[Period, list[Expected]]] = {
    # ID_NUMBER NAME TITLE COUNTRY APR04 GAMES BIRTHDAY FLAG; 'm' is IM; dd.mm.yy dates
    "APR04FRL.TXT": (
        Period(2004, 4),
        [
            (1701991, "Aaberg, Anton", "SWE", None, [(S, 2383, 0, None)], 1972, None),
            (1407589, "Aabling-Thomsen, Jakob", "DEN", None, [(S, 2129, 0, None)], 1985, None),
            (1401815, "Aagaard, Jacob", "DEN", "IM", [(S, 2400, 0, None)], 1973, None),
        ],
    ),
    # ID number Name TitlFed Mar11 GamesBorn Flag; 'g' is GM; short rows, flag appended
    "standard_mar11frl.txt": (
        Period(2011, 3),
        [
            (4158814, "Andreikin, Dmitry", "RUS", "GM", [(S, 2686, 9, None)], 1990, None),
            (25087835, ", Vardharajan", "IND", None, [(S, None, None, None)], None, None),
            (5700230, "A B, Muhammad Yusop", "MAS", None, [(S, None, None, None)], None, None),
            (10207538, "A E M, Doshtagir", "BAN", None, [(S, 1864, 0, None)], None, None),
            (10207546, "A K M Aminul, Islam", "BAN", None, [(S, None, None, None)], None, None),
            (10207716, "A K M Manjurul, Alam", "BAN", None, [(S, None, None, None)], 1964, None),
            (10206612, "A K M, Sourab", "BAN", None, [(S, 1714, 0, None)], None, None),
            (5045886, "A K, Kalshyan", "IND", None, [(S, 2030, 0, None)], 1964, None),
            (8605360, "A La, Teng Hua", "CHN", None, [(S, 1915, 0, None)], 1993, "wi"),
            (5031605, "A, Akshaya", "IND", None, [(S, 2019, 32, None)], 1994, "w"),
            (5080444, "A, Sohita", "IND", None, [(S, 1447, 0, None)], 1995, "wi"),
        ],
    ),
    # ID Number Name Fed Sex Tit WTit OTit sep12 Gms K B-day Flag (no FOA)
    "rapid_sep12frl.txt": (
        Period(2012, 9),
        [
            (25021044, "Aagney L., Narasimhan", "IND", None, [(R, 1283, 3, 20)], 2000, None),
            (25014510, "Aakanksha Hagawane", "IND", None, [(R, 1629, 0, 20)], 2000, "w"),
            (1500660, "Aarnes, Carl Christian", "NOR", None, [(R, 1838, 6, 20)], 1975, None),
        ],
    ),
    # combined without FOA; 0000 is no birth year; two IDs without a name. The file names
    # no month: the test gives one (--period).
    "players_list_2015.txt": (
        Period(2015, 1),
        [
            (
                2625032,
                "",
                "CAN",
                None,
                [(S, None, None, None), (R, None, None, None), (B, None, None, None)],
                None,
                None,
            ),
            (
                7704658,
                "",
                "TTO",
                None,
                [(S, None, None, None), (R, None, None, None), (B, None, None, None)],
                None,
                None,
            ),
            (
                5700230,
                "A B, Muhammad Yusop",
                "MAS",
                None,
                [(S, None, None, None), (R, None, None, None), (B, None, None, None)],
                None,
                None,
            ),
            (
                35077023,
                "A Chakravarthy",
                "IND",
                None,
                [(S, 1151, 0, 40), (R, None, None, None), (B, None, None, None)],
                1986,
                "i",
            ),
            (
                10207538,
                "A E M, Doshtagir",
                "BAN",
                None,
                [(S, 1840, 0, 40), (R, 1836, 0, 20), (B, 1860, 0, 20)],
                1974,
                None,
            ),
            (
                5716365,
                "A Hamid, Harman",
                "MAS",
                None,
                [(S, None, None, None), (R, 1593, 0, 20), (B, None, None, None)],
                None,
                None,
            ),
            (
                8605360,
                "A La, Teng Hua",
                "CHN",
                None,
                [(S, 1915, 0, 40), (R, None, None, None), (B, None, None, None)],
                1993,
                "wi",
            ),
            (
                5080444,
                "A, Sohita",
                "IND",
                None,
                [(S, 1447, 0, 40), (R, None, None, None), (B, None, None, None)],
                1995,
                "wi",
            ),
        ],
    ),
}
SAMPLE_SEX = {
    "rapid_sep12frl.txt": ["M", "F", "M"],
    "players_list_2015.txt": ["M", "M", "M", "M", "M", "M", "F", "F"],
}


@pytest.mark.parametrize("name", sorted(SAMPLE_ROWS))
def test_verbatim_samples(name: str) -> None:
    need_shared()
    period, expected = SAMPLE_ROWS[name]
    path = SPEC / "fide-list-samples" / name
    given = period if name.startswith("players_list") else None
    with open_list(path, period=given) as lst:
        rows = list(lst)
        assert lst.problems == [] and lst.period == period
    got = [
        (
            r.fide_id,
            r.name,
            r.federation,
            r.title,
            [(f.list, f.rating, f.games, f.k) for f in r.ratings],
            r.birth_year,
            r.flag,
        )
        for r in rows
    ]
    assert got == expected
    assert [r.position for r in rows] == list(range(2, len(expected) + 2))
    assert [r.sex for r in rows] == SAMPLE_SEX.get(name, [None] * len(expected))


def test_verbatim_samples_crlf_latin1_zipped(tmp_path: Path) -> None:
    """The same bytes with CRLF line ends, as Latin-1 with an accent, and zipped."""
    need_shared()
    for name, (period, expected) in SAMPLE_ROWS.items():
        data = (SPEC / "fide-list-samples" / name).read_bytes().replace(b"\n", b"\r\n")
        data = data.replace(b"Aaberg, Anton ", "Åberg, Anton  ".encode("latin-1"))
        zpath = tmp_path / (Path(name).stem + ".zip")
        with zipfile.ZipFile(zpath, "w", compression=zipfile.ZIP_DEFLATED) as zf:
            zf.writestr(name, data)
        given = period if name.startswith("players_list") else None
        rows = rows_of(zpath, period=given)
        assert [(r.fide_id, r.ratings[0].rating, r.birth_year, r.flag) for r in rows] == [
            (e[0], e[4][0][1], e[5], e[6]) for e in expected
        ]
        if name == "APR04FRL.TXT":
            assert rows[0].name == "Åberg, Anton"


# --- the older layouts, by hand -----------------------------------------------------------

# 2001-2002 quarterly: no birth date. Placed as in the 2004 file (APR04FRL.TXT): ID at 1,
# name at 10, title ending at 45, country at 48, rating at 53, games right-aligned to 62,
# then the flag under its title (65; 76 once BIRTHDAY came, whose dates start at 64).
HEADER_2001 = "ID_NUMBER NAME                         TITLE COUNTRY JAN01 GAMES FLAG"
LINES_2001 = [
    fixed(
        (1, "4100018"), (10, "Mueller, Juergen"), (44, "f"), (48, "GER"), (53, "2301"), (60, "14")
    ),
    fixed((1, "1503014"), (10, "Carlsen, Magnus"), (48, "NOR"), (53, "2064"), (60, "12")),
    fixed(
        (1, "4700004"),
        (10, "Zatonskih, Anna"),
        (43, "wg"),
        (48, "UKR"),
        (53, "2345"),
        (61, "0"),
        (65, "wi"),
    ),
    fixed((0, "12345678"), (10, "Ortiz, Inés"), (43, "wf"), (48, "ESP"), (65, "i")),
]
HEADER_2003 = "ID_NUMBER NAME                         TITLE COUNTRY JUL03 GAMES BIRTHDAY   FLAG"
LINES_2003 = [
    fixed(
        (1, "1701991"),
        (10, "Aaberg, Anton"),
        (48, "SWE"),
        (53, "2383"),
        (61, "0"),
        (64, "17.01.72"),
    ),
    fixed(
        (1, "2016192"),
        (10, "Nakamura, Hikaru"),
        (44, "g"),
        (48, "USA"),
        (53, "2620"),
        (60, "22"),
        (64, "09.12.87"),
    ),
    fixed(
        (1, "1000001"),
        (10, "Old, Timer"),
        (48, "HUN"),
        (53, "2100"),
        (61, "0"),
        (64, "01.05.01"),
        (76, "i"),
    ),
    fixed(
        (1, "5000017"), (10, "Young, Kid"), (48, "ARG"), (53, "1500"), (61, "3"), (64, "30.06.98")
    ),
    fixed(
        (1, "5000025"),
        (10, "Unknown, Date"),
        (48, "ARG"),
        (53, "1600"),
        (61, "1"),
        (64, "00.00.00"),
    ),
]


def test_2001_layout(tmp_path: Path) -> None:
    path = write(
        tmp_path / "JAN01FRL.TXT",
        "\r\n".join([HEADER_2001, *LINES_2001]) + "\r\n",
        encoding="latin-1",
    )
    with open_list(path) as lst:
        rows = list(lst)
        assert lst.problems == [] and lst.layout is not None and lst.layout.era == "2001-2002"
    assert lst.period == Period(2001, 1) and lst.lists == (RatingList.STANDARD,)
    assert [
        (
            r.fide_id,
            r.name,
            r.title,
            r.federation,
            r.ratings[0].rating,
            r.ratings[0].games,
            r.birth_year,
            r.flag,
        )
        for r in rows
    ] == [
        (4100018, "Mueller, Juergen", "FM", "GER", 2301, 14, None, None),
        (1503014, "Carlsen, Magnus", None, "NOR", 2064, 12, None, None),
        (4700004, "Zatonskih, Anna", "WGM", "UKR", 2345, 0, None, "wi"),
        (12345678, "Ortiz, Inés", "WFM", "ESP", None, None, None, "i"),
    ]


def test_2003_layout_leading_blank_line_and_dates(tmp_path: Path) -> None:
    path = write(tmp_path / "JUL03FRL.TXT", "\n".join(["", HEADER_2003, *LINES_2003]) + "\n")
    with open_list(path) as lst:
        rows = list(lst)
        assert lst.problems == [] and lst.layout is not None and lst.layout.era == "2003-2008"
    assert [
        (
            r.fide_id,
            r.title,
            r.ratings[0].rating,
            r.ratings[0].games,
            r.birth_year,
            r.flag,
            r.position,
        )
        for r in rows
    ] == [
        (1701991, None, 2383, 0, 1972, None, 3),
        (2016192, "GM", 2620, 22, 1987, None, 4),
        (1000001, None, 2100, 0, 1901, "i", 5),  # 2001 would make him 2 in 2003
        (5000017, None, 1500, 3, 1998, None, 6),
        (5000025, None, 1600, 1, None, None, 7),
    ]


def test_birth_year_century() -> None:
    assert birth_year_of("17.01.72", 2004) == 1972
    assert birth_year_of("05.03.01", 2008) == 2001  # 7 years old
    assert birth_year_of("05.03.05", 2008) == 2005  # 3
    assert birth_year_of("05.03.06", 2008) == 1906  # 2 is too young: a centenarian
    assert birth_year_of("05.03.1906", 2008) == 1906
    assert birth_year_of("1990", 2025) == 1990
    assert birth_year_of("0000", 2025) is None and birth_year_of("", 2025) is None
    assert birth_year_of("00.00.00", 2005) is None
    assert birth_year_of("1988-04-02", 2025) == 1988


def test_glued_header_words() -> None:
    layout = read_header(
        "ID number Name                              TitlFed  Mar11 GamesBorn  Flag"
    )
    assert isinstance(layout, TxtLayout)
    assert [(f, a) for f, a, _ in layout.columns] == [
        ("fide_id", 0),
        ("name", 10),
        ("title", 44),
        ("federation", 48),
        ("rating", 53),
        ("games", 59),
        ("birth", 64),
        ("flag", 70),
    ]
    assert layout.month == "Mar11" and not layout.aligned and not layout.combined


def test_old_names_and_months() -> None:
    assert period_from_name("JAN01FRL.TXT") == Period(2001, 1)
    assert period_from_name("APR04FRL.TXT") == Period(2004, 4)
    assert period_from_name("archive/standard_mar11frl.txt") == Period(2011, 3)
    assert period_from_name("rapid_sep12frl.zip") == Period(2012, 9)
    assert period_from_name("blitz_oct26frl_xml.zip") == Period(2026, 10)
    assert period_from_name("players_list_foa.txt") is None
    assert list_from_name("JAN01FRL.TXT") is RatingList.STANDARD
    assert list_from_name("rapid_sep12frl.txt") is RatingList.RAPID
    assert list_from_name("players_list_foa.txt") is None
    for title, month in (
        ("JAN01", (2001, 1)),
        ("Mar11", (2011, 3)),
        ("sep12", (2012, 9)),
        ("APR04", (2004, 4)),
        ("OCT26", (2026, 10)),
    ):
        assert period_from_header(title) == Period(*month)


def test_old_name_and_header_disagree(tmp_path: Path) -> None:
    path = write(tmp_path / "OCT01FRL.TXT", HEADER_2001 + "\n" + LINES_2001[0] + "\n")
    with pytest.raises(
        BadInput,
        match="the file name OCT01FRL.TXT says 2001-10 but the "
        "header says 2001-01: check which month",
    ):
        rows_of(path)


def test_row_values_off_their_column_are_still_read(tmp_path: Path) -> None:
    """A modern row whose value strays into the next column (a hand-edited file) is cut at
    its blanks instead of being lost."""
    line = SINGLE_LINE[:126] + "    1990"
    path = write(tmp_path / "standard_jan23frl.txt", SINGLE_HEADER + "\n" + line + "\n")
    with open_list(path) as lst:
        (row,) = list(lst)
        assert lst.problems == []
    assert row.ratings[0].rating == 2831 and row.birth_year == 1990 and row.flag is None


# --- caps (issue 19 item 4): nothing beyond them is held ----------------------------------


def test_txt_line_cap(tmp_path: Path) -> None:
    long = SINGLE_LINE + " " * (MAX_LINE - len(SINGLE_LINE) + 1)
    path = write(
        tmp_path / "standard_jan23frl.txt",
        "\n".join([SINGLE_HEADER, SINGLE_LINE_WOMAN, long]) + "\n",
    )
    with pytest.raises(
        BadInput,
        match=r"standard_jan23frl.txt:3: a line longer than 1,024 "
        r"bytes .*refused$",
    ):
        rows_of(path)
    # a last line without its line end, too long
    write(path, SINGLE_HEADER + "\n" + "9" * (2 * 1024 * 1024))
    with pytest.raises(BadInput, match=r":2: a line longer than"):
        rows_of(path, only={1})


@pytest.mark.parametrize(
    "inside",
    [
        "<name>" + "x" * 5000 + "</name>",
        "<name>" + "&#233;" * 4097 + "</name>",
        '<name a="' + "y" * (2 * MAX_MARKUP) + '"/>',
        "<!-- " + "z" * (2 * MAX_MARKUP) + " -->",
        "<unknown>" + "u" * 5000 + "</unknown>",
    ],
    ids=["name", "char-refs", "attribute", "comment", "unknown-element"],
)
@pytest.mark.parametrize("only", [None, {1}])
def test_xml_text_caps(tmp_path: Path, inside: str, only: set[int] | None) -> None:
    body = (
        f'<?xml version="1.0"?>\n<playerslist>\n<player><fideid>1</fideid>{inside}'
        "<rating>1500</rating></player>\n</playerslist>\n"
    )
    path = write(tmp_path / "standard_jan23frl_xml.xml", body)
    with pytest.raises(
        BadInput,
        match=r"standard_jan23frl_xml.xml:\d+: the XML holds .*"
        r"refused$",
    ):
        rows_of(path, only=only)


def test_blank_padding_is_not_text(tmp_path: Path) -> None:
    """Blanks between elements (and the newlines a thinned block leaves) are no field."""
    body = (
        '<?xml version="1.0"?>\n<playerslist>'
        + " \n" * 20_000
        + "<player><fideid>1</fideid><name>A, B</name><rating>1500</rating></player>"
        + "\n" * 20_000
        + "</playerslist>\n"
    )
    path = write(tmp_path / "standard_jan23frl_xml.xml", body)
    (row,) = rows_of(path)
    assert (row.fide_id, row.name, row.position) == (1, "A, B", 20_002)


def test_a_pipe_is_refused_without_waiting(tmp_path: Path) -> None:
    import os

    fifo = tmp_path / "standard_jan23frl.txt"
    os.mkfifo(fifo)
    with pytest.raises(BadInput, match="not a regular file"):
        open_list(fifo)


@pytest.mark.parametrize("fmt", ["xml", "txt"])
@pytest.mark.parametrize("only", [None, {1}])
def test_a_huge_field_in_a_small_zip_is_refused_early(
    tmp_path: Path, fmt: str, only: set[int] | None
) -> None:
    """Issue 19 item 4: 64 MiB of one field in a zip under 1 MiB is refused after reading a
    few MiB at most (a 1 GiB one the same way: docs/lists.md)."""
    path = tmp_path / f"standard_jan23frl_{fmt}.zip"
    with (
        zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf,
        zf.open(f"standard_jan23frl.{fmt}", "w", force_zip64=True) as out,
    ):
        if fmt == "xml":
            out.write(b'<?xml version="1.0"?>\n<playerslist><player><fideid>1</fideid><name>')
        else:
            out.write(SINGLE_HEADER.encode() + b"\n1              ")
        chunk = b"a" * (1 << 20)
        for _ in range(64):
            out.write(chunk)
        out.write(b"</name></player></playerslist>\n" if fmt == "xml" else b"\n")
    assert path.stat().st_size < 1 << 20
    with open_list(path, only=only) as lst:
        with pytest.raises(BadInput, match="refused$"):
            list(lst)
        assert lst.position <= 5 << 20


def test_only_whole_blocks_keep_what_is_asked(tmp_path: Path) -> None:
    """The whole-block filter of XML (no player wanted in it) never drops a wanted ID
    written with leading zeros, a player in odd company, nor the lines' numbering."""
    ids = list(range(1, 4001))
    text = _players_xml(ids).replace("<fideid>3000</fideid>", "<fideid>0003000</fideid>")
    text = text.replace(
        "  <player>\n    <fideid>3500</fideid>", "  <extra/><player>\n    <fideid>3500</fideid>"
    )
    path = write(tmp_path / "standard_jan23frl_xml.xml", text)
    with open_list(path, only={3000, 3500, 3999}) as lst:
        rows = list(lst)
        assert lst.filtered == 3997 and lst.problems == []
    assert [r.fide_id for r in rows] == [3000, 3500, 3999]
    assert (
        rows[2].position
        == text.splitlines().index("    <fideid>3999</fideid><name>P, 3999</name>") + 1
    )


def test_an_xml_declaring_an_unknown_encoding_is_one_line(tmp_path: Path) -> None:
    # found by tests/test_fidelists_props.py: encoding="TF-8" (a damaged "UTF-8") reached
    # the user as an internal error (LookupError from expat's encoding lookup)
    path = tmp_path / "blitz_jan24frl.xml"
    path.write_bytes(
        b'<?xml version="1.0" encoding="TF-8"?>\n<playerslist>\n<player>'
        b"<fideid>100139</fideid><name>Makinen, Ana</name><country>FRA</country>"
        b"<sex>M</sex><title></title><w_title></w_title><o_title></o_title>"
        b"<foa_title></foa_title><rating>1800</rating><games>0</games><k>20</k>"
        b"<birthday>1983</birthday><flag></flag></player>\n</playerslist>\n"
    )
    said = r"blitz_jan24frl\.xml:1: the XML declares the encoding TF-8, which the reader cannot use"
    with pytest.raises(BadInput, match=said), open_list(path) as lst:
        list(lst)


# --- issue 35: damaged zips, encodings the reader cannot use, fields of no FIDE list -------


def damaged_zip(path: Path, damage: str) -> Path:
    """A zipped single list of 5 players, damaged as `damage` says: a bad CRC (the member's
    bytes are whole, its checksum is not), a central directory that says the member is
    smaller or its compressed bytes fewer than they are, or a compression method zipfile
    does not have (99) or has but whose data this is not (14, LZMA)."""
    import io
    import struct

    source = listgen.generate(path.with_name("source.txt"), 5, "txt")
    text = source.read_bytes()
    source.unlink()
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("standard_nov25frl.txt", text)
    data = bytearray(buf.getvalue())
    central = data.find(b"PK\x01\x02")
    # (offset in the local header, offset in the central directory entry, format, value)
    where = {
        "crc": (14, 16, "<I", struct.unpack_from("<I", data, 14)[0] ^ 0xFFFF),
        "size": (22, 24, "<I", 7),
        "compressed-size": (18, 20, "<I", 10),
        "method-99": (8, 10, "<H", 99),
        "method-lzma": (8, 10, "<H", 14),
    }[damage]
    local, entry, fmt, value = where
    struct.pack_into(fmt, data, local, value)
    struct.pack_into(fmt, data, central + entry, value)
    path.write_bytes(bytes(data))
    return path


@pytest.mark.parametrize(
    "damage, why",
    [
        ("crc", "Bad CRC-32 for file 'standard_nov25frl.txt'"),
        ("size", "Bad CRC-32 for file 'standard_nov25frl.txt'"),
        ("compressed-size", ""),
        ("method-99", "That compression method is not supported"),
        ("method-lzma", ""),
    ],
)
@pytest.mark.parametrize("only", [None, {1}])
def test_a_damaged_zip_is_one_line(
    tmp_path: Path, damage: str, why: str, only: set[int] | None
) -> None:
    """Issue 35 item 3: whatever zipfile or its decompressor says of a damaged member (a bad
    CRC, a size the central directory lies about, a method it lacks or data not of the
    method named), the file is refused in one line that says to download it again."""
    path = damaged_zip(tmp_path / "standard_nov25frl.zip", damage)
    with pytest.raises(BadInput) as raised:
        rows_of(path, only=only)
    said = str(raised.value)
    assert said.startswith(f"{path}: the zip archive is damaged (")
    assert said.endswith("): download it again") and "\n" not in said
    assert why in said


@pytest.mark.parametrize(
    "encoding", ["utf-7", "UTF-32", "idna", "punycode", "undefined", "shift_jis", "TF-8"]
)
@pytest.mark.parametrize("only", [None, {1}])
def test_an_xml_encoding_the_reader_cannot_use_is_one_line(
    tmp_path: Path, encoding: str, only: set[int] | None
) -> None:
    """Issue 35 item 4: an encoding Python has but expat cannot be given (a multi-byte one,
    a codec that fails on every byte) is refused as one it does not know is."""
    path = write(
        tmp_path / "standard_jan23frl_xml.xml",
        XML_SINGLE.replace('encoding="UTF-8"', f'encoding="{encoding}"', 1),
    )
    with pytest.raises(BadInput) as raised:
        rows_of(path, only=only)
    assert str(raised.value) == (
        f"{path}:1: the XML declares the encoding {encoding}, which the reader cannot use: "
        "FIDE's lists are UTF-8 or ISO-8859-1; is the file damaged?"
    )


_FIELDS_TXT = "\n".join(
    [
        SINGLE_HEADER,
        SINGLE_LINE,
        SINGLE_LINE.replace("GM  ", "GMXL"),  # a title of no FIDE list
        SINGLE_LINE_WOMAN.replace("CHN", "C1N"),  # a federation of no FIDE list
        SINGLE_LINE_WOMAN.replace("WGM", "WXY"),  # a women's title of no FIDE list
        SINGLE_LINE_UNRATED.replace("ESP", "ESPA"),  # four letters
        SINGLE_LINE_UNRATED,
    ]
)


def test_fields_no_fide_list_holds_make_the_row_malformed(tmp_path: Path) -> None:
    """Issue 35 item 5: a title that is no FIDE title, a federation that is not three
    letters: the row is skipped with its line, as a rating that is not a number is (the
    database keeps only what a FIDE list can hold, on every back-end)."""
    path = write(tmp_path / "standard_jan23frl.txt", _FIELDS_TXT + "\n")
    with open_list(path) as lst:
        rows = list(lst)
        problems = lst.problems
    assert [r.position for r in rows] == [2, 7]
    assert problems == [
        f"{path}:3: title 'GMXL' is not a FIDE title; line skipped",
        f"{path}:4: federation 'C1N' is not three letters; line skipped",
        f"{path}:5: women's title 'WXY' is not a FIDE title; line skipped",
        f"{path}:6: federation 'ESPA' is not three letters; line skipped",
    ]


@pytest.mark.parametrize(
    "element, said",
    [
        ("<title>" + "G" * 40 + "</title>", "title 'GGGGGGGGGGGGGGGGGGGG' is not a FIDE title"),
        ("<w_title>Queen</w_title>", "women's title 'Queen' is not a FIDE title"),
        ("<country>Norway</country>", "federation 'Norway' is not three letters"),
    ],
)
def test_xml_fields_no_fide_list_holds_make_the_row_malformed(
    tmp_path: Path, element: str, said: str
) -> None:
    name = element[1 : element.index(">")]
    text = XML_SINGLE.replace(f"<{name}></{name}>", element, 1)
    if text == XML_SINGLE:  # the element had a value: replace its first one
        start = XML_SINGLE.index(f"<{name}>")
        end = XML_SINGLE.index(f"</{name}>", start) + len(f"</{name}>")
        text = XML_SINGLE[:start] + element + XML_SINGLE[end:]
    path = write(tmp_path / "standard_jan23frl_xml.xml", text)
    with open_list(path) as lst:
        rows = list(lst)
        problems = lst.problems
    assert len(rows) == XML_SINGLE.count("<player>") - 1
    assert len(problems) == 1 and problems[0].endswith(f": {said}; <player> skipped")


@pytest.mark.parametrize(
    "head",
    [
        "ID_NUMBER NAME                         TITLE COUNTRY APR04 GAMES BIRTHDAY   FLAG",
        "ID_NUMBER NAME                         TITLE COUNTRY JAN01 GAMES FLAG",
    ],
    ids=["2003-2008", "2001-2002"],
)
def test_a_quarterly_name_ending_in_a_title_code_keeps_it(tmp_path: Path, head: str) -> None:
    """The quarterly lists' TITLE stands at 39, their title codes end at 45 (APR04FRL.TXT's
    Aagaard, `m` at 44; a two-letter code at 43 in test_2001_layout, at 44 as
    tests/listgen.py writes it): a name's last word between the two is the name's, even a
    word that is a title code (Hypothesis found "00000000, 000000000000000000 m" read back as
    "00000000, 000000000000000000" with the title IM), and a code at 44 after a name of 33
    characters is the title."""
    rows_text = [
        # the ID right-aligned in 8, two blanks, the name (33 characters at most) padded to
        # 34, the title code at 44, the federation at 48, the rating at 53, the games
        "       1  00000000, 000000000000000000 m        GER  1500    3",
        "       2  00000000, 000000000000000000 m    g   GER  2500    3",
        "       3  Abcdefghijklmnop, Qrstuvwxyzabcde m   GER  2400    3",
        "       4  Aagaard, Jacob                    m   DEN  2400    0",
        "       5  Van der Berg, Jan Willem Piet wg      NED  1900    0",
        "       6  Abcdefghijklmnop, Qrstuvwxyzabc g m   GER  2400    3",
        "       7  Abcdefghijklmnop, Qrstuvwxyzabc g wg  GER  2300    3",
    ]
    text = "\n".join([head, *rows_text]) + "\n"
    path = write(tmp_path / f"{head.split()[4]}FRL.TXT", text, "latin-1")
    with open_list(path) as lst:
        rows = list(lst)
        assert lst.problems == []
    assert [(r.fide_id, r.name, r.title) for r in rows] == [
        (1, "00000000, 000000000000000000 m", None),
        (2, "00000000, 000000000000000000 m", "GM"),
        (3, "Abcdefghijklmnop, Qrstuvwxyzabcde", "IM"),
        (4, "Aagaard, Jacob", "IM"),
        (5, "Van der Berg, Jan Willem Piet wg", None),
        (6, "Abcdefghijklmnop, Qrstuvwxyzabc g", "IM"),
        (7, "Abcdefghijklmnop, Qrstuvwxyzabc g", "WGM"),
    ]


def test_old_layouts_federations_are_checked_too(tmp_path: Path) -> None:
    """The 2003-2008 layout (cut at blanks): a country of no FIDE list. (A word in its
    TITLE column that is no title code is the end of a long name there, read with the name.)"""
    head = "ID_NUMBER NAME                         TITLE COUNTRY APR04 GAMES BIRTHDAY   FLAG"
    good = " 1401815  Aagaard, Jacob                    m   DEN  2400    0  31.07.73       "
    lines = [head, good, good.replace(" DEN ", " D3N "), good.replace(" DEN ", " DENM")]
    path = write(tmp_path / "APR04FRL.TXT", "\n".join(lines) + "\n", "latin-1")
    with open_list(path) as lst:
        rows = list(lst)
        problems = lst.problems
    assert [(r.position, r.title, r.federation) for r in rows] == [(2, "IM", "DEN")]
    assert problems == [
        f"{path}:3: federation 'D3N' is not three letters; line skipped",
        f"{path}:4: federation 'DENM' is not three letters; line skipped",
    ]
