"""A generator of realistic FIDE rating list files, for the tests and the benchmark.

Standard library only. Deterministic for a seed, any size, streamed to the file (plain or
zipped), in FIDE's published layouts (`shared/spec/fide-list-formats.md`, `docs/lists.md`):
today's fixed-width TXT single and combined lists and XML single and combined lists
(`FORMATS`), and the older ones (`OLD_FORMATS`): the 2001-2002 and 2003-2008 quarterly TXT
(`ID_NUMBER NAME TITLE COUNTRY JAN01 GAMES [BIRTHDAY] FLAG`, one-letter titles, birth
dates dd.mm.yy), the 2009-2012 TXT (`ID number Name TitlFed Mar11 GamesBorn Flag`), the
2012-2015 single list and the 2015 combined list without FOA (TXT and XML). The players have
names with diacritics, titles (women's, other and FOA titles too), empty ratings, inactive
flags, birth years (some missing) and K factors that follow the usual pattern; `published`
says what of a player a layout can carry (an old layout has no sex, K or women's title).

    python -m tests.listgen --players 1000 --format combined-txt --zip -o players_list.zip
    python -m tests.listgen --players 50 --format txt --list rapid --period 2025-11 \\
        -o rapid_nov25frl.txt
    python -m tests.listgen --players 5000 --format txt-2003 --period 2004-04 \\
        --encoding latin-1 -o APR04FRL.TXT
"""

from __future__ import annotations

import argparse
import io
import random
import sys
import zipfile
from collections.abc import Iterator
from dataclasses import dataclass
from pathlib import Path
from typing import IO
from xml.sax.saxutils import escape

from tracker.errors import TrackerError
from tracker.model import Period, RatingList

DEFAULT_PERIOD = Period(2025, 11)
CURRENT_FORMATS = ("txt", "xml", "combined-txt", "combined-xml")
OLD_FORMATS = (
    "txt-2001",
    "txt-2003",
    "txt-2009",
    "txt-2012",
    "combined-txt-2015",
    "xml-2012",
    "combined-xml-2015",
)
FORMATS = CURRENT_FORMATS + OLD_FORMATS
OLD_TITLE_CODES = {
    "GM": "g",
    "IM": "m",
    "FM": "f",
    "CM": "c",
    "WGM": "wg",
    "WIM": "wm",
    "WFM": "wf",
    "WCM": "wc",
}
QUARTERLY_NAME = 33  # characters of a name in the layouts before 2012
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")

SURNAMES = (
    "Müller",
    "Žukauskas",
    "Ólafsson",
    "Nguyễn",
    "Dvořák",
    "Petrović",
    "Đorđević",
    "Çelik",
    "Øvergaard",
    "Grünfeld",
    "Şahin",
    "Kowalczyk",
    "Wójcik",
    "García",
    "Fernández",
    "Núñez",
    "Sørensen",
    "Jäger",
    "Lévêque",
    "François",
    "Smith",
    "Ivanov",
    "Kuznetsova",
    "Wang",
    "Kumar",
    "O'Brien",
    "van der Berg",
    "Al-Khalifa",
    "Papadopoulos",
    "Horváth",
    "Kovács",
    "Mäkinen",
    "Björnsson",
    "Aðalsteinsson",
    "Þórsson",
    "Ramírez",
    "Gonçalves",
    "Yılmaz",
    "Novák",
    "Schröder",
    "Dubois",
    "Rossi",
    "Bianchi",
    "Andersson",
    "Hansen",
    "Singh",
    "Tran",
    "Kim",
    "Abdullaev",
    "Mamedov",
    "Grigoryan",
    "Łukasiewicz",
    "Šimunić",
    "Ćosić",
)
GIVEN = (
    "Magnus",
    "Łukasz",
    "Søren",
    "José",
    "François",
    "Zoë",
    "Ágnes",
    "Jiří",
    "Mikuláš",
    "Anna",
    "Maria",
    "Ivan",
    "Olga",
    "Wei",
    "Arjun",
    "Nodirbek",
    "Hou",
    "Ju",
    "Élodie",
    "Håkon",
    "Björn",
    "Þóra",
    "Ines",
    "Jürgen",
    "Renée",
    "Özge",
    "Ştefan",
    "Dragoș",
    "Ana-Maria",
    "J.",
    "M.",
    "Alexander Sebastian",
    "Ngọc Trường Sơn",
    "Chloé",
    "Noël",
)
FEDERATIONS = (
    "GER",
    "LTU",
    "ISL",
    "VIE",
    "CZE",
    "SRB",
    "TUR",
    "NOR",
    "POL",
    "ESP",
    "FRA",
    "ENG",
    "RUS",
    "CHN",
    "IND",
    "USA",
    "NED",
    "UAE",
    "GRE",
    "HUN",
    "FIN",
    "POR",
    "ITA",
    "SWE",
    "DEN",
    "KOR",
    "UZB",
    "AZE",
    "ARM",
    "CRO",
    "FID",
)
TITLES_OPEN = (("GM", 2), ("IM", 4), ("FM", 8), ("CM", 6))
TITLES_WOMEN = (("WGM", 3), ("WIM", 4), ("WFM", 6), ("WCM", 5))
OTHER_TITLES = ("IA", "FA", "NA", "IO", "FT", "FI", "IA,FT", "FA,NA", "DI,FST")
FOA_TITLES = ("AGM", "AIM", "AFM", "ACM")


