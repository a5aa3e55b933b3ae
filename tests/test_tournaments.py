"""tracker.identity.tournaments: the grouping rule, without a database."""

from __future__ import annotations

from tracker.identity.tournaments import JOIN_DAYS, Grouping, fits, merges


def _place(
    g: Grouping,
    date: str | None,
    *,
    event: str = "Open",
    site: str = "Town",
    event_date: str | None = None,
    tag: str | None = None,
) -> int:
    if tag is None and date is not None:
        tag = date.replace("-", ".")
    if g.unheld([(event, site)]):
        g.hold((event, site), [])  # a pair new to the database
    return g.place(event, site, event_date, date, tag, False)


def test_games_within_the_join_window_share_a_tournament() -> None:
    g = Grouping(0)
    first = _place(g, "2025-03-01")
    assert _place(g, "2025-03-09") == first
    assert JOIN_DAYS == 30
    assert _place(g, "2025-04-08") == first  # 30 days after its end (03-09)
    assert _place(g, "2025-06-01") != first  # 54 days after its end (04-08): another one
    assert [(r[0], r[3], r[5]) for r in g.made] == [
        (1, "2025-03-01", "Open|Town|2025-03-01"),
        (2, "2025-06-01", "Open|Town|2025-06-01"),
    ]


def test_the_yearly_event_is_one_tournament_a_year_and_new_year_does_not_split() -> None:
    g = Grouping(10)
    y1 = _place(g, "2024-12-28")
    assert _place(g, "2025-01-03") == y1  # across New Year: one
    y2 = _place(g, "2025-12-27")
    assert (y1, y2) == (11, 12)
    assert g.last_id == 12


def test_the_nearest_by_start_of_several_that_hold_a_date() -> None:
    g = Grouping(0)
    g.hold(
        ("Open", "Town"),
        [(1, "2025-03-01", "2025-03-01", "a"), (2, "2025-03-20", "2025-03-20", "b")],
    )
    assert _place(g, "2025-03-08") == 1
    g2 = Grouping(0)
    g2.hold(
        ("Open", "Town"),
        [(1, "2025-03-01", "2025-03-01", "a"), (2, "2025-03-20", "2025-03-20", "b")],
    )
    assert _place(g2, "2025-03-16") == 2


def test_event_date_keys_the_tournament_and_widens_its_start() -> None:
    g = Grouping(0)
    tid = _place(g, "2025-05-03", event_date="2025-05-01")
    assert g.made[0][3:6] == ("2025-05-01", "2025-05-03", "Open|Town|2025-05-01")
    assert _place(g, "2025-05-05", event_date="2025-05-01") == tid
    assert g.widened() == [("2025-05-01", "2025-05-05", tid)]
    assert g.widened() == []  # said once


def test_an_undated_game_joins_the_dated_one_before_it() -> None:
    g = Grouping(0)
    dated = _place(g, "2025-02-01")
    assert _place(g, None, tag="????.??.??") == dated
    assert g.pairs_undated() == set()


def test_an_undated_game_joins_the_only_fitting_dated_tournament() -> None:
    g = Grouping(0)
    y24 = _place(g, "2024-04-01")
    _place(g, "2025-04-01")
    _place(g, "2025-04-01", event="Other")  # the last dated game is another event's
    assert _place(g, None, tag="2024.??.??") == y24
    assert _place(g, None, tag="2024.04.??") == y24
    # both years fit a tag that says nothing: its own undated tournament, keyed by the tag
    undated = _place(g, None, tag="????.??.??")
    assert undated == 4 and g.by_key["Open|Town|????.??.??"].id == undated
    assert g.made[-1][3:6] == (None, None, "Open|Town|????.??.??")
    assert g.pairs_undated() == {("Open", "Town")}


def test_merges_into_the_one_fitting_dated_tournament() -> None:
    assert merges(
        [
            (1, None, None, "Open|Town|2024.??.??", False),
            (2, "2024-03-01", "2024-03-09", "Open|Town|2024-03-01", False),
            (3, "2025-03-01", "2025-03-09", "Open|Town|2025-03-01", False),
        ]
    ) == [(1, 2)]
    several = [
        (1, None, None, "Open|Town|?", False),
        (2, "2024-03-01", "2024-03-09", "k2", False),
        (3, "2025-03-01", "2025-03-09", "k3", False),
    ]
    assert merges(several) == []
    assert (
        merges(
            [
                (1, None, None, "Open|Town|?", True),  # the user's override keeps it
                (2, "2024-03-01", None, "k2", False),
            ]
        )
        == []
    )
    assert merges([(1, None, None, "Open|Town|?", False)]) == []  # nothing dated


def test_fits_reads_year_and_month_of_a_partial_tag() -> None:
    assert fits("2024.??.??")("2024-12-30", "2025-01-02")
    assert not fits("2024.??.??")("2025-01-01", None)
    assert fits("2024.03.??")("2024-02-25", "2024-03-02")
    assert not fits("2024.03.??")("2024-04-01", "2024-04-02")
    assert fits("2024.13.??")("2024-06-01", None)  # no such month: the year
    assert fits("????.??.??")("1999-01-01", None) and fits(None)("1999-01-01", None)
    assert not fits(None)(None, None)


def test_forget_lets_go_but_keeps_the_undated_it_made() -> None:
    g = Grouping(0)
    _place(g, None, tag="????.??.??")
    g.forget()
    assert g.pairs == {} and g.by_key == {}
    assert g.pairs_undated() == {("Open", "Town")}
    assert g.unheld([("Open", "Town")]) == {("Open", "Town")}
