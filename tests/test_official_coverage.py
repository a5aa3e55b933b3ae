"""Which players each imported list looked up (official_lists, official_checked), players
known only by name matched to a list's rows, and one FIDE ID as one person.

The lists are FIDE's verbatim samples (shared/spec/fide-list-samples: `standard_mar11frl.txt`
lists " 4158814  Andreikin, Dmitry  g RUS 2686 9 1990", " 5700230  A B, Muhammad Yusop MAS"
without a rating, "10207538  A E M, Doshtagir BAN 1864 0"), or that file with rows added in
its own layout (the values of those rows are the test's). The games are real: Andreikin's of
the pgnmentor Carlsen file (no FIDE IDs: "Andreikin,D") and of TWIC 920 (FIDE IDs:
"Andreikin,D", 4158814).
"""

from __future__ import annotations

import re
from pathlib import Path

import pytest
from sqlalchemy import func, select

from tests.conftest import CORPUS, SPEC, decompressed, dump_target, need_shared, run_cli
from tests.test_import import pgn, write
from tracker.app.players import resolve_player
from tracker.errors import BadInput
from tracker.identity.names import given_fit, name_fit, name_forms
from tracker.model import ListKind, ListStatus, Period, RatingList
from tracker.store import Store, open_store
from tracker.store.entries import entries_for
from tracker.store.lists import NameIndex, Unmatched, list_ratings, lists_imported, unchecked
from tracker.store.players import merge, record_facts, set_facts
from tracker.store.schema import games, official_checked, official_lists, players

pytestmark = pytest.mark.databases  # the tests with `db_target` or `store` run on both

MAR11 = Period(2011, 3)
STANDARD = RatingList.STANDARD
EXCERPT_MAR11 = (
    "; an excerpt (FIDE's whole list of 2011-03 has 50,000 rows or more): the players it "
    "lacks keep their earlier rating or Elo tag (--whole if it is the whole list)"
)
"""How an import line ends for the sample of the March 2011 list: 11 rows, an excerpt."""


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)


def samples() -> Path:
    need_shared()
    return SPEC / "fide-list-samples"


def games_with(corpus: str, name: str) -> bytes:
    """The games of a corpus file in which `name` plays (byte for byte as in the file)."""
    need_shared()
    parts = re.split(rb"(?m)^(?=\[Event )", decompressed(CORPUS / corpus))
    return b"".join(p for p in parts if f'"{name}"'.encode() in p)


def cli(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, *args: str
) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


def import_games(
    capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, db: str, path: Path
) -> None:
    code, _, err = cli(capsys, monkeypatch, "import", str(path), "--db", db, "--quiet")
    assert code == 0, err


def mar11_with(tmp_path: Path, rows: list[tuple[int, str, str]]) -> Path:
    """standard_mar11frl.txt with rows added in its layout: (FIDE ID, name, the columns from
    the title on, as the Andreikin row writes them: 'g   RUS  2686    9  1990  ')."""
    lines = (samples() / "standard_mar11frl.txt").read_text(encoding="latin-1").splitlines()
    lines += [f"{fid:>8}  {name:<34}{rest}" for fid, name, rest in rows]
    out = tmp_path / "standard_mar11frl.txt"
    out.write_text("\n".join(lines) + "\n", encoding="latin-1")
    return out


def player_row(db: str, name: str) -> tuple[int, str, int | None]:
    with open_store(db) as store:
        ref = resolve_player(store, name)
    return ref.id, ref.name, ref.fide_id


# --- names ---------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "pgn_name, listed, rank",
    [
        ("Andreikin,D", "Andreikin, Dmitry", 1),
        ("Andreikin, D.", "Andreikin, Dmitry", 1),
        ("andreikin dmitry", "Andreikin, Dmitry", 0),  # no comma: every split of the words
        ("Dmitry Andreikin", "Andreikin, Dmitry", 0),
        ("Müller, H", "Muller, Hans", 1),  # accents folded
        ("A K M, S", "A K M, Sourab", 1),
        ("Andreikin,M", "Andreikin, Dmitry", None),
        ("Andreikin", "Andreikin, Dmitry", None),  # no given name: too little to tell
        ("Andreikina, D", "Andreikin, Dmitry", None),
    ],
)
def test_name_fit(pgn_name: str, listed: str, rank: int | None) -> None:
    assert name_fit(name_forms(pgn_name), name_forms(listed)) == rank