@dataclass(frozen=True, slots=True)
class Figures:
    """A player's figures on one list (rating None: no rating on that list)."""

    rating: int | None
    games: int | None
    k: int | None


@dataclass(frozen=True, slots=True)
class Player:
    """One generated player, as it is written in every format."""

    fide_id: int
    name: str
    federation: str
    sex: str
    title: str
    women_title: str
    other_titles: str
    foa_title: str
    standard: Figures
    rapid: Figures
    blitz: Figures
    birth_year: int | None
    flag: str

    def figures(self, rating_list: RatingList) -> Figures:
        return {
            RatingList.STANDARD: self.standard,
            RatingList.RAPID: self.rapid,
            RatingList.BLITZ: self.blitz,
        }[rating_list]


def _pick(rng: random.Random, weighted: tuple[tuple[str, int], ...]) -> str:
    total = sum(w for _, w in weighted)
    x = rng.randrange(total)
    for value, w in weighted:
        if x < w:
            return value
        x -= w
    return weighted[-1][0]  # pragma: no cover


def lowest(period: Period) -> int:
    """The lowest rating generated for a list of `period`: the floor of the time, as the
    rules spec gives it (`shared/spec/fide-rules.md`): 1400 from Mar 2024, 1000 from Jul
    2012 (1001 here, as ever), 1200 from Jul 2009, 1400 before (the floor the tracker takes
    for 2008). A generated list holds no rating a real one cannot (`tracker official import`
    skips those)."""
    if period >= Period(2024, 3):
        return 1400
    if period >= Period(2012, 7):
        return 1001
    return 1200 if period >= Period(2009, 7) else 1400


def _figures(
    rng: random.Random,
    present: float,
    base: int,
    birth: int | None,
    period: Period,
    inactive: bool,
) -> Figures:
    if rng.random() >= present:
        return Figures(None, None, None)
    rating = max(lowest(period), min(2850, int(rng.gauss(base, 220))))
    games = 0 if inactive else rng.choice((0, 0, 0, 1, 2, 4, 5, 7, 9, 11, 14))
    year = period.year
    young = birth is not None and year - birth < 18
    k = 10 if rating >= 2400 else (40 if young and rating < 2300 else 20)
    if rng.random() < 0.02:
        k = 40  # the first 30 games
    return Figures(rating, games, k)


