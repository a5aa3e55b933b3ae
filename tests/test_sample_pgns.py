"""sample_pgns/ is what its README says: legal games, the stated bytes, the stated tables.

The README of sample_pgns/ is the provenance note: per file its encoding and quirks, a table
of the tournaments, the games that must not count, and a hand derivation of the player's
first standard periods. These tests read the files with python-chess (tests may import
chess directly) and hold the README to them. They compute no rating: the hand derivation
is checked only for what can be read off the files and FIDE's table 8.1.2.
"""

from __future__ import annotations

import datetime as dt
import functools
import gzip
import io
import re
import zipfile
from collections import defaultdict
from decimal import Decimal
from fractions import Fraction

import chess
import chess.pgn
import pytest

from tests.conftest import SAMPLES, SPEC, need_shared

README = SAMPLES / "README.md"
ME_ID = "99012345"
ME_NAME = "Novák, Tomáš"
CP1252_FILE = "2025-11-21_weinviertel-open.pgn"
BOM_FILE = "2025-09-12_brno-autumn-open.pgn"
CRLF_FILE = "2025-09-14_brno-autumn-blitz.pgn"
ZIP_FILE = "2025-10-22_lipa-brno-championship.zip"
GZ_FILE = "2026-02-13_pardubice-winter-open.pgn.gz"
NO_TC_FILE = "league/2026-01-18_2-liga-b-round-5.pgn"
ONLINE_FILE = "2026-01_lichess-tomasnovak88.pgn"
SUFFIXES = (".pgn", ".pgn.gz", ".zip")


def data_files() -> list[str]:
    return sorted(
        p.relative_to(SAMPLES).as_posix()
        for p in SAMPLES.rglob("*")
        if p.is_file() and p.name.endswith(SUFFIXES)
    )


def raw_pgn(rel: str) -> bytes:
    """The PGN bytes of a sample file, unpacked from its zip or gzip wrapper."""
    data = (SAMPLES / rel).read_bytes()
    if rel.endswith(".zip"):
        with zipfile.ZipFile(io.BytesIO(data)) as zf:
            (name,) = zf.namelist()
            return zf.read(name)
    if rel.endswith(".gz"):
        return gzip.decompress(data)
    return data


def text(rel: str) -> str:
    encoding = "cp1252" if rel == CP1252_FILE else "utf-8-sig"
    return raw_pgn(rel).decode(encoding)


@functools.cache
def games(rel: str) -> list[chess.pgn.Game]:
    """The games of a file, parsed once per test session (treat as read-only)."""
    stream = io.StringIO(text(rel))
    out = []
    while (game := chess.pgn.read_game(stream)) is not None:
        out.append(game)
    return out


def is_me(game: chess.pgn.Game, color: str) -> bool:
    tag = game.headers.get(f"{color}FideId", "")
    return tag == ME_ID or game.headers.get(color) == "TomasNovak88"


def my_color(game: chess.pgn.Game) -> str | None:
    for color in ("White", "Black"):
        if is_me(game, color):
            return color
    return None


def my_score(game: chess.pgn.Game) -> Fraction | None:
    color = my_color(game)
    white = {"1-0": Fraction(1), "0-1": Fraction(0), "1/2-1/2": Fraction(1, 2)}.get(
        game.headers["Result"]
    )
    if color is None or white is None:
        return None
    return white if color == "White" else 1 - white


def iso(pgn_date: str) -> str:
    return pgn_date.replace(".", "-")


def markdown_table(section_start: str, first_header: str) -> list[dict[str, str]]:
    """The first pipe table after `section_start` whose header begins with `first_header`."""
    body = README.read_text(encoding="utf-8")
    body = body[body.index(section_start) :]
    lines = body.splitlines()
    start = next(i for i, line in enumerate(lines) if line.startswith(f"| {first_header} |"))
    head = [c.strip() for c in lines[start].strip("|").split("|")]
    rows = []
    for line in lines[start + 2 :]:
        if not line.startswith("|"):
            break
        cells = [c.strip() for c in line.strip("|").split("|")]
        rows.append(dict(zip(head, cells, strict=True)))
    return rows


