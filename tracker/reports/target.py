"""`tracker target` as the user reads it: the period the new tournament joins (its rating
before, the games already in it, K and what K rests on), the new tournament, the answer,
and the table of every score (the period's change signed), as lines, CSV rows and JSON."""

from __future__ import annotations

from fractions import Fraction

from tracker.advice import PlayerFact
from tracker.app.target import TargetOut
from tracker.fide.editions import JuniorRule
from tracker.fide.k import KBasis
from tracker.periods import Assumption
from tracker.periods.policies import GAMES_COMPLETED_WHEN_UNKNOWN
from tracker.reports.rulewords import k_text
from tracker.reports.said import command_line
from tracker.reports.text import fmt_signed, months_text, plural
from tracker.reports.words import (
    LIST_ASSUMED_HOW,
    assumed_text,
    assumption_command,
    assumption_text,
)

CSV_COLUMNS = ("points", "games", "change_exact", "rating_after", "needed")


def points_text(x: Fraction) -> str:
    """Half points as written: 0, 0.5, 1, 1.5..."""
    whole, half = divmod(x * 2, 2)
    return f"{int(whole)}{'.5' if half else ''}"


def _pts(x: Fraction | None) -> str | None:
    return None if x is None else points_text(x)


def _r(rating: int | None) -> str:
    return "unrated (below the floor)" if rating is None else str(rating)


def summary_text(t: TargetOut) -> str:
    """One or two sentences saying the answer."""
    n = t.games
    if t.points_needed is None:
        return (
            f"{t.target} is out of reach on the {t.period} {t.rating_list} list: "
            f"even {points_text(Fraction(n))}/{n} gives {_r(t.max_rating)}."
        )
    if t.points_needed == 0:
        return (
            f"{t.target} is reached on the {t.period} {t.rating_list} list "
            f"whatever the score: even 0/{n} gives {_r(t.min_rating)}."
        )
    return (
        f"You need {points_text(t.points_needed)}/{n} to reach {t.target} on the "
        f"{t.period} {t.rating_list} list (that score gives "
        f"{_r(t.rating_needed)}; {points_text(Fraction(n))}/{n} would give "
        f"{_r(t.max_rating)})."
    )


def gap_text(t: TargetOut, who: str = "ID") -> str | None:
    """What the answer rests on when the last data is GAP_MONTHS or more before the target
    list (`who`: how a command names the player), else None."""
    months = t.data_gap
    if months is None:
        return None
    what = (
        f"the last games are on the {t.last_games} list"
        if t.last_games is not None and t.last_games == t.last_data
        else f"the last official rating is of the {t.last_official} list"
    )
    span = months_text(months)
    before = "unrated" if t.rating_before is None else str(t.rating_before)
    how = (
        "carried over from then"
        if t.rating_at_last_data == t.rating_before
        else f"the {t.rating_at_last_data} of then with FIDE's one-off adjustments since"
    )
    record = command_line(
        "official", "add", who, "--list", t.rating_list, "--period", "YYYY-MM", "--rating", "R"
    )
    return (
        f"{what}, {span} before the {t.period} list: the rating before ({before}) "
        f"is {how}, assumed (no games since, no later official rating); record the "
        f"latest official rating with {record.quoted()} and import the games since"
    )


def target_json(t: TargetOut, name: str, who: str = "ID") -> dict[str, object]:
    """`target --format json`."""
    return {
        "player": name,
        "list": str(t.rating_list),
        "period": str(t.period),
        "target": t.target,
        "rating_before": t.rating_before,
        "games_already": t.games_already,
        "games": t.games,
        "opponents": list(t.opponents),
        "expected": None if t.rating_before is None else str(t.expected),
        "k": t.k,
        "k_reason": k_reason_text(t),
        "k_given": t.k_base if t.k_given else None,
        "reachable": t.reachable,
        "points_needed": _pts(t.points_needed),
        "rating_needed": t.rating_needed,
        "min_rating": t.min_rating,
        "max_rating": t.max_rating,
        "summary": summary_text(t),
        # what the answer rests on that nobody recorded (as `history --format json` says it)
        "assumptions": [
            {
                "fact": str(a.fact),
                "assumed": assumed_text(a),
                "command": assumption_command(a, who),
            }
            for a in t.assumptions
        ],
        "list_assumed_games": t.list_assumed_games,
        "last_games": None if t.last_games is None else str(t.last_games),
        "last_official": None if t.last_official is None else str(t.last_official),
        "last_data": None if t.last_data is None else str(t.last_data),
        "months_since_data": t.months_since_data,
        "gap": gap_text(t, who),
        "steps": [
            {
                "points": _pts(s.points),
                "change_exact": None if s.change_exact is None else str(s.change_exact),
                "rating_after": s.rating_after,
            }
            for s in t.steps
        ],
    }


def target_csv_rows(t: TargetOut) -> list[dict[str, object]]:
    """`target --format csv`: a row per score, the table's rows (CSV_COLUMNS)."""
    return [
        {
            "points": _pts(s.points),
            "games": t.games,
            "change_exact": None if s.change_exact is None else str(s.change_exact),
            "rating_after": s.rating_after,
            "needed": "yes" if s.points == t.points_needed else "no",
        }
        for s in t.steps
    ]


