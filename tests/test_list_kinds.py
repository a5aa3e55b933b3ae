"""A whole list or an excerpt (issue 34): only FIDE's whole list makes a player it lacks
unrated for FIDE; a player an excerpt lacks keeps what they had (the list before's rating,
else the tag). And the games FIDE counted: the list file's Gms against the replay's count.

The games are real: the Czech U18/U20 championship 2022 of TWIC 1428
(`shared/corpus/twic1428.pgn.xz`), a 12-player round robin from 10 to 19 March 2022 (66
games, FIDE IDs and Elo tags), rated by FIDE with the March 2022 list (in force at its start)
on the April 2022 list. The tracked player is Ocelak, Jakub (FIDE ID 23707933, Elo 2051 in
the PGN), who played its 11 rounds. FIDE computes from the ratings of the list in force: for
an opponent a file says nothing of, the replay's best word is the organiser's tag, so the
replay with an excerpt that lacks the opponents must be the replay of the tags with no list
at all, game by game. A whole list (as big as FIDE's, `tests/listgen.py`) that lacks them
makes them unrated for FIDE: no game of the tournament counts.
"""

from __future__ import annotations

import functools
import json
import re
from pathlib import Path
from typing import Any

import pytest

from tests import listgen
from tests.conftest import CORPUS, decompressed, dump_db, dump_target, need_shared, run_cli
from tests.listgen import Figures, Player
from tracker.lists.whole import WHOLE_FLOORS, kind_of, whole_floor
from tracker.model import ListKind, Period, RatingList

EVENT = "ch-CZE U18 U20 2022"
ME = (23707933, "Ocelak, Jakub", 2051)  # as the PGN has him (FIDE ID, name, Elo tag)
MAR22, APR22 = Period(2022, 3), Period(2022, 4)
KEYS = ("opponent", "opponent_rating", "counted", "expected", "change", "k_change")
STANDARD = RatingList.STANDARD


# --- the floors ------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "lists, period, floor",
    [
        ((STANDARD,), Period(2001, 1), 20_000),
        ((STANDARD,), Period(2008, 10), 20_000),
        ((STANDARD,), Period(2009, 1), 50_000),
        ((RatingList.RAPID,), Period(2012, 9), 10_000),
        ((STANDARD,), Period(2016, 1), 100_000),
        ((RatingList.BLITZ,), Period(2019, 12), 30_000),
        ((STANDARD,), Period(2025, 11), 150_000),
        ((RatingList.RAPID,), Period(2025, 11), 50_000),
        (tuple(RatingList), Period(2025, 11), 150_000),  # combined: every player of the three
    ],
)
def test_a_list_is_whole_from_the_floor_of_its_era(
    lists: tuple[RatingList, ...], period: Period, floor: int
) -> None:
    assert whole_floor(lists, period) == floor
    assert kind_of(floor, lists, period) is ListKind.WHOLE
    assert kind_of(floor - 1, lists, period) is ListKind.EXCERPT


def test_the_floors_are_the_documented_ones() -> None:
    """docs/lists.md states every floor (a table row per era)."""
    doc = (Path(__file__).resolve().parents[1] / "docs" / "lists.md").read_text("utf-8")
    for since, standard, fast in WHOLE_FLOORS:
        row = f"| {since} | {standard:,} | {fast:,} |"
        assert row in doc, row


# --- the round robin ---------------------------------------------------------------------------


@functools.lru_cache(maxsize=4)
def _games(skip_mine: int = 0) -> bytes:
    """The round robin's 66 games byte for byte, without the last `skip_mine` of Ocelak's."""
    need_shared()
    parts = re.split(rb"(?m)^(?=\[Event )", decompressed(CORPUS / "twic1428.pgn.xz"))
    games = [p for p in parts if f'[Event "{EVENT}"]'.encode() in p]
    assert len(games) == 66
    mine = [i for i, g in enumerate(games) if f'FideId "{ME[0]}"'.encode() in g]
    assert len(mine) == 11
    dropped = set(mine[len(mine) - skip_mine :]) if skip_mine else set()
    return b"".join(g for i, g in enumerate(games) if i not in dropped)


def _opponents() -> dict[int, tuple[str, int]]:
    """FIDE ID -> (name, Elo tag) of Ocelak's 11 opponents, as the PGN has them."""
    text = _games().decode("utf-8")
    found: dict[int, tuple[str, int]] = {}
    for game in re.split(r"(?m)^(?=\[Event )", text):
        tags = dict(re.findall(r'^\[(\w+) "([^"]*)"\]', game, re.M))
        if not tags:
            continue
        for me, them in (("White", "Black"), ("Black", "White")):
            if tags.get(f"{me}FideId") == str(ME[0]):
                found[int(tags[f"{them}FideId"])] = (tags[them], int(tags[f"{them}Elo"]))
    assert len(found) == 11
    return found


