"""The rules engine's reasons in words: why a period (or a tournament) has its K (`KSaid`),
why the engine publishes no rating or another than it computed (`EngineReason`), and why a
tournament is left out of a first rating (`Ignored`). The one place that words them, for
calc, explain, history, causes, event show and target."""

from __future__ import annotations

from collections.abc import Sequence
from fractions import Fraction

from tracker.fide import EngineReason, EngineWhy, KAtStart, KSaid, KSource
from tracker.fide.adjust import Adjustment, OneOff
from tracker.fide.first import (
    AfterList,
    FewOpponents,
    FewPoints,
    Ignored,
    OutsideWindow,
)
from tracker.fide.k import KBasis, KWhy

GIVE_RATED_GAMES = "give --rated-games"
"""How `tracker calc` is given the games completed it assumed (`PlayerFacts.games_assumed`)."""


def k_text(said: KSaid, *, count_assumed: bool = False) -> str:
    """Why K is what it is, in one phrase ("2400 reached", "official K; 700 rule: 20 games x
    40 > 700 -> 35"). `count_assumed`: the games completed are the replay's assumption
    (explain says so after the count)."""
    text = _source_text(said, count_assumed)
    if said.cut is not None:
        c = said.cut
        text += f"; 700 rule: {c.games} games x {c.k} > 700 -> {c.cut}"
    return text


def k_at_start_text(at: KAtStart) -> str:
    """The K of the list in force at a tournament's start, and why."""
    where = f"the K of the {at.start_list} list, in force at its start"
    if at.said.source is KSource.OFFICIAL:
        return f"{where}: official K"
    return f"{where} ({at.rating}): {k_text(at.said)}"


def _source_text(said: KSaid, count_assumed: bool) -> str:
    if said.source is KSource.GIVEN:
        return "K given"
    if said.source is KSource.OFFICIAL:
        return "official K"
    if said.source is KSource.AT_START:
        if said.start is None:
            return f"K {said.k} at the tournament start"
        return k_at_start_text(said.start)
    assert said.why is not None
    return _derived_text(said, said.why, count_assumed)


def _derived_text(said: KSaid, why: KWhy, count_assumed: bool) -> str:
    """Spec section 3's rule that gave K, with the facts it rested on."""
    if why.basis is KBasis.FLAT:
        return f"K {said.k} for everyone on the {said.rating_list} list"
    if why.basis is KBasis.TOP:
        return "2400 reached"
    if why.basis is KBasis.JUNIOR:
        return f"junior (born {why.birth_year}, under 2300)"
    n = why.rated_games
    if why.basis is KBasis.NEW_PLAYER:
        completed = (
            f"{n} completed on the {said.rating_list} list, assumed: {GIVE_RATED_GAMES}"
            if said.games_assumed
            else f"{n} completed"
        )
        return f"fewer than {said.new_player_games} games ({completed})"
    if said.games_assumed:
        completed = f"assumed at least {n} games completed, {GIVE_RATED_GAMES}"
    elif count_assumed:
        completed = f"{n} games completed (a count assumed)"
    else:
        completed = f"{n} games completed"
    return f"{completed}, under 2400"


def adjustment_text(said: Adjustment) -> str:
    """A list's one-off adjustment, with its arithmetic."""
    r, new = said.rating, said.new
    if said.kind is OneOff.COMPRESSION:
        return f"Mar 2024 compression: {r} + 0.4 x (2000 - {r}) = {new}"
    return (
        f"Oct 2022 {said.rating_list} raise: {r} is more than 100 below the standard rating "
        f"{said.standard_rating}, raised to {new}"
    )


def engine_words(said: EngineReason | None) -> str | None:
    """`engine_text`, None for no reason (the JSON's null)."""
    return None if said is None else engine_text(said)


def engine_text(said: EngineReason) -> str:
    """Why the engine publishes no rating, or another than it computed."""
    if said.why is EngineWhy.BELOW_FLOOR:
        return f"below the floor of {said.limit}: published as unrated"
    if said.why is EngineWhy.FIRST_CAPPED:
        return f"{said.value} is capped at {said.limit}"
    if said.why is EngineWhy.FIRST_BELOW_FLOOR:
        return f"{said.value} is below the floor of {said.limit}"
    n = said.value
    return f"only {n} game{'s' if n != 1 else ''} against rated opponents ({said.limit} needed)"


def ignored_text(why: Ignored) -> str:
    """Why a tournament is left out of a first rating ("zero score in the first event")."""
    if isinstance(why, OutsideWindow):
        return (
            f"started {why.start.isoformat()}, outside the {why.months}-month window (from "
            f"{why.since.isoformat()})"
        )
    if isinstance(why, AfterList):
        return f"started {why.start.isoformat()}, after the list date"
    if isinstance(why, FewOpponents):
        n = why.count
        return f"only {n} rated opponent{'s' if n != 1 else ''} ({why.needed} needed in each event)"
    if isinstance(why, FewPoints):
        return (
            f"{_points(why.points)} against rated opponents (at least {_points(why.needed)} "
            "needed in each event)"
        )
    if why.points == 0:
        return "zero score in the first event"
    return f"{_points(why.points)} in the first event (at least {_points(why.needed)} needed)"


def ignored_words(reasons: Sequence[Ignored]) -> list[str]:
    """`ignored_text` of each (the JSON's list)."""
    return [ignored_text(why) for why in reasons]


def _points(x: Fraction) -> str:
    whole, half = divmod(x * 2, 2)
    if whole == 0 and half:
        return "1/2 point"
    text = f"{int(whole)}{'.5' if half else ''}"
    return f"{text} point{'' if x == 1 else 's'}"
