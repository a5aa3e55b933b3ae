"""Write the sample season of `sample_pgns/` (fictitious; see README.md beside this file).

Run from the repository root:  python sample_pgns/make_samples.py  (needs a `stockfish`
binary on PATH or in /usr/games for the moves; the committed files were made with Stockfish
15.1 from Debian, one thread, a fixed node budget, so a rerun with that version writes the
same bytes).

Everything about the season is data in this file: the players and their list ratings, the
tournaments, pairings and results. The moves are played by the engine from a real opening
line, steered towards the recorded result (the side that wins plays the engine's best move,
the other side sometimes its second or third choice) and stopped where a human game would
stop: mate, resignation when the evaluation is decisive, or a draw agreed in a level
position. Every game is therefore legal and its end is not nonsense.

The player's own Elo tags come from `own_ratings()`: the list ratings that follow from the
official anchor (standard 1850, rapid 1795, blitz 1760 on the 2025-09 lists) and FIDE's
table 8.1.2 (read from shared/spec/table-8-1-2.csv). The README derives the first two
standard periods by hand; `own_ratings()` asserts that it agrees with that derivation.
"""

from __future__ import annotations

import datetime as dt
import gzip
import hashlib
import io
import random
import shutil
import sys
import zipfile
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from decimal import ROUND_HALF_UP, Decimal
from pathlib import Path

import chess
import chess.engine
import chess.pgn

HERE = Path(__file__).resolve().parent
TABLE = HERE.parent.parent / "shared" / "spec" / "table-8-1-2.csv"

# --------------------------------------------------------------------------------------------
# Players. Ratings per list: {first list month: rating}; a rating holds until the next entry.
# --------------------------------------------------------------------------------------------

ME = "novak"


@dataclass(frozen=True)
class Player:
    name: str
    fide_id: str  # "" when the player has no FIDE ID
    fed: str
    born: int
    std: dict[str, int] = field(default_factory=dict)
    rapid: dict[str, int] = field(default_factory=dict)
    blitz: dict[str, int] = field(default_factory=dict)

    def rating(self, lst: str, period: str) -> int | None:
        table = {"standard": self.std, "rapid": self.rapid, "blitz": self.blitz}[lst]
        known = [p for p in table if p <= period]
        return table[max(known)] if known else None


