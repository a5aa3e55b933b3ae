"""A player argument that several players match as well, in every command that takes one
(tracker.app.players.find_player, which each command's PLAYER goes through): when their names
may all be one person's (the same surname, given names that fit, no two FIDE IDs, no game
between them), the one line names each spelling with its games and the exact `tracker player
merge` command; otherwise the line that lists them and asks for more of the name. Exit 2
either way, nothing written, no one of them picked or merged on names alone.

The real case (pgnmentor-Ivanchuk, "Ivanchuk,V" and "Ivanchuk, Vassily") is in
tests/test_player_spelling.py (slow); here a small file holds one family of names per case.
"""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import pytest

from tests.conftest import dump_db, run_captured, run_cli
from tests.test_import import pgn, write

GAMES = [
    # may be one: an initial for a given name, no FIDE ID, never met
    pgn(Round="1", White="Ivanchuk, V", Black="Svoboda, Petr"),
    pgn(Round="2", White="Ivanchuk, Vassily", Black="Dvorak, Ema"),
    # may be one: the initial's spelling holds the FIDE ID (the merge names it by it)
    pgn(Round="3", White="Dvorak, E", Black="Zeman, Igor", WhiteFideId="14100029"),
    # two FIDE IDs: two people
    pgn(Round="4", White="Novak, J", Black="Horak, Jakub", WhiteFideId="14100010"),
    pgn(Round="5", White="Novak, Jan", Black="Kral, Ota", WhiteFideId="14109603"),
    # they played each other: two people
    pgn(Round="6", White="Kolar, T", Black="Kolar, Tomas"),
    # a typo in the surname: another player the name matches too
    pgn(Round="7", White="Benes, Pavel", Black="Cerny, Adam"),
    pgn(Round="8", White="Beness, P", Black="Vesely, Karel"),
]

MAY_BE_ONE = {
    "Ivanchuk": "2 players match 'Ivanchuk', spellings that may be one person's (the same "
    "surname, given names that fit, not two FIDE IDs, no game between them): Ivanchuk, V (1 "
    "game); Ivanchuk, Vassily (1 game); they are not taken for one person on their names "
    "alone: if they are one, `tracker player merge 'Ivanchuk, V' 'Ivanchuk, Vassily'` makes "
    "them one, and 'Ivanchuk' names them then; if not, give the spelling you mean",
    "Dvorak": "2 players match 'Dvorak', spellings that may be one person's (the same surname, "
    "given names that fit, not two FIDE IDs, no game between them): Dvorak, E (FIDE ID "
    "14100029) (1 game); Dvorak, Ema (1 game); they are not taken for one person on their "
    "names alone: if they are one, `tracker player merge 14100029 'Dvorak, Ema'` makes them "
    "one, and 'Dvorak' names them then; if not, give the spelling you mean",
}
SEVERAL = {
    "Novak": "2 players match 'Novak': Novak, J (FIDE ID 14100010); Novak, Jan (FIDE ID "
    "14109603); give more of the name or the FIDE ID",
    "Kolar": "2 players match 'Kolar': Kolar, T (FIDE ID -); Kolar, Tomas (FIDE ID -); give "
    "more of the name or the FIDE ID",
    "Benes": "2 players match 'Benes': Benes, Pavel (FIDE ID -); Beness, P (FIDE ID -); give "
    "more of the name or the FIDE ID",
}


def commands(name: str, other: str = "Svoboda, Petr") -> list[tuple[str, ...]]:
    """Every command that takes a player argument, with `name` for it (and what else it
    needs to reach the player: `other` a player the database has, more.pgn a file)."""
    return [
        ("history", name),
        ("explain", name, "2025-03"),
        ("next", name),
        ("target", "2000", name, "--opponents", "1800", "--games", "5"),
        ("check", name),
        ("export", name),
        ("plot", name, "-o", "chart.png"),
        ("report", name, "-o", "season.html"),
        ("event", "list", name),
        ("event", "set", "1", "--ro", "1800", "--player", name),
        ("player", "set", name, "--me"),
        ("player", "set", name, "--birth-year", "1969"),
        ("player", "merge", name, other),
        ("player", "merge", other, name),
        ("player", "unmerge", name),
        ("official", "add", name, "--period", "2025-03", "--rating", "1800"),
        ("official", "list", name),
        ("official", "remove", name, "--period", "2025-03"),
        ("import", "more.pgn", "--player", name),  # (the database holds them: refused first)
    ]


