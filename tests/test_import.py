"""`tracker.importer`: real PGN text in, facts out; every bad input of issue 3.

The files are written by the tests (tiny PGNs whose content is stated inline); the expected
values are the PGN's own tags (FIDE data as written) or the rules of issue 3, never output
of our code.
"""

from __future__ import annotations

import datetime as dt
import gzip
import zipfile
from collections.abc import Callable
from pathlib import Path
from typing import Any

import pytest
from sqlalchemy import Text, cast, func, select

from tracker.app.importing import ImportOptions, ImportReport, SourceReport, import_paths
from tracker.errors import BadInput, NotFound
from tracker.importer.prepare import Preparer
from tracker.model import PreparedGame, RatingList, RawGame
from tracker.store import Store
from tracker.store.imports import list_imports
from tracker.store.schema import games, imports, players, tournaments

MOVES = "1. e4 e5 2. Nf3 Nc6 3. Bb5 a6"


def pgn(moves: str = MOVES, **tags: str) -> str:
    """One game: the seven-tag roster (defaults) plus `tags`, then `moves` and the result."""
    base = {
        "Event": "Club Open",
        "Site": "Brno CZE",
        "Date": "2025.03.01",
        "Round": "1",
        "White": "Novak, Jan",
        "Black": "Svoboda, Petr",
        "Result": "1-0",
    }
    base.update(tags)
    head = "".join(f'[{k} "{v}"]\n' for k, v in base.items())
    return f"{head}\n{moves} {base['Result']}\n\n"


def write(path: Path, *games_text: str, encoding: str = "utf-8") -> Path:
    path.write_bytes("".join(games_text).encode(encoding))
    return path


def rows(store: Store, *cols: Any) -> list[Any]:
    """Rows of the table of `cols`, by id."""
    table = cols[0].table if hasattr(cols[0], "table") else cols[0]
    with store.engine.connect() as conn:
        return list(conn.execute(select(*cols).order_by(table.c.id)).all())


def run(store: Store, *paths: Path | str, **options: Any) -> Any:
    return import_paths(store, [str(p) for p in paths], ImportOptions(**options))


# --- what is stored -------------------------------------------------------------------


@pytest.mark.databases
def test_a_game_lands_with_its_facts(store: Store, tmp_path: Path) -> None:
    f = write(
        tmp_path / "a.pgn",
        pgn(
            WhiteElo="1850",
            BlackElo="1720",
            TimeControl="5400+30",
            WhiteFideId="99012345",
            WhiteTitle="FM",
        ),
    )
    report = run(store, f)
    (s,) = report.sources
    assert (s.games_read, s.added, s.duplicates, s.problem_count) == (1, 1, 0, 0)
    (g,) = rows(store, games)
    m = g._mapping
    assert m["date"] == dt.date(2025, 3, 1) and m["date_tag"] == "2025.03.01"
    assert (m["white_elo"], m["black_elo"]) == (1850, 1720)
    assert m["result"] == "1-0" and m["round"] == "1" and m["white_title"] == "FM"
    # 90 min + 30 s x 60 moves = 120 minutes: standard at any rating (FIDE 1.1 / spec 6).
    assert m["list"] == "standard" and not m["list_assumed"]
    assert m["rated"] and m["not_rated_reason"] is None
    found = rows(store, players.c.name, players.c.fide_id)
    assert [tuple(r) for r in found] == [("Novak, Jan", 99012345), ("Svoboda, Petr", None)]


@pytest.mark.parametrize(
    "tag,elo",
    [
        ("", None),
        ("-", None),
        ("0", None),
        ("?", None),
        ("abc", None),
        ("2690:2222", None),
        (" 2100 ", 2100),
        ("2100", 2100),
    ],
)
def test_elo_tags_as_written(store: Store, tmp_path: Path, tag: str, elo: int | None) -> None:
    # The row keeps the text only where it is not exactly the rating (migration 0007); the
    # readers take coalesce(tag, CAST(rating AS TEXT)): the text as written.
    run(store, write(tmp_path / "e.pgn", pgn(WhiteElo=tag, BlackElo="1900")))
    as_written = func.coalesce(games.c.white_elo_tag, cast(games.c.white_elo, Text))
    (g,) = rows(
        store,
        games.c.white_elo,
        as_written.label("tag"),
        games.c.black_elo,
        games.c.white_elo_tag,
        games.c.black_elo_tag,
    )
    assert (g.white_elo, g.tag, g.black_elo) == (elo, tag, 1900)
    assert (g.white_elo_tag, g.black_elo_tag) == (None if tag == "2100" else tag, None)


@pytest.mark.databases
@pytest.mark.parametrize(
    "tag,day",
    [
        ("2024.??.??", None),
        ("2024.05.??", None),
        ("????.??.??", None),
        ("2024.02.30", None),
        ("2024.02.29", dt.date(2024, 2, 29)),
    ],
)
def test_incomplete_dates_kept_as_written(
    store: Store, tmp_path: Path, tag: str, day: dt.date | None
) -> None:
    report = run(store, write(tmp_path / "d.pgn", pgn(Date=tag)))
    assert report.sources[0].added == 1
    (g,) = rows(store, games.c.date, games.c.date_tag)
    assert (g.date, g.date_tag) == (day, tag)


