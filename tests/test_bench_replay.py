"""bench/replay_all.py cannot rot, and the faster paths it measures give exactly what the
plain ones give: the facts of many players read in one pass (what `check --all` uses), the
GameFacts built without the dataclass __init__, the replay's shortcut over quiet lists."""

from __future__ import annotations

import datetime as dt
import importlib
import subprocess
import sys
from dataclasses import asdict, fields
from fractions import Fraction
from pathlib import Path

import pytest

from tests.conftest import REPO
from tracker.app.check import check_all, check_player
from tracker.model import EloTags, OfficialEntry, Period, RatingList
from tracker.periods import GameFact, RatingSource, game_facts
from tracker.store import Store
from tracker.store.entries import add_entry, entries_for
from tracker.store.players import get_player
from tracker.store.reading import (
    facts_of_players,
    games_of,
    official_of_players,
    players_by_name,
    record_override,
    tournaments_of,
)

pytestmark = pytest.mark.slow  # benchmark smoke: a bench script on generated data

SAMPLES = REPO / "sample_pgns"


@pytest.mark.bench  # bench script smoke: .ci/run runs it
def test_replay_all_bench_smoke(tmp_path: Path) -> None:
    done = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "replay_all.py"),
            "--pgn",
            str(SAMPLES / "2025-09-12_brno-autumn-open.pgn"),
            "--runs",
            "1",
            "--jobs",
            "1",
            "--who",
            "all",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert done.returncode == 0, done.stderr
    assert "players with an anchor" in done.stdout
    assert "| 1 | " in done.stdout
    assert (tmp_path / "replay-all.md").exists()


@pytest.fixture
def season(store: Store) -> Store:
    """The sample season with official entries on every list for most players, a Ro
    override and a pinned tournament (what the one-pass reader must carry over)."""
    from tracker.app.importing import import_paths

    import_paths(store, [str(SAMPLES)])
    ids = players_by_name(store)
    assert len(ids) > 20
    for n, pid in enumerate(ids):
        if n % 4 == 3:
            continue  # some players without any entry
        for rl, rating in (
            (RatingList.STANDARD, 1700),
            (RatingList.RAPID, 1650),
            (RatingList.BLITZ, 1600),
        ):
            if n % 3 and rl is not RatingList.STANDARD:
                continue
            add_entry(
                store,
                OfficialEntry(
                    player_id=pid,
                    list=rl,
                    period=Period(2025, 8),
                    rating=rating + n,
                    k=20 if n % 2 else None,
                    source="test",
                ),
            )
        if n % 5 == 0:
            add_entry(
                store,
                OfficialEntry(
                    player_id=pid,
                    list=RatingList.STANDARD,
                    period=Period(2025, 12),
                    rating=1710 + n,
                    source="test",
                ),
            )
    some = tournaments_of(store, ids[0])
    assert some
    record_override(store, some[0].id, ro=(ids[0], 1811))
    record_override(store, some[-1].id, period=Period(2026, 2))
    return store


def test_one_pass_facts_equal_the_per_player_reads(season: Store) -> None:
    ids = players_by_name(season)
    official = official_of_players(season, ids)
    assert set(official) < set(ids)  # some players have no entry
    facts = facts_of_players(season, official)
    assert set(facts) == set(official)
    for pid, f in facts.items():
        assert f.player == get_player(season, pid)
        assert f.games == games_of(season, pid)
        assert f.tournaments == tournaments_of(season, pid)
        assert f.official == entries_for(season, pid)
    assert any(t.ro == 1811 for f in facts.values() for t in f.tournaments)


def test_check_all_equals_check_player_one_by_one(
    season: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    import tracker.app.check
    from tracker.reports.check import check_json

    one_by_one = [r for pid in players_by_name(season) for r in check_player(season, pid)]
    assert one_by_one
    expected = [check_json(r) for r in one_by_one]
    assert [check_json(r) for r in check_all(season)] == expected
    monkeypatch.setattr(tracker.app.check, "CHUNK", 7)  # several chunks, two processes
    seen: list[tuple[int, int]] = []
    got = check_all(season, jobs=2, progress=lambda done, total: seen.append((done, total)))
    assert [check_json(r) for r in got] == expected
    assert seen[-1] == (len(players_by_name(season)),) * 2


def test_replay_shortcut_over_quiet_lists_changes_nothing(
    season: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    from tracker.app.histories import load_history
    from tracker.reports import event_rows, game_rows, history_rows

    def shown(pid: int) -> list[object]:
        hist = load_history(season, get_player(season, pid))
        return [
            (history_rows(rp), event_rows([rp]), game_rows([rp])) for rp in hist.replays.values()
        ]

    ids = players_by_name(season)
    fast = [shown(pid) for pid in ids]
    replay_module = importlib.import_module("tracker.periods.replay")  # not the function
    quiet = [0]

    def never(state: object, period: Period) -> bool:
        quiet[0] += 1
        return False

    monkeypatch.setattr(replay_module, "_quiet", never)
    assert [shown(pid) for pid in ids] == fast
    assert quiet[0] > 0  # the shortcut was there to be taken


def test_game_facts_equal_the_dataclass() -> None:
    # game_facts skips __init__: a GameFact that checks or converts in __post_init__ would
    # need game_facts to do the same.
    assert not hasattr(GameFact, "__post_init__")
    values = (
        7,
        3,
        dt.date(2025, 9, 13),
        "2",
        False,
        11,
        "Novák, Tomáš",
        1850,
        1910,
        "1/2-1/2",
        Fraction(1, 2),
        RatingList.RAPID,
        True,
        None,
        99012345,
        "1850",
        "1910",
        True,
        RatingSource.OFFICIAL,
        Period(2025, 8),
        "standard_aug25frl.txt",
        Period(2025, 9),
        EloTags.STANDARD,
    )
    names = [f.name for f in fields(GameFact)]
    built = game_facts([dict(zip(names, values, strict=True))])[0]
    plain = GameFact(*values)
    assert built == plain and hash(built) == hash(plain) and asdict(built) == asdict(plain)
    assert repr(built) == repr(plain)
    with pytest.raises(ValueError):
        game_facts([dict(zip(names[:-1], values[:-1], strict=True))])