@pytest.fixture(scope="module")
def imported(tmp_path_factory: pytest.TempPathFactory) -> Path:
    """GAMES imported once, nobody marked (the runs below must not write to it)."""
    folder = tmp_path_factory.mktemp("names")
    write(folder / "a.pgn", *GAMES)
    code, _, err = run_captured("import", str(folder / "a.pgn"), "--db", str(folder / "t.db"))
    assert code == 0, err
    write(folder / "more.pgn", pgn(Round="9", White="Svoboda, Petr", Black="Zeman, Igor"))
    return folder


def refused(
    folder: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
    args: tuple[str, ...],
) -> str:
    """`tracker ARGS` in `folder` on its t.db: exit 2, nothing on stdout, one line on stderr
    (returned without its `error: `), the database and the folder as they were."""
    monkeypatch.chdir(folder)
    before, files = dump_db(folder / "t.db"), sorted(folder.iterdir())
    code, out, err = run_cli(capsys, monkeypatch, *args, "--db", "t.db")
    assert (code, out) == (2, ""), (args, out, err)
    assert err.startswith("error: ") and err.count("\n") == 1, (args, err)
    assert dump_db(folder / "t.db") == before and sorted(folder.iterdir()) == files, args
    return err.removeprefix("error: ").removesuffix("\n")


@pytest.mark.parametrize("name", sorted(MAY_BE_ONE))
def test_spellings_that_may_be_one_person_are_named_with_the_merge_by_every_command(
    imported: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Every command's player argument says, for spellings that may be one person's, which
    they are with their games and the merge that makes them one; it runs none of it."""
    for args in commands(name):
        assert refused(imported, capsys, monkeypatch, args) == MAY_BE_ONE[name], args


@pytest.mark.parametrize("name", sorted(SEVERAL))
def test_players_that_cannot_be_one_keep_the_line_that_asks_for_more(
    imported: Path, capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch, name: str
) -> None:
    """Two FIDE IDs, two players who met, a surname one letter longer: no merge offered,
    in any command; the line lists them and asks for more of the name or the FIDE ID."""
    for args in commands(name):
        assert refused(imported, capsys, monkeypatch, args) == SEVERAL[name], args


def test_the_merge_it_names_makes_the_name_one_player(
    imported: Path,
    tmp_path: Path,
    capsys: pytest.CaptureFixture[str],
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    """The command the line gives runs as printed; the name then names one player, with
    both spellings' games."""
    shutil.copy(imported / "t.db", tmp_path / "t.db")
    monkeypatch.chdir(tmp_path)
    code, out, err = run_cli(
        capsys, monkeypatch, "player", "merge", "14100029", "Dvorak, Ema", "--db", "t.db"
    )
    assert (code, err) == (0, "") and out.startswith("merged Dvorak, Ema into Dvorak, E ")
    code, out, err = run_cli(capsys, monkeypatch, "player", "set", "Dvorak", "--me", "--db", "t.db")
    assert (code, out, err) == (0, "Dvorak, E (FIDE ID 14100029): tracked player\n", "")
    code, out, err = run_cli(
        capsys, monkeypatch, "export", "Dvorak", "--what", "games", "-f", "json", "--db", "t.db"
    )
    assert code == 0, err
    assert sorted(g["round"] for g in json.loads(out)) == ["2", "3"]  # Ema's game, and E's


def test_find_player_says_why_as_a_value(imported: Path) -> None:
    """Below reports/, the reason is a value: MayBeOne (name, FIDE ID, games; most games
    first, then by name) or SeveralMatch (name, FIDE ID; by name)."""
    from tracker.app.players import find_player
    from tracker.model import PlayerRef
    from tracker.store import open_store
    from tracker.unresolved import MayBeOne, SeveralMatch

    with open_store(str(imported / "t.db")) as store:
        assert find_player(store, " Ivanchuk ") == MayBeOne(
            "Ivanchuk", (("Ivanchuk, V", None, 1), ("Ivanchuk, Vassily", None, 1))
        )
        assert find_player(store, "Dvorak") == MayBeOne(
            "Dvorak", (("Dvorak, E", 14100029, 1), ("Dvorak, Ema", None, 1))
        )
        assert find_player(store, "Kolar") == SeveralMatch(
            "Kolar", (("Kolar, T", None), ("Kolar, Tomas", None))
        )
        one = find_player(store, "Ivanchuk, V")  # a spelling whole: that player
        assert isinstance(one, PlayerRef) and one.name == "Ivanchuk, V"