def tournament_rows() -> list[dict[str, str]]:
    return markdown_table("## The tournaments", "file")


# ------------------------------------------------------------------------------ the files


def test_folder_is_small_and_every_file_is_documented() -> None:
    total = sum(
        p.stat().st_size for p in SAMPLES.rglob("*") if p.is_file() and "__pycache__" not in p.parts
    )
    assert total < 200_000
    listed = [row["file"] for row in tournament_rows()]
    assert sorted(listed) == data_files()
    assert len(listed) == len(set(listed))


@pytest.mark.parametrize("rel", data_files())
def test_every_game_parses_and_is_legal(rel: str) -> None:
    found = games(rel)
    assert found
    for game in found:
        assert not game.errors, (rel, game.headers.get("Round"), game.errors)
        board = game.board()
        assert board == chess.Board(), "every game starts from the initial position"
        for move in game.mainline_moves():
            assert board.is_legal(move), (rel, game.headers.get("Round"), move)
            board.push(move)
        result = game.headers["Result"]
        assert result in {"1-0", "0-1", "1/2-1/2", "*"}
        outcome = board.outcome()
        if outcome is not None:  # a finished position must agree with the result tag
            assert outcome.result() == result, (rel, game.headers.get("Round"))
        for color in ("White", "Black"):
            name = game.headers[color]
            assert name and "\ufffd" not in name
            fide_id = game.headers.get(f"{color}FideId", "")
            assert fide_id == "" or re.fullmatch(r"99\d{6}", fide_id)
            elo = game.headers.get(f"{color}Elo", "")
            assert elo in {"", "0"} or 1400 <= int(elo) < 2650 or rel == ONLINE_FILE


def test_utf8_files_are_valid_utf8_and_lf_except_the_crlf_one() -> None:
    for rel in data_files():
        raw = raw_pgn(rel)
        if rel == CP1252_FILE:
            continue
        raw.decode("utf-8")
        if rel == BOM_FILE:
            assert raw.startswith(b"\xef\xbb\xbf")
        else:
            assert not raw.startswith(b"\xef\xbb\xbf")
        if rel == CRLF_FILE:
            assert raw.count(b"\r\n") == raw.count(b"\n") > 0
        else:
            assert b"\r" not in raw


def test_the_chessbase_file_is_windows_1252_with_a_blank_line_in_a_header() -> None:
    raw = raw_pgn(CP1252_FILE)
    with pytest.raises(UnicodeDecodeError):
        raw.decode("utf-8")
    assert "Novák, Tomáš".encode("cp1252") in raw
    assert b"\x9a" in raw  # š: in cp1252, a control code in Latin-1
    assert "Tomáš" not in raw.decode("latin-1")
    decoded = raw.decode("cp1252")
    for name in (
        "Pölzl, Günther",
        "Strauß, Matthias",
        "Lévai, Zoé",
        "Hübner, René",
        "Šuster, Žiga",
    ):
        assert name in decoded
    assert re.search(r'^\[Event "[^"]*"\]\n\n\[Site ', decoded, re.MULTILINE)
    for game in games(CP1252_FILE):  # python-chess reads past the blank line
        assert game.headers["Site"] == "Mistelbach AUT"
        assert game.headers["EventDate"] == "2025.11.21"
        assert int(game.headers["PlyCount"]) == len(list(game.mainline_moves()))


