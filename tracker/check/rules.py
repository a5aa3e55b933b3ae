"""Causes found by re-computing the period through the engine under another treatment than the
replay's: another K (a rung of the edition's scheme, or the 700 rule), another cap of |D|
(or the 2650 rule), rounding per tournament, a base one point off."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace
from decimal import Decimal

from tracker.advice import PlayerFact, SetPlayerFact
from tracker.check.report import (
    BASE_CORRECTION,
    CAP,
    K_DIFFERS,
    ROUNDING,
    BaseCorrected,
    CapDiffers,
    CapMode,
    Cause,
    KDiffers,
    KGuess,
    KPrinted,
    KWhy,
    No700,
    PeriodKForAll,
    ReplayK,
    RoundedEach,
    Rule700,
)
from tracker.fide import (
    GameIn,
    GameOut,
    PeriodOut,
    TournamentIn,
    edition_for,
    expected_score,
    one_off_adjustment,
    rate_period,
    round_change,
)
from tracker.fide.editions import KScheme
from tracker.fide.rounding import to_decimal
from tracker.model import OfficialEntry
from tracker.periods import PeriodRow

CAP_MODES = tuple(CapMode)


def _tournaments_in(out: PeriodOut) -> list[TournamentIn]:
    return [
        TournamentIn(
            start=t.start,
            own_rating=t.own_rating,
            label=t.label,
            games=tuple(GameIn(g.opponent_rating, g.score, g.label) for g in t.games),
            k_start=t.k_start,
            k_start_reason=t.k_start_reason,
        )
        for t in out.tournaments
    ]


def _rate(
    row: PeriodRow,
    rating_before: int,
    tournaments: Sequence[TournamentIn],
    k_base: int | None = None,
) -> PeriodOut:
    """`rate_period` as the replay called it for `row` (seeded or not, the same standard
    rating), from another base; `k_base`: the period's K before the 700 rule (as an official
    K: a tournament rated with the K of its start keeps it, as in the replay)."""
    facts = row.facts if k_base is None else replace(row.facts, official_k=k_base)
    return rate_period(
        rating_before,
        tournaments,
        rating_list=row.rating_list,
        list_date=row.period.list_date,
        facts=facts,
        standard_rating=row.standard_rating,
        seeded=row.seeded,
    )


def _replay_k(out: PeriodOut) -> ReplayK:
    """The K the replay used: the period's, and each tournament's that differs from it."""
    others = tuple(
        (t.k, t.label, t.k_reason)
        for t in out.tournaments
        if t.k != out.k and t.k_reason is not None
    )
    return ReplayK(out.k, out.k_reason, others)


def _after(row: PeriodRow, out: PeriodOut) -> int | None:
    """The rating published from a what-if `out`: after the list's one-off adjustment, as
    the replay applies it to every rated period (`rate_period` checked the floor after it)."""
    if out.rating_after is None:
        return None
    adj = one_off_adjustment(
        row.rating_list, row.period.list_date, out.rating_after, standard_rating=row.standard_rating
    )
    return adj[0] if adj else out.rating_after


def _published(row: PeriodRow, rating: int) -> int | None:
    """The rating the list publishes when the period's change gives `rating`: the list's
    one-off adjustment (the Mar 2024 compression, the Oct 2022 raise), then the floor of the
    list's edition (None: published as unrated), in `rate_period`'s order."""
    adj = one_off_adjustment(
        row.rating_list, row.period.list_date, rating, standard_rating=row.standard_rating
    )
    if adj is not None:
        rating = adj[0]
    return None if rating < edition_for(row.rating_list, row.period.list_date).floor else rating


def k_causes(row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    """Another K (a rung of the edition's scheme, or a K cut by the 700 rule from one) that
    reproduces the official rating: the period change is K x the exact sum of changes. The
    what-if K replaces every tournament's K, also where the replay rated a tournament with
    the K of its start (`Edition.k_by_tournament_start`): then the period's own K is a
    what-if too (one K for the period)."""
    out = row.out
    assert out is not None and row.rating_before is not None
    total = sum((t.change for t in out.tournaments), Decimal(0))
    causes: list[Cause] = []
    for k, why in _k_candidates(row):
        if k == out.k and not out.k_by_tournament:
            continue
        rating = _published(row, row.rating_before + round_change(Decimal(k) * total))
        if rating != entry.rating:
            continue
        said = KDiffers(
            k,
            bool(out.k_by_tournament),
            total,
            rating,
            _replay_k(out),
            PeriodKForAll() if k == out.k else why,
        )
        causes.append(
            Cause(
                K_DIFFERS,
                reproduces=True,
                games_match=entry.games is None or entry.games == row.games,
                advice=_k_advice(k, out.k, row),
                said=said,
            )
        )
    official_k = entry.k
    if official_k is not None and row.facts.official_k is None and official_k != out.k_base:
        # The K printed on this list is what the player carries into the next period: say
        # when it disagrees with what the replay derived for this one (a hint, not proof).
        causes.append(
            Cause(
                K_DIFFERS,
                reproduces=False,
                advice=_k_advice(official_k, out.k_base, row),
                said=KPrinted(
                    row.period,
                    official_k,
                    out.k_base,
                    out.k_reason,
                    _k_why(official_k, out.k_base, row),
                ),
            )
        )
    return causes


def _k_candidates(row: PeriodRow) -> list[tuple[int, KWhy | Rule700 | No700]]:
    """(K, why FIDE may have used it) for every K worth trying in `row`'s period."""
    out = row.out
    assert out is not None
    e = edition_for(row.rating_list, row.period.list_date)
    n = out.games
    found: dict[int, KWhy | Rule700 | No700] = {}
    for k in _k_values(row):
        cut = 700 // n if n else k
        if e.rule_700 and k * n > 700:
            found.setdefault(cut, Rule700(n, k, cut, _k_why(k, out.k_base, row)))
            found.setdefault(k, No700(k, n))
        else:
            found.setdefault(k, _k_why(k, out.k_base, row))
            if n and k * n > 700:
                found.setdefault(cut, Rule700(n, k, cut, None))
    return sorted(found.items(), key=lambda kv: -kv[0])


def _k_values(row: PeriodRow) -> list[int]:
    """The K values of the edition of the period's list (every rung of its scheme)."""
    e = edition_for(row.rating_list, row.period.list_date)
    if e.k_scheme is KScheme.FLAT:
        return [e.k_flat]
    return sorted({e.k_top, e.k_junior, e.k_new, e.k_mid}, reverse=True)


def _k_why(theirs: int, ours: int, row: PeriodRow) -> KWhy:
    facts = row.facts
    if theirs == 10 and ours != 10:
        return KWhy(KGuess.EVER_2400)
    if ours == 10 and theirs != 10:
        return KWhy(KGuess.NOT_2400)
    if theirs == 40 and ours < 40:
        return KWhy(KGuess.JUNIOR_OR_NEW, facts.rated_games, facts.birth_year)
    if ours == 40 and theirs < 40:
        return KWhy(KGuess.NO_LONGER_40, facts.rated_games, facts.birth_year)
    if theirs in (25, 30, 15) or ours in (25, 30, 15):
        return KWhy(KGuess.OLDER_SCHEME)
    return KWhy(KGuess.OTHER)


def _k_advice(theirs: int, ours: int, row: PeriodRow) -> tuple[SetPlayerFact, ...]:
    """The fact to record about the player that would give FIDE's K, if one would."""
    if theirs == 10:
        return (SetPlayerFact(PlayerFact.EVER_2400),)
    if theirs == 40 and row.facts.birth_year is None:
        return (SetPlayerFact(PlayerFact.BIRTH_YEAR),)
    if theirs in (40, 20) and ours in (40, 20):
        return (SetPlayerFact(PlayerFact.RATED_GAMES),)
    return ()


def cap_causes(row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    out = row.out
    assert out is not None and row.rating_before is not None
    causes: list[Cause] = []
    for mode in CAP_MODES:
        total = Decimal(0)  # K x chg summed over tournaments, each with its own K
        differs = False
        for t in out.tournaments:
            counted = [g for g in t.games if g.counted and g.difference is not None]
            once = _largest(counted) if mode is CapMode.ONCE else None
            t_total = Decimal(0)
            for g in counted:
                assert g.difference is not None
                d = g.difference
                if mode is CapMode.EVERY_GAME or (mode is CapMode.ONCE and g is once):
                    used = max(-400, min(400, d))
                elif mode is CapMode.CAP_350:
                    used = max(-350, min(350, d))
                else:
                    used = d
                if used != g.difference_used:
                    differs = True
                t_total += to_decimal(g.score) - expected_score(used)
            total += Decimal(t.k) * t_total
        if not differs:
            continue
        rating = _published(row, row.rating_before + round_change(total))
        if rating is None or rating != entry.rating:
            continue
        ros = [t.own_rating for t in out.tournaments if t.own_rating is not None]
        rule_2650 = mode is CapMode.NO_CAP and bool(ros) and max(ros) >= 2650
        causes.append(
            Cause(
                CAP,
                reproduces=True,
                games_match=entry.games is None or entry.games == row.games,
                said=CapDiffers(mode, rule_2650, rating),
            )
        )
    return causes


def _largest(games: Sequence[GameOut]) -> GameOut | None:
    over = [g for g in games if g.difference is not None and abs(g.difference) > 400]
    if not over:
        return None
    return max(over, key=lambda g: (abs(g.difference or 0), g.difference or 0))


def rounding_causes(row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    out = row.out
    assert out is not None and row.rating_before is not None
    if len(out.tournaments) < 2:
        return []
    per = sum(round_change(t.k_change) for t in out.tournaments)
    rating = _published(row, row.rating_before + per)
    if per == out.change or rating is None or rating != entry.rating:
        return []
    parts = tuple(round_change(t.k_change) for t in out.tournaments)
    assert out.change_exact is not None and out.change is not None
    return [
        Cause(
            ROUNDING,
            reproduces=True,
            games_match=entry.games is None or entry.games == row.games,
            said=RoundedEach(parts, per, out.change_exact, out.change, rating),
        )
    ]


def base_correction_causes(row: PeriodRow, entry: OfficialEntry) -> list[Cause]:
    rb = row.rating_before
    if rb is None or entry.rating is None:
        return []
    causes: list[Cause] = []
    for delta in (-1, 1):
        base = rb + delta
        if row.out is None:
            # no game: only the list's one-off adjustment (and its floor) acts on the base
            rating: int | None = _published(row, base)
        else:
            tins = [
                replace(t, own_rating=base if t.own_rating == rb else t.own_rating)
                for t in _tournaments_in(row.out)
            ]
            rating = _after(row, _rate(row, base, tins, k_base=row.out.k_base))
        if rating != entry.rating:
            continue
        causes.append(
            Cause(
                BASE_CORRECTION,
                reproduces=True,
                games_match=entry.games is None or entry.games == row.games,
                said=BaseCorrected(row.period, base, rb, rating),
            )
        )
    return causes