def players(
    count: int, *, seed: int = 1, period: Period = DEFAULT_PERIOD, latin1: bool = False
) -> Iterator[Player]:
    """`count` players, the same ones for the same seed (FIDE IDs ascending, unique)."""
    rng = random.Random(seed)
    surnames = [s for s in SURNAMES if not latin1 or _latin1(s)]
    given = [g for g in GIVEN if not latin1 or _latin1(g)]
    fide_id = 100_000 + rng.randrange(1_000)
    for _ in range(count):
        fide_id += 1 + rng.randrange(9)
        woman = rng.random() < 0.16
        name = f"{rng.choice(surnames)}, {rng.choice(given)}"
        if rng.random() < 0.03:
            name = f"{rng.choice(surnames)}-{name}"
        birth: int | None = rng.randrange(1935, period.year - 5)
        if rng.random() < 0.04:
            birth = None
        inactive = rng.random() < 0.4
        base = 1650 if birth is None or period.year - birth > 18 else 1450
        if rng.random() < 0.03:
            base = 2350  # the strong tail: masters, K 10
        standard = _figures(rng, 0.82, base, birth, period, inactive)
        rapid = _figures(rng, 0.45, base, birth, period, inactive)
        blitz = _figures(rng, 0.40, base, birth, period, inactive)
        title = women_title = ""
        best = max((f.rating or 0) for f in (standard, rapid, blitz))
        if best >= 2200 or rng.random() < 0.02:
            if woman and rng.random() < 0.5:
                title = _pick(rng, TITLES_WOMEN)
            else:
                title = _pick(rng, TITLES_OPEN)
                if woman and rng.random() < 0.8:
                    women_title = _pick(rng, TITLES_WOMEN)
        other = rng.choice(OTHER_TITLES) if rng.random() < 0.02 else ""
        foa = rng.choice(FOA_TITLES) if rng.random() < 0.01 else ""
        flag = ("w" if woman else "") + ("i" if inactive else "")
        yield Player(
            fide_id,
            name,
            rng.choice(FEDERATIONS),
            "F" if woman else "M",
            title,
            women_title,
            other,
            foa,
            standard,
            rapid,
            blitz,
            birth,
            flag,
        )


def _latin1(text: str) -> bool:
    try:
        text.encode("latin-1")
    except UnicodeEncodeError:
        return False
    return True


# ---------------------------------------------------------------------------------------
# Writers


def _num(value: int | None, width: int) -> str:
    return ("" if value is None else str(value)).ljust(width)[:width]


def _right(value: int | None, width: int) -> str:
    return ("" if value is None else str(value)).rjust(width)[:width]


def _month(period: Period, case: str = "upper") -> str:
    text = f"{MONTHS[period.month - 1]}{period.year % 100:02d}"
    return {"upper": text, "title": text.title(), "lower": text.lower()}[case]


def _is_combined(fmt: str) -> bool:
    return fmt.startswith("combined")


def _is_xml(fmt: str) -> bool:
    return "xml" in fmt


def txt_header(period: Period, *, combined: bool, foa: bool = True) -> str:
    """Today's TXT header (2016 on); `foa=False`: the 2012-2015 one (rating month in lower
    case, as `rapid_sep12frl.txt` has it)."""
    head = f"{'ID Number':<15}{'Name':<61}{'Fed':<4}{'Sex':<4}{'Tit':<5}{'WTit':<5}{'OTit':<15}" + (
        f"{'FOA':<4}" if foa else ""
    )
    if combined:
        return head + "SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
    month = _month(period) if foa else _month(period, "lower")
    return head + f"{month:<6}Gms K  B-day Flag"


def txt_line(p: Player, lists: tuple[RatingList, ...], *, foa: bool = True) -> str:
    parts = [
        f"{p.fide_id:<15}",
        p.name[:60].ljust(61),
        f"{p.federation:<4}",
        f"{p.sex:<4}",
        f"{p.title:<5}",
        f"{p.women_title:<5}",
        f"{p.other_titles[:14]:<15}",
    ]
    if foa:
        parts.append(f"{p.foa_title:<4}")
    for lst in lists:
        f = p.figures(lst)
        parts += [_num(f.rating, 6), _num(f.games, 4), _num(f.k, 3)]
    no_birth = "0000  " if not foa and lists[1:] else ""  # the 2015 combined file's "none"
    parts += [_num(p.birth_year, 6) if p.birth_year is not None else no_birth.ljust(6), p.flag]
    line = "".join(parts)
    # the 2015 file pads every row to its full width; today's end at their last value
    return line.rstrip() if foa else line.ljust(158 if lists[1:] else 132)