def test_zip_and_gzip_are_deterministic_wrappers_of_one_pgn() -> None:
    with zipfile.ZipFile(SAMPLES / ZIP_FILE) as zf:
        (info,) = zf.infolist()
        assert info.filename == "lipa-brno-championship-2025.pgn"
        assert info.date_time == (2025, 11, 20, 21, 30, 0)
        assert info.compress_type == zipfile.ZIP_DEFLATED
    raw = (SAMPLES / GZ_FILE).read_bytes()
    assert raw[:2] == b"\x1f\x8b"
    assert int.from_bytes(raw[4:8], "little") == 1771232400  # 2026-02-16 09:00 UTC


def test_the_league_round_without_time_control_and_final_newline() -> None:
    raw = raw_pgn(NO_TC_FILE)
    assert not raw.endswith(b"\n")
    (game,) = games(NO_TC_FILE)
    assert "TimeControl" not in game.headers
    for rel in data_files():
        if rel != NO_TC_FILE:
            assert all("TimeControl" in g.headers for g in games(rel)), rel


def test_games_that_must_not_count_are_there() -> None:
    brno = games("2025-09-12_brno-autumn-open.pgn")
    assert brno[0].headers["BlackElo"] == "0" and "BlackFideId" not in brno[0].headers
    olomouc = games("2025-10-03_olomouc-open.pgn")
    forfeit = olomouc[4]
    assert forfeit.headers["Result"] == "1-0" and not list(forfeit.mainline_moves())
    assert forfeit.comment == "Kaczmarek did not appear"
    znojmo = games("2025-11-08_znojmo-rapid.pgn")
    assert znojmo[0].headers["BlackElo"] == ""
    assert znojmo[6].headers["Result"] == "*" and list(znojmo[6].mainline_moves())
    # only one forfeit and one unfinished game in the whole season
    everything = [g for rel in data_files() for g in games(rel)]
    assert sum(not list(g.mainline_moves()) for g in everything) == 1
    assert sum(g.headers["Result"] == "*" for g in everything) == 1
    for game in games(ONLINE_FILE):
        assert game.headers["Site"].startswith("https://lichess.org/")
        assert "WhiteFideId" not in game.headers and "EventDate" not in game.headers
        first = game.next()
        assert first is not None and first.comment.startswith("[%clk ")


# ------------------------------------------------------------------------ FIDE-like data


def over_the_board() -> list[tuple[str, chess.pgn.Game]]:
    return [(rel, g) for rel in data_files() if rel != ONLINE_FILE for g in games(rel)]


def list_of(time_control: str | None) -> str:
    """Spec section 6: minutes for 60 moves (unknown time control: standard)."""
    if time_control is None:
        return "standard"
    first, _, rest = time_control.partition(":")
    moves, _, base = first.rpartition("/")
    base_s, _, inc = base.partition("+")
    seconds = int(base_s) + 60 * int(inc or 0)
    if rest and moves and int(moves) < 60:
        seconds += int(rest.partition("+")[0]) + 60 * int(rest.partition("+")[2] or 0)
    minutes = Fraction(seconds, 60)
    if minutes >= 90:
        return "standard"
    if 10 < minutes < 60:
        return "rapid"
    assert 3 < minutes <= 10, time_control
    return "blitz"


def test_elo_tags_come_from_the_list_in_force_at_the_tournament_start() -> None:
    seen: dict[tuple[str, str, str], set[str]] = defaultdict(set)
    for rel, game in over_the_board():
        start = game.headers["EventDate"][:7]
        lst = list_of(game.headers.get("TimeControl"))
        for color in ("White", "Black"):
            fide_id = game.headers.get(f"{color}FideId", "")
            if fide_id:
                seen[(fide_id, lst, start)].add(game.headers[f"{color}Elo"])
                assert game.headers[color] == names_by_id()[fide_id], rel
    conflicts = {key: tags for key, tags in seen.items() if len(tags) > 1}
    assert not conflicts
    # the player's own tag never changes inside a tournament
    for rel in data_files():
        if rel == ONLINE_FILE:
            continue
        mine = {g.headers[f"{my_color(g)}Elo"] for g in games(rel) if my_color(g)}
        assert len(mine) == 1, rel


