"""tracker.reports: text of explain and next, CSV details, events (pure replays built by hand;
numbers from table 8.1.2 rows 0,3 -> 0.50 and 392,411 -> 0.92/0.08)."""

from __future__ import annotations

import csv
import io
from fractions import Fraction

from tests.builders import Replay
from tracker.model import Period, PlayerRef
from tracker.periods import PlayerInfo
from tracker.reports import (
    GAME_COLUMNS,
    event_rows,
    explain_lines,
    fmt_points,
    game_json,
    game_rows,
    history_rows,
    next_lines,
    next_report,
    to_csv,
    tournament_json,
)

ME = PlayerRef(1, "Novák, Tomáš", 99012345)


def test_fmt_points() -> None:
    assert [fmt_points(Fraction(x)) for x in ("0", "1/2", "7/2", "4")] == ["0", "0.5", "3.5", "4"]


def test_explain_marks_the_capped_game_and_lists_k_rule() -> None:
    # 1850 vs 1400: D = 450 counts as 400 (Ro < 2650) -> 0.92; win +0.08 x 20 = +1.6 -> +2.
    b = Replay()
    b.off("2025-10", 1850, k=20)
    t = b.t("Open", "2025-10-04", "2025-10-05")
    b.g(t, 1400, 1)
    rp = b.run(player=PlayerInfo(rated_games=100))
    text = "\n".join(explain_lines(rp, Period(2025, 11), ME))
    assert "1400*" in text and " 400 " in text and "0.92" in text
    assert "K 20: official K" in text
    assert "+1.60, rounded once (.5 away from zero) to +2" in text
    assert "Rating after: 1850 +2 = 1852" in text


def test_explain_first_rating_period() -> None:
    b = Replay()
    t = b.t("Sep", "2025-09-06", "2025-09-07")
    for _ in range(5):
        b.g(t, 1800, Fraction(1, 2))
    text = "\n".join(explain_lines(b.run(), Period(2025, 10), ME))
    assert "Rating before: unrated" in text
    assert "First rating: 1800 from 5 games" in text


def test_next_report_flags_a_late_tournament() -> None:
    # Ends 27 Oct: 5 days before the Nov list (closing 3 days): rated on Nov by default,
    # but close enough to be reported late.
    b = Replay()
    b.off("2025-10", 1800, k=20)
    t = b.t("Late", "2025-10-25", "2025-10-27")
    b.g(t, 1800, 1)
    rep = next_report(b.run(player=PlayerInfo(rated_games=100)), ME)
    assert rep.next_period == Period(2025, 11) and rep.expected == 1810
    assert rep.open and rep.open[0][0] == "Late"
    text = "\n".join(next_lines(rep))
    assert "Expected standard rating on the 2025-11 list: 1810" in text


def test_next_without_games() -> None:
    b = Replay()
    b.off("2025-10", 1800, k=20)
    rep = next_report(b.run(), ME)
    assert rep.rows == () and rep.expected == 1800
    assert "No games since then" in "\n".join(next_lines(rep))


def test_csv_quotes_and_none() -> None:
    text = to_csv(("a", "b"), [{"a": 'x, "y"', "b": None}])
    assert text == 'a,b\r\n"x, ""y""",\r\n'


def test_game_rows_and_events() -> None:
    b = Replay()
    b.off("2025-10", 1800, k=20)
    t = b.t("Open", "2025-10-04", "2025-10-05")
    b.g(t, 1800, 1)
    b.g(t, None, 0)
    rp = b.run(player=PlayerInfo(rated_games=100))
    rows = [game_json(r) for r in game_rows([rp])]
    assert [r["counted"] for r in rows] == ["yes", "no"]
    assert rows[1]["reason"] == "unrated-opponent"
    parsed = list(csv.DictReader(io.StringIO(to_csv(GAME_COLUMNS, rows))))
    assert parsed[0]["period"] == "2025-11"
    (event,) = [tournament_json(r) for r in event_rows([rp])]
    # Issue 13 "one count": the rated game only (as explain and history count it), the game
    # against the unrated opponent beside it. Rp of 1 point in 1 game vs 1800: 1800 + dp(1.00)
    # = 1800 + 800 = 2600 (table 8.1.1); K 20 x (1 - 0.50) = +10.00.
    assert (event["period"], event["games"], event["points"], event["not_counted"]) == (
        "2025-11",
        1,
        1,
        1,
    )
    assert (event["performance"], event["change_exact"], event["change"]) == (2600, "10.00", 10)
    assert history_rows(rp, since=Period(2025, 11))[0].rating_after == 1810