P: dict[str, Player] = {
    "novak": Player("Novák, Tomáš", "99012345", "CZE", 1988),  # ratings: own_ratings()
    # Brno Autumn Open (September lists)
    "horak": Player("Horák, Jakub", "", "CZE", 1979),  # unrated, no FIDE ID
    "kovarova": Player(
        "Kovářová, Eliška",
        "99034567",
        "CZE",
        2013,  # junior (12 in September 2025)
        std={"2025-09": 1432, "2025-10": 1478, "2025-11": 1503, "2025-12": 1521, "2026-02": 1547},
        blitz={"2025-09": 1466},
    ),
    "dvorak": Player(
        "Dvořák, Petr",
        "99021450",
        "CZE",
        1979,
        std={"2025-09": 1968, "2025-10": 1961, "2025-12": 1958},
        rapid={"2025-09": 1931},
        blitz={"2025-09": 1932},
    ),
    "prochazka": Player(
        "Procházka, Martin", "99027731", "CZE", 1995, std={"2025-09": 1903}, blitz={"2025-09": 1872}
    ),
    "simek": Player(
        "Šimek, Ondřej", "99041208", "CZE", 2001, std={"2025-09": 1795}, blitz={"2025-09": 1811}
    ),
    "ruzicka": Player(
        "Růžička, Karel",
        "99019876",
        "CZE",
        1966,
        std={"2025-09": 1881, "2025-10": 1879},
        blitz={"2025-09": 1795},
    ),
    "tichy": Player("Tichý, Stanislav", "99040317", "CZE", 1961, blitz={"2025-09": 1688}),
    # Olomouc Open (October lists)
    "marek": Player(
        "Marek, Lukáš", "99052213", "CZE", 2004, std={"2025-10": 1601}, blitz={"2025-09": 1702}
    ),
    "wojcik": Player("Wójcik, Bartosz", "99061127", "POL", 1990, std={"2025-10": 2012}),
    "bauer": Player("Bauer, Stefan", "99070345", "GER", 1984, std={"2025-10": 1927}),
    "horvath": Player("Horváth, Zoltán", "99080012", "HUN", 1972, std={"2025-10": 1840}),
    "kaczmarek": Player("Kaczmarek, Tomasz", "99061840", "POL", 1998, std={"2025-10": 1899}),
    "kucera": Player("Kučera, Roman", "99024477", "CZE", 1986, std={"2025-10": 1876}),
    # the club (ŠK Lípa Brno)
    "benes": Player(
        "Beneš, Radek",
        "99023390",
        "CZE",
        1983,
        std={"2025-10": 1876, "2025-12": 1869},
        rapid={"2025-09": 1842},
        blitz={"2025-09": 1850},
    ),
    "sedlacek": Player(
        "Sedláček, Jiří", "99025561", "CZE", 1958, std={"2025-10": 1712}, blitz={"2025-09": 1640}
    ),
    "pokorna": Player(
        "Pokorná, Jana", "99030078", "CZE", 1992, std={"2025-10": 1650}, blitz={"2025-09": 1611}
    ),
    # Weinviertel Open (November lists; names written in Windows-1252)
    "polzl": Player("Pölzl, Günther", "99090213", "AUT", 1970, std={"2025-11": 1788}),
    "strauss": Player("Strauß, Matthias", "99091077", "AUT", 1999, std={"2025-11": 2047}),
    "levai": Player("Lévai, Zoé", "99096612", "FRA", 2009, std={"2025-11": 1815}),
    "hubner": Player("Hübner, René", "99071456", "GER", 1987, std={"2025-11": 1934}),
    "suster": Player("Šuster, Žiga", "99095530", "SLO", 2006, std={"2025-11": 1902}),
    # Znojmo Rapid (November rapid list)
    "hruby": Player("Hrubý, Matěj", "", "CZE", 2010),  # unrated, no FIDE ID
    "kratochvil": Player(
        "Kratochvíl, Jan", "99032201", "CZE", 1975, rapid={"2025-09": 1688}, blitz={"2025-09": 1660}
    ),
    "schwarz": Player("Schwarz, Lukas", "99091880", "AUT", 1993, rapid={"2025-09": 1902}),
    "cerna": Player("Černá, Tereza", "99033456", "CZE", 2000, rapid={"2025-09": 1744}),
    "mraz": Player(
        "Mráz, Adam",
        "99035521",
        "CZE",
        2012,  # junior
        rapid={"2025-09": 1612},
        blitz={"2025-09": 1651, "2025-12": 1705},
    ),
    "navratil": Player("Navrátil, Roman", "99024410", "CZE", 1981, rapid={"2025-09": 1866}),
    # league opponents and later events
    "maly": Player(
        "Malý, Vojtěch",
        "99026604",
        "CZE",
        1990,
        std={"2025-09": 1830, "2026-01": 1822},
        blitz={"2025-09": 1799},
    ),
    "urban": Player(
        "Urban, Josef",
        "99029945",
        "CZE",
        1977,
        std={"2025-09": 1921, "2026-03": 1917},
        blitz={"2025-09": 1881},
    ),
    "krejci": Player("Krejčí, Aleš", "99038812", "CZE", 1969, std={"2026-02": 1702}),
    "havlicek": Player("Havlíček, Filip", "99036690", "CZE", 1997, std={"2026-02": 2044}),
    "fiala": Player("Fiala, Michal", "99031123", "CZE", 1985, std={"2026-02": 1986}),
    "zelenka": Player("Zelenka, David", "99037405", "CZE", 2002, std={"2026-02": 1899}),
    # Jihlava Rapid (March rapid list)
    "svoboda": Player("Svoboda, Pavel", "99022718", "CZE", 1964, rapid={"2026-03": 1720}),
    "kolar": Player("Kolář, Dominik", "99039901", "CZE", 2003, rapid={"2026-03": 1806}),
    "stepanek": Player("Štěpánek, Vít", "99027054", "CZE", 1991, rapid={"2026-03": 1911}),
    "nguyen": Player("Nguyen, Van Minh", "99037770", "CZE", 2005, rapid={"2026-03": 1768}),
    "pesek": Player("Pešek, Jaroslav", "99020561", "CZE", 1973, rapid={"2026-03": 1893}),
    "horvathova": Player("Horváthová, Lucia", "99140022", "SVK", 1996, rapid={"2026-03": 1655}),
}
P["benes"].rapid["2026-03"] = 1842  # unchanged (no rapid games in between)

# --------------------------------------------------------------------------------------------
# Tournaments
# --------------------------------------------------------------------------------------------


@dataclass
class G:
    rnd: str
    date: str  # YYYY-MM-DD
    white: str
    black: str
    result: str
    forfeit: bool = False
    unfinished_at: int = 0  # >0: a live export taken at this ply, result "*"


