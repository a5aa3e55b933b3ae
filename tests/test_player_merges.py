"""One person, one player (issue 35, item 1): no list row, typo or PGN tag merges two people
whose names do not fit, and every merge is recorded and can be undone.

The games are made here (tests/test_import.py's `pgn`); the one-row lists are written in the
layout of FIDE's TXT list of March 2011 (its header line, verbatim from
shared/spec/fide-list-samples/standard_mar11frl.txt), with rows whose values are the test's.
"""

from __future__ import annotations

from pathlib import Path

import pytest
from sqlalchemy import select

from tests.conftest import dump_target, run_cli
from tests.test_import import pgn, write
from tracker.app.players import resolve_player
from tracker.identity.names import names_fit
from tracker.store import open_store
from tracker.store.schema import (
    games,
    official_checked,
    official_ratings,
    player_names,
    players,
    ro_overrides,
)

pytestmark = pytest.mark.databases  # the tests with `db_target` run on both

MAR11_HEADER = "ID number Name                              TitlFed  Mar11 GamesBorn  Flag"


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


def one_row_list(path: Path, fide_id: int, name: str) -> Path:
    """A standard list of March 2011 holding one row (CZE, rated 1850, born 1990)."""
    path.write_text(
        f"{MAR11_HEADER}\n{fide_id:>8}  {name:<34}    CZE  1850    0  1990  \n", encoding="utf-8"
    )
    return path


def names_of_games(db: str) -> list[tuple[str, str]]:
    """(White, Black) of every game, by id, as the players table names them now."""
    with open_store(db) as store, store.engine.connect() as conn:
        w, b = players.alias("w"), players.alias("b")
        return [
            (str(x), str(y))
            for x, y in conn.execute(
                select(w.c.name, b.c.name)
                .select_from(games)
                .join(w, w.c.id == games.c.white_id)
                .join(b, b.c.id == games.c.black_id)
                .order_by(games.c.id)
            )
        ]


def spellings(db: str, name: str) -> list[str]:
    with open_store(db) as store, store.engine.connect() as conn:
        pid = resolve_player(store, name).id
        return sorted(
            str(n)
            for n in conn.execute(
                select(player_names.c.norm_name).where(player_names.c.player_id == pid)
            ).scalars()
        )