def quarterly_header(period: Period, *, births: bool) -> str:
    """The 2001-2002 (`births=False`) and 2003-2008 header (APR04FRL.TXT)."""
    head = f"ID_NUMBER NAME{'':25}TITLE COUNTRY {_month(period)} GAMES "
    return head + ("BIRTHDAY   FLAG" if births else "FLAG")


def header_2009(period: Period) -> str:
    """The 2009-2012 header, glued words and all (standard_mar11frl.txt)."""
    return f"ID number Name{'':30}TitlFed  {_month(period, 'title')} GamesBorn  Flag"


def _birth_date(p: Player) -> str:
    """A dd.mm.yy birth date (day and month made up from the FIDE ID)."""
    if p.birth_year is None:
        return ""
    return f"{p.fide_id % 28 + 1:02d}.{p.fide_id % 12 + 1:02d}.{p.birth_year % 100:02d}"


def old_line(p: Player, fmt: str, rating_list: RatingList = RatingList.STANDARD) -> str:
    """A row of the layouts before 2012: the ID right-aligned in 8, the name at 10 (33
    characters), a one- or two-letter title at 44, the federation at 48, the rating at 53,
    the games right-aligned to 62, then (2003-2008) the birth date at 64 and the flag at 76,
    (2009-2012) the birth year at 64 and the flag at 70, (2001-2002) the flag at 65."""
    f = p.figures(rating_list)
    head = (
        f"{p.fide_id:>8}  {p.name[:QUARTERLY_NAME]:<34}"
        f"{OLD_TITLE_CODES.get(p.title, p.title.lower()):<4}{p.federation:<5}"
        f"{_num(f.rating, 5)}{_right(f.games, 4)}  "
    )
    if fmt == "txt-2001":
        return head + " " + p.flag
    if fmt == "txt-2003":
        return f"{head}{_birth_date(p):<12}{p.flag}".ljust(79)
    return f"{head}{_num(p.birth_year, 6)}{p.flag}".ljust(70)


def published(p: Player, fmt: str, rating_list: RatingList = RatingList.STANDARD) -> Player:
    """What of `p` a file in `fmt` carries, as a reader gets it back: the layouts before
    2012 have no sex, K, women's, other or FOA titles and print 33 characters of a name; the
    2012-2015 ones no FOA title."""
    from dataclasses import replace

    if fmt in ("txt-2001", "txt-2003", "txt-2009"):

        def no_k(g: Figures) -> Figures:
            return Figures(g.rating, g.games, None)

        return replace(
            p,
            name=" ".join(p.name[:QUARTERLY_NAME].split()),
            sex="",
            women_title="",
            other_titles="",
            foa_title="",
            standard=no_k(p.standard),
            rapid=no_k(p.rapid),
            blitz=no_k(p.blitz),
            birth_year=None if fmt == "txt-2001" else p.birth_year,
        )
    if fmt in OLD_FORMATS:
        return replace(p, foa_title="")
    return p


def xml_player(
    p: Player, *, combined: bool, rating_list: RatingList, zero_for_empty: bool, foa: bool = True
) -> str:
    def v(value: int | None) -> str:
        if value is None:
            return "0" if zero_for_empty else ""
        return str(value)

    def el(tag: str, text: str) -> str:
        return f"<{tag}>{escape(text)}</{tag}>"

    f = p.figures(RatingList.STANDARD if combined else rating_list)
    parts = [
        el("fideid", str(p.fide_id)),
        el("name", p.name),
        el("country", p.federation),
        el("sex", p.sex),
        el("title", p.title),
        el("w_title", p.women_title),
        el("o_title", p.other_titles),
    ]
    if foa:
        parts.append(el("foa_title", p.foa_title))
    parts += [el("rating", v(f.rating)), el("games", v(f.games)), el("k", v(f.k))]
    if combined:
        for prefix, g in (("rapid", p.rapid), ("blitz", p.blitz)):
            parts += [
                el(f"{prefix}_rating", v(g.rating)),
                el(f"{prefix}_games", v(g.games)),
                el(f"{prefix}_k", v(g.k)),
            ]
    parts += [el("birthday", "" if p.birth_year is None else str(p.birth_year)), el("flag", p.flag)]
    return "<player>" + "".join(parts) + "</player>\n"


