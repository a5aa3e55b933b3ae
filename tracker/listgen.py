"""A generator of realistic FIDE rating list files, for the tests and the benchmark.

Standard library only. Deterministic for a seed, any size, streamed to the file (plain or
zipped), in FIDE's published layouts (`shared/spec/fide-list-formats.md`): the fixed-width
TXT single and combined lists and the XML single and combined lists. The players have names
with diacritics, titles (women's, other and FOA titles too), empty ratings, inactive flags,
birth years (some missing) and K factors that follow the usual pattern.

    python -m tracker.listgen --players 1000 --format combined-txt --zip -o players_list.zip
    python -m tracker.listgen --players 50 --format txt --list rapid --period 2025-11 \\
        -o rapid_nov25frl.txt
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
FORMATS = ("txt", "xml", "combined-txt", "combined-xml")
MONTHS = ("JAN", "FEB", "MAR", "APR", "MAY", "JUN", "JUL", "AUG", "SEP", "OCT", "NOV", "DEC")

SURNAMES = (
    "Müller", "Žukauskas", "Ólafsson", "Nguyễn", "Dvořák", "Petrović", "Đorđević", "Çelik",
    "Øvergaard", "Grünfeld", "Şahin", "Kowalczyk", "Wójcik", "García", "Fernández", "Núñez",
    "Sørensen", "Jäger", "Lévêque", "François", "Smith", "Ivanov", "Kuznetsova", "Wang",
    "Kumar", "O'Brien", "van der Berg", "Al-Khalifa", "Papadopoulos", "Horváth", "Kovács",
    "Mäkinen", "Björnsson", "Aðalsteinsson", "Þórsson", "Ramírez", "Gonçalves", "Yılmaz",
    "Novák", "Schröder", "Dubois", "Rossi", "Bianchi", "Andersson", "Hansen", "Singh",
    "Tran", "Kim", "Abdullaev", "Mamedov", "Grigoryan", "Łukasiewicz", "Šimunić", "Ćosić",
)
GIVEN = (
    "Magnus", "Łukasz", "Søren", "José", "François", "Zoë", "Ágnes", "Jiří", "Mikuláš",
    "Anna", "Maria", "Ivan", "Olga", "Wei", "Arjun", "Nodirbek", "Hou", "Ju", "Élodie",
    "Håkon", "Björn", "Þóra", "Ines", "Jürgen", "Renée", "Özge", "Ştefan", "Dragoș",
    "Ana-Maria", "J.", "M.", "Alexander Sebastian", "Ngọc Trường Sơn", "Chloé", "Noël",
)
FEDERATIONS = ("GER", "LTU", "ISL", "VIE", "CZE", "SRB", "TUR", "NOR", "POL", "ESP", "FRA",
               "ENG", "RUS", "CHN", "IND", "USA", "NED", "UAE", "GRE", "HUN", "FIN", "POR",
               "ITA", "SWE", "DEN", "KOR", "UZB", "AZE", "ARM", "CRO", "FID")
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
        return {RatingList.STANDARD: self.standard, RatingList.RAPID: self.rapid,
                RatingList.BLITZ: self.blitz}[rating_list]


def _pick(rng: random.Random, weighted: tuple[tuple[str, int], ...]) -> str:
    total = sum(w for _, w in weighted)
    x = rng.randrange(total)
    for value, w in weighted:
        if x < w:
            return value
        x -= w
    return weighted[-1][0]  # pragma: no cover


def _figures(rng: random.Random, present: float, base: int, birth: int | None,
             year: int, inactive: bool) -> Figures:
    if rng.random() >= present:
        return Figures(None, None, None)
    rating = max(1001, min(2850, int(rng.gauss(base, 220))))
    games = 0 if inactive else rng.choice((0, 0, 0, 1, 2, 4, 5, 7, 9, 11, 14))
    young = birth is not None and year - birth < 18
    k = 10 if rating >= 2400 else (40 if young and rating < 2300 else 20)
    if rng.random() < 0.02:
        k = 40  # the first 30 games
    return Figures(rating, games, k)


def players(count: int, *, seed: int = 1, period: Period = DEFAULT_PERIOD,
            latin1: bool = False) -> Iterator[Player]:
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
        standard = _figures(rng, 0.82, base, birth, period.year, inactive)
        rapid = _figures(rng, 0.45, base, birth, period.year, inactive)
        blitz = _figures(rng, 0.40, base, birth, period.year, inactive)
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
        yield Player(fide_id, name, rng.choice(FEDERATIONS), "F" if woman else "M", title,
                     women_title, other, foa, standard, rapid, blitz, birth, flag)


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


def txt_header(period: Period, *, combined: bool) -> str:
    month = f"{MONTHS[period.month - 1]}{period.year % 100:02d}"
    head = (f"{'ID Number':<15}{'Name':<61}{'Fed':<4}{'Sex':<4}{'Tit':<5}{'WTit':<5}"
            f"{'OTit':<15}{'FOA':<4}")
    if combined:
        return head + "SRtng SGm SK RRtng RGm Rk BRtng BGm BK B-day Flag"
    return head + f"{month:<6}Gms K  B-day Flag"


def txt_line(p: Player, lists: tuple[RatingList, ...]) -> str:
    parts = [f"{p.fide_id:<15}", p.name[:60].ljust(61), f"{p.federation:<4}", f"{p.sex:<4}",
             f"{p.title:<5}", f"{p.women_title:<5}", f"{p.other_titles[:14]:<15}",
             f"{p.foa_title:<4}"]
    for lst in lists:
        f = p.figures(lst)
        parts += [_num(f.rating, 6), _num(f.games, 4), _num(f.k, 3)]
    parts += [_num(p.birth_year, 6), p.flag]
    return "".join(parts).rstrip()


def xml_player(p: Player, *, combined: bool, rating_list: RatingList,
               zero_for_empty: bool) -> str:
    def v(value: int | None) -> str:
        if value is None:
            return "0" if zero_for_empty else ""
        return str(value)

    def el(tag: str, text: str) -> str:
        return f"<{tag}>{escape(text)}</{tag}>"

    f = p.figures(RatingList.STANDARD if combined else rating_list)
    parts = [el("fideid", str(p.fide_id)), el("name", p.name), el("country", p.federation),
             el("sex", p.sex), el("title", p.title), el("w_title", p.women_title),
             el("o_title", p.other_titles), el("foa_title", p.foa_title),
             el("rating", v(f.rating)), el("games", v(f.games)), el("k", v(f.k))]
    if combined:
        for prefix, g in (("rapid", p.rapid), ("blitz", p.blitz)):
            parts += [el(f"{prefix}_rating", v(g.rating)), el(f"{prefix}_games", v(g.games)),
                      el(f"{prefix}_k", v(g.k))]
    parts += [el("birthday", "" if p.birth_year is None else str(p.birth_year)),
              el("flag", p.flag)]
    return "<player>" + "".join(parts) + "</player>\n"


def write_list(out: IO[str], people: Iterator[Player] | list[Player], fmt: str, *,
               rating_list: RatingList = RatingList.STANDARD,
               period: Period = DEFAULT_PERIOD) -> int:
    """Write the players in `fmt` (one of FORMATS) to a text stream; returns the count."""
    if fmt not in FORMATS:
        raise TrackerError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    combined = fmt.startswith("combined")
    n = 0
    if fmt.endswith("txt"):
        lists = tuple(RatingList) if combined else (rating_list,)
        out.write(txt_header(period, combined=combined) + "\n")
        for p in people:
            out.write(txt_line(p, lists) + "\n")
            n += 1
    else:
        out.write('<?xml version="1.0" encoding="UTF-8"?>\n<playerslist>\n')
        for p in people:
            out.write(xml_player(p, combined=combined, rating_list=rating_list,
                                 zero_for_empty=p.fide_id % 2 == 0))
            n += 1
        out.write("</playerslist>\n")
    return n


def generate(path: str | Path, count: int, fmt: str, *, zipped: bool = False, seed: int = 1,
             rating_list: RatingList = RatingList.STANDARD, period: Period = DEFAULT_PERIOD,
             encoding: str = "utf-8", member: str | None = None) -> Path:
    """Write a list of `count` players to `path` (a zip holding one member when `zipped`)."""
    path = Path(path)
    if fmt not in FORMATS:
        raise TrackerError(f"unknown format {fmt!r}: use one of {', '.join(FORMATS)}")
    if fmt.endswith("xml"):
        encoding = "utf-8"
    people = players(count, seed=seed, period=period, latin1=encoding.lower() != "utf-8")
    kw = {"rating_list": rating_list, "period": period}
    if zipped:
        inner = member or (path.stem + (".xml" if fmt.endswith("xml") else ".txt"))
        with zipfile.ZipFile(path, "w", compression=zipfile.ZIP_DEFLATED,
                             compresslevel=1) as zf, \
                zf.open(inner, "w", force_zip64=True) as raw, \
                io.TextIOWrapper(raw, encoding=encoding, newline="\n") as out:
            write_list(out, people, fmt, **kw)  # type: ignore[arg-type]
    else:
        with path.open("w", encoding=encoding, newline="\n") as out:
            write_list(out, people, fmt, **kw)  # type: ignore[arg-type]
    return path


def main(argv: list[str] | None = None) -> int:
    parser = argparse.ArgumentParser(
        prog="python -m tracker.listgen",
        description="Write a realistic, deterministic FIDE rating list for tests/benchmarks.",
    )
    parser.add_argument("--players", type=int, required=True, help="number of players")
    parser.add_argument("--format", choices=FORMATS, required=True)
    parser.add_argument("--zip", action="store_true", help="write a zip holding the list")
    parser.add_argument("-o", "--output", required=True, help="file to write")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--list", default="standard", help="the list of a single list")
    parser.add_argument("--period", default="2025-11", help="the list month, YYYY-MM")
    parser.add_argument("--encoding", default="utf-8", choices=("utf-8", "latin-1"),
                        help="TXT encoding (XML is always UTF-8)")
    args = parser.parse_args(argv)
    try:
        if args.players < 0:
            raise TrackerError("--players must be 0 or more")
        path = generate(args.output, args.players, args.format, zipped=args.zip,
                        seed=args.seed, rating_list=RatingList.parse(args.list),
                        period=Period.parse(args.period), encoding=args.encoding)
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