def test_given_names_word_by_word() -> None:
    assert given_fit(("d",), ("dmitry",)) == 1
    assert given_fit(("dmitry",), ("d",)) == 1
    assert given_fit(("magnus",), ("magnus", "oen")) == 1
    assert given_fit(("m", "o"), ("magnus", "oen")) == 1
    assert given_fit(("m", "x"), ("magnus", "oen")) is None
    assert given_fit((), ()) == 0


# --- Andreikin,D of pgnmentor, found on the March 2011 list -------------------------------


def test_a_pgn_name_without_fide_id_is_matched_on_the_list(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pgnmentor = tmp_path / "andreikin-pgnmentor.pgn"
    pgnmentor.write_bytes(games_with("pgnmentor-Carlsen.pgn.xz", "Andreikin,D"))
    import_games(capsys, monkeypatch, db_target, pgnmentor)
    assert player_row(db_target, "Andreikin,D")[2] is None
    mar11 = samples() / "standard_mar11frl.txt"
    code, out, err = cli(capsys, monkeypatch, "official", "import", str(mar11), "--db", db_target)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0] == (
        f"{mar11}: 2011-03 (standard): 11 players read; 1 in the database (1 "
        "matched by name); 10 others skipped (--all keeps them); 1 entry "
        "written; 1 birth year filled in" + EXCERPT_MAR11
    )
    assert lines[1:] == ["  Andreikin,D: Andreikin, Dmitry, FIDE ID 4158814 (matched by name)"]
    pid, name, fide_id = player_row(db_target, "Andreikin,D")
    assert (name, fide_id) == ("Andreikin,D", 4158814)
    with open_store(db_target) as store:
        (entry,) = entries_for(store, pid)
        assert (
            entry.list,
            entry.period,
            entry.rating,
            entry.games,
            entry.title,
            entry.birth_year,
            entry.source,
        ) == (STANDARD, MAR11, 2686, 9, "GM", 1990, "standard_mar11frl.txt")
        assert list_ratings(store, [pid], STANDARD) == {
            pid: {MAR11: ListStatus(2686, "standard_mar11frl.txt")}
        }
        assert lists_imported(store, STANDARD) == [(MAR11, str(mar11.resolve()))]
        assert lists_imported(store, RatingList.RAPID) == []
        assert unchecked(store, [pid], STANDARD) == {}
        # the list's spelling now finds the player too
        assert resolve_player(store, "Andreikin, Dmitry").id == pid
    # the same file again: nothing changes
    before = dump_target(db_target)
    code, out, err = cli(capsys, monkeypatch, "official", "import", str(mar11), "--db", db_target)
    assert code == 0, err
    assert out.splitlines() == [
        f"{mar11}: 2011-03 (standard): 11 players read; 1 in the database; 10 others "
        "skipped (--all keeps them); 0 entries written; 1 already as imported before "
        "(unchanged)" + EXCERPT_MAR11
    ]
    assert dump_target(db_target) == before
    # TWIC 920's games of Andreikin,D carry FIDE ID 4158814: they join the same player
    twic = tmp_path / "andreikin-twic0920.pgn"
    twic.write_bytes(games_with("twic0920.pgn.xz", "Andreikin,D"))
    import_games(capsys, monkeypatch, db_target, twic)
    with open_store(db_target) as store, store.engine.connect() as conn:
        assert (
            conn.execute(
                select(func.count())
                .select_from(players)
                .where(players.c.norm_name == "andreikin d")
            ).scalar_one()
            == 1
        )
        assert (
            conn.execute(
                select(func.count())
                .select_from(games)
                .where((games.c.white_id == pid) | (games.c.black_id == pid))
            ).scalar_one()
            == 13 + 9
        )