def _zero_first_event() -> Replay:
    # Sep 2025: 0/2 vs 1800 (rated on the Oct list); Oct 2025: 5 draws vs 1800 (Nov list).
    # Spec section 4 (from Mar 2024): a zero score in the first event disregards it. Nov:
    # Ra = (5 x 1800 + 2 x 1800) / 7 = 1800; p = (2.5 + 1) / 7 = 0.50 -> dp 0 -> 1800.
    b = Replay()
    sep = b.t("Zero Open", "2025-09-06", "2025-09-07")
    b.g(sep, 1800, 0)
    b.g(sep, 1800, 0)
    oct_ = b.t("Draw Cup", "2025-10-04", "2025-10-05")
    for _ in range(5):
        b.g(oct_, 1800, Fraction(1, 2))
    return b


def test_explain_says_why_each_tournament_is_ignored_for_a_first_rating() -> None:
    rp = _zero_first_event().run()
    text = "\n".join(explain_lines(rp, Period(2025, 11), ME))
    assert "First rating: 1800 from 5 games" in text
    assert "  ignored: Zero Open (zero score in the first event)" in text.splitlines()
    oct_text = "\n".join(explain_lines(rp, Period(2025, 10), ME))
    assert "  ignored: Zero Open (zero score in the first event)" in oct_text.splitlines()


def test_next_says_why_each_tournament_is_ignored_for_a_first_rating() -> None:
    rep = next_report(_zero_first_event().run(), ME)
    lines = next_lines(rep)
    assert rep.expected == 1800
    why = "    ignored for the first rating: Zero Open (zero score in the first event)"
    assert lines.count(why) == 2  # in the 2025-10 and 2025-11 rows
    assert "Expected standard rating on the 2025-11 list: 1800" in lines


def test_ignored_without_reasons_prints_the_label_alone() -> None:
    # A FirstRatingOut built without reasons (the field's default) still prints its labels.
    from tracker.fide import EngineReason, EngineWhy, FirstRatingOut
    from tracker.reports import ignored_lines

    too_few = EngineReason(EngineWhy.FIRST_TOO_FEW_GAMES, 0, 5)
    f = FirstRatingOut(None, too_few, None, 0, Fraction(0), (), ("A", "B"))
    assert ignored_lines(f, "  ") == ["  ignored: A", "  ignored: B"]


def test_a_first_rating_period_sums_up_the_games_against_rated_opponents() -> None:
    # An unrated player's period (games pooled toward a first rating) where two opponents
    # have no rating: only the game against the rated one counts, and so do only its
    # points (the season said "5/2 points is impossible in 1 games" and failed).
    from tracker.reports.history import season_summary

    b = Replay()
    t = b.t("Autumn Open", "2025-11-07", "2025-11-10")
    b.g(t, 1850, 1)
    b.g(t, 2150, Fraction(1, 2))
    b.g(t, None, 1)
    b.g(t, None, 0)
    rp = b.run()
    (row,) = [r for r in rp.rows if r.games]
    season = season_summary(rp)
    assert season is not None
    assert (row.games, row.points) == (2, Fraction(3, 2))
    assert (season.games, season.points) == (row.games, row.points)


def test_an_average_with_more_than_two_decimals_is_shown_to_two() -> None:
    """Ra of 12407/7 (the engine keeps it exact) reads 1772.43 (rounded), not 28 digits."""
    from decimal import Decimal

    from tracker.reports.explain import _average

    assert _average(Decimal(12407) / Decimal(7)) == "1772.43 (rounded)"
    assert _average(Decimal("1662.5")) == "1662.5"
    assert _average(Decimal("1800")) == "1800"
