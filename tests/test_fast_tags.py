"""A rapid or blitz event's own Elo tag is evidence of its list only when it cannot be the
player's standard rating of the surrounding months (policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD:
a standard tag, an official or published standard rating within STANDARD_TAG_WINDOW_MONTHS of
the event's start), unless the file's import said what its tags are (`tracker import --tags
standard|own`); a rapid or blitz rating built on a tag names the tag and its event.

The numbers are Ivanchuk's, as his pgnmentor file (shared/corpus) prints them: 2710 in
"IMSA Rapid 2016" (2016-02-26) is his tag in "Vladimir Petrov Mem 2016" (2016-03-05) and
FIDE's 2016-03 standard list; 2738 in "GCT Blitz YourNextMove" (2017-07-01) is his tag in
"52nd Capablanca Mem Elite" (2017-05-27); FIDE rapid and blitz lists are monthly from
2012. A FIDE rapid or blitz rating is not the standard one (separate lists, spec section 1),
so a tag that equals a standard rating of the same months is no evidence of the fast list.
"""

from __future__ import annotations

import datetime as dt
import json
import lzma
import re
from fractions import Fraction
from pathlib import Path

import pytest

from tests.builders import Replay
from tests.conftest import CORPUS, need_shared, run_captured
from tests.test_import import pgn, write
from tracker.app.histories import load_history
from tracker.app.players import resolve_player
from tracker.model import EloTags, NotRated, Period, RatingList
from tracker.periods import GameFact, PlayerInfo, RatingSource
from tracker.periods import Replay as ReplayResult
from tracker.periods.notes import ReanchoredOnTag
from tracker.periods.policies import STANDARD_TAG_WINDOW_MONTHS
from tracker.periods.tags import PlayerTag, file_tags
from tracker.reports.chart import chart_period
from tracker.reports.words import tag_anchor_text
from tracker.store import open_store
from tracker.store.imports import list_imports

STD, RAPID, BLITZ = RatingList.STANDARD, RatingList.RAPID, RatingList.BLITZ
HALF = Fraction(1, 2)
PLAYER = PlayerInfo(birth_year=1969, rated_games=1000)


def _tag_values(rp: ReplayResult) -> list[int]:
    """Every rating the fast replay started or re-anchored on from a tag."""
    out = [r.published for r in rp.rows if r.source is RatingSource.ELO_TAG and r.published]
    if rp.start_source.source is RatingSource.ELO_TAG and rp.start_source.rating is not None:
        out.append(rp.start_source.rating)
    return out


def test_a_rapid_tag_equal_to_next_months_standard_tag_starts_nothing() -> None:
    # Ivanchuk: "IMSA Rapid 2016" prints 2710, his standard tag of the 2016-03 list (a month
    # later): the rapid history does not start from it, it waits for a rapid rating
    b = Replay(PLAYER, rl=RAPID)
    std = b.t("Vladimir Petrov Mem 2016", "2016-03-05", "2016-03-06")
    b.g(std, 2650, 1, own=2710, rl=STD)
    fast = b.t("IMSA Rapid 2016", "2016-02-26", "2016-02-27")
    b.g(fast, 2700, HALF, own=2710)
    b.g(fast, 2690, 0, own=2710)
    rp = b.run()
    assert rp.start_source.source is RatingSource.WAITING
    assert _tag_values(rp) == []


def test_a_blitz_tag_equal_to_a_standard_tag_two_months_before_re_anchors_nothing() -> None:
    # the blitz history starts from a blitz tag of its own (2600, where his standard tag is
    # 2730); "GCT Blitz YourNextMove" prints 2738, his standard tag of 2017-05: no re-anchor
    b = Replay(PLAYER, rl=BLITZ)
    jan = b.t("Classic 2017", "2017-01-24", "2017-02-02")
    b.g(jan, 2700, 1, own=2730, rl=STD)
    first = b.t("Blitz Open 2017", "2017-01-10", "2017-01-10")
    b.g(first, 2650, HALF, own=2600)
    may = b.t("52nd Capablanca Mem Elite", "2017-05-27", "2017-06-06")
    b.g(may, 2690, HALF, own=2738, rl=STD)
    gct_name = "GCT Blitz YourNextMove"
    gct = b.t(gct_name, "2017-07-01", "2017-07-02")
    b.g(gct, 2780, 1, own=2738)
    b.g(gct, 2790, 0, own=2738)
    rp = b.run()
    assert _tag_values(rp) == [2600]
    # nor is it the event's Ro: the replayed blitz rating is
    (plan,) = [p for r in rp.rows for p in r.tournaments if p.unit.label == gct_name]
    assert plan.elo_tag == 2738 and plan.ro_source is RatingSource.REPLAYED