def test_the_lists_say_rated_unrated_or_unknown(store: Store, tmp_path: Path) -> None:
    """Looked up on an excerpt (the sample, 11 rows): the players it lists, by FIDE ID (with
    a rating or without one) or matched by name; not looked up: a player it lacks (Carlsen),
    a player without a FIDE ID whom no row fits. The same file taken as FIDE's whole list
    (`whole=True`, `--whole`) looks up every player with a FIDE ID: Carlsen, not on it, is
    unrated for FIDE; a player who came after the import is not known until it runs
    again."""
    from tracker.app.official import import_lists, list_targets

    f = write(
        tmp_path / "g.pgn",
        pgn(
            White="Andreikin, Dmitry",
            WhiteFideId="4158814",
            Black="A B, Muhammad Yusop",
            BlackFideId="5700230",
        ),
        pgn(White="Carlsen, Magnus", WhiteFideId="1503014", Black="A E M, D", Round="2"),
        pgn(White="Nobody, Here", Black="Andreikin, Dmitry", BlackFideId="4158814", Round="3"),
    )
    from tests.test_import import run

    run(store, f)
    ids = {
        name: resolve_player(store, name).id
        for name in (
            "Andreikin, Dmitry",
            "A B, Muhammad Yusop",
            "Carlsen, Magnus",
            "A E M, D",
            "Nobody, Here",
        )
    }
    targets, several = list_targets([samples() / "standard_mar11frl.txt"])
    (outcome,) = import_lists(store, targets, several=several)
    assert outcome.summary is not None
    assert outcome.summary.matched == 1  # A E M, D is "A E M, Doshtagir"
    src = "standard_mar11frl.txt"
    assert outcome.summary.kind is ListKind.EXCERPT
    listed = {
        ids["Andreikin, Dmitry"]: {MAR11: ListStatus(2686, src)},
        ids["A B, Muhammad Yusop"]: {MAR11: ListStatus(None, src)},  # listed, no rating
        ids["A E M, D"]: {MAR11: ListStatus(1864, src)},
    }
    assert list_ratings(store, ids.values(), STANDARD) == listed  # Carlsen: not known
    assert list_ratings(store, ids.values(), RatingList.BLITZ) == {}
    assert unchecked(store, ids.values(), STANDARD) == {}  # (importing it again: no help)
    # the same file as FIDE's whole list: Carlsen is not on it, so unrated for FIDE
    (outcome,) = import_lists(store, targets, several=several, whole=True)
    assert outcome.summary is not None and outcome.summary.kind is ListKind.WHOLE
    got = list_ratings(store, ids.values(), STANDARD)
    assert got == {**listed, ids["Carlsen, Magnus"]: {MAR11: ListStatus(None, src)}}
    assert unchecked(store, ids.values(), STANDARD) == {ids["Nobody, Here"]: (MAR11,)}
    # a player who came after the list was imported: unknown, until it is imported again
    run(
        store,
        write(
            tmp_path / "h.pgn",
            pgn(White="Giri, Anish", WhiteFideId="24116068", Black="Nobody, Here", Round="4"),
        ),
    )
    giri = resolve_player(store, "Giri, Anish").id
    assert unchecked(store, [*ids.values(), giri], STANDARD) == {
        ids["Nobody, Here"]: (MAR11,),
        giri: (MAR11,),
    }
    targets, several = list_targets([samples() / "standard_mar11frl.txt"])
    (outcome,) = import_lists(store, targets, several=several, whole=True)
    assert list_ratings(store, [giri], STANDARD) == {giri: {MAR11: ListStatus(None, src)}}
    assert len(unchecked(store, [*ids.values(), giri], STANDARD)) == 1
    with store.engine.connect() as conn:
        assert conn.execute(select(func.count()).select_from(official_lists)).scalar_one() == 1