@pytest.mark.databases
def test_unknown_result_is_skipped_with_its_line(store: Store, tmp_path: Path) -> None:
    f = write(tmp_path / "r.pgn", pgn(Round="1"), pgn(Round="2", Result="1/2"))
    (s,) = run(store, f).sources
    assert (s.games_read, s.added, s.skipped, s.problem_count) == (2, 1, 1, 1)
    # The second game's first tag is on line 11 (10 lines per game: 7 tags, a blank line,
    # the moves, a blank line).
    assert s.problems == [
        f"{f}:11: unknown result '1/2': game skipped (expected 1-0, 0-1, 1/2-1/2 or *)"
    ]


@pytest.mark.databases
def test_strict_stops_at_the_first_problem_and_stores_nothing(store: Store, tmp_path: Path) -> None:
    f = write(tmp_path / "r.pgn", pgn(Round="1"), pgn(Round="2", Result="1/2"))
    with pytest.raises(BadInput, match=r"r\.pgn:11: unknown result.*--strict: nothing of"):
        run(store, f, strict=True)
    assert rows(store, games) == [] and list_imports(store) == []


@pytest.mark.databases
def test_a_game_cut_in_its_moves_is_not_stored_and_said_with_its_line(
    store: Store, tmp_path: Path
) -> None:
    # Issue 35 item 10: a file cut in the middle of a game (`head -c`). The third game's
    # moves stop before its result: a problem on its first line (line 21: 10 lines a game),
    # the game not stored (its result would be the tag's word alone), the summary says 1
    # not stored; the complete file, imported later, adds that game once.
    whole = [pgn(Round="1"), pgn(Round="2", Result="0-1"), pgn(Round="3", Result="1/2-1/2")]
    text = "".join(whole)
    f = tmp_path / "cut.pgn"
    f.write_text(text[: text.rindex(" 1/2-1/2")] + "\n", encoding="utf-8")
    (s,) = run(store, f).sources
    assert (s.games_read, s.added, s.skipped, s.problem_count) == (3, 2, 1, 1)
    assert s.problems == [
        f"{f}:21: the moves stop before the result (no 1/2-1/2 after them: the file cut "
        "short, or a { comment never closed?): game skipped"
    ]
    assert [g.round for g in rows(store, games.c.round)] == ["1", "2"]
    (s,) = run(store, write(tmp_path / "whole.pgn", *whole)).sources
    assert (s.games_read, s.added, s.duplicates, s.problem_count) == (3, 1, 2, 0)
    assert [g.round for g in rows(store, games.c.round)] == ["1", "2", "3"]


@pytest.mark.parametrize(
    ("text", "problem"),
    [
        (
            pgn(Result="0-1").replace(" 0-1\n", " 1-0\n"),
            "the moves end in 1-0, the Result tag says 0-1: game skipped (correct the one "
            "that is wrong)",
        ),
        (
            pgn().split("\n\n")[0] + "\n",  # the tags, then the file ends
            "no moves and no result after the tags (no 1-0: is the file cut short?): game skipped",
        ),
    ],
)
def test_moves_that_do_not_end_with_the_result_are_not_stored(
    store: Store, tmp_path: Path, text: str, problem: str
) -> None:
    f = write(tmp_path / "r.pgn", pgn(Round="0"), text)
    (s,) = run(store, f).sources
    assert (s.games_read, s.added, s.skipped, s.problems) == (2, 1, 1, [f"{f}:11: {problem}"])
    with pytest.raises(BadInput, match=r"s\.pgn:11: .*--strict: nothing of"):
        run(store, write(tmp_path / "s.pgn", pgn(Round="9"), text), strict=True)


def test_broken_quoting_and_truncated_game(store: Store, tmp_path: Path) -> None:
    broken = pgn().replace('[Round "1"]', '[Round "1]')
    truncated = pgn(Round="2").replace(" 1-0\n", " {unclosed comment\n")
    f = write(tmp_path / "b.pgn", broken, truncated)
    (s,) = run(store, f).sources
    assert s.problem_count >= 2
    assert all(p.startswith(f"{f}:") for p in s.problems)
    assert s.error is None


@pytest.mark.databases
def test_binary_file_is_refused_and_nothing_lands(store: Store, tmp_path: Path) -> None:
    f = tmp_path / "x.pgn"
    f.write_bytes(bytes(range(256)) * 40)
    (s,) = run(store, f).sources
    assert s.error is not None and "no game found" in s.error
    assert rows(store, games) == [] and list_imports(store) == []


def test_missing_file_and_empty_folder(store: Store, tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="no such file or folder"):
        run(store, tmp_path / "nope.pgn")
    (tmp_path / "empty").mkdir()
    with pytest.raises(NotFound, match="holds no PGN"):
        run(store, tmp_path / "empty")


# --- rating or not ----------------------------------------------------------------------