@pytest.mark.parametrize(
    "months,evidence",
    [(-3, False), (3, False), (-4, True), (4, True)],
)
def test_the_window_is_three_months_either_side(months: int, evidence: bool) -> None:
    assert STANDARD_TAG_WINDOW_MONTHS == 3
    # a rapid event on 2016-06-15 prints 2710; the player's standard tag 2710 is `months`
    # months away: inside the window it may be the standard rating, outside it is the rapid
    b = Replay(PLAYER, rl=RAPID)
    m = 2016 * 12 + 5 + months
    std = b.t("Classic", f"{m // 12}-{m % 12 + 1:02d}-10", f"{m // 12}-{m % 12 + 1:02d}-12")
    b.g(std, 2650, 1, own=2710, rl=STD)
    fast = b.t("Rapid Cup", "2016-06-15", "2016-06-15")
    b.g(fast, 2700, HALF, own=2710)
    rp = b.run()
    assert (_tag_values(rp) == [2710]) is evidence


@pytest.mark.parametrize("start,evidence", [("2016-03-10", False), ("2016-05-10", True)])
def test_a_published_standard_rating_counts_while_in_force_in_the_window(
    start: str, evidence: bool
) -> None:
    # the standard replay published 2710 on the 2015-12 list and 2719 on the 2016-01 list:
    # 2710 is in force in December 2015, inside the window of an event of March 2016, not of
    # one of May 2016 (its window opens in February, when 2719 is in force)
    b = Replay(PLAYER, rl=RAPID)
    fast = b.t("Rapid Cup", start, start)
    b.g(fast, 2700, HALF, own=2710)
    rp = b.run(standard={Period(2015, 12): 2710, Period(2016, 1): 2719})
    assert (_tag_values(rp) == [2710]) is evidence


def test_an_online_events_tag_is_no_standard_rating() -> None:
    # an online event's tag is another site's rating (made up: 2710 on a site in March
    # 2016): a rapid event's 2710 beside it is still the rapid rating
    b = Replay(PLAYER, rl=RAPID)
    web = b.t("Online Blitz Arena", "2016-03-05", "2016-03-05", online=True)
    b.g(web, 2650, 1, own=2710, rl=STD, rated=False, reason=NotRated.ONLINE.value)
    fast = b.t("Rapid Cup", "2016-03-20", "2016-03-20")
    b.g(fast, 2700, HALF, own=2710)
    assert _tag_values(b.run()) == [2710]


def _with(b: Replay, kind: EloTags) -> None:
    b.games = [
        GameFact(**{**g.__dict__, "elo_tags": kind}) if g.rating_list != STD else g for g in b.games
    ]


def test_a_file_said_to_print_standard_ratings_gives_no_fast_evidence() -> None:
    # 2655 equals no standard rating of the player; the import said the file's tags are
    # standard ratings (`--tags standard`): no rapid rating to start from
    b = Replay(PLAYER, rl=RAPID)
    std = b.t("Classic", "2016-03-05", "2016-03-06")
    b.g(std, 2650, 1, own=2710, rl=STD)
    fast = b.t("Rapid Cup", "2016-03-20", "2016-03-20")
    b.g(fast, 2700, HALF, own=2655)
    assert _tag_values(b.run()) == [2655]
    _with(b, EloTags.STANDARD)
    rp = b.run()
    assert rp.start_source.source is RatingSource.WAITING and _tag_values(rp) == []


def test_a_file_said_to_print_each_lists_rating_keeps_every_tag() -> None:
    # 2710 equals the standard tag of the same month; the import said each event prints its
    # own list's rating (`--tags own`): the rapid history starts from it
    b = Replay(PLAYER, rl=RAPID)
    std = b.t("Classic", "2016-03-05", "2016-03-06")
    b.g(std, 2650, 1, own=2710, rl=STD)
    fast = b.t("Rapid Cup", "2016-03-20", "2016-03-20")
    b.g(fast, 2700, HALF, own=2710)
    assert _tag_values(b.run()) == []
    _with(b, EloTags.OWN)
    assert _tag_values(b.run()) == [2710]