@dataclass
class Event:
    key: str
    file: str  # path relative to sample_pgns/
    name: str
    site: str
    lst: str  # standard / rapid / blitz
    tc: str | None  # the TimeControl tag, None: no tag written
    games: list[G]
    start: str = ""
    notes: str = ""
    extra: dict[str, str] = field(default_factory=dict)

    def __post_init__(self) -> None:
        if not self.start:
            self.start = min(g.date for g in self.games)

    @property
    def list_period(self) -> str:
        """The list in force at the tournament start: its Elo tags come from it."""
        return self.start[:7]

    @property
    def end(self) -> str:
        return max(g.date for g in self.games)

    @property
    def rated_period(self) -> str:
        """The first list after the last round (all end well before a closing date)."""
        y, m = int(self.end[:4]), int(self.end[5:7])
        y, m = (y + 1, 1) if m == 12 else (y, m + 1)
        return f"{y:04d}-{m:02d}"


def swiss(dates: list[str], rows: list[tuple[str, str, str]]) -> list[G]:
    pairs = zip(dates, rows, strict=True)
    return [G(str(i + 1), d, w, b, r) for i, (d, (w, b, r)) in enumerate(pairs)]


EVENTS: list[Event] = [
    Event(
        "brno",
        "2025-09-12_brno-autumn-open.pgn",
        "Brno Autumn Open 2025",
        "Brno CZE",
        "standard",
        "5400+30",
        swiss(
            ["2025-09-12", "2025-09-13", "2025-09-13", "2025-09-14", "2025-09-14"],
            [
                ("novak", "horak", "1-0"),
                ("kovarova", "novak", "0-1"),
                ("novak", "dvorak", "1/2-1/2"),
                ("prochazka", "novak", "1-0"),
                ("novak", "simek", "1-0"),
            ],
        ),
    ),
    Event(
        "brno_blitz",
        "2025-09-14_brno-autumn-blitz.pgn",
        "Brno Autumn Blitz 2025",
        "Brno CZE",
        "blitz",
        "180+2",
        swiss(
            ["2025-09-14"] * 7,
            [
                ("novak", "kovarova", "1-0"),
                ("simek", "novak", "1-0"),
                ("novak", "tichy", "1-0"),
                ("marek", "novak", "0-1"),
                ("novak", "prochazka", "1/2-1/2"),
                ("dvorak", "novak", "1-0"),
                ("novak", "ruzicka", "1-0"),
            ],
        ),
    ),
    Event(
        "league1",
        "league/2025-09-21_2-liga-b-round-1.pgn",
        "2. liga B 2025/26, round 1",
        "Zlín CZE",
        "standard",
        "5400+30",
        [G("1.3", "2025-09-21", "ruzicka", "novak", "1/2-1/2")],
        extra={"WhiteTeam": "TJ Sokol Zlín", "BlackTeam": "ŠK Lípa Brno"},
    ),
    Event(
        "olomouc",
        "2025-10-03_olomouc-open.pgn",
        "Olomouc Open 2025",
        "Olomouc CZE",
        "standard",
        "40/5400:1800+30",
        swiss(
            ["2025-10-03", "2025-10-04", "2025-10-04", "2025-10-05", "2025-10-05"],
            [
                ("novak", "marek", "1-0"),
                ("wojcik", "novak", "1/2-1/2"),
                ("novak", "bauer", "0-1"),
                ("horvath", "novak", "0-1"),
                ("novak", "kaczmarek", "1-0"),
            ],
        ),
    ),
    Event(
        "league2",
        "league/2025-10-12_2-liga-b-round-2.pgn",
        "2. liga B 2025/26, round 2",
        "Brno CZE",
        "standard",
        "5400+30",
        [G("2.3", "2025-10-12", "novak", "kucera", "1/2-1/2")],
        extra={"WhiteTeam": "ŠK Lípa Brno", "BlackTeam": "ŠK Vysočina Jihlava"},
    ),
    Event(
        "club",
        "2025-10-22_lipa-brno-championship.zip",
        "ŠK Lípa Brno Championship 2025",
        "Brno CZE",
        "standard",
        "40/5400:1800+30",
        # a six-player round robin (Berger tables), Wednesdays, all 15 games
        [
            G("1", "2025-10-22", "dvorak", "pokorna", "1-0"),
            G("1", "2025-10-22", "novak", "sedlacek", "1-0"),
            G("1", "2025-10-22", "benes", "kovarova", "1/2-1/2"),
            G("2", "2025-10-29", "pokorna", "kovarova", "0-1"),
            G("2", "2025-10-29", "sedlacek", "benes", "0-1"),
            G("2", "2025-10-29", "dvorak", "novak", "1/2-1/2"),
            G("3", "2025-11-05", "novak", "pokorna", "1-0"),
            G("3", "2025-11-05", "benes", "dvorak", "1/2-1/2"),
            G("3", "2025-11-05", "kovarova", "sedlacek", "1-0"),
            G("4", "2025-11-12", "pokorna", "sedlacek", "1/2-1/2"),
            G("4", "2025-11-12", "dvorak", "kovarova", "1-0"),
            G("4", "2025-11-12", "novak", "benes", "0-1"),
            G("5", "2025-11-19", "benes", "pokorna", "1-0"),
            G("5", "2025-11-19", "kovarova", "novak", "1/2-1/2"),
            G("5", "2025-11-19", "sedlacek", "dvorak", "0-1"),
        ],
    ),
    Event(
        "znojmo",
        "2025-11-08_znojmo-rapid.pgn",
        "Znojmo Rapid 2025",
        "Znojmo CZE",
        "rapid",
        "900+10",
        swiss(
            ["2025-11-08"] * 7,
            [
                ("novak", "hruby", "1-0"),
                ("kratochvil", "novak", "0-1"),
                ("novak", "schwarz", "1/2-1/2"),
                ("dvorak", "novak", "1-0"),
                ("novak", "cerna", "1-0"),
                ("mraz", "novak", "1/2-1/2"),
                ("novak", "navratil", "*"),
            ],
        ),
    ),
    Event(
        "weinviertel",
        "2025-11-21_weinviertel-open.pgn",
        "Weinviertel Open 2025",
        "Mistelbach AUT",
        "standard",
        "5400+30",
        swiss(
            ["2025-11-21", "2025-11-22", "2025-11-22", "2025-11-23", "2025-11-23"],
            [
                ("novak", "polzl", "1-0"),
                ("strauss", "novak", "1-0"),
                ("novak", "levai", "1-0"),
                ("hubner", "novak", "1/2-1/2"),
                ("novak", "suster", "1/2-1/2"),
            ],
        ),
    ),
    Event(
        "xmas",
        "2025-12-20_brno-christmas-blitz.pgn",
        "Brno Christmas Blitz 2025",
        "Brno CZE",
        "blitz",
        "300+3",
        swiss(
            ["2025-12-20"] * 7,
            [
                ("novak", "kratochvil", "1-0"),
                ("urban", "novak", "1-0"),
                ("novak", "pokorna", "1-0"),
                ("mraz", "novak", "1-0"),
                ("novak", "sedlacek", "1/2-1/2"),
                ("maly", "novak", "0-1"),
                ("novak", "benes", "1/2-1/2"),
            ],
        ),
    ),
    Event(
        "league5",
        "league/2026-01-18_2-liga-b-round-5.pgn",
        "2. liga B 2025/26, round 5",
        "Brno CZE",
        "standard",
        None,  # the club's website writes no TimeControl tag
        [G("5.4", "2026-01-18", "maly", "novak", "0-1")],
        extra={"WhiteTeam": "ŠK Sokol Brno-Židenice", "BlackTeam": "ŠK Lípa Brno"},
    ),
    Event(
        "pardubice",
        "2026-02-13_pardubice-winter-open.pgn.gz",
        "Pardubice Winter Open 2026",
        "Pardubice CZE",
        "standard",
        "5400+30",
        swiss(
            ["2026-02-13", "2026-02-14", "2026-02-14", "2026-02-15", "2026-02-15"],
            [
                ("novak", "krejci", "1-0"),
                ("havlicek", "novak", "1/2-1/2"),
                ("novak", "fiala", "0-1"),
                ("kovarova", "novak", "1-0"),
                ("novak", "zelenka", "1-0"),
            ],
        ),
    ),
    Event(
        "league8",
        "league/2026-03-08_2-liga-b-round-8.pgn",
        "2. liga B 2025/26, round 8",
        "Brno CZE",
        "standard",
        "5400+30",
        [G("8.3", "2026-03-08", "novak", "urban", "1/2-1/2")],
        extra={"WhiteTeam": "ŠK Lípa Brno", "BlackTeam": "TJ Slavia Třebíč"},
    ),
    Event(
        "jihlava",
        "2026-03-21_jihlava-rapid.pgn",
        "Jihlava Rapid 2026",
        "Jihlava CZE",
        "rapid",
        "1500+10",
        swiss(
            ["2026-03-21"] * 7,
            [
                ("novak", "svoboda", "1-0"),
                ("kolar", "novak", "1/2-1/2"),
                ("novak", "benes", "0-1"),
                ("stepanek", "novak", "0-1"),
                ("novak", "nguyen", "1-0"),
                ("pesek", "novak", "1/2-1/2"),
                ("novak", "horvathova", "1-0"),
            ],
        ),
    ),
]