@functools.cache
def names_by_id() -> dict[str, str]:
    out: dict[str, str] = {}
    for _rel, game in over_the_board():
        for color in ("White", "Black"):
            fide_id = game.headers.get(f"{color}FideId", "")
            if fide_id:
                out.setdefault(fide_id, game.headers[color])
    return out


def test_one_person_one_name_and_the_player() -> None:
    ids = names_by_id()
    assert ids[ME_ID] == ME_NAME
    assert len(set(ids.values())) == len(ids)


def test_season_shape() -> None:
    rows = tournament_rows()
    dates = [row["first round"] for row in rows] + [row["last round"] for row in rows]
    assert min(dates) <= "2025-09-30" and max(dates) >= "2026-03-01"
    lists = {row["list"] for row in rows}
    assert {"standard", "rapid", "blitz"} <= lists
    assert any(row["first round"][:7] != row["last round"][:7] for row in rows)


# ----------------------------------------------------------------- README against files


@pytest.mark.parametrize("row", tournament_rows(), ids=lambda row: row["file"])
def test_tournament_table_matches_the_file(row: dict[str, str]) -> None:
    rel = row["file"]
    found = games(rel)
    mine = [g for g in found if my_color(g)]
    assert len(found) == int(row["games in file"])
    assert len(mine) == int(row["player's games"])
    dates = sorted(iso(g.headers["Date"]) for g in mine)
    assert (dates[0], dates[-1]) == (row["first round"], row["last round"])
    scores = [s for g in mine if (s := my_score(g)) is not None]
    assert sum(scores) == Fraction(Decimal(row["score"]))
    tcs = sorted({g.headers.get("TimeControl", "(no tag)") for g in found})
    assert ", ".join(tcs) == row["time control"]
    if rel == ONLINE_FILE:
        assert row["list"] == "none" and row["rated on"] == "never"
        return
    assert {g.headers["Event"] for g in found} == {row["event"]}
    assert {g.headers["EventDate"] for g in found} == {row["first round"].replace("-", ".")}
    assert list_of(found[0].headers.get("TimeControl")) == row["list"]
    (tag,) = {g.headers[f"{my_color(g)}Elo"] for g in mine}
    assert tag == row["Elo tag"]
    last = dt.date.fromisoformat(row["last round"])
    year, month = (last.year + 1, 1) if last.month == 12 else (last.year, last.month + 1)
    assert row["rated on"] == f"{year:04d}-{month:02d}"
    # far from the list's closing date (3 days before the list), as the README says
    assert (dt.date(year, month, 1) - last).days >= 8


def test_ratings_table_matches_the_elo_tags() -> None:
    (standard, rapid, blitz) = markdown_table("## The player's ratings", "list")
    by_list = {r["list"]: r for r in (standard, rapid, blitz)}
    for row in tournament_rows():
        if row["list"] in by_list:
            assert by_list[row["list"]][row["first round"][:7]] == row["Elo tag"], row["file"]
    assert standard["2025-09"] == "1850"


# ------------------------------------------------------------ the hand derivation's inputs


def table_8_1_2() -> list[tuple[int, int | None, Decimal, Decimal]]:
    need_shared()
    rows = []
    lines = (SPEC / "table-8-1-2.csv").read_text(encoding="utf-8").splitlines()
    for line in lines[1:]:
        lo, hi, p_high, p_low = line.split(",")
        rows.append((int(lo), int(hi) if hi else None, Decimal(p_high), Decimal(p_low)))
    return rows


SUMMARY = re.compile(
    r"^- (?P<name>.+?): (?P<n>\d+) games?, (?P<points>[\d.]+) points?, "
    r"expected (?P<expected>[\d.]+), sum (?P<sum>[+-][\d.]+)\.$"
)