@pytest.mark.databases
@pytest.mark.parametrize(
    "tags,moves,reason",
    [
        ({"Result": "*"}, MOVES, "unfinished"),
        ({"Termination": "forfeit"}, "", "forfeit"),
        ({}, "", "no-moves"),
        ({"Variant": "Chess960"}, MOVES, "variant"),
        ({"SetUp": "1", "FEN": "8/8/8/8/8/8/8/K6k w - - 0 1"}, MOVES, "setup"),
        # 3 minutes, no increment: not over 3 minutes, too fast for blitz (spec 6, from 2014).
        ({"TimeControl": "180"}, MOVES, "time-control"),
        ({"Site": "https://lichess.org/abcdefgh", "WhiteElo": "2210"}, MOVES, "online"),
        ({"Site": "FICS freechess.org"}, MOVES, "online"),
        ({"WhiteRatingDiff": "+5"}, MOVES, "online"),
        ({"WhiteElo": "0", "BlackElo": "-"}, MOVES, "unrated-opponent"),
    ],
)
def test_games_that_do_not_count(
    store: Store, tmp_path: Path, tags: dict[str, str], moves: str, reason: str
) -> None:
    run(store, write(tmp_path / "n.pgn", pgn(moves, **tags)))
    (g,) = rows(store, games.c.rated, games.c.not_rated_reason, games.c.white_elo)
    assert (g.rated, g.not_rated_reason) == (False, reason)
    if reason == "online":
        assert g.white_elo is None  # platform ratings never become FIDE data


def test_online_sponsor_over_the_board_is_not_online(store: Store, tmp_path: Path) -> None:
    # TWIC: "FIDE Chess.com Grand Swiss" was played in Douglas, Isle of Man.
    run(
        store,
        write(tmp_path / "o.pgn", pgn(Event="FIDE Chess.com Grand Swiss", Site="Douglas ENG")),
    )
    (g,) = rows(store, games.c.rated)
    assert g.rated


@pytest.mark.parametrize(
    "tc,given,expected,assumed",
    [
        ("5400+30", None, "standard", False),
        ("900+10", None, "rapid", False),  # 15 + 10 = 25 minutes: rapid
        ("180+2", None, "blitz", False),  # 3 + 2 = 5 minutes: blitz
        (None, None, "standard", True),
        (None, RatingList.RAPID, "rapid", True),
        ("?", RatingList.BLITZ, "blitz", True),
    ],
)
def test_list_from_time_control_or_option(
    store: Store,
    tmp_path: Path,
    tc: str | None,
    given: RatingList | None,
    expected: str,
    assumed: bool,
) -> None:
    tags = {"TimeControl": tc} if tc is not None else {}
    report = run(store, write(tmp_path / "l.pgn", pgn(**tags)), default_list=given)
    (g,) = rows(store, games.c.list, games.c.list_assumed)
    assert (g.list, bool(g.list_assumed)) == (expected, assumed)
    assert report.sources[0].list_assumed == int(assumed)


# --- identity, re-import, overlap -------------------------------------------------------


@pytest.mark.databases
def test_reimport_is_recognized_and_adds_nothing(store: Store, tmp_path: Path) -> None:
    f = write(tmp_path / "a.pgn", pgn(Round="1"), pgn(Round="2"))
    first = run(store, f).sources[0]
    again = run(store, f).sources[0]
    assert first.added == 2
    assert again.already is not None and again.already.source == str(f)
    assert again.added == 0 and again.games_read == 0
    assert len(rows(store, games)) == 2 and len(list_imports(store)) == 1


@pytest.mark.databases
def test_overlapping_files_deduplicate_by_identity(store: Store, tmp_path: Path) -> None:
    g1, g2, g3 = (pgn(Round=str(r)) for r in (1, 2, 3))
    # The same games, written by another tool: other tag order, CRLF, comments, no Site.
    other = pgn("1. e4 {best by test} e5 2. Nf3 Nc6 3. Bb5 a6", Round="2", Site="?")
    a = write(tmp_path / "twic.pgn", g1, g2)
    b = write(tmp_path / "event.pgn", other.replace("\n", "\r\n"), g3)
    run(store, a)
    (s,) = run(store, b).sources
    assert (s.games_read, s.added, s.duplicates) == (2, 1, 1)
    assert len(rows(store, games)) == 3


@pytest.mark.databases
def test_identity_sees_moves_round_and_date(store: Store, tmp_path: Path) -> None:
    f = write(
        tmp_path / "a.pgn", pgn(), pgn("1. d4 d5"), pgn(Round="2"), pgn(Date="2025.03.02"), pgn()
    )
    (s,) = run(store, f).sources
    assert (s.added, s.duplicates) == (4, 1)


@pytest.mark.databases
def test_archives_and_encodings(store: Store, tmp_path: Path) -> None:
    latin = write(tmp_path / "latin.pgn", pgn(White="Él, Réti", Round="1"), encoding="cp1252")
    gz = tmp_path / "g.pgn.gz"
    gz.write_bytes(gzip.compress(pgn(Round="2").encode()))
    zp = tmp_path / "z.zip"
    with zipfile.ZipFile(zp, "w") as zf:
        zf.writestr("inner.pgn", pgn(Round="3"))
    report = run(store, latin, gz, zp)
    assert [s.added for s in report.sources] == [1, 1, 1]
    assert report.sources[2].name == f"{zp}:inner.pgn"
    names = {r.name for r in rows(store, players.c.name)}
    assert "Él, Réti" in names