@pytest.fixture
def two_novaks(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """The issue's database: the tracked "Novák, Tomáš" (no FIDE ID yet) and "Novák, Petr",
    FIDE ID 111111 from his own game's tags."""
    write(
        tmp_path / "season.pgn",
        pgn(White="Novák, Petr", WhiteFideId="111111", Black="Svoboda, Jan", Round="1"),
        pgn(White="Novák, Tomáš", Black="Dvořák, Ema", Round="2"),
    )
    code, _, err = cli(capsys, monkeypatch, "import", "season.pgn", "--db", db_target, "--quiet")
    assert code == 0, err
    code, _, err = cli(
        capsys, monkeypatch, "player", "set", "Novák, Tomáš", "--me", "--db", db_target
    )
    assert code == 0, err
    return db_target


SEASON = [("Novák, Petr", "Svoboda, Jan"), ("Novák, Tomáš", "Dvořák, Ema")]


# --- the rule: when two names can be one person's -----------------------------------------


@pytest.mark.parametrize(
    "a, b, fit",
    [
        ("Novák, Tomáš", "Novák, Tomáš", True),
        ("Novak, T", "Novák, Tomáš", True),  # an initial, accents aside
        ("NOVÁK, tomáš", "Novák, Tomáš", True),  # case aside
        ("Tomáš Novák", "Novák, Tomáš", True),  # order aside
        ("Novák, T.", "Novák, Tomáš Jan", True),
        ("Novák, Petr", "Novák, Tomáš", False),  # the issue: one surname, other given names
        ("Novák, P", "Novák, Tomáš", False),
        ("Novák", "Novák, Tomáš", False),  # no given name: not enough
        ("Nováková, Tereza", "Novák, Tomáš", False),
        ("Svoboda, Tomáš", "Novák, Tomáš", False),
        ("", "Novák, Tomáš", False),
    ],
)
def test_names_fit(a: str, b: str, fit: bool) -> None:
    assert names_fit(a, b) is fit
    assert names_fit(b, a) is fit


# --- the three ways two people became one -------------------------------------------------


def test_a_one_row_list_does_not_merge_a_player_of_the_same_surname(
    two_novaks: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = two_novaks
    lst = one_row_list(tmp_path / "standard_mar11frl.txt", 111111, "Novák, Tomáš")
    code, out, err = cli(capsys, monkeypatch, "official", "import", str(lst), "--db", db)
    assert code == 0
    assert err == (
        "warning: standard_mar11frl.txt: Novák, Tomáš fits Novák, Tomáš (FIDE ID 111111) on "
        "the list, but FIDE ID 111111 belongs to Novák, Petr, whose given names are not "
        "Novák, Tomáš's: if they are one person, say so with `tracker player merge 111111 "
        "'Novák, Tomáš'`\n"
    )
    assert "merged" not in out and "matched by name" not in out
    assert names_of_games(db) == SEASON
    with open_store(db) as store:
        tomas, petr = resolve_player(store, "Novák, Tomáš"), resolve_player(store, "111111")
    assert (tomas.fide_id, tomas.is_me, petr.name) == (None, True, "Novák, Petr")


def test_a_fide_id_typo_in_player_set_merges_nothing(
    two_novaks: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = two_novaks
    before = dump_target(db)
    code, out, err = cli(
        capsys, monkeypatch, "player", "set", "Novák, Tomáš", "--fide-id", "111111", "--db", db
    )
    assert (code, out) == (2, "")
    assert err == (
        "error: FIDE ID 111111 already belongs to Novák, Petr: nothing changed; if Novák, "
        "Tomáš is that person, `tracker player set 'Novák, Tomáš' --fide-id 111111 --merge` "
        "makes them one; otherwise check the FIDE ID\n"
    )
    assert dump_target(db) == before
    code, out, err = cli(
        capsys, monkeypatch, "player", "set", "Novák, Tomáš", "--merge", "--db", db
    )
    assert (code, out) == (2, "")
    assert err == (
        "error: --merge goes with --fide-id: it merges the player into the one who has it\n"
    )


def test_a_pgn_naming_one_player_with_another_players_fide_id_is_said(
    two_novaks: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = two_novaks
    write(
        tmp_path / "club.pgn",
        pgn(White="Novák, Tomáš", WhiteFideId="111111", Black="Svoboda, Jan", Round="3"),
        pgn(White="Svoboda, Jan", Black="Novák, Tomáš", BlackFideId="111111", Round="4"),
        pgn(White="Novák, Tomas", WhiteFideId="111111", Black="Dvořák, Ema", Round="5"),
    )
    code, out, err = cli(capsys, monkeypatch, "import", "club.pgn", "--db", db)
    assert code == 0
    assert err == (
        "warning: club.pgn:1: White Novák, Tomáš has WhiteFideId 111111, the FIDE ID of "
        "Novák, Petr, whose given names are not Novák, Tomáš's: the game is filed under "
        "Novák, Tomáš, without the FIDE ID (so are 2 more games of the file); if they are "
        "one person, `tracker player merge 111111 'Novák, Tomáš'` makes them one\n"
    )
    assert out.startswith("club.pgn: 3 games read, 3 added\n")
    assert names_of_games(db) == [
        *SEASON,
        ("Novák, Tomáš", "Svoboda, Jan"),
        ("Svoboda, Jan", "Novák, Tomáš"),
        ("Novák, Tomáš", "Dvořák, Ema"),
    ]
    assert spellings(db, "111111") == ["novak petr"]  # no alias given to the ID's holder


# --- every merge is recorded, and undone -------------------------------------------------


def test_player_set_merge_says_so_and_unmerge_puts_everything_back(
    two_novaks: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = two_novaks
    before = dump_target(db)
    code, out, err = cli(
        capsys,
        monkeypatch,
        "player",
        "set",
        "Novák, Tomáš",
        "--fide-id",
        "111111",
        "--merge",
        "--db",
        db,
    )
    assert (code, err) == (0, "")
    assert out == (
        "merged Novák, Tomáš into Novák, Petr (FIDE ID 111111) as merge 1; `tracker player "
        "unmerge --merge 1` undoes it\n"
        "Novák, Petr (FIDE ID 111111): FIDE ID 111111\n"
    )
    assert names_of_games(db) == [("Novák, Petr", "Svoboda, Jan"), ("Novák, Petr", "Dvořák, Ema")]
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "--merge", "1", "--db", db)
    assert (code, err) == (0, "")
    assert out == (
        "unmerged Novák, Tomáš from Novák, Petr (FIDE ID 111111), undoing merge 1: 1 game and "
        "1 spelling back to Novák, Tomáš\n"
    )
    assert dump_target(db) == before
    assert cli(capsys, monkeypatch, "db", "check", "--db", db)[0] == 0


@pytest.fixture
def carlsens(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> str:
    """Two spellings of one person, each with games, official entries (one month each, one
    month both, alike), starting-rating overrides (one tournament each, one both), lists
    looked up on (one each, one both) and facts; "Carlsen,M" tracked."""
    write(
        tmp_path / "games.pgn",
        pgn(White="Carlsen, Magnus", WhiteFideId="1503014", Black="Giri, Anish", Round="1"),
        pgn(White="Carlsen,M", Black="Nepomniachtchi, Ian", Round="2"),
        pgn(White="Caruana, Fabiano", Black="Carlsen,M", Event="Spring Open", Round="1"),
        pgn(White="Carlsen,M", Black="Caruana, Fabiano", Event="Spring Open", Round="2"),
        pgn(White="Giri, Anish", Black="Carlsen, Magnus", Event="Summer Open", Round="1"),
    )
    steps = [
        ("import", "games.pgn", "--quiet"),
        ("player", "set", "Carlsen,M", "--me", "--birth-year", "1990", "--ever-2400"),
        ("player", "set", "Carlsen, Magnus", "--rated-games", "30"),
        ("official", "add", "Carlsen,M", "--period", "2024-05", "--rating", "2830"),
        ("official", "add", "Carlsen,M", "--period", "2024-06", "--rating", "2835"),
        ("official", "add", "1503014", "--period", "2024-06", "--rating", "2835"),
        ("official", "add", "1503014", "--period", "2024-07", "--rating", "2839"),
        ("event", "set", "1", "--ro", "2800", "--player", "Carlsen, Magnus"),
        ("event", "set", "1", "--ro", "2800", "--player", "Carlsen,M"),
        ("event", "set", "2", "--ro", "2750", "--player", "Carlsen,M"),
    ]
    for args in steps:
        code, _, err = cli(capsys, monkeypatch, *args, "--db", db_target)
        assert code == 0, (args, err)
    with open_store(db_target) as store, store.engine.begin() as conn:
        kept, other = resolve_player(store, "1503014").id, resolve_player(store, "Carlsen,M").id
        conn.execute(
            official_checked.insert(),
            [
                {"player_id": kept, "list": "standard", "period": "2024-06"},
                {"player_id": other, "list": "standard", "period": "2024-06"},
                {"player_id": other, "list": "rapid", "period": "2024-05"},
            ],
        )
    return db_target


def test_merge_and_unmerge_put_back_games_spellings_facts_entries_and_overrides(
    carlsens: str, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = carlsens
    before = dump_target(db)
    code, out, err = cli(capsys, monkeypatch, "player", "merge", "1503014", "Carlsen,M", "--db", db)
    assert (code, err) == (0, "")
    assert out == (
        "merged Carlsen,M into Carlsen, Magnus (FIDE ID 1503014) as merge 1; `tracker player "
        "unmerge --merge 1` undoes it\n"
    )
    with open_store(db) as store, store.engine.connect() as conn:
        kept = resolve_player(store, "Carlsen,M")
        assert (kept.name, kept.birth_year, kept.rated_games, kept.ever_2400, kept.is_me) == (
            "Carlsen, Magnus",
            1990,
            30,
            True,
            True,
        )
        assert sorted(
            conn.execute(select(ro_overrides.c.tournament_id, ro_overrides.c.player_id))
        ) == [(1, kept.id), (2, kept.id)]
        assert sorted(
            conn.execute(select(official_ratings.c.period, official_ratings.c.player_id))
        ) == [("2024-05", kept.id), ("2024-06", kept.id), ("2024-07", kept.id)]
    assert cli(capsys, monkeypatch, "db", "check", "--db", db)[0] == 0
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "Carlsen,M", "--db", db)
    assert (code, err) == (0, "")
    assert out == (
        "unmerged Carlsen,M from Carlsen, Magnus (FIDE ID 1503014), undoing merge 1: 3 games, "
        "1 spelling, 2 official entries and 2 overrides back to Carlsen,M\n"
    )
    assert dump_target(db) == before
    assert cli(capsys, monkeypatch, "db", "check", "--db", db)[0] == 0


def test_games_imported_after_a_merge_stay_with_the_player_kept(
    carlsens: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = carlsens
    assert cli(capsys, monkeypatch, "player", "merge", "1503014", "Carlsen,M", "--db", db)[0] == 0
    write(tmp_path / "later.pgn", pgn(White="Carlsen,M", Black="So, Wesley", Event="Autumn Open"))
    code, _, err = cli(capsys, monkeypatch, "import", "later.pgn", "--db", db, "--quiet")
    assert code == 0, err
    assert cli(capsys, monkeypatch, "player", "unmerge", "--merge", "1", "--db", db)[0] == 0
    assert names_of_games(db)[-1] == ("Carlsen, Magnus", "So, Wesley")
    assert [g for g in names_of_games(db) if "Carlsen,M" in g] == [
        ("Carlsen,M", "Nepomniachtchi, Ian"),
        ("Caruana, Fabiano", "Carlsen,M"),
        ("Carlsen,M", "Caruana, Fabiano"),
    ]
    assert cli(capsys, monkeypatch, "db", "check", "--db", db)[0] == 0


def test_merges_are_undone_in_reverse_order_and_a_name_picks_its_merge(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = db_target
    write(
        tmp_path / "g.pgn",
        pgn(White="Novak, Jan", Black="Svoboda, Petr", Round="1"),
        pgn(White="Novak,J", Black="Svoboda, Petr", Round="2"),
        pgn(White="Novak, Jan P", Black="Svoboda, Petr", Round="3"),
        pgn(White="Jan Novak", Black="Svoboda, Petr", Round="4"),
    )
    assert cli(capsys, monkeypatch, "import", "g.pgn", "--db", db, "--quiet")[0] == 0
    start = dump_target(db)
    for keep, other in (
        ("Novak,J", "Novak, Jan P"),
        ("Novak, Jan", "Novak,J"),
        ("Novak, Jan", "Jan Novak"),
    ):
        code, _, err = cli(capsys, monkeypatch, "player", "merge", keep, other, "--db", db)
        assert code == 0, err
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "--db", db)
    assert (code, out) == (2, "")
    assert err == (
        "error: name the player or give --merge N; the latest merges: merge 3: Jan Novak into "
        "Novak, Jan; merge 2: Novak,J into Novak, Jan; merge 1: Novak, Jan P into Novak,J\n"
    )
    # merge 1 kept Novak,J, merged into Novak, Jan since (merge 2)
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "--merge", "1", "--db", db)
    assert (code, out) == (2, "")
    assert err == (
        "error: merge 1 kept Novak,J, merged into Novak, Jan since (merge 2): undo that first "
        "(`tracker player unmerge --merge 2`)\n"
    )
    # the spelling of the player merged away picks its merge, not the latest (3)
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "Novak,J", "--db", db)
    assert (code, err) == (0, "")
    assert out.startswith("unmerged Novak,J from Novak, Jan, undoing merge 2: 2 games")
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "Novak, Jan", "--db", db)
    assert out.startswith("unmerged Jan Novak from Novak, Jan, undoing merge 3: 1 game")
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "Novak, Jan P", "--db", db)
    assert out.startswith("unmerged Novak, Jan P from Novak,J, undoing merge 1: 1 game")
    assert dump_target(db) == start
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "Novak, Jan", "--db", db)
    assert (code, out) == (2, "")
    assert err == (
        "error: no merge into Novak, Jan is recorded (merges made before tracker recorded "
        "them cannot be undone)\n"
    )
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "--db", db)
    assert (code, err) == (2, "error: nothing to undo: no merge is recorded\n")
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "--merge", "2", "--db", db)
    assert (code, err) == (2, "error: no merge 2 is recorded (made, and not undone)\n")


