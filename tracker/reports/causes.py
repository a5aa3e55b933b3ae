"""The causes `tracker check` finds, in words: each kind of `Cause.said` (tracker.check's
values) worded by a function of its own, with the commands that record it (`cause_command`).
`cause_text` dispatches on the kind; `assert_never` makes mypy prove every kind is worded."""

from __future__ import annotations

from collections.abc import Sequence
from decimal import Decimal
from typing import assert_never

from tracker.check.report import (
    BaseCorrected,
    Before2008,
    CapDiffers,
    CapMode,
    Cause,
    ClosingUndone,
    GamesExtraThere,
    GamesExtraUnrated,
    GamesMissingHere,
    KDiffers,
    KGuess,
    KPrinted,
    KWhy,
    Moved,
    No700,
    NotInDatabase,
    PeriodKForAll,
    ReplayK,
    RoFromTag,
    RoundedEach,
    Rule700,
    Unexplained,
    UnratedCountedByFide,
    UnratedForFide,
)
from tracker.model import Period
from tracker.periods.assumed import ClosingDate
from tracker.reports.rulewords import k_text
from tracker.reports.said import command_line
from tracker.reports.words import commands, reason_text, ro_text

CAUSE_WHO = "PLAYER"
"""How a cause's command names the player."""


def cause_text(c: Cause) -> str:
    """What a cause says, with the commands in it where it has some."""
    said = c.said
    if isinstance(said, Unexplained):
        return _unexplained(said)
    if isinstance(said, NotInDatabase):
        return _not_in_database(said)
    if isinstance(said, RoFromTag):
        return _ro_from_tag(said)
    if isinstance(said, Before2008):
        return _before_2008(said)
    if isinstance(said, CapDiffers):
        return _cap_differs(said)
    if isinstance(said, RoundedEach):
        return _rounded_each(said)
    if isinstance(said, BaseCorrected):
        return _base_corrected(said)
    if isinstance(said, UnratedCountedByFide):
        return _unrated_counted_by_fide(said)
    if isinstance(said, UnratedForFide):
        return _unrated_for_fide(said)
    if isinstance(said, KDiffers):
        return _k_differs(said)
    if isinstance(said, KPrinted):
        return _k_printed(said)
    if isinstance(said, GamesMissingHere):
        return _games_missing_here(said)
    if isinstance(said, GamesExtraThere):
        return _games_extra_there(said)
    if isinstance(said, GamesExtraUnrated):
        return _games_extra_unrated(said)
    if isinstance(said, ClosingUndone):
        return _closing_undone(said)
    assert_never(said)


def cause_command(c: Cause) -> str | None:
    """The command that records a cause (None: none does)."""
    return commands(c.advice, CAUSE_WHO)


def _unexplained(said: Unexplained) -> str:
    rating = "unrated" if said.official is None else str(said.official)
    if not said.tournaments:
        return (
            f"no single cause reproduces the official {rating}: no tournament of yours in "
            f"the database is rated on the {said.period} list; import the games FIDE rated "
            f"on it ({command_line('import', 'FILE').quoted()})"
        )
    return (
        f"no single cause reproduces the official {rating}: compare with FIDE's "
        f"calculation page for {said.period} ({command_line('explain', said.period).quoted()} "
        f"shows the replay's); {command_line('event', 'set', 'ID', '--ro', 'R').quoted()} "
        "records the Ro FIDE used"
    )


def _not_in_database(said: NotInDatabase) -> str:
    hint = ""
    if said.left_out:
        reasons = sorted({reason_text(why, detail) for why, detail in said.reasons})
        hint = (
            f"; the replay did not count {said.left_out} game(s) of this period "
            f"({', '.join(reasons)}): FIDE may have"
        )
    return (
        f"games missing: FIDE rated {said.fide} games on the {said.period} list, the replay "
        f"{said.replay}: {said.missing} game(s) are probably not in the database; import "
        f"the missing tournament's PGN ({command_line('import', 'FILE').quoted()}){hint}"
    )


def _ro_from_tag(said: RoFromTag) -> str:
    rating = "unrated" if said.rating is None else str(said.rating)
    return (
        f"the Ro FIDE used: {said.tournament} used Ro {said.ro} "
        f"({ro_text(said.source, said.ro_list)}) but your Elo tag there says {said.tag}; "
        f"with Ro {said.tag} the period gives {rating}"
    )


def _before_2008(said: Before2008) -> str:
    n = said.unplaced
    extra = (
        f" ({n} game{'' if n == 1 else 's'} before 2008 {'is' if n == 1 else 'are'} not replayed)"
        if n
        else ""
    )
    return (
        f"the {said.period} list is before 2008, when FIDE rated by tournament averages: "
        f"the tracker does not replay that era{extra}; it re-anchors at the official "
        f"{_rating(said.official)}"
    )