def test_bom_crlf_and_no_final_newline(store: Store, tmp_path: Path) -> None:
    f = tmp_path / "w.pgn"
    f.write_bytes(b"\xef\xbb\xbf" + pgn().replace("\n", "\r\n").rstrip().encode())
    (s,) = run(store, f).sources
    assert (s.added, s.problem_count) == (1, 0)
    (p,) = [r for r in rows(store, players.c.name) if r.name.startswith("Novak")]
    assert p.name == "Novak, Jan"


# --- players and tournaments ------------------------------------------------------------


@pytest.mark.databases
def test_players_by_fide_id_across_spellings(store: Store, tmp_path: Path) -> None:
    f = write(
        tmp_path / "a.pgn",
        pgn(White="Carlsen, Magnus", WhiteFideId="1503014", Round="1"),
        pgn(White="Carlsen,M", WhiteFideId="1503014", Round="2"),
        pgn(White="Magnus Carlsen", Round="3"),
    )
    run(store, f)
    ids = {r.white_id for r in rows(store, games.c.white_id)}
    # Two spellings tied by the FIDE ID are one player; the third (no ID) is not merged.
    assert len(ids) == 2


@pytest.mark.databases
def test_name_without_id_is_completed_by_a_later_fide_id(store: Store, tmp_path: Path) -> None:
    run(store, write(tmp_path / "a.pgn", pgn(Round="1")))
    run(store, write(tmp_path / "b.pgn", pgn(Round="2", WhiteFideId="99012345")))
    with store.engine.connect() as conn:
        found = conn.execute(select(players.c.fide_id).where(players.c.name == "Novak, Jan")).all()
    assert found == [(99012345,)]


@pytest.mark.databases
def test_same_name_other_fide_id_is_another_player(store: Store, tmp_path: Path) -> None:
    run(store, write(tmp_path / "a.pgn", pgn(Round="1", WhiteFideId="111")))
    run(store, write(tmp_path / "b.pgn", pgn(Round="2", WhiteFideId="222")))
    with store.engine.connect() as conn:
        found = sorted(
            conn.execute(select(players.c.fide_id).where(players.c.name == "Novak, Jan")).scalars()
        )
    assert found == [111, 222]


@pytest.mark.databases
def test_tournaments_by_event_date_and_year(store: Store, tmp_path: Path) -> None:
    f = write(
        tmp_path / "t.pgn",
        # EventDate given: start is EventDate, end the last game.
        pgn(Event="Spring Open", EventDate="2025.04.05", Date="2025.04.05", Round="1"),
        pgn(Event="Spring Open", EventDate="2025.04.05", Date="2025.04.07", Round="5"),
        # No EventDate: the same yearly event, a year apart, is two tournaments...
        pgn(Event="Club Ch", Date="2024.02.01", Round="1"),
        pgn(Event="Club Ch", Date="2025.02.01", Round="1"),
        # ...and one across New Year stays one (games within 30 days of each other).
        pgn(Event="Hastings", Date="2024.12.28", Round="1"),
        pgn(Event="Hastings", Date="2025.01.05", Round="9"),
    )
    run(store, f)
    with store.engine.connect() as conn:
        found = sorted(
            (r.event, r.start_date, r.end_date)
            for r in conn.execute(
                select(tournaments.c.event, tournaments.c.start_date, tournaments.c.end_date)
            )
        )
    d = dt.date
    assert found == [
        ("Club Ch", d(2024, 2, 1), d(2024, 2, 1)),
        ("Club Ch", d(2025, 2, 1), d(2025, 2, 1)),
        ("Hastings", d(2024, 12, 28), d(2025, 1, 5)),
        ("Spring Open", d(2025, 4, 5), d(2025, 4, 7)),
    ]


@pytest.mark.databases
def test_tournament_spans_two_files(store: Store, tmp_path: Path) -> None:
    run(store, write(tmp_path / "a.pgn", pgn(Event="Autumn", Date="2025.10.20", Round="5")))
    run(store, write(tmp_path / "b.pgn", pgn(Event="Autumn", Date="2025.10.18", Round="1")))
    with store.engine.connect() as conn:
        found = conn.execute(select(tournaments.c.start_date, tournaments.c.end_date)).all()
    assert found == [(dt.date(2025, 10, 18), dt.date(2025, 10, 20))]


@pytest.mark.databases
def test_import_row_counts(store: Store, tmp_path: Path) -> None:
    f = write(tmp_path / "a.pgn", pgn(Round="1"), pgn(Round="1"), pgn(Result="x"))
    run(store, f)
    with store.engine.connect() as conn:
        (r,) = conn.execute(select(imports)).all()
    assert (r.games_read, r.games_added, r.duplicates, r.problems) == (3, 1, 1, 1)
    assert r.finished_at is not None and len(r.content_hash) == 64


# --- worker and single process agree ----------------------------------------------------