def test_a_list_merge_is_undone_name_and_all(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """A list row that fits both a name and the holder of its FIDE ID merges them, under the
    list's name; unmerge gives the holder its own name back, and the name its games."""
    db = db_target
    write(
        tmp_path / "g.pgn",
        pgn(White="Novak, Tomas", WhiteFideId="111111", Black="Svoboda, Jan", Round="1"),
        pgn(White="Novak,T", Black="Dvorak, Ema", Round="2"),
    )
    assert cli(capsys, monkeypatch, "import", "g.pgn", "--db", db, "--quiet")[0] == 0
    lst = one_row_list(tmp_path / "standard_mar11frl.txt", 111111, "Novák, Tomáš")
    code, out, err = cli(capsys, monkeypatch, "official", "import", str(lst), "--db", db)
    assert (code, err) == (0, "")
    assert out.splitlines()[1:] == [
        "  Novak,T: Novák, Tomáš, FIDE ID 111111, which Novak, Tomas had: merged Novak,T into "
        "Novak, Tomas, named Novák, Tomáš now as merge 1; `tracker player unmerge --merge 1` "
        "undoes it"
    ]
    assert names_of_games(db) == [("Novák, Tomáš", "Svoboda, Jan"), ("Novák, Tomáš", "Dvorak, Ema")]
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "Novak,T", "--db", db)
    assert (code, err) == (0, "")
    assert out == (
        "unmerged Novak,T from Novak, Tomas (FIDE ID 111111), undoing merge 1: 1 game and 1 "
        "spelling back to Novak,T\n"
    )
    assert names_of_games(db) == [("Novak, Tomas", "Svoboda, Jan"), ("Novak,T", "Dvorak, Ema")]
    assert spellings(db, "111111") == ["novak tomas"]
    assert cli(capsys, monkeypatch, "db", "check", "--db", db)[0] == 0