def test_a_rating_built_on_a_tag_names_the_tag_and_its_event() -> None:
    # Ivanchuk's rapid: IMSA's 2710 is his standard rating (the history waits); "World
    # Rapid 2016" prints 2747, none of his standard ratings around it (2733 in 2016-11,
    # 2752 in 2017-01): the rapid history starts from it, and says so; "Rapid Cup 2017"
    # prints 2690 later: a re-anchor, said with its event
    b = Replay(PLAYER, rl=RAPID)
    for name, start, own in (
        ("Vladimir Petrov Mem 2016", "2016-03-05", 2710),
        ("32nd ECC Open 2016", "2016-11-06", 2733),
        ("Gibraltar Masters 2017", "2017-01-24", 2752),
    ):
        b.g(b.t(name, start, start), 2650, 1, own=own, rl=STD)
    b.g(b.t("IMSA Rapid 2016", "2016-02-26", "2016-02-27"), 2700, HALF, own=2710)
    wr = b.t("World Rapid 2016", "2016-12-26", "2016-12-28")
    b.g(wr, 2785, 0, own=2747)
    b.g(wr, 2840, 1, own=2747)
    b.g(b.t("Rapid Cup 2017", "2017-09-10", "2017-09-10"), 2600, 1, own=2690)
    rp = b.run()
    said = [t for r in rp.rows if (t := tag_anchor_text(r)) is not None]
    assert said[0] == "starts from the Elo tag 2747 of World Rapid 2016"
    (again,) = said[1:]
    assert again.startswith("re-anchored on the Elo tag 2690 of Rapid Cup 2017 (replayed ")
    assert any(isinstance(n, ReanchoredOnTag) for r in rp.rows for n in r.notes)
    # the chart's point of that list says it too
    (first,) = [r for r in rp.rows if tag_anchor_text(r) == said[0]]
    assert f"own Elo tag 2747: the next period starts from it ({said[0]})" in chart_period(
        first
    ).describe(RAPID)


def _tags(*rows: tuple[int, str, RatingList, int]) -> list[PlayerTag]:
    return [
        PlayerTag(pid, i, dt.date.fromisoformat(day), rl, tag)
        for i, (pid, day, rl, tag) in enumerate(rows)
    ]


def test_a_file_printing_standard_ratings_in_fast_events_looks_so() -> None:
    # twelve players, each with a standard tag in March and the same number in a rapid and
    # a blitz event of April (as TWIC prints them): 24 of 24 the same
    rows = []
    for p in range(12):
        rows += [(p, "2019-03-02", STD, 2500 + p), (p, "2019-04-20", RAPID, 2500 + p)]
        rows.append((p, "2019-04-21", BLITZ, 2500 + p))
    seen = file_tags(_tags(*rows))
    assert (seen.compared, seen.standard, seen.look_standard) == (24, 24, True)


def test_a_file_printing_each_lists_rating_does_not() -> None:
    # the same events printing each list's own rating (rapid 37 below, blitz 61 below the
    # standard; two players' rapid happen to equal their standard)
    rows = []
    for p in range(12):
        rapid = 2500 + p if p < 2 else 2463 + p
        rows += [(p, "2019-03-02", STD, 2500 + p), (p, "2019-04-20", RAPID, rapid)]
        rows.append((p, "2019-04-21", BLITZ, 2439 + p))
    seen = file_tags(_tags(*rows))
    assert (seen.compared, seen.standard, seen.look_standard) == (24, 2, False)


def _fast_file(path: Path, delta: int) -> Path:
    """Twelve players each with a standard game and a rapid game a month later, the rapid
    tag `delta` from the standard one (made up)."""
    games = []
    for p in range(12):
        white, black = f"Player, P{p:02d}", f"Opponent, O{p:02d}"
        for event, day, shift in (
            ("Spring Open", "2019.03.02", 0),
            ("Rapid Cup", "2019.04.20", delta),
        ):
            games.append(
                pgn(
                    Event=event,
                    Site="Brno CZE",
                    Date=day,
                    Round=str(p + 1),
                    White=white,
                    Black=black,
                    WhiteElo=str(2400 + 7 * p + shift),
                    BlackElo=str(2300 + 5 * p + shift),
                    TimeControl="5400+30" if shift == 0 and event == "Spring Open" else "900+10",
                )
            )
    return write(path, *games)