def test_worker_and_in_process_give_the_same_database(tmp_path: Path) -> None:
    from tracker.store import open_store

    texts = [
        pgn(
            Round=str(r),
            White=f"P{r % 7}",
            Black=f"Q{r % 5}",
            Date=f"2025.0{1 + r % 9}.1{r % 10}",
            WhiteFideId=str(100 + r % 7),
        )
        for r in range(300)
    ]
    f = write(tmp_path / "many.pgn", *texts, pgn(Result="?"))
    dumps = []
    for workers in (False, True):
        with open_store(str(tmp_path / f"{workers}.db")) as s:
            report = run(s, f, workers=workers)
            assert report.sources[0].added == 300
            with s.engine.connect() as conn:
                dumps.append(
                    [
                        [tuple(r) for r in conn.execute(select(t).order_by(*t.primary_key))]
                        for t in (players, tournaments)
                    ]
                    + [
                        [
                            tuple(r)[:2] + tuple(r)[3:]
                            for r in conn.execute(select(games).order_by(games.c.id))
                        ]
                    ]
                )
            dumps[-1].append(report.sources[0].problems)
    assert dumps[0] == dumps[1]


def _many_games_file(path: Path) -> Path:
    """300 games of 7 + 5 players (two copies of the last 40), with a problem, CRLF lines,
    a comment left open and text outside any game on the way."""
    texts = [
        pgn(
            Round=str(r),
            White=f"P{r % 7}",
            Black=f"Q{r % 5}",
            Date=f"2025.0{1 + r % 9}.1{r % 10}",
            WhiteFideId=str(100 + r % 7),
        )
        for r in range(300)
    ]
    texts[50] = texts[50].replace("\n", "\r\n")
    texts[100] = texts[100].replace(" 1-0\n", " {never closed 1-0\n")
    texts[150] += "stray text\n\n"
    return write(path, *texts, pgn(Result="?"), *texts[260:])


@pytest.mark.parametrize(("batch", "lone_cr"), [(2000, False), (7, False), (7, True)])
def test_two_workers_in_parts_give_the_same_database(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, batch: int, lone_cr: bool
) -> None:
    # A big plain file is cut into parts (tracker.pgn.scan.game_cuts) read by two workers
    # in turn: the database, the import's counts and its problems (with their lines) are
    # those of one stream read in this process. Small parts here: many cuts; one batch a
    # part or many.
    from tests.conftest import dump_db
    from tracker.files.sources import iter_sources
    from tracker.importer import batches as importer
    from tracker.pgn import read_games
    from tracker.store import open_store

    f = _many_games_file(tmp_path / "many.pgn")
    if lone_cr:  # a CR alone ends a line too: the parts after these number lines the same
        f.write_bytes(f.read_bytes().replace(b"\n[Round", b"\r[Round", 3))
    results = []
    for split in (False, True):
        if split:
            monkeypatch.setattr(importer, "SPLIT_MIN_BYTES", 1)
            monkeypatch.setattr(importer, "SPLIT_PART", 1500)
            monkeypatch.setattr(importer, "BATCH", batch)
            (source,) = iter_sources([str(f)])
            cuts = importer._part_cuts(source, read_games, ImportOptions())
            assert cuts is not None and len(cuts) > 20
        db = tmp_path / f"{split}.db"
        with open_store(str(db)) as s:
            (rep,) = run(s, f, workers=None if split else False).sources
            (imp,) = list_imports(s)
        dump = [
            line
            for line in dump_db(db)  # the rows (the schema is not the importer's)
            if line.startswith("INSERT") and not line.startswith('INSERT INTO "imports"')
        ]
        results.append(
            (
                dump,
                rep.games_read,
                rep.added,
                rep.duplicates,
                rep.skipped,
                rep.problems,
                rep.problem_count,
                rep.not_rated,
                rep.list_assumed,
                (imp.games_read, imp.games_added, imp.duplicates, imp.problems),
            )
        )
    # (the game whose comment is never closed has no result after its moves: not stored)
    assert results[0][1:4] == (341, 299, 40)
    assert sum(line.startswith('INSERT INTO "games"') for line in results[0][0]) == 299
    assert [p.split(": ", 1)[1] for p in results[0][5]] == [
        "a comment opened with { is never closed",
        "the moves stop before the result (no 1-0 after them: the file cut short, or a { "
        "comment never closed?): game skipped",
        "text outside any game (no tag header before it): ignored",
        "unknown result '?': game skipped (expected 1-0, 0-1, 1/2-1/2 or *)",
    ]
    assert results[0] == results[1]