# special games
_olomouc = next(e for e in EVENTS if e.key == "olomouc")
_olomouc.games[4].forfeit = True  # Kaczmarek did not appear for round 5
_znojmo = next(e for e in EVENTS if e.key == "znojmo")
_znojmo.games[6].unfinished_at = 57  # the live file was saved while round 7 was running
next(e for e in EVENTS if e.key == "club").start = "2025-10-22"

# the online games (lichess usernames and lichess ratings; never FIDE data)
LICHESS = [
    # (game id, date, time, white, black, white elo, black elo, diffs, result, tc, event)
    (
        "Xq7mB2kP",
        "2026.01.09",
        "19:42:10",
        "TomasNovak88",
        "vltava_knight",
        2041,
        2012,
        ("+6", "-6"),
        "1-0",
        "180+2",
        "Rated Blitz game",
    ),
    (
        "h3Lw9ZcD",
        "2026.01.09",
        "19:51:37",
        "MatVeDvou",
        "TomasNovak88",
        2098,
        2047,
        ("+5", "-5"),
        "1-0",
        "180+2",
        "Rated Blitz game",
    ),
    (
        "Pn4sT8vR",
        "2026.01.11",
        "10:05:02",
        "TomasNovak88",
        "Bohemian_Rhapsody64",
        2042,
        1987,
        ("+0", "+0"),
        "1/2-1/2",
        "600+0",
        "Rated Rapid game",
    ),
]
LICHESS_FILE = "2026-01_lichess-tomasnovak88.pgn"