def test_a_player_merged_away_whose_id_was_taken_since_comes_back_under_another(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = db_target
    write(
        tmp_path / "g.pgn",
        pgn(White="Novak, Jan", Black="Svoboda, Petr", Round="1"),
        pgn(White="Novak,J", Black="Svoboda, Petr", Round="2"),
    )
    assert cli(capsys, monkeypatch, "import", "g.pgn", "--db", db, "--quiet")[0] == 0
    assert cli(capsys, monkeypatch, "player", "merge", "Novak, Jan", "Novak,J", "--db", db)[0] == 0
    write(tmp_path / "h.pgn", pgn(White="Kral, Ota", Black="Svoboda, Petr", Round="3"))
    assert cli(capsys, monkeypatch, "import", "h.pgn", "--db", db, "--quiet")[0] == 0
    with open_store(db) as store:
        assert resolve_player(store, "Kral, Ota").id == 3  # the id Novak,J had
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "Novak,J", "--db", db)
    assert (code, err) == (0, "")
    assert names_of_games(db) == [
        ("Novak, Jan", "Svoboda, Petr"),
        ("Novak,J", "Svoboda, Petr"),
        ("Kral, Ota", "Svoboda, Petr"),
    ]
    with open_store(db) as store:
        assert resolve_player(store, "Novak,J").id == 4  # (the next free one)
    assert cli(capsys, monkeypatch, "db", "check", "--db", db)[0] == 0