def test_two_workers_only_for_a_plain_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    from tracker.files.sources import iter_sources
    from tracker.importer import batches as importer
    from tracker.pgn import read_games, read_games_slow

    monkeypatch.setattr(importer, "SPLIT_MIN_BYTES", 1)
    monkeypatch.setattr(importer, "SPLIT_PART", 1500)
    f = _many_games_file(tmp_path / "many.pgn")
    gz = tmp_path / "many.pgn.gz"
    gz.write_bytes(gzip.compress(f.read_bytes()))
    (plain,) = iter_sources([str(f)])
    (packed,) = iter_sources([str(gz)])
    cuts = importer._part_cuts
    assert cuts(plain, read_games, ImportOptions()) is not None
    assert cuts(packed, read_games, ImportOptions()) is None
    assert cuts(plain, read_games_slow, ImportOptions()) is None
    assert cuts(plain, read_games, ImportOptions(workers=False)) is None
    assert cuts(plain, read_games, ImportOptions(validate=True)) is None
    monkeypatch.setattr(importer, "SPLIT_MIN_BYTES", f.stat().st_size + 1)
    assert cuts(plain, read_games, ImportOptions()) is None


def _parts_failing_after_line_2000(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, fail: Callable[[], None]
) -> SourceReport:
    """Import a file read in parts by two workers, one of which calls `fail` past line
    2,000; its report."""
    from tracker.importer import batches as importer

    monkeypatch.setattr(importer, "SPLIT_MIN_BYTES", 1)
    monkeypatch.setattr(importer, "SPLIT_PART", 1500)
    real_row = Preparer.row

    def row(
        self: Preparer, tags: dict[str, str], digest: str, moves: bool, line: int, *end: Any
    ) -> Any:
        if line > 2000:
            fail()
        return real_row(self, tags, digest, moves, line, *end)

    monkeypatch.setattr(Preparer, "row", row)
    report: ImportReport = run(store, _many_games_file(tmp_path / "many.pgn"))
    (s,) = report.sources
    return s