# --------------------------------------------------------------------------------------------
# The player's own ratings (what FIDE's lists say after each period)
# --------------------------------------------------------------------------------------------

ANCHOR = {"standard": 1850, "rapid": 1795, "blitz": 1760}  # 2025-09 lists, K 20
K = 20
# derived by hand in README.md ("Hand derivation"): standard after periods 2025-10, 2025-11
HAND = {"2025-10": 1855, "2025-11": 1865}


def expected_table() -> list[tuple[int, int | None, Decimal, Decimal]]:
    rows = []
    for line in TABLE.read_text().splitlines()[1:]:
        lo, hi, ph, pl = line.split(",")
        rows.append((int(lo), int(hi) if hi else None, Decimal(ph), Decimal(pl)))
    return rows


def expected(d: int) -> Decimal:
    capped = max(-400, min(400, d))
    for lo, hi, ph, pl in expected_table():
        if lo <= abs(capped) and (hi is None or abs(capped) <= hi):
            return ph if capped >= 0 else pl
    raise AssertionError(d)


def score(result: str, white: bool) -> Decimal | None:
    s = {"1-0": Decimal(1), "0-1": Decimal(0), "1/2-1/2": Decimal("0.5")}.get(result)
    if s is None:
        return None
    return s if white else 1 - s


def counts(ev: Event, g: G) -> bool:
    opp = g.black if g.white == ME else g.white
    return (
        ME in (g.white, g.black)
        and not g.forfeit
        and not g.unfinished_at
        and g.result != "*"
        and P[opp].rating(ev.lst, ev.list_period) is not None
    )


MONTHS = [
    f"{y}-{m:02d}"
    for y, m in [
        (2025, 9),
        (2025, 10),
        (2025, 11),
        (2025, 12),
        (2026, 1),
        (2026, 2),
        (2026, 3),
        (2026, 4),
    ]
]


def own_ratings() -> dict[str, dict[str, int]]:
    """{list: {period: rating}} for the player, replayed from the anchor: Ro from the list
    in force at each tournament start, |D| capped at 400, K 20 (n x K stays below 700),
    one rounding per period, half away from zero."""
    out: dict[str, dict[str, int]] = {}
    for lst, anchor in ANCHOR.items():
        ratings = {"2025-09": anchor}
        for period in MONTHS[1:]:
            total = Decimal(0)
            for ev in EVENTS:
                if ev.lst != lst or ev.rated_period != period:
                    continue
                ro = ratings[ev.list_period]
                for g in ev.games:
                    if not counts(ev, g):
                        continue
                    white = g.white == ME
                    opp = P[g.black if white else g.white].rating(lst, ev.list_period)
                    assert opp is not None
                    s = score(g.result, white)
                    assert s is not None
                    total += s - expected(ro - opp)
            change = (K * total).quantize(Decimal(1), rounding=ROUND_HALF_UP)  # away from 0
            prev = ratings[MONTHS[MONTHS.index(period) - 1]]
            ratings[period] = prev + int(change)
        out[lst] = ratings
    for period, rating in HAND.items():
        assert out["standard"][period] == rating, (period, out["standard"][period])
    return out