def summary_lines(heading: str) -> dict[str, tuple[Decimal, Decimal, Decimal, Decimal]]:
    body = README.read_text(encoding="utf-8")
    body = body[body.index(heading) + len(heading) :]
    body = body[: body.index("###")] if "###" in body else body
    out = {}
    for line in body.splitlines():
        if m := SUMMARY.match(line):
            out[m["name"]] = (
                Decimal(m["n"]),
                Decimal(m["points"]),
                Decimal(m["expected"]),
                Decimal(m["sum"]),
            )
    return out


DERIVATIONS = {
    "2025-10": ("### Period 2025-10", 1850, Decimal("0.27"), 5, 1855),
    "2025-11": ("### Period 2025-11", 1855, Decimal("0.51"), 10, 1865),
    "2025-12": ("### Period 2025-12", 1865, Decimal("0.52"), 10, 1875),
    "blitz 2025-10": ("### Blitz period 2025-10", 1760, Decimal("0.97"), 19, 1779),
    "rapid 2025-12": ("### Rapid period 2025-12", 1795, Decimal("0.37"), 7, 1802),
}


@pytest.mark.parametrize("period", sorted(DERIVATIONS))
def test_hand_derivation_reads_the_files_and_the_table(period: str) -> None:
    """Each derivation row: opponent, ratings and score as in the file, D and the cap as
    the spec says, PD the row of table 8.1.2 the README names. The sum, K x sum and the
    rounding are restated here from the README; nothing is computed by tracker."""
    heading, before, total, change, after = DERIVATIONS[period]
    table = table_8_1_2()
    by_event_round = {
        (g.headers["Event"], g.headers["Round"]): g for _rel, g in over_the_board() if my_color(g)
    }
    rows = markdown_table(heading, "tournament")
    assert rows
    running = Decimal(0)
    per_tournament: dict[str, list[Decimal]] = defaultdict(lambda: [Decimal(0)] * 4)
    for row in rows:
        game = by_event_round[(row["tournament"], row["round"])]
        color = my_color(game)
        assert color is not None
        other = "Black" if color == "White" else "White"
        assert game.headers[other] == row["opponent"]
        assert game.headers[f"{color}Elo"] == row["Ro"]
        assert game.headers[f"{other}Elo"] == row["R opp"]
        d = int(row["Ro"]) - int(row["R opp"])
        assert int(row["D"]) == d
        assert int(row["D used"]) == max(-400, min(400, d))
        lo, hi = (int(x) for x in row["row d_min-d_max"].split("-"))
        (match,) = [r for r in table if r[0] == lo and r[1] == hi]
        assert lo <= abs(int(row["D used"])) <= hi
        pd = match[2] if d >= 0 else match[3]
        assert Decimal(row["PD"]) == pd
        score = my_score(game)
        assert score is not None and Fraction(Decimal(row["score"])) == score
        assert Decimal(row["score - PD"]) == Decimal(row["score"]) - pd
        running += Decimal(row["score - PD"])
        for key in (row["tournament"], "Period"):
            acc = per_tournament[key]
            acc[0] += 1
            acc[1] += Decimal(row["score"])
            acc[2] += pd
            acc[3] += Decimal(row["score - PD"])
    assert running == total
    # the summary lines ("- NAME: n games, p points, expected e, sum +s.") agree with the rows
    section = summary_lines(heading)
    assert set(section) == set(per_tournament)
    for key, (n, points, expected_sum, delta) in per_tournament.items():
        assert section[key] == (n, points, expected_sum, delta), key
        assert points - expected_sum == delta
    assert (20 * total).to_integral_value() == change  # 5.4 ... 19.4: never a .5 case
    assert before + change == after
    lst, _, month = period.rpartition(" ")
    ratings = {r["list"]: r for r in markdown_table("## The player's ratings", "list")}
    row_of_list = ratings[lst or "standard"]
    assert row_of_list[month] == str(after)
    previous = f"{month[:4]}-{int(month[5:]) - 1:02d}"
    assert row_of_list[previous] == str(before)