def test_a_rapid_list_and_a_combined_list(store: Store, tmp_path: Path) -> None:
    from tests.test_import import run
    from tracker.app.official import import_lists, list_targets

    run(
        store,
        write(
            tmp_path / "g.pgn",
            pgn(White="Aarnes, Carl Christian", WhiteFideId="1500660", Black="A, Sohita"),
        ),
    )
    aarnes = resolve_player(store, "Aarnes").id
    sohita = resolve_player(store, "A, Sohita").id
    for name, when in (("rapid_sep12frl.txt", None), ("players_list_2015.txt", Period(2015, 1))):
        targets, several = list_targets([samples() / name])
        list(import_lists(store, targets, several=several, period=when))
    sep12, jan15 = Period(2012, 9), Period(2015, 1)
    assert list_ratings(store, [aarnes, sohita], RatingList.RAPID) == {
        aarnes: {sep12: ListStatus(1838, "rapid_sep12frl.txt")},  # not on the 2015 excerpt
        sohita: {jan15: ListStatus(None, "players_list_2015.txt")},  # matched by name
    }
    assert list_ratings(store, [sohita], STANDARD) == {
        sohita: {jan15: ListStatus(1447, "players_list_2015.txt")}
    }
    assert [p for p, _ in lists_imported(store, RatingList.BLITZ)] == [jan15]


# --- a name several rows fit ---------------------------------------------------------------


