"""Which list a tournament may be pinned to (`tracker event set --period`): the rule that a
list cannot rate a tournament that was not over (pure)."""

from __future__ import annotations

import datetime as dt

from tracker.errors import BadInput
from tracker.fide.calendar import is_list_month
from tracker.model import LAST_DATE, LAST_PERIOD, Period, RatingList
from tracker.periods.inputs import TournamentFact


def check_pin(
    t: TournamentFact, period: Period, rating_list: RatingList, *, force: bool = False
) -> None:
    """Refuse to pin a tournament to a list that cannot rate it: a month without a list of
    `rating_list`, or a list published before the tournament's last round (the rule the
    check's what-ifs follow: a list cannot rate a tournament that was not over) unless
    `force` (the PGN's dates are wrong and FIDE's page says where it landed)."""
    where = f"tournament {t.id} ({t.name}"
    if not is_list_month(period, rating_list):
        raise BadInput(
            f"--period {period}: FIDE published no {rating_list} list that month "
            f"(lists were not monthly then): give a list month for {where})"
        )
    end = t.end or t.start
    if end is None and t.tag_date is not None and not force:
        _check_tag_date(t, period, where)
    if end is None or period.list_date > end or force:
        return
    first = Period.of(min(end, LAST_DATE)).next()  # (a date past LAST_DATE: no list)
    while not is_list_month(first, rating_list):
        first = first.next()
    start = t.start or end
    dates = start.isoformat() if start == end else f"{start.isoformat()} to {end.isoformat()}"
    lands = (
        f"the first {rating_list} list it can land on is {first}"
        if first <= LAST_PERIOD and end <= LAST_DATE
        else f"no list it can land on is replayed (the last is {LAST_PERIOD})"
    )
    raise BadInput(
        f"{where}, played {dates}) cannot be rated on the {period} list "
        f"(dated {period.list_date.isoformat()}, before its last round): {lands} "
        "(if its dates in the PGN are wrong and FIDE's page says otherwise, add "
        "--force)"
    )


def _check_tag_date(t: TournamentFact, period: Period, where: str) -> None:
    """Refuse a list dated on or before the first day its date tags allow (a tournament of
    `2011.??.??` was not over on 2011-01-01)."""
    assert t.tag_date is not None
    tag = t.tag_date
    if not 1 <= tag.year <= LAST_PERIOD.year:
        return
    first_day = dt.date(tag.year, tag.month or 1, 1)
    if period.list_date > first_day:
        return
    said = f"{tag.year}" if tag.month is None else f"{tag.year}-{tag.month:02d}"
    raise BadInput(
        f"{where}, dated {said}) cannot be rated on the {period} list (dated "
        f"{period.list_date.isoformat()}, before it was over): give a later list (if its "
        "dates in the PGN are wrong and FIDE's page says otherwise, add --force)"
    )