def _cap_differs(said: CapDiffers) -> str:
    return (
        f"the cap or the 2650 rule: {CAP_WORDS[said.mode]}"
        + (" (the 2650 rule: Ro 2650 or more)" if said.rule_2650 else "")
        + f"; that gives {said.rating}, the replay applied the cap of the edition in force "
        "at each tournament's start"
    )


def _rounded_each(said: RoundedEach) -> str:
    parts = " + ".join(str(p) for p in said.parts)
    return (
        f"rounding: rounding each tournament's change ({parts} = {said.per:+d}) instead of "
        f"the period's once ({said.change_exact} -> {said.change:+d}) gives {said.rating}; "
        "FIDE does this in rare periods"
    )


def _base_corrected(said: BaseCorrected) -> str:
    return (
        f"a one-point base correction: FIDE started the {said.period} period from "
        f"{said.base}, not the published {said.published} (a silent correction FIDE "
        f"sometimes makes); from {said.base} the period gives {said.rating}. Nothing to "
        "fix: the replay re-anchors at the official rating"
    )


def _unrated_counted_by_fide(said: UnratedCountedByFide) -> str:
    return (
        f"an unrated opponent counted: FIDE rated {said.fide} games, the replay "
        f"{said.replay} because it did not count {said.games} game(s) against "
        f"{', '.join(said.opponents)} (no rating in the PGN); FIDE probably had a rating "
        "for them: import FIDE's list in force at the tournament's start (official fetch, "
        "or official import of the file), which rates them (a game already stored is not "
        "read again: a tag mended in the file changes nothing)"
    )


def _unrated_for_fide(said: UnratedForFide) -> str:
    return (
        f"an unrated opponent counted: the replay counted {said.games} game(s) against "
        f"{said.opponent} (Elo {said.elo} in the PGN), FIDE did not: {said.opponent} was "
        f"probably unrated on FIDE's {said.rating_list} list (the tag may be a national "
        f"rating); without those games the replay gives {_rating(said.official)}"
    )


def _k_differs(said: KDiffers) -> str:
    every = " for every tournament" if said.every else ""
    return (
        f"K differs: FIDE's rating follows from K {said.k}{every} ({said.k} x {said.total} = "
        f"{Decimal(said.k) * said.total} -> {said.rating}); the replay used "
        f"{_replay_k(said.replay)}. {_k_reason(said.why)}"
    )


def _k_printed(said: KPrinted) -> str:
    return (
        f"K differs: the {said.period} list prints K {said.official}, the replay derived "
        f"K {said.derived} ({k_text(said.reason)}) for this period. {_k_why(said.why)}"
    )


def _games_missing_here(said: GamesMissingHere) -> str:
    text = (
        f"games missing: FIDE rated {said.fide} games on the {said.period} list, the replay "
        f"{said.replay}: {_moved(said.moved)}, which the replay rated on the "
        f"{', '.join(str(p) for p in said.where)} list, probably landed here"
        + (f" ({closing_words(said.rule)})" if said.rule else "")
        + "; "
    )
    if said.reproduces:
        text += (
            f"re-running the replay with that pin gives {_rating(said.official)} for {said.period}"
        )
        if said.verified:
            text += f" and matches {', '.join(str(p) for p in said.verified)} too"
        if said.broken:
            text += f" (but {', '.join(str(p) for p in said.broken)} would then differ)"
    else:
        text += (
            f"re-running the replay with that pin gives {_rating(said.got)} for "
            f"{said.period}, not {_rating(said.official)}"
        )
    return text


def _games_extra_there(said: GamesExtraThere) -> str:
    if said.rule:
        why = closing_words(said.rule)
    else:
        why = "a late report" if said.late else "it reached FIDE before that list closed"
    return (
        f"games extra: FIDE rated {said.fide} games on the {said.period} list, the replay "
        f"{said.replay}: {_moved(said.moved)} was probably rated on the {said.target} list "
        f"({why}); re-running the replay with that pin gives {_rating(said.official)} for "
        f"{said.period}{_confirmed(said.target, said.confirmed)}"
    )


def _games_extra_unrated(said: GamesExtraUnrated) -> str:
    if said.reproduces:
        return (
            f"games extra: FIDE rated {said.fide} games on the {said.period} list, the "
            f"replay {said.replay}: {_moved(said.moved)} was probably not rated at all (no "
            f"neighbouring list takes it); excluding it gives {_rating(said.official)}"
        )
    return (
        f"games extra: FIDE rated {said.fide} games on the {said.period} list, the replay "
        f"{said.replay}: {_moved(said.moved)} may have been rated on another list, but "
        "re-running the replay with it moved does not reproduce the official rating"
    )