def test_the_import_names_a_file_whose_fast_tags_are_standard(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    code, out, err = run_captured("import", str(_fast_file(tmp_path / "std.pgn", 0)), "--db", db)
    assert code == 0, err
    (line,) = [x for x in out.splitlines() if "standard ratings" in x]
    assert line.startswith(f"{tmp_path / 'std.pgn'}: its rapid and blitz events print")
    assert "(24 of the 24 tags" in line and "--tags standard" in line
    db = str(tmp_path / "own.db")
    code, out, err = run_captured("import", str(_fast_file(tmp_path / "own.pgn", -37)), "--db", db)
    assert code == 0, err
    assert "standard ratings" not in out


def test_tags_given_at_import_are_stored_and_changed_by_a_new_import(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    path = str(_fast_file(tmp_path / "std.pgn", 0))
    code, out, err = run_captured("import", path, "--tags", "standard", "--db", db)
    assert code == 0, err
    assert "standard ratings" not in out  # (said already: no advice)
    with open_store(db) as store:
        assert [r.elo_tags for r in list_imports(store)] == [EloTags.STANDARD]
    code, out, err = run_captured("import", path, "--tags", "own", "--db", db)
    assert code == 0, err
    assert out.splitlines()[0].endswith(
        "nothing added; its rapid and blitz tags are now taken as each event's list's rating"
    )
    with open_store(db) as store:
        assert [r.elo_tags for r in list_imports(store)] == [EloTags.OWN]
        player = resolve_player(store, "Player, P03")
        rapid = load_history(store, player).replays[RAPID]
    assert _tag_values(rapid) == [2421]  # (own: the rapid tag is the rapid rating)
    code, out, _ = run_captured("imports", "--format", "json", "--db", db)
    assert code == 0 and [r["elo_tags"] for r in json.loads(out)] == ["own"]
    code, out, _ = run_captured("imports", "--db", db)
    assert code == 0 and out.splitlines()[0].split()[-1] == "tags"


CAREERS = ("Ivanchuk", "Carlsen", "Anand", "Nakamura", "Giri", "Caruana", "Kosteniuk", "Ding")


def _player_of(text: str) -> str:
    """The name the file's games give its player most (pgnmentor writes one or two)."""
    names: dict[str, int] = {}
    for m in re.finditer(r'^\[(?:White|Black) "(.*)"\]', text, re.M):
        names[m.group(1)] = names.get(m.group(1), 0) + 1
    return max(names, key=lambda n: names[n])


def _month(day: dt.date) -> int:
    return day.year * 12 + day.month - 1


@pytest.mark.slow
@pytest.mark.parametrize("career", CAREERS)
def test_no_fast_history_starts_or_re_anchors_on_a_standard_rating(
    tmp_path: Path, career: str
) -> None:
    # The test: on a real career, every rapid or blitz value the replay took from a
    # tag differs from each standard rating of the player within three months of the event
    # that printed it: the player's standard tags, and the standard history's published
    # ratings in force then.
    need_shared()
    path = CORPUS / f"pgnmentor-{career}.pgn.xz"
    db = str(tmp_path / "t.db")
    code, _, err = run_captured("import", str(path), "--db", db)
    assert code == 0, err
    name = _player_of(lzma.decompress(path.read_bytes()).decode("utf-8", "replace"))
    with open_store(db) as store:
        replays = load_history(store, resolve_player(store, name)).replays
    std = replays[STD]
    standard: dict[int, set[int]] = {}
    for u in std.units:
        if u.start is not None:
            standard.setdefault(_month(u.start), set()).update(
                g.own_elo for g in u.games if g.own_elo is not None
            )
    published = sorted((r.period, r.published) for r in std.rows if r.published is not None)
    for p, rating in published:
        nxt = next((q for q, _ in published if q > p), Period(2030, 1))
        for m in range(_month(p.list_date), _month(nxt.list_date)):
            standard.setdefault(m, set()).add(rating)
    w = STANDARD_TAG_WINDOW_MONTHS
    for rl in (RAPID, BLITZ):
        rp = replays[rl]
        starts = {u.label: u.start for u in rp.units if u.start is not None}
        built: list[tuple[int, tuple[str, ...]]] = [
            (n.tag, n.tournaments)
            for r in rp.rows
            for n in r.notes
            if isinstance(n, ReanchoredOnTag)
        ]
        if rp.start_source.source is RatingSource.ELO_TAG:
            assert rp.start_source.rating is not None
            built.append((rp.start_source.rating, rp.start_source.tournaments))
        for tag, events in built:
            for event in events:
                m = _month(starts[event])
                near = set().union(*(standard.get(i, set()) for i in range(m - w, m + w + 1)))
                assert tag not in near, (career, rl, tag, event)
