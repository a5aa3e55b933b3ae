"""Bugs found by the QA pass over `tracker import|imports|players` (bugs 5, 12, 15, 25).

In process through the entry point where output is the point; a subprocess where a real
signal is (Ctrl-C during an import).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.conftest import run_cli
from tests.test_import import pgn, write
from tracker.store import Store
from tracker.store.games import list_players


def run(capsys: pytest.CaptureFixture[str], monkeypatch: pytest.MonkeyPatch,
        *args: str) -> tuple[int, str, str]:
    return run_cli(capsys, monkeypatch, *args)


@pytest.fixture(autouse=True)
def _in_tmp(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    monkeypatch.delenv("TRACKER_DB", raising=False)


# --- bug 15: `tracker players` on a big database ------------------------------------------


def test_players_table_is_plain_aligned_lines(tmp_path: Path,
                                              capsys: pytest.CaptureFixture[str],
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    write(tmp_path / "a.pgn", pgn(Round="1", WhiteFideId="99012345"),
          pgn(Round="2", Date="2025.03.02", TimeControl="600+5"),
          pgn(Round="3", White="Dvorak, Jiri", Black="Novak, Jan", Date="2025.04.01"))
    code, _, err = run(capsys, monkeypatch, "import", "a.pgn", "--player", "Svoboda, Petr")
    assert code == 0, err
    code, out, err = run(capsys, monkeypatch, "players")
    assert code == 0, err
    lines = out.splitlines()
    assert lines[0].split() == ["id", "name", "FIDE", "ID", "standard", "rapid", "blitz",
                                "first", "last"]
    assert set(lines[1].replace(" ", "")) == {"-"}  # a rule of dashes, no box drawing
    assert [line.split()[0] for line in lines[2:]] == ["3", "1", "2"]  # by name
    assert lines[3].split() == ["1", "Novak,", "Jan", "99012345", "2", "1", "0",
                                "2025-03-01", "2025-04-01"]
    assert "Svoboda, Petr (me)" in lines[4]
    assert lines[2].index("Dvorak") == lines[0].index("name")
    code, out, _ = run(capsys, monkeypatch, "players", "--search", "dvor")
    assert [line.split()[0] for line in out.splitlines()[2:]] == ["3"]


def test_every_player_and_a_search_agree(store: Store, tmp_path: Path) -> None:
    """The list of every player (one grouped pass over the games) and a search (by ids)
    give the same rows: counts per list, dates, aliases."""
    from tracker.importer import ImportOptions, import_paths
    from tracker.store.players import merge, resolve_player

    write(tmp_path / "a.pgn", pgn(Round="1"), pgn(Round="2", White="Novak,J", Black="Kral, Ota"),
          pgn(Round="3", Date="2025.05.01", TimeControl="180+2"),
          pgn(Round="4", Date="2025.??.??", Black="Kral, Ota"))
    import_paths(store, [str(tmp_path / "a.pgn")], ImportOptions())
    merge(store, resolve_player(store, "Novak, Jan").id, resolve_player(store, "Novak,J").id)
    every = list_players(store)
    assert [p.name for p in every] == ["Kral, Ota", "Novak, Jan", "Svoboda, Petr"]
    for p in every:
        (found,) = [q for q in list_players(store, p.name) if q.id == p.id]
        assert found == p
    novak = every[1]
    assert novak.games == {"standard": 3, "blitz": 1}
    assert (str(novak.first), str(novak.last)) == ("2025-03-01", "2025-05-01")
    assert novak.aliases == ("novak j", "novak jan")