# --------------------------------------------------------------------------------------------
# Moves
# --------------------------------------------------------------------------------------------

OPENINGS = [
    ("C88", "e4 e5 Nf3 Nc6 Bb5 a6 Ba4 Nf6 O-O Be7 Re1 b5 Bb3 O-O"),
    ("B90", "e4 c5 Nf3 d6 d4 cxd4 Nxd4 Nf6 Nc3 a6 Be3 e5 Nb3 Be6"),
    ("E48", "d4 Nf6 c4 e6 Nc3 Bb4 e3 O-O Bd3 d5 cxd5 exd5"),
    ("D17", "d4 d5 c4 c6 Nf3 Nf6 Nc3 dxc4 a4 Bf5 Ne5 e6"),
    ("C13", "e4 e6 d4 d5 Nc3 Nf6 Bg5 Be7 e5 Nfd7 Bxe7 Qxe7"),
    ("B12", "e4 c6 d4 d5 e5 Bf5 Nf3 e6 Be2 c5 Be3 Nd7"),
    ("E92", "d4 Nf6 c4 g6 Nc3 Bg7 e4 d6 Nf3 O-O Be2 e5 d5 a5"),
    ("A29", "c4 e5 Nc3 Nf6 Nf3 Nc6 g3 d5 cxd5 Nxd5 Bg2 Nb6"),
    ("C54", "e4 e5 Nf3 Nc6 Bc4 Bc5 c3 Nf6 d3 d6 O-O O-O"),
    ("D02", "d4 d5 Nf3 Nf6 Bf4 e6 e3 c5 c3 Nc6 Nbd2 Bd6"),
    ("B25", "e4 c5 Nc3 Nc6 g3 g6 Bg2 Bg7 d3 d6 f4 e6"),
    ("B01", "e4 d5 exd5 Qxd5 Nc3 Qa5 d4 Nf6 Nf3 c6 Bc4 Bf5"),
    ("E15", "d4 Nf6 c4 e6 Nf3 b6 g3 Ba6 b3 Bb4+ Bd2 Be7"),
    ("C42", "e4 e5 Nf3 Nf6 Nxe5 d6 Nf3 Nxe4 d4 d5 Bd3 Nc6"),
    ("B48", "e4 c5 Nf3 e6 d4 cxd4 Nxd4 Nc6 Nc3 Qc7 Be3 a6"),
    ("D55", "d4 d5 c4 e6 Nc3 Nf6 Bg5 Be7 e3 O-O Nf3 h6"),
    ("A07", "Nf3 d5 g3 Nf6 Bg2 c6 O-O Bg4 d3 Nbd7"),
    ("B06", "e4 g6 d4 Bg7 Nc3 d6 Be3 a6 Qd2 b5"),
]

NODES = 12000


def find_engine() -> str:
    found = shutil.which("stockfish") or shutil.which("stockfish", path="/usr/games")
    if not found:
        raise SystemExit("stockfish not found: apt-get install stockfish (Debian 15.1 used)")
    return found


def cp(info: chess.engine.InfoDict) -> int:
    """Evaluation in centipawns from White's point of view (mates as +-10000)."""
    return info["score"].white().score(mate_score=10000)