def write_list(
    out: IO[str],
    people: Iterator[Player] | list[Player],
    fmt: str,
    *,
    rating_list: RatingList = RatingList.STANDARD,
    period: Period = DEFAULT_PERIOD,
) -> int:
    """Write the players in `fmt` (one of FORMATS) to a text stream; returns the count."""
    if fmt not in FORMATS:
        raise TrackerError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    combined = _is_combined(fmt)
    foa = fmt in CURRENT_FORMATS
    n = 0
    if fmt in ("txt-2001", "txt-2003", "txt-2009"):
        if fmt == "txt-2003":
            out.write("\n")  # the 2003 files begin with an empty line
        out.write(
            (
                header_2009(period)
                if fmt == "txt-2009"
                else quarterly_header(period, births=fmt == "txt-2003")
            )
            + "\n"
        )
        for p in people:
            out.write(old_line(p, fmt, rating_list) + "\n")
            n += 1
    elif not _is_xml(fmt):
        lists = tuple(RatingList) if combined else (rating_list,)
        out.write(txt_header(period, combined=combined, foa=foa) + "\n")
        for p in people:
            out.write(txt_line(p, lists, foa=foa) + "\n")
            n += 1
    else:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n')
        for p in people:
            out.write(
                xml_player(
                    p,
                    combined=combined,
                    rating_list=rating_list,
                    zero_for_empty=p.fide_id % 2 == 0,
                    foa=foa,
                )
            )
            n += 1
        out.write("</playerslist>\n")
    return n


def generate(
    path: str | Path,
    count: int,
    fmt: str,
    *,
    zipped: bool = False,
    seed: int = 1,
    rating_list: RatingList = RatingList.STANDARD,
    period: Period = DEFAULT_PERIOD,
    encoding: str = "utf-8",
    member: str | None = None,
) -> Path:
    """Write a list of `count` players to `path` (a zip holding one member when `zipped`)."""
    path = Path(path)
    if fmt not in FORMATS:
        raise TrackerError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if _is_xml(fmt):
        encoding = "utf-8"
    people = players(count, seed=seed, period=period, latin1=encoding.lower() != "utf-8")
    kw = {"rating_list": rating_list, "period": period}
    if zipped:
        inner = member or (path.stem + (".xml" if _is_xml(fmt) else ".txt"))
        with (
            zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED, compresslevel=1) as zf,
            zf.open(inner, "w", force_zip64=True) as raw,
            io.TextIOWrapper(raw, encoding=encoding, newline="\n") as out,
        ):
            write_list(out, people, fmt, **kw)  # type: ignore[arg-type]
    else:
        with path.open("w", encoding=encoding, newline="\n") as out:
            write_list(out, people, fmt, **kw)  # type: ignore[arg-type]
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tests.listgen",
        description="Write a realistic, deterministic FIDE rating list for tests/benchmarks.",
    )
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--format", choices=FORMATS, required=True)
    parser.add_argument("--zip", action="store_true", help="write a zip holding the list")
    parser.add_argument("-o", "--output", required=True, help="file to write")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", default="standard", help="the list of a single list")
    parser.add_argument("--period", default="2025-11", help="the list month, YYYY-MM")
    parser.add_argument(
        "--encoding",
        default="utf-8",
        choices=("utf-8", "latin-1"),
        help="TXT encoding (XML is always UTF-8)",
    )
    args = parser.parse_args(argv)
    try:
        if args.players < 0:
            raise TrackerError("--players must be 0 or more")
        path = generate(
            args.output,
            args.players,
            args.format,
            zipped=args.zip,
            seed=args.seed,
            rating_list=RatingList.parse(args.list),
            period=Period.parse(args.period),
            encoding=args.encoding,
        )
    except TrackerError as exc:
        print(f"error: {exc}", file=sys.stderr)
        return 2
    except OSError as exc:
        print(f"error: cannot write {args.output}: {exc.strerror or exc}", file=sys.stderr)
        return 1
    print(f"wrote {args.players} players to {path}", file=sys.stderr)
    return 0


if __name__ == "__main__":
    sys.exit(main())