def _row(fide_id: int, name: str, rating: int | None, games: int | None, k: int | None) -> Player:
    empty = Figures(None, None, None)
    return Player(
        fide_id, name, "CZE", "M", "", "", "", "", Figures(rating, games, k), empty, empty, 2004, ""
    )


def _write(path: Path, people: list[Player], period: Period, filler: int = 0) -> Path:
    """A list file of `period` in today's TXT layout: `filler` generated players (none of
    whose FIDE IDs is one of the round robin's), then `people`."""
    ours = {p.fide_id for p in people} | {ME[0], *_opponents()}
    extra = (p for p in listgen.players(filler + 50, period=period) if p.fide_id not in ours)
    rows = [p for _, p in zip(range(filler), extra, strict=False)] + people
    with path.open("w", encoding="utf-8", newline="\n") as out:
        listgen.write_list(out, rows, "txt", rating_list=STANDARD, period=period)
    return path


def _cli(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str) -> str:
    code, out, err = run_cli(capsys, monkeypatch, *args)
    assert code == 0, err
    return out


def _season(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    skip_mine: int = 0,
) -> str:
    """A database holding the round robin, Ocelak tracked; its path."""
    folder.mkdir()
    db = str(folder / "t.db")
    pgn = folder / "ch-cze-u18-u20-2022.pgn"
    pgn.write_bytes(_games(skip_mine))
    _cli(capsys, monkeypatch, "import", str(pgn), "--db", db, "--player", str(ME[0]), "--quiet")
    return db