def play(
    engine: chess.engine.SimpleEngine, key: str, result: str, stop_at: int = 0
) -> tuple[str, list[chess.Move]]:
    """A legal game from a real opening line that ends the way `result` says."""
    winner = {"1-0": chess.WHITE, "0-1": chess.BLACK}.get(result)
    for attempt in range(60):
        seed = int(hashlib.sha256(f"{key}/{attempt}".encode()).hexdigest()[:12], 16)
        rng = random.Random(seed)
        eco, line = OPENINGS[rng.randrange(len(OPENINGS))]
        board = chess.Board()
        for san in line.split()[: rng.randrange(6, len(line.split()) + 1)]:
            board.push_san(san)
        agree_after = rng.randrange(40, 80)
        game_id = object()
        ok = False
        last_was_capture = False
        while board.ply() <= 170:
            if stop_at and board.ply() >= stop_at:
                ok = True
                break
            outcome = board.outcome(claim_draw=True)
            if outcome is not None:
                if winner is None:
                    ok = outcome.winner is None and board.ply() >= 40
                else:
                    ok = outcome.winner == winner
                break
            infos = engine.analyse(board, chess.engine.Limit(nodes=NODES), multipv=3, game=game_id)
            ev = cp(infos[0])
            if not stop_at:
                if winner is not None:
                    own = ev if winner == chess.WHITE else -ev
                    if own <= -300 and board.ply() > 30:
                        break  # going the wrong way: try another game
                    if own >= 500 and board.turn != winner and board.ply() > 40:
                        ok = True  # the loser resigns instead of moving
                        break
                else:
                    if abs(ev) >= 250 and board.ply() > 50:
                        break
                    slack = 30 + max(0, board.ply() - agree_after)
                    quiet = not board.is_check() and not last_was_capture
                    if board.ply() >= agree_after and abs(ev) <= min(slack, 90) and quiet:
                        ok = True  # draw agreed
                        break
            if winner is None:
                weights = [0.8, 0.15, 0.05]
                margin = 60
            elif board.turn == winner:
                weights = [0.9, 0.08, 0.02]
                margin = 60
            else:
                weights = [0.45, 0.35, 0.2]
                margin = 250
            choices = [i for i in infos if "pv" in i]
            best = cp(choices[0])
            sane = [i for i in choices if abs(cp(i) - best) <= margin]
            pick = rng.choices(sane, weights=weights[: len(sane)])[0]
            last_was_capture = board.is_capture(pick["pv"][0])
            board.push(pick["pv"][0])
        if ok:
            return eco, list(board.move_stack)
    raise RuntimeError(f"no game found for {key} {result}")


# --------------------------------------------------------------------------------------------
# Writing PGN
# --------------------------------------------------------------------------------------------


def movetext(
    moves: list[chess.Move], result: str, clocks: list[str] | None = None, comment: str = ""
) -> str:
    game = chess.pgn.Game()
    node: chess.pgn.GameNode = game
    for i, move in enumerate(moves):
        node = node.add_variation(move)
        if clocks is not None:
            node.comment = f"[%clk {clocks[i]}]"
    game.comment = comment
    game.headers["Result"] = result
    exporter = chess.pgn.StringExporter(headers=False, columns=79, comments=True)
    return game.accept(exporter)


def header(tags: list[tuple[str, str]], blank_after: int = -1) -> str:
    lines = []
    for i, (k, v) in enumerate(tags):
        lines.append(f'[{k} "{v}"]')
        if i == blank_after:
            lines.append("")  # the ChessBase quirk: an empty line inside the header
    return "\n".join(lines) + "\n"


def pgn_date(iso: str) -> str:
    return iso.replace("-", ".")


def event_text(
    ev: Event, engine: chess.engine.SimpleEngine, ratings: dict[str, dict[str, int]]
) -> str:
    chunks = []
    chessbase = ev.key == "weinviertel"
    for n, g in enumerate(ev.games):

        def elo(who: str) -> str:
            if who == ME:
                return str(ratings[ev.lst][ev.list_period])
            r = P[who].rating(ev.lst, ev.list_period)
            return "0" if r is None and ev.key == "brno" else ("" if r is None else str(r))

        w, b = P[g.white], P[g.black]
        rnd = f"{g.rnd}.{(9, 4, 7, 3, 5)[n]}" if chessbase else g.rnd
        tags = [
            ("Event", ev.name),
            ("Site", ev.site),
            ("Date", pgn_date(g.date)),
            ("Round", rnd),
            ("White", w.name),
            ("Black", b.name),
            ("Result", "*" if g.unfinished_at else g.result),
        ]
        if g.forfeit:
            moves: list[chess.Move] = []
            eco = ""
        else:
            eco, moves = play(
                engine, f"{ev.key}/{g.rnd}/{g.white}/{g.black}", g.result, g.unfinished_at
            )
        if chessbase:
            tags += [
                ("ECO", eco),
                ("WhiteElo", elo(g.white)),
                ("BlackElo", elo(g.black)),
                ("PlyCount", str(len(moves))),
                ("EventDate", pgn_date(ev.start)),
                ("TimeControl", ev.tc or "?"),
                ("WhiteFideId", w.fide_id),
                ("BlackFideId", b.fide_id),
            ]
        else:
            tags += [("WhiteElo", elo(g.white)), ("BlackElo", elo(g.black))]
            if w.fide_id:
                tags.append(("WhiteFideId", w.fide_id))
            if b.fide_id:
                tags.append(("BlackFideId", b.fide_id))
            if eco:
                tags.append(("ECO", eco))
            tags.append(("EventDate", pgn_date(ev.start)))
            if ev.tc is not None:
                tags.append(("TimeControl", ev.tc))
            tags += list(ev.extra.items())
        blank_after = 0 if chessbase and n == 2 else -1
        comment = f"{b.name.split(',')[0]} did not appear" if g.forfeit else ""
        text = movetext(moves, "*" if g.unfinished_at else g.result, comment=comment)
        chunks.append(header(tags, blank_after) + "\n" + text + "\n")
    return "\n".join(chunks)