def test_a_name_several_rows_fit_is_not_used(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import_games(
        capsys,
        monkeypatch,
        db_target,
        write(tmp_path / "g.pgn", pgn(White="Smith,J", Black="Jones,P")),
    )
    lst = mar11_with(
        tmp_path,
        [
            (1000001, "Smith, J", "    ENG  2105    4  1980  "),
            (1000002, "Smith, J", "    USA  1950    0  1985  "),
        ],
    )
    before = dump_target(db_target)
    code, out, err = cli(capsys, monkeypatch, "official", "import", lst.name, "--db", db_target)
    assert (code, err) == (0, "")
    lines = out.splitlines()
    assert lines[0].startswith(
        "standard_mar11frl.txt: 2011-03 (standard): 13 players read; 0 "
        "in the database; 13 others skipped (--all keeps them); 1 "
        "name not matched (several players of the list fit: below); "
        "0 entries written"
    )
    assert lines[1:] == [
        "  Smith,J: not matched, 2 players of the list fit the name: Smith, J (FIDE ID "
        "1000001, ENG, born 1980); Smith, J (FIDE ID 1000002, USA, born 1985); settle it "
        "with `tracker player set Smith,J --fide-id N`"
    ]
    assert player_row(db_target, "Smith,J")[2] is None
    after = dump_target(db_target)
    assert [r for r in after if r not in before] == [
        f"official_lists: (1, 'standard', '2011-03', '{lst.resolve()}', "
        + next(r for r in after if r.startswith("official_lists:")).split(", ", 4)[4]
    ]
    # the command it says settles it
    code, out, err = cli(
        capsys, monkeypatch, "player", "set", "Smith,J", "--fide-id", "1000002", "--db", db_target
    )
    assert code == 0, err
    code, out, err = cli(capsys, monkeypatch, "official", "import", lst.name, "--db", db_target)
    assert code == 0, err
    assert "; 1 in the database; 12 others skipped" in out and "1 entry written" in out
    with open_store(db_target) as store:
        pid = resolve_player(store, "Smith,J").id
        assert list_ratings(store, [pid], STANDARD) == {
            pid: {MAR11: ListStatus(1950, "standard_mar11frl.txt")}
        }


def test_many_rows_fit_five_are_shown(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import_games(
        capsys,
        monkeypatch,
        db_target,
        write(tmp_path / "g.pgn", pgn(White="Smith,J", Black="Jones,P")),
    )
    lst = mar11_with(
        tmp_path,
        [
            (1000000 + i, f"Smith, J{'ohn' if i == 7 else ''}", "    ENG  2105    4        ")
            for i in range(1, 8)
        ],
    )
    code, out, err = cli(capsys, monkeypatch, "official", "import", lst.name, "--db", db_target)
    assert code == 0, err
    # "Smith, J" fits Smith,J better than "Smith, John" does: the six of them are shown
    assert out.splitlines()[1] == (
        "  Smith,J: not matched, 6 players of the list fit the name: "
        + "; ".join(f"Smith, J (FIDE ID {1000000 + i}, ENG)" for i in range(1, 6))
        + "; and 1 more; settle it with `tracker player set Smith,J --fide-id N`"
    )


def test_the_birth_year_then_the_title_break_a_tie(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import_games(
        capsys,
        monkeypatch,
        db_target,
        write(tmp_path / "g.pgn", pgn(White="Smith,J", Black="Jones,P", BlackTitle="IM")),
    )
    with open_store(db_target) as store:
        set_facts(store, resolve_player(store, "Smith,J").id, birth_year=1985)
    lst = mar11_with(
        tmp_path,
        [
            (1000001, "Smith, J", "    ENG  2105    4  1980  "),
            (1000002, "Smith, J", "    USA  1950    0  1985  "),
            (1000003, "Jones, P", "g   WLS  2305    0  1970  "),
            (1000004, "Jones, P", "m   SCO  2404    0  1970  "),
        ],
    )
    code, out, err = cli(capsys, monkeypatch, "official", "import", lst.name, "--db", db_target)
    assert code == 0, err
    assert "2 in the database (2 matched by name)" in out
    assert player_row(db_target, "Smith,J")[2] == 1000002  # born 1985
    assert player_row(db_target, "Jones,P")[2] == 1000004  # IM ('m')


# --- one FIDE ID, one person --------------------------------------------------------------


def _twic_andreikin(tmp_path: Path) -> Path:
    twic = tmp_path / "andreikin-twic0920.pgn"
    twic.write_bytes(games_with("twic0920.pgn.xz", "Andreikin,D"))
    return twic


def test_a_name_matched_to_a_fide_id_another_player_has_is_that_player(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import_games(capsys, monkeypatch, db_target, _twic_andreikin(tmp_path))  # 4158814
    import_games(
        capsys,
        monkeypatch,
        db_target,
        write(tmp_path / "club.pgn", pgn(White="Andreikin, Dmitry", Black="Jones,P")),
    )
    holder = player_row(db_target, "4158814")
    other = player_row(db_target, "Andreikin, Dmitry")
    assert holder[:2] == (holder[0], "Andreikin,D") and other[2] is None
    mar11 = samples() / "standard_mar11frl.txt"
    code, out, err = cli(capsys, monkeypatch, "official", "import", str(mar11), "--db", db_target)
    assert (code, err) == (0, "")
    assert (
        "; 1 in the database (1 matched by name); 10 others skipped (--all keeps them); 1 "
        "merged into the player who had their FIDE ID; 1 entry written"
    ) in out
    assert out.splitlines()[1:] == [
        "  Andreikin, Dmitry: Andreikin, Dmitry, FIDE ID 4158814, which Andreikin,D had: "
        "merged Andreikin, Dmitry into Andreikin,D, named Andreikin, Dmitry now as merge 1; "
        "`tracker player unmerge --merge 1` undoes it"
    ]
    with open_store(db_target) as store, store.engine.connect() as conn:
        ref = resolve_player(store, "4158814")
        assert (ref.id, ref.name, ref.fide_id) == (holder[0], "Andreikin, Dmitry", 4158814)
        assert resolve_player(store, "Andreikin,D").id == ref.id
        assert (
            conn.execute(
                select(func.count()).select_from(players).where(players.c.id == other[0])
            ).scalar_one()
            == 0
        )
        assert (
            conn.execute(
                select(func.count())
                .select_from(games)
                .where((games.c.white_id == ref.id) | (games.c.black_id == ref.id))
            ).scalar_one()
            == 10
        )
        assert list_ratings(store, [ref.id], STANDARD) == {
            ref.id: {MAR11: ListStatus(2686, "standard_mar11frl.txt")}
        }


@pytest.mark.parametrize(
    "holder, opponent, warning",
    [
        (
            "Smirnov, Pavel",
            "Jones,P",
            "whose surname is not Andreikin,D's: if they are one person, say so with `tracker "
            "player merge 4158814 Andreikin,D`",
        ),
        (
            "Andreikin, Dmitry",
            "Andreikin,D",
            "who played Andreikin,D (1 game): they cannot be one person",
        ),
    ],
)
def test_one_fide_id_two_people_warns_and_merges_nothing(
    db_target: str,
    holder: str,
    opponent: str,
    warning: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pgnmentor = tmp_path / "andreikin-pgnmentor.pgn"
    pgnmentor.write_bytes(games_with("pgnmentor-Carlsen.pgn.xz", "Andreikin,D"))
    import_games(capsys, monkeypatch, db_target, pgnmentor)
    import_games(
        capsys,
        monkeypatch,
        db_target,
        write(tmp_path / "club.pgn", pgn(White=holder, WhiteFideId="4158814", Black=opponent)),
    )
    mar11 = samples() / "standard_mar11frl.txt"
    code, out, err = cli(capsys, monkeypatch, "official", "import", str(mar11), "--db", db_target)
    assert code == 0
    assert err == (
        "warning: standard_mar11frl.txt: Andreikin,D fits Andreikin, Dmitry (FIDE "
        f"ID 4158814) on the list, but FIDE ID 4158814 belongs to {holder}, "
        f"{warning}\n"
    )
    assert "; 1 in the database; 10 others skipped" in out and "matched by name" not in out
    with open_store(db_target) as store:
        alone = resolve_player(store, "Andreikin,D")
        assert alone.fide_id is None
        assert resolve_player(store, "4158814").name == holder
        assert list_ratings(store, [alone.id], STANDARD) == {}  # not looked up


def test_with_all_a_name_matched_player_becomes_the_list_player(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    pgnmentor = tmp_path / "andreikin-pgnmentor.pgn"
    pgnmentor.write_bytes(games_with("pgnmentor-Carlsen.pgn.xz", "Andreikin,D"))
    import_games(capsys, monkeypatch, db_target, pgnmentor)
    mar11 = samples() / "standard_mar11frl.txt"
    code, out, err = cli(
        capsys, monkeypatch, "official", "import", str(mar11), "--all", "--db", db_target
    )
    assert (code, err) == (0, "")
    # the 7 rated rows of the file: Andreikin 2686, A E M 1864, A K M 1714, A K 2030, A La
    # 1915, A Akshaya 2019, A Sohita 1447
    assert ": 11 players read; 11 kept (10 new, 1 matched by name); 7 entries written" in out
    assert out.splitlines()[1:] == [
        "  Andreikin,D: Andreikin, Dmitry, FIDE ID 4158814 (matched by name)"
    ]
    with open_store(db_target) as store, store.engine.connect() as conn:
        ref = resolve_player(store, "4158814")
        assert ref.name == "Andreikin, Dmitry"  # the list's name
        assert (
            conn.execute(
                select(func.count())
                .select_from(games)
                .where((games.c.white_id == ref.id) | (games.c.black_id == ref.id))
            ).scalar_one()
            == 13
        )
    before = dump_target(db_target)
    code, out, err = cli(
        capsys, monkeypatch, "official", "import", str(mar11), "--all", "--db", db_target
    )
    assert code == 0 and dump_target(db_target) == before


def test_player_set_fide_id_of_another_player_merges_them_when_told(season_db: Store) -> None:
    store = season_db
    holder = resolve_player(store, "Andreikin, Dmitry")
    other = resolve_player(store, "Andreikin,D")
    with store.engine.begin() as conn:
        conn.execute(
            official_checked.insert(),
            [
                {"player_id": holder.id, "list": "standard", "period": "2011-03"},
                {"player_id": other.id, "list": "standard", "period": "2011-03"},
                {"player_id": other.id, "list": "rapid", "period": "2012-09"},
            ],
        )
    with pytest.raises(
        BadInput,
        match=r"^FIDE ID 4158814 already belongs to Andreikin, Dmitry: nothing changed; if "
        r"Andreikin,D is that person, `tracker player set Andreikin,D --fide-id 4158814 "
        r"--merge` makes them one; otherwise check the FIDE ID$",
    ):
        set_facts(store, other.id, fide_id=4158814, birth_year=1990)
    assert resolve_player(store, "Andreikin,D") == other  # (the birth year not set either)
    done = record_facts(store, other.id, fide_id=4158814, birth_year=1990, merge=True)
    assert done.merge is not None and done.merge.gone == other
    ref = done.player
    assert (ref.id, ref.name, ref.fide_id, ref.birth_year) == (
        holder.id,
        "Andreikin, Dmitry",
        4158814,
        1990,
    )
    with store.engine.connect() as conn:
        assert sorted(
            conn.execute(
                select(
                    official_checked.c.player_id, official_checked.c.list, official_checked.c.period
                )
            )
        ) == [(holder.id, "rapid", "2012-09"), (holder.id, "standard", "2011-03")]
    smirnov = resolve_player(store, "Smirnov")
    with pytest.raises(
        BadInput,
        match=r"^FIDE ID 4158814 already belongs to Andreikin, Dmitry: nothing changed; if "
        r"Smirnov, Pavel is that person, `tracker player set 'Smirnov, Pavel' --fide-id "
        r"4158814 --merge` makes them one; otherwise check the FIDE ID$",
    ):
        set_facts(store, smirnov.id, fide_id=4158814)
    smith = resolve_player(store, "Smith,J")
    with pytest.raises(
        BadInput,
        match=r"^FIDE ID 4158814 already belongs to Andreikin, Dmitry, who played Smith,J \(1 "
        r"game\): they cannot be one person; check the FIDE ID$",
    ):
        set_facts(store, smith.id, fide_id=4158814)
    with pytest.raises(BadInput, match=r"^Andreikin, Dmitry and Smith,J played each other"):
        record_facts(store, smith.id, fide_id=4158814, merge=True)
    for bad in (-5, 0):
        with pytest.raises(BadInput, match=f"^FIDE ID {bad} is not valid"):
            set_facts(store, smirnov.id, fide_id=bad)


@pytest.fixture
def season_db(store: Store, tmp_path: Path) -> Store:
    from tests.test_import import run

    run(
        store,
        write(
            tmp_path / "s.pgn",
            pgn(White="Andreikin, Dmitry", WhiteFideId="4158814", Black="Jones,P"),
            pgn(White="Andreikin,D", Black="Smith,J", Round="2"),
            pgn(White="Smirnov, Pavel", Black="Smith,J", Round="3"),
        ),
    )
    return store


def test_merge_moves_the_lists_a_player_was_looked_up_on(season_db: Store) -> None:
    store = season_db
    keep = resolve_player(store, "Andreikin, Dmitry")
    other = resolve_player(store, "Andreikin,D")
    with store.engine.begin() as conn:
        conn.execute(
            official_checked.insert(),
            [
                {"player_id": keep.id, "list": "blitz", "period": "2015-01"},
                {"player_id": other.id, "list": "blitz", "period": "2015-01"},
                {"player_id": other.id, "list": "standard", "period": "2011-03"},
            ],
        )
    merge(store, keep.id, other.id)
    with store.engine.connect() as conn:
        assert sorted(conn.execute(select(official_checked))) == [
            (keep.id, "blitz", "2015-01"),
            (keep.id, "standard", "2011-03"),
        ]


# --- bad input: one line each --------------------------------------------------------------


def test_bad_input_is_one_line(
    db_target: str,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    import_games(
        capsys,
        monkeypatch,
        db_target,
        write(tmp_path / "g.pgn", pgn(White="Smith,J", Black="Jones,P")),
    )
    before = dump_target(db_target)
    combined = samples() / "players_list_2015.txt"
    code, out, err = cli(
        capsys, monkeypatch, "official", "import", str(combined), "--db", db_target
    )
    assert (code, out) == (2, "")
    assert err == (
        f"error: {combined}: the file does not say which month it lists: give --period YYYY-MM\n"
    )
    for bad, said in (
        ("abc", "'abc' is not a valid integer"),
        ("-5", "FIDE ID -5 is not valid: FIDE IDs are positive numbers"),
    ):
        code, out, err = cli(
            capsys, monkeypatch, "player", "set", "Smith,J", "--fide-id", bad, "--db", db_target
        )
        assert (code, out) == (2, "")
        assert err.startswith("error: ") and said in err and err.count("\n") == 1, err
    assert dump_target(db_target) == before


def test_imports_remove_and_db_check_keep_working(
    tmp_path: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch
) -> None:
    db = str(tmp_path / "t.db")
    pgnmentor = tmp_path / "andreikin-pgnmentor.pgn"
    pgnmentor.write_bytes(games_with("pgnmentor-Carlsen.pgn.xz", "Andreikin,D"))
    import_games(capsys, monkeypatch, db, pgnmentor)
    code, _, err = cli(
        capsys,
        monkeypatch,
        "official",
        "import",
        str(samples() / "standard_mar11frl.txt"),
        "--all",
        "--db",
        db,
    )
    assert code == 0, err
    code, out, err = cli(capsys, monkeypatch, "db", "check", "--db", db)
    assert code == 0, (out, err)
    code, out, err = cli(capsys, monkeypatch, "imports", "remove", "1", "--db", db)
    assert code == 0, err
    code, out, err = cli(capsys, monkeypatch, "db", "check", "--db", db)
    assert code == 0, (out, err)
    with open_store(db) as store:
        ref = resolve_player(store, "4158814")  # kept: the list's entries
        assert list_ratings(store, [ref.id], STANDARD) == {
            ref.id: {MAR11: ListStatus(2686, "standard_mar11frl.txt")}
        }


# --- the name sieve: the rows a name may fit, found before they are cut ------------------


def _index(*names: str) -> NameIndex:
    index = NameIndex()
    for i, name in enumerate(names, start=1):
        index.add(Unmatched(i, name, name_forms(name), None, None))
    return index


@pytest.mark.parametrize(
    "fmt, encoding, exact",
    [
        ("txt", "utf-8", True),
        ("txt-2009", "latin-1", False),
        ("txt-2003", "latin-1", False),
        ("xml", "utf-8", True),
        ("combined-txt-2015", "utf-8", True),
        ("combined-xml", "utf-8", True),
    ],
)
def test_the_sieve_keeps_every_row_a_name_can_fit(
    tmp_path: Path, fmt: str, encoding: str, exact: bool
) -> None:
    """The reader keeps, of the rows not asked for by FIDE ID, every row whose name fits a
    player known only by name (as the store judges it, `NameIndex.fits`); where it cuts a
    row at its columns (2012 on, and XML) exactly those, else a few more (the store then
    judges them)."""
    from tests import listgen
    from tracker.app.official import name_sieve
    from tracker.lists import open_list

    path = listgen.generate(
        tmp_path / "standard_nov25frl.zip", 3_000, fmt, zipped=True, encoding=encoding
    )
    people = list(listgen.players(3_000, seed=1, latin1=encoding != "utf-8"))
    # written with or without the accents, the case folded, initials, no comma
    index = _index(
        "Muller, M", "GARCIA, Jose", "O'Brien, A", "Kim, X", "Dvorak, J", "Wang Anna", "Smith"
    )
    known = {people[7].fide_id}
    wanted = {p.fide_id for p in people if index.fits(p.name)}
    assert len(wanted) > 10
    with open_list(path, only=known, names=name_sieve(index)) as lst:
        found = {row.fide_id for row in lst}
        assert lst.filtered + len(found) == len(people)
    assert wanted | known <= found
    if exact:
        assert found == wanted | known
    else:
        assert len(found) < len(people) // 4


def test_the_sieve_reads_an_xml_name_as_expat_does(tmp_path: Path) -> None:
    """A name written with character references or entities (`M&#252;ller`), or in an
    encoding declared other than UTF-8, is judged as expat reads it, not by its bytes."""
    from tracker.app.official import name_sieve
    from tracker.lists import open_list

    rows = [
        (1, "M&#252;ller, Max"),  # Müller
        (2, "O&apos;Brien, Ann"),
        (3, "Mueller, Max"),  # another name: not kept
        (4, "M\xfcller, Mia"),  # Latin-1 bytes, the file declares ISO-8859-1
    ]
    body = "".join(
        f"<player><fideid>{fid}</fideid><name>{name}</name><rating>2000</rating></player>\n"
        for fid, name in rows
    )
    path = tmp_path / "standard_nov25frl.xml"
    path.write_bytes(
        (
            '<?xml version="1.0" encoding="ISO-8859-1"?>\n<playerslist>\n'
            + body * 300  # past the first block: the later ones are thinned before expat
            + "</playerslist>\n"
        ).encode("latin-1")
    )
    index = _index("Muller, M", "O'Brien, A")
    with open_list(path, only=set(), names=name_sieve(index)) as lst:
        kept = [row.fide_id for row in lst]
    assert kept == [1, 2, 4] * 300