def _explained(
    db: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> tuple[str, list[dict[str, Any]]]:
    """`explain 2022-04` as text, and its games as JSON."""
    text = _cli(capsys, monkeypatch, "explain", str(APR22), "--db", db)
    doc = json.loads(_cli(capsys, monkeypatch, "explain", str(APR22), "--db", db, "-f", "json"))
    return text, doc["games"] if isinstance(doc, dict) else doc


def _tags_only(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> list[dict[str, Any]]:
    """The replay of the tags, no list imported: Ocelak's March rating recorded by hand."""
    db = _season(tmp_path / "tags", capsys, monkeypatch)
    _cli(
        capsys,
        monkeypatch,
        "official",
        "add",
        str(ME[0]),
        "--period",
        str(MAR22),
        "--rating",
        str(ME[2]),
        "--k",
        "40",
        "--db",
        db,
    )
    return _explained(db, capsys, monkeypatch)[1]


def test_an_excerpt_leaves_the_players_it_lacks_on_their_tags(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The issue's case: an excerpt of the March list holding only the tracked player (a
    common way to keep a 500,000-row file small) rates the 11 opponents by their tags, as
    if no list were imported, and says so; before, all 11 were unrated for FIDE."""
    db = _season(tmp_path / "excerpt", capsys, monkeypatch)
    mine = _write(tmp_path / "standard_mar22frl.txt", [_row(ME[0], ME[1], ME[2], None, 40)], MAR22)
    said = _cli(capsys, monkeypatch, "official", "import", str(mine), "--db", db)
    assert said == (
        f"{mine}: 2022-03 (standard): 1 players read; 1 in the database; 1 entry written; 1 "
        "birth year filled in; an excerpt (FIDE's whole list of 2022-03 has 150,000 rows or "
        "more): the players it lacks keep their earlier rating or Elo tag (--whole if it is "
        "the whole list)\n"
    )
    text, games = _explained(db, capsys, monkeypatch)
    expected = _tags_only(tmp_path, capsys, monkeypatch)
    assert [{k: g[k] for k in KEYS} for g in games] == [{k: g[k] for k in KEYS} for g in expected]
    assert sum(1 for g in games if g["counted"]) == 11
    assert all(g["opponent_rating_source"] == "tag" for g in games)
    assert text.count("tag (not on the excerpt)") == 11
    assert (
        "    not on the standard 2022-03 list (an excerpt: it says nothing of the players it "
        "lacks): 11 games rated as before it, 11 by their Elo tags"
    ) in text.splitlines()


@pytest.fixture(scope="module")
def whole_march(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """FIDE's whole March 2022 list, as big as the floor of its era (150,000 rows: generated
    players), holding Ocelak and none of his opponents."""
    need_shared()
    folder = tmp_path_factory.mktemp("whole")
    people = [_row(ME[0], ME[1], ME[2], None, 40)]
    floor = whole_floor((STANDARD,), MAR22)
    return _write(folder / "standard_mar22frl.txt", people, MAR22, filler=floor - 1)


def test_a_whole_list_makes_the_players_it_lacks_unrated(
    whole_march: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """FIDE's whole list that lacks the 11 opponents: each is unrated for FIDE, whatever the
    tag says (spec section 1: the ratings of the list in force), and no game counts."""
    db = _season(tmp_path / "whole", capsys, monkeypatch)
    said = _cli(capsys, monkeypatch, "official", "import", str(whole_march), "--db", db)
    assert said == (
        f"{whole_march}: 2022-03 (standard): 150,000 players read; 1 in the database; 149,999 "
        "others skipped (--all keeps them); 1 entry written; 1 birth year filled in; FIDE's "
        "whole list\n"
    )
    text, games = _explained(db, capsys, monkeypatch)
    assert len(games) == 11 and not any(g["counted"] for g in games)
    assert all(g["opponent_rating"] is None for g in games)
    assert all(g["opponent_rating_source"].startswith("standard 2022-03 list (") for g in games)
    assert text.count("unrated on the list") == 11
    assert (
        "    opponents' ratings from the standard 2022-03 list (standard_mar22frl.txt), FIDE's "
        "whole list"
    ) in text.splitlines()


def test_an_excerpt_keeps_the_rating_of_the_list_before(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """The February list imported whole (`--whole`), rating the opponents at their tags;
    the March excerpt lacks them: each keeps February's rating, and explain names it."""
    db = _season(tmp_path / "before", capsys, monkeypatch)
    feb = [_row(fid, name, elo, 0, 20) for fid, (name, elo) in _opponents().items()]
    february = _write(tmp_path / "standard_feb22frl.txt", feb, Period(2022, 2))
    said = _cli(capsys, monkeypatch, "official", "import", str(february), "--whole", "--db", db)
    assert said.endswith("; FIDE's whole list (--whole)\n")
    mine = _write(tmp_path / "standard_mar22frl.txt", [_row(ME[0], ME[1], ME[2], None, 40)], MAR22)
    said = _cli(capsys, monkeypatch, "official", "import", str(mine), "--excerpt", "--db", db)
    assert said.endswith(
        "; an excerpt (--excerpt): the players it lacks keep their earlier rating or Elo tag\n"
    )
    text, games = _explained(db, capsys, monkeypatch)
    expected = _tags_only(tmp_path, capsys, monkeypatch)
    assert [{k: g[k] for k in KEYS} for g in games] == [{k: g[k] for k in KEYS} for g in expected]
    assert all(g["opponent_rating_source"].startswith("standard 2022-02 list (") for g in games)
    assert text.count("list 2022-02") == 11
    assert (
        "    not on the standard 2022-03 list (an excerpt: it says nothing of the players it "
        "lacks): 11 games rated as before it, 11 by the 2022-02 list"
    ) in text.splitlines()


# --- the games FIDE counted ----------------------------------------------------------------


def test_check_names_the_missing_games_by_fides_count(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """Two of Ocelak's 11 games are not in the files. The April list's row of him says
    FIDE rated 11 games (Gms: the round robin's 11 rounds): check says so first, with both
    numbers and the next step; explain shows FIDE's count under the period."""
    db = _season(tmp_path / "nine", capsys, monkeypatch, skip_mine=2)
    march = _write(tmp_path / "standard_mar22frl.txt", [_row(ME[0], ME[1], ME[2], None, 40)], MAR22)
    april = _write(tmp_path / "standard_apr22frl.txt", [_row(ME[0], ME[1], 2001, 11, 40)], APR22)
    _cli(capsys, monkeypatch, "official", "import", str(march), str(april), "--db", db)
    code, out, err = run_cli(capsys, monkeypatch, "check", "--db", db)
    assert (code, err) == (1, "")
    lines = out.splitlines()
    head = lines.index(next(x for x in lines if x.startswith("2022-04: replayed ")))
    assert lines[head + 1] == (
        "  games: FIDE rated 11 games of yours on the 2022-04 list (standard_apr22frl.txt, an "
        "excerpt); your files hold 9 for it: import the missing tournament, 2 games (`tracker "
        "import FILE`)"
    )
    assert lines[head + 2].startswith("  1. [")
    assert "standard_apr22frl.txt (excerpt)" in out  # the from column: the list's kind
    (report,) = json.loads(_cli_code(capsys, monkeypatch, "check", "--db", db, "-f", "json"))
    (row,) = [r for r in report["rows"] if r["period"] == str(APR22)]
    assert row["games_count"] == {
        "fide": 11,
        "replay": 9,
        "missing": 2,
        "source": "standard_apr22frl.txt",
        "kind": "excerpt",
        "step": "import",
        "left_out": 0,
    }
    assert row["official_kind"] == "excerpt"
    text = _cli(capsys, monkeypatch, "explain", str(APR22), "--db", db)
    assert (
        "FIDE's count: 11 games rated on the 2022-04 list (standard_apr22frl.txt, an excerpt); "
        "the replay counts 9: `tracker check` says what is missing"
    ) in text.splitlines()
    # the season page shows the command as code (the line carries it as a value)
    page = tmp_path / "season.html"
    _cli(capsys, monkeypatch, "report", "--db", db, "-o", str(page))
    html = page.read_text(encoding="utf-8")
    assert "the replay counts 9: <code>tracker check</code> says what is missing" in html


def test_check_counts_a_game_left_out_among_those_the_files_hold(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """All 11 of Ocelak's games are in the files, but one opponent has no Elo tag and the
    excerpt of March lacks him: the replay leaves that game out (an unrated opponent). FIDE
    rated 11: check says the files hold the game and the replay left it out, not "import the
    missing tournament" (importing the file again adds nothing)."""
    fide_id, (name, _) = next(iter(sorted(_opponents().items())))
    text = _games().decode("utf-8")
    for side in ("White", "Black"):  # the opponent's Elo tags out, wherever he plays
        text = re.sub(
            rf'(\[{side} "{re.escape(name)}"\]\n(?:\[(?!{side}Elo)[^\n]*\n)*)\[{side}Elo "\d+"\]\n',
            r"\1",
            text,
        )
    assert f'FideId "{fide_id}"' in text
    pgn = tmp_path / "untagged.pgn"
    pgn.write_text(text, encoding="utf-8")
    db = _season(tmp_path / "untagged", capsys, monkeypatch)
    _cli(capsys, monkeypatch, "imports", "remove", "1", "--db", db)
    _cli(capsys, monkeypatch, "import", str(pgn), "--db", db, "--player", str(ME[0]), "--quiet")
    march = _write(tmp_path / "standard_mar22frl.txt", [_row(ME[0], ME[1], ME[2], None, 40)], MAR22)
    april = _write(tmp_path / "standard_apr22frl.txt", [_row(ME[0], ME[1], 2001, 11, 40)], APR22)
    _cli(capsys, monkeypatch, "official", "import", str(march), str(april), "--db", db)
    (report,) = json.loads(_cli_code(capsys, monkeypatch, "check", "--db", db, "-f", "json"))
    (row,) = [r for r in report["rows"] if r["period"] == str(APR22)]
    assert row["games_count"]["replay"] == 10
    assert (row["games_count"]["step"], row["games_count"]["left_out"]) == ("left-out", 1)
    text = _cli(capsys, monkeypatch, "explain", str(APR22), "--db", db)
    assert (
        "10 by their Elo tags, 1 without a rating (no Elo tag): not counted" in text
    )  # (explain counted the untagged one among the tags)


def _cli_code(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> str:
    """A command that exits 1 when it finds a difference (check): its stdout."""
    code, out, err = run_cli(capsys, monkeypatch, *args)
    assert code in (0, 1) and err == "", err
    return out


# --- the store ---------------------------------------------------------------------------------


def test_an_excerpt_imported_after_as_whole_takes_back_what_it_alone_said(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """One file taken first as whole (every opponent looked up: unrated), then as an excerpt
    (the players it lacks not known again); the same file again writes nothing."""
    db = _season(tmp_path / "again", capsys, monkeypatch)
    mine = _write(tmp_path / "standard_mar22frl.txt", [_row(ME[0], ME[1], ME[2], None, 40)], MAR22)
    _cli(capsys, monkeypatch, "official", "import", str(mine), "--whole", "--db", db)
    assert not any(g["counted"] for g in _explained(db, capsys, monkeypatch)[1])
    _cli(capsys, monkeypatch, "official", "import", str(mine), "--db", db)
    assert sum(1 for g in _explained(db, capsys, monkeypatch)[1] if g["counted"]) == 11
    before = dump_target(db)
    _cli(capsys, monkeypatch, "official", "import", str(mine), "--db", db)
    assert dump_target(db) == before


def test_0009_records_the_lists_imported_before_as_whole(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    """A database of 0008 holds a list imported when every file was taken as whole: 0009
    keeps it so ('whole'), and its downgrade leaves the rest as it was."""
    from sqlalchemy import select

    from tests.test_store_migrations import _migrate_down
    from tracker.store import open_store
    from tracker.store.schema import official_lists

    db = _season(tmp_path / "old", capsys, monkeypatch)
    mine = _write(tmp_path / "standard_mar22frl.txt", [_row(ME[0], ME[1], ME[2], None, 40)], MAR22)
    _cli(capsys, monkeypatch, "official", "import", str(mine), "--excerpt", "--db", db)
    _migrate_down(db, "0008")
    before = dump_db(Path(db))
    with open_store(db) as store, store.engine.connect() as conn:  # upgrades to head
        assert conn.execute(select(official_lists.c.kind)).scalars().all() == ["whole"]
    _migrate_down(db, "0008")
    assert dump_db(Path(db)) == before