def lichess_text(engine: chess.engine.SimpleEngine) -> str:
    chunks = []
    for gid, date, time, white, black, we, be, diffs, result, tc, event in LICHESS:
        eco, moves = play(engine, f"lichess/{gid}", result)
        base, inc = (int(x) for x in tc.split("+"))
        rng = random.Random(gid)
        left = [base, base]
        clocks = []
        for i, _ in enumerate(moves):
            side = i % 2
            if i >= 2:
                left[side] = max(1, left[side] - rng.randrange(1, 12) + inc)
            s = left[side]
            clocks.append(f"{s // 3600}:{s // 60 % 60:02d}:{s % 60:02d}")
        tags = [
            ("Event", event),
            ("Site", f"https://lichess.org/{gid}"),
            ("Date", date),
            ("Round", "-"),
            ("White", white),
            ("Black", black),
            ("Result", result),
            ("UTCDate", date),
            ("UTCTime", time),
            ("WhiteElo", str(we)),
            ("BlackElo", str(be)),
            ("WhiteRatingDiff", diffs[0]),
            ("BlackRatingDiff", diffs[1]),
            ("Variant", "Standard"),
            ("TimeControl", tc),
            ("ECO", eco),
            ("Termination", "Normal"),
        ]
        chunks.append(header(tags) + "\n" + movetext(moves, result, clocks) + "\n")
    return "\n".join(chunks)


FIXED_TIME = (2025, 11, 20, 21, 30, 0)


def write(ev: Event, text: str) -> None:
    path = HERE / ev.file
    path.parent.mkdir(parents=True, exist_ok=True)
    if ev.key == "brno":  # UTF-8 with a byte order mark, as Windows tools write it
        path.write_bytes(b"\xef\xbb\xbf" + text.encode("utf-8"))
    elif ev.key == "brno_blitz":  # CRLF line ends
        path.write_bytes(text.replace("\n", "\r\n").encode("utf-8"))
    elif ev.key == "weinviertel":  # ChessBase export: Windows-1252
        path.write_bytes(text.encode("cp1252"))
    elif ev.key == "league5":  # the club's website: no final newline
        path.write_bytes(text.rstrip("\n").encode("utf-8"))
    elif ev.file.endswith(".zip"):
        info = zipfile.ZipInfo("lipa-brno-championship-2025.pgn", date_time=FIXED_TIME)
        info.compress_type = zipfile.ZIP_DEFLATED
        info.create_system = 3
        info.external_attr = 0o644 << 16
        buf = io.BytesIO()
        with zipfile.ZipFile(buf, "w") as zf:
            zf.writestr(info, text.encode("utf-8"), compresslevel=9)
        path.write_bytes(buf.getvalue())
    elif ev.file.endswith(".gz"):
        buf = io.BytesIO()
        mtime = int(dt.datetime(2026, 2, 16, 9, 0, tzinfo=dt.UTC).timestamp())
        with gzip.GzipFile(
            filename="pardubice-winter-open-2026.pgn",
            mode="wb",
            fileobj=buf,
            compresslevel=9,
            mtime=mtime,
        ) as gz:
            gz.write(text.encode("utf-8"))
        path.write_bytes(buf.getvalue())
    else:
        path.write_bytes(text.encode("utf-8"))


def build(key: str) -> str:
    """Write one file (an event's, or the lichess export for key "lichess")."""
    ratings = own_ratings()
    engine = chess.engine.SimpleEngine.popen_uci(find_engine())
    try:
        engine.configure({"Threads": 1, "Hash": 16})
        if key == "lichess":
            (HERE / LICHESS_FILE).write_bytes(lichess_text(engine).encode("utf-8"))
            return LICHESS_FILE
        ev = next(e for e in EVENTS if e.key == key)
        write(ev, event_text(ev, engine, ratings))
        return ev.file
    finally:
        engine.quit()


def main() -> None:
    for lst, by_period in own_ratings().items():
        print(lst, by_period)
    keys = [ev.key for ev in EVENTS] + ["lichess"]
    wanted = sys.argv[1:] or keys
    with ProcessPoolExecutor(max_workers=2) as pool:
        for name in pool.map(build, wanted):
            print("wrote", name, flush=True)


if __name__ == "__main__":
    main()