@pytest.mark.databases
def test_a_failing_part_worker_is_one_line_and_stores_nothing(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    def boom() -> None:
        raise RuntimeError("boom")

    s = _parts_failing_after_line_2000(store, tmp_path, monkeypatch, boom)
    assert s.error == f"cannot read {tmp_path / 'many.pgn'}: RuntimeError: boom"
    assert (s.games_read, s.added) == (0, 0)
    with store.engine.connect() as conn:
        assert conn.execute(select(games.c.id)).first() is None


def test_a_part_worker_that_dies_is_one_line_never_a_hang(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Each worker closes the pipe ends of the other: the main process sees the end of a
    # dead worker's pipe (and a worker sees the main process gone) instead of waiting.
    import os

    s = _parts_failing_after_line_2000(store, tmp_path, monkeypatch, lambda: os._exit(3))
    assert s.error == (
        f"reading {tmp_path / 'many.pgn'} stopped unexpectedly (a worker process died)"
    )
    assert (s.games_read, s.added) == (0, 0)


def test_preparer_is_pure() -> None:
    raw = RawGame({"White": "A", "Black": "B", "Result": "1-0"}, "", False, 1)
    first = Preparer().prepare(raw)
    assert first == Preparer().prepare(raw)
    assert not isinstance(first, str) and first.not_rated_reason == "no-moves"


def test_preparer_row_is_prepare_with_warm_memo_dicts() -> None:
    # The import's hot loop uses Preparer.row (memo dicts on the tags): it must agree with
    # a fresh Preparer, game after game (the memo dicts are warm from the second game on).
    games = [
        RawGame(
            {
                "White": " A ",
                "Black": "B",
                "Result": "1-0",
                "Event": "Rapid Open",
                "Date": "2024.01.05",
                "WhiteElo": "2100",
                "BlackElo": "-",
            },
            "d1",
            True,
            3,
        ),
        RawGame(
            {
                "White": "A",
                "Black": "C",
                "Result": "*",
                "Event": "Rapid Open",
                "Date": "2024.01.05",
                "TimeControl": "600+5",
                "WhiteElo": "2100",
                "BlackElo": "2200",
                "EventDate": "2024.01.06",
            },
            "",
            False,
            9,
        ),
        RawGame(
            {
                "White": "C",
                "Black": "A",
                "Result": "0-1",
                "Site": "lichess.org",
                "Date": "",
                "WhiteRatingDiff": "+3",
            },
            "d2",
            True,
            20,
        ),
        RawGame({"White": "?", "Black": "A", "Result": "1-0"}, "", False, 30),
        RawGame({"White": "A", "Black": "B", "Result": "2-0"}, "", False, 40),
    ] * 2
    for default in (None, RatingList.BLITZ):
        fresh, warm = Preparer(default), Preparer(default)
        for raw in games:
            expected = fresh.prepare(raw)
            fresh = Preparer(default)
            got = warm.row(raw.tags, raw.moves_digest, raw.has_moves, raw.line)
            if isinstance(expected, str):
                assert got == expected
                continue
            assert got == tuple(expected)
            assert [type(v) for v in got] == [type(v) for v in expected]
            assert isinstance(got, PreparedGame)
            assert (got.list_assumed, got.rated, got.not_rated_reason) == (
                expected.list_assumed,
                expected.rated,
                expected.not_rated_reason,
            )


# --- options and paths ------------------------------------------------------------------


def test_validate_replays_moves(store: Store, tmp_path: Path) -> None:
    # 2. Ke2 is legal; 2. Kd3 is not (the king cannot move two squares).
    f = write(
        tmp_path / "v.pgn", pgn("1. e4 e5 2. Ke2", Round="1"), pgn("1. e4 e5 2. Kd3", Round="2")
    )
    (s,) = run(store, f).sources
    assert s.problem_count == 0
    store2 = tmp_path / "v2.db"
    from tracker.store import open_store

    with open_store(str(store2)) as other:
        (s,) = run(other, f, validate=True).sources
    assert s.added == 2
    # the line of the illegal move: game 2 starts on line 11, its moves are on line 19
    assert len(s.problems) == 1 and s.problems[0].startswith(f"{f}:19: illegal or unreadable")


@pytest.mark.parametrize("form", ["cr", "utf-16"])
def test_validate_numbers_lines_as_the_reader_does(tmp_path: Path, form: str) -> None:
    # An old Mac file (CR alone) and a UTF-16 one: no false problem, the illegal move's line.
    text = pgn("1. e4 e5 2. Ke2", Round="1") + pgn("1. e4 e5 2. Kd3", Round="2")
    f = tmp_path / f"{form}.pgn"
    f.write_bytes(
        text.replace("\n", "\r").encode("ascii") if form == "cr" else text.encode("utf-16")
    )
    from tracker.store import open_store

    with open_store(str(tmp_path / "v.db")) as other:
        (s,) = run(other, f, validate=True).sources
    assert s.added == 2
    assert len(s.problems) == 1 and s.problems[0].startswith(f"{f}:19: illegal or unreadable")


def test_standard_input(store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    import io
    import sys

    from tracker.files import spool

    data = pgn(Round="1").encode()
    monkeypatch.setattr(sys, "stdin", io.TextIOWrapper(io.BytesIO(data)))
    monkeypatch.setattr(spool, "_STDIN", None)
    (s,) = run(store, "-").sources
    assert (s.name, s.added) == ("-", 1)


def test_glob_and_folder(store: Store, tmp_path: Path) -> None:
    (tmp_path / "sub").mkdir()
    write(tmp_path / "sub" / "x.pgn", pgn(Round="1"))
    write(tmp_path / "y.pgn", pgn(Round="2"))
    report = run(store, str(tmp_path / "*.pgn"), tmp_path / "sub")
    assert sorted(s.added for s in report.sources) == [1, 1]


def test_big_source_hash_in_a_thread_is_recognized(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tracker.importer import batches as importer

    monkeypatch.setattr(importer, "WORKER_MIN_BYTES", 0)  # the path of big files
    f = write(tmp_path / "a.pgn", *(pgn(Round=str(r)) for r in range(50)))
    assert run(store, f).sources[0].added == 50
    again = run(store, f).sources[0]
    assert again.already is not None and again.added == 0
    assert len(list_imports(store)) == 1


@pytest.mark.databases
@pytest.mark.parametrize("big", [False, True], ids=["small", "hashed-in-a-thread"])
def test_strict_reads_again_a_file_imported_with_problems(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch, big: bool
) -> None:
    """Issue 19: --strict after a lenient import checks the file instead of calling it
    already imported; its earlier games stay, nothing more is stored."""
    from tracker.importer import batches as importer

    if big:
        monkeypatch.setattr(importer, "WORKER_MIN_BYTES", 0)
    f = write(
        tmp_path / "a.pgn", *(pgn(Round=str(r)) for r in range(30)), pgn(Round="x", Result="2-0")
    )
    assert run(store, f).sources[0].added == 30
    with pytest.raises(
        BadInput,
        match=r"a\.pgn:301: unknown result '2-0'.*\(--strict: .*a\.pgn "
        r"was imported before without --strict, on .* as import 1 with 1 "
        r"problem; .* the 30 games it added stay stored",
    ):
        run(store, f, strict=True)
    assert len(list_imports(store)) == 1 and len(rows(store, games.c.id)) == 30


@pytest.mark.parametrize(
    "tags",
    [
        {"White": "Carlsen, Magnus", "Black": "Carlsen, Magnus"},
        {
            "White": "Carlsen, Magnus",
            "Black": "Carlsen,M",
            "WhiteFideId": "1503014",
            "BlackFideId": "1503014",
        },
    ],
)
def test_a_player_against_themselves_is_skipped(
    store: Store, tmp_path: Path, tags: dict[str, str]
) -> None:
    (s,) = run(store, write(tmp_path / "self.pgn", pgn(**tags))).sources
    assert (s.added, s.skipped) == (0, 1)
    assert s.problems[0].endswith(
        "White and Black are the same player (Carlsen, Magnus): game skipped"
    )


@pytest.mark.parametrize("event_date", ["", "   ", "????.??.??"])
def test_empty_or_unknown_event_date_is_no_tournament_start(
    store: Store, tmp_path: Path, event_date: str
) -> None:
    # [EventDate ""] used to reach the store as '' and crash GameWriter._tournament.
    f = write(
        tmp_path / "e.pgn",
        pgn(EventDate=event_date, Date="2025.03.01", Round="1"),
        pgn(EventDate=event_date, Date="2025.03.03", Round="2"),
    )
    (s,) = run(store, f).sources
    assert (s.error, s.added) == (None, 2)
    assert rows(store, tournaments.c.start_date, tournaments.c.end_date) == [
        (dt.date(2025, 3, 1), dt.date(2025, 3, 3))
    ]
    raw = RawGame(
        {"White": "A", "Black": "B", "Result": "1-0", "EventDate": event_date}, "", True, 1
    )
    prepared = Preparer().prepare(raw)
    assert not isinstance(prepared, str) and prepared.event_date is None


@pytest.mark.databases
def test_a_failed_source_adds_nothing_to_the_totals(
    store: Store, tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    # Regression: a source that failed after its first batch still counted that batch's
    # games as read, put on a list by assumption and not counted for rating.
    from tracker.app.importing import import_sources
    from tracker.importer import batches as importer
    from tracker.pgn import read_games

    monkeypatch.setattr(importer, "BATCH", 2)  # the failure comes after two batches

    good = write(tmp_path / "good.pgn", pgn("", Round="1"))  # no moves, no time control
    bad = write(tmp_path / "bad.pgn", *(pgn("", Round=str(r)) for r in range(5)))

    class File:
        def __init__(self, path: Path) -> None:
            self.name = path.name
            self.path = path

        def open(self) -> Any:
            return self.path.open("rb")

    def reader(stream: Any, name: str) -> Any:
        yield from read_games(stream, name)
        if name == "bad.pgn":
            raise BadInput("bad.pgn: the file cannot be read to the end; is it damaged?")

    report = import_sources(store, [File(bad), File(good)], ImportOptions(), None, reader)
    failed, ok = report.sources
    assert failed.error is not None and report.failed == [failed]
    assert (failed.games_read, failed.added, failed.skipped, failed.list_assumed) == (0,) * 4
    assert not failed.not_rated
    assert (report.total("games_read"), report.total("added"), report.total("list_assumed")) == (
        1,
        1,
        1,
    )
    assert report.not_rated == {"no-moves": 1}
    assert rows(store, games.c.round) == [("1",)]


@pytest.mark.databases
def test_time_control_bands_of_the_tournament_start(store: Store, tmp_path: Path) -> None:
    # Spec section 2: per-game rules switch on the tournament start date; on 1 Jan 2022 the
    # standard bands moved from 1600/2200 to 1800/2400 (spec section 6: standard needs at
    # least 60 minutes, at least 90 when a player is rated at the middle band or above).
    # 75 minutes (TimeControl 4500 s, no increment), the higher player rated 1700:
    # - old bands (start before 2022): 1700 >= 1600 needs 90; 75 < 90, and 75 >= 60 is too
    #   slow for rapid: rated on no list (reason time-control, nearest list standard);
    # - new bands: 1700 < 1800 needs 60; 75 >= 60: standard.
    # A tournament starting 2021-12-28 is under the old bands for all its games, also the
    # one played on 2022-01-03; without an EventDate each game goes by its own date.
    tags = {"TimeControl": "4500", "WhiteElo": "1700", "BlackElo": "1650"}
    f = write(
        tmp_path / "new-year.pgn",
        pgn(Event="New Year Open", EventDate="2021.12.28", Date="2021.12.28", Round="1", **tags),
        pgn(Event="New Year Open", EventDate="2021.12.28", Date="2022.01.03", Round="5", **tags),
        pgn(Event="Club Ch", Date="2021.12.28", Round="1", **tags),
        pgn(Event="Club Ch", Date="2022.01.03", Round="5", **tags),
    )
    run(store, f)
    with store.engine.connect() as conn:
        found = conn.execute(
            select(
                tournaments.c.event,
                games.c.date,
                games.c.list,
                games.c.rated,
                games.c.not_rated_reason,
            )
            .join(tournaments, games.c.tournament_id == tournaments.c.id)
            .order_by(games.c.id)
        ).all()
    d = dt.date
    assert [tuple(r) for r in found] == [
        ("New Year Open", d(2021, 12, 28), "standard", False, "time-control"),
        ("New Year Open", d(2022, 1, 3), "standard", False, "time-control"),
        ("Club Ch", d(2021, 12, 28), "standard", False, "time-control"),
        ("Club Ch", d(2022, 1, 3), "standard", True, None),
    ]


@pytest.mark.parametrize("workers", [False, True], ids=["in process", "in a worker"])
def test_games_not_rated_by_their_name_cross_the_worker_pipe(tmp_path: Path, workers: bool) -> None:
    # The reasons an event's name gives (simul, armageddon...) travel from the worker to the
    # writer through marshal, which takes no enum: a NotRated member there failed every big
    # file with such a tournament ("cannot read big.pgn: ValueError: unmarshallable object")
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.store import open_store

    names = ("Simultaneous exhibition", "Armageddon playoff", "Club Open", "Blindfold match")
    f = write(
        tmp_path / "names.pgn", *(pgn(Event=name, Round=str(i)) for i, name in enumerate(names, 1))
    )
    with open_store(str(tmp_path / "t.db")) as store:
        report = import_paths(store, [str(f)], ImportOptions(workers=workers))
    assert report.total("added") == 4
    assert report.not_rated == {"simul": 1, "armageddon": 1, "blindfold": 1}