def test_an_import_removed_after_a_merge_takes_its_games_out_of_the_record(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    db = db_target
    write(tmp_path / "a.pgn", pgn(White="Novak, Jan", Black="Svoboda, Petr", Round="1"))
    write(tmp_path / "b.pgn", pgn(White="Novak,J", Black="Kral, Ota", Round="2"))
    write(tmp_path / "c.pgn", pgn(White="Novak,J", Black="Kral, Ota", Round="3"))
    for name in ("a.pgn", "b.pgn", "c.pgn"):
        assert cli(capsys, monkeypatch, "import", name, "--db", db, "--quiet")[0] == 0
    assert cli(capsys, monkeypatch, "player", "merge", "Novak, Jan", "Novak,J", "--db", db)[0] == 0
    code, _, err = cli(capsys, monkeypatch, "imports", "remove", "3", "--db", db)
    assert code == 0, err
    assert cli(capsys, monkeypatch, "db", "check", "--db", db)[0] == 0
    code, out, err = cli(capsys, monkeypatch, "player", "unmerge", "Novak,J", "--db", db)
    assert (code, err) == (0, "")
    assert "undoing merge 1: 1 game and 1 spelling" in out
    assert names_of_games(db) == [("Novak, Jan", "Svoboda, Petr"), ("Novak,J", "Kral, Ota")]
    assert cli(capsys, monkeypatch, "db", "check", "--db", db)[0] == 0