def _closing_undone(said: ClosingUndone) -> str:
    moved = said.closing
    return (
        f"the closing date: {moved.tournament} (id {moved.tournament_id}) was probably "
        f"rated on the {moved.earlier} list ({closing_words([moved])}); re-running the "
        "replay with "
        f"that pin gives {_rating(said.official)} for {said.period}"
        f"{_confirmed(said.other, said.confirmed)}"
    )


def _moved(moved: Moved) -> str:
    """The tournaments a cause moves: "NAME (id N, G games) and ..."."""
    return " and ".join(f"{name} (id {tid}, {n} games)" for tid, name, n in moved)


def _confirmed(other: Period, rating: int | None) -> str:
    """Whether the other list's official rating confirms a move."""
    if rating is None:
        return f" (no official entry for {other} to confirm it)"
    return f" and {rating} for {other}, as published"


def closing_words(rule: Sequence[ClosingDate]) -> str:
    """Why a tournament the closing-date rule moved may be on its earlier list."""
    c = rule[0]
    ended = (
        f"it ended {c.end.isoformat()}"
        if len(rule) == 1
        else f"they ended by {max(r.end for r in rule).isoformat()}"
    )
    days = "1 day" if c.days_before == 1 else f"{c.days_before} days"
    if len(rule) > 1:
        days = f"{min(r.days_before for r in rule)} days or more"
    return (
        f"{ended}, {days} before the {c.earlier} list: the replay put it on the {c.put_on} "
        "list by the closing-date rule, an assumption; FIDE rates it on the earlier list when "
        "the report arrives in time"
    )


def _replay_k(r: ReplayK) -> str:
    """The K the replay used: the period's, and each tournament's that differs from it."""
    text = f"K {r.k} ({k_text(r.reason)})"
    if r.others:
        text += ", and " + ", ".join(
            f"K {k} for {label} ({k_text(why)})" for k, label, why in r.others
        )
    return text


def _k_reason(why: KWhy | Rule700 | No700 | PeriodKForAll) -> str:
    """Why FIDE may have used the K that reproduces its rating."""
    if isinstance(why, PeriodKForAll):
        return (
            "Why: FIDE rated every tournament of the period with the period's K, not "
            "each with the K of the list in force at its start (policy "
            "K_BY_TOURNAMENT_START_UNTIL: the rule ended in Jul 2017)"
        )
    if isinstance(why, No700):
        return (
            f"Why: FIDE did not apply the 700 rule to K {why.k} here ({why.games} games); the "
            "replay did"
        )
    if isinstance(why, Rule700):
        rule = (
            f"Why: the 700 rule: {why.games} games x {why.k} = {why.k * why.games} > 700 -> "
            f"K {why.cut}; "
        )
        if why.then is None:
            return (
                rule + "the replay's policy is that the rule came in Jul 2017 (UNSETTLED: "
                "2014 or 2017), FIDE applied it here"
            )
        return rule + _k_why(why.then)
    return _k_why(why)


def _k_why(why: KWhy) -> str:
    """Why FIDE's K may differ from the replay's, with what to check."""
    if why.guess is KGuess.EVER_2400:
        return (
            "Why: a published rating of 2400 or more on this list at some time gives K 10 "
            "for good; the replay does not know of one"
        )
    if why.guess is KGuess.NOT_2400:
        return (
            "Why: the replay believes 2400 was reached on this list (K 10 for good); FIDE "
            "does not: check the official entries and `--ever-2400`"
        )
    if why.guess is KGuess.JUNIOR_OR_NEW:
        if why.birth_year is None:
            return (
                "Why: a junior (K 40 while under 2300 to the end of the year of the 18th "
                "birthday) or a player with fewer than 30 rated games; the birth year is "
                "not recorded"
            )
        return (
            f"Why: fewer than 30 rated games (the replay counts {why.rated_games}) or a "
            f"junior (born {why.birth_year}): check the birth year and the rated games"
        )
    if why.guess is KGuess.NO_LONGER_40:
        born = f"born {why.birth_year}" if why.birth_year else "no birth year"
        return (
            f"Why: the replay took K 40 ({born}, {why.rated_games} rated games "
            "counted); FIDE no longer did: the junior years are over or 30 games were "
            "reached earlier"
        )
    if why.guess is KGuess.OLDER_SCHEME:
        return "Why: an older edition's K scheme (25/15/10 or 30/15/10)"
    return "Why: the 700 rule or a K recorded on FIDE's side"


CAP_WORDS = {
    CapMode.EVERY_GAME: "FIDE capped |D| at 400 in every game",
    CapMode.ONCE: "FIDE capped |D| at 400 once per tournament (the 2022 rule: only the game "
    "with the largest difference)",
    CapMode.NO_CAP: "FIDE used the true rating differences, without the 400 cap",
    CapMode.CAP_350: "FIDE capped |D| at 350 (the rule before Jul 2009)",
}
"""How a cap mode of `CapDiffers` is said."""


def _rating(rating: int | None) -> str:
    return "unrated" if rating is None else str(rating)