def _cut_text(t: TargetOut) -> str:
    """The 700 rule's cut of K, when it cut ("" otherwise)."""
    if t.k is None or t.k_base is None or t.k == t.k_base:
        return ""
    return f"; 700 rule: {t.k_games} games x {t.k_base} > 700 -> {t.k}"


def k_reason_text(t: TargetOut) -> str:
    """Why K is what it is, as the engine said it ("first rating": no K)."""
    return "first rating" if t.k_reason is None else k_text(t.k_reason)


def k_given_text(t: TargetOut) -> str:
    """K given by `--k`: a what-if."""
    return f"what if: K {t.k_base} given with --k" + _cut_text(t)


def k_why_text(t: TargetOut, games: Assumption | None, who: str = "ID") -> str:
    """Why K is what it is, in one statement: the rule of spec section 3 (the games
    completed said once, with the part of them assumed and the command that records the
    count: `games`), when a junior's K ends, and the 700 rule's cut."""
    why = t.k_why
    assert why is not None
    if why.basis is KBasis.FLAT:
        said = f"K {t.k_base} for everyone on the {t.rating_list} list"
    elif why.basis is KBasis.TOP:
        said = "2400 reached"
    elif why.basis is KBasis.JUNIOR:
        until = (
            f"until the 18th birthday (through {why.junior_until}, the birth year alone known)"
            if why.junior is JuniorRule.BEFORE_18TH_BIRTHDAY
            else f"until the end of {why.junior_until}"
        )
        said = f"junior, born {why.birth_year}, under 2300: K {t.k_base} {until}"
    else:
        n, assumed = why.rated_games, GAMES_COMPLETED_WHEN_UNKNOWN
        said = f"{plural(n, 'rated game')} completed"
        if games is not None:
            record = assumption_command(games, who).quoted()
            said += (
                f", assumed (the count before the replay's start is unknown: {record} records it)"
                if n <= assumed
                else f": {n - assumed} since the replay's start and {assumed} assumed before "
                f"it ({record} records the real count)"
            )
        said += ", under 2400" if why.basis is KBasis.ESTABLISHED else ""
        if why.basis is KBasis.NEW_PLAYER:
            said = f"a new player: {said}"
    return said + _cut_text(t)


def target_lines(t: TargetOut, name: str, who: str = "ID") -> list[str]:
    """The lines above the table: the period, K, what was assumed, the new tournament and
    the answer."""
    before = "unrated" if t.rating_before is None else str(t.rating_before)
    counted = [a for a in t.assumptions if a.fact is PlayerFact.RATED_GAMES]
    said = (
        k_given_text(t)
        if t.k_given
        else k_reason_text(t)
        if t.k_why is None
        else k_why_text(t, next(iter(counted), None), who)
    )
    rest = [a for a in t.assumptions if t.k_why is None or a.fact is not PlayerFact.RATED_GAMES]
    k = "-" if t.k is None else str(t.k)
    k_said = f"K {k} ({said}" + ("; assumed, below)." if rest else ").")
    lines = [
        f"{name}, {t.rating_list} list {t.period}: rating before the period {before}; "
        f"{t.games_already} game{'s' if t.games_already != 1 else ''} already in the "
        f"period; {k_said}"
    ]
    lines += [f"  {assumption_text(a, who)}" for a in rest]
    if t.list_assumed_games:
        n = t.list_assumed_games
        lines.append(
            f"  {n} of the games already in the period {'has' if n == 1 else 'have'} no time "
            f"control: put on this list {LIST_ASSUMED_HOW}"
        )
    gap = gap_text(t, who)
    if gap is not None:
        lines.append(f"  Assumed: {gap}.")
    opps = set(t.opponents)
    games = f"{t.games} game{'' if t.games == 1 else 's'}"
    against = (
        f"{games} against {t.opponents[0]}"
        if len(opps) == 1
        else f"{games} against {', '.join(str(r) for r in t.opponents)}"
    )
    first = t.rating_before is None
    lines.append(
        f"New tournament: {against} "
        + (
            "(a first rating: the games are pooled with those already played)."
            if first
            else f"(expected score {t.expected})."
        )
    )
    lines.append(summary_text(t))
    return lines


def target_table(t: TargetOut) -> tuple[list[str], list[list[str]], set[int]]:
    """The table of every score: headers, cells and the right-aligned columns. The period's
    change is signed (+4.10, -0.90), as every change the tracker prints."""
    first = t.rating_before is None
    cells = [
        [
            f"{_pts(s.points)}/{t.games}",
            *([] if first else [fmt_signed(s.change_exact)]),
            "unrated" if s.rating_after is None else str(s.rating_after),
            "<- needed" if s.points == t.points_needed else "",
        ]
        for s in t.steps
    ]
    headers = ["score", *([] if first else ["period change (exact)"]), "rating", "target"]
    return headers, cells, set(range(len(headers) - 1))


OUT_OF_REACH = "The target is out of reach in this tournament."
