"""One period explained the way FIDE's individual calculation page shows it: as lines of
text (`tracker explain`); its rows per game (JSON and CSV) are tracker.reports.explaingames'."""

from __future__ import annotations

from collections.abc import Mapping, Sequence
from dataclasses import dataclass
from decimal import ROUND_HALF_UP, Decimal
from fractions import Fraction
from typing import assert_never

from tracker.advice import PlayerFact
from tracker.errors import NotFound
from tracker.fide import FirstRatingOut, edition_for
from tracker.fide.calendar import is_list_month
from tracker.fide.editions import FirstFormula
from tracker.fide.first import Ignored
from tracker.model import ListKind, Period, PlayerRef
from tracker.periods import (
    GameFact,
    NotCounted,
    PeriodRow,
    RatingSource,
    Replay,
    TournamentPlan,
)
from tracker.periods.assumed import list_assumed_games
from tracker.periods.notes import TagsDisagree, TournamentNote
from tracker.reports.figures import tournament_figures, tournament_out
from tracker.reports.history import assumption_text, k_by_tournament, not_counted_text
from tracker.reports.rulewords import (
    adjustment_text,
    engine_text,
    engine_words,
    ignored_text,
    k_text,
)
from tracker.reports.said import Said, command_line
from tracker.reports.text import (
    fmt_int,
    fmt_points,
    fmt_signed,
    plural,
    plural_points,
    render_table,
    unit_dates,
)
from tracker.reports.words import (
    LIST_ASSUMED_HOW,
    before_text,
    closing_texts,
    note_text,
    opponent_source_text,
    plan_ro_text,
    tag_anchor_text,
    tag_differs_text,
    why_text,
)


def _rc(plan: TournamentPlan, row: PeriodRow) -> int | None:
    tout = tournament_out(plan, row)
    if tout is None:
        return None
    rs = [g.opponent_rating for g in tout.games if g.counted and g.opponent_rating is not None]
    if not rs:
        return None
    return int((Decimal(sum(rs)) / len(rs)).to_integral_value(rounding=ROUND_HALF_UP))


@dataclass(frozen=True)
class ExplainSaid:
    """Lines of `tracker explain` said as they stand (the season page makes each a
    paragraph)."""

    lines: tuple[str, ...]


@dataclass(frozen=True)
class ExplainTournament:
    """A tournament of the period: its heading line, the lines said above its games (a note
    on its Elo tag, the games pooled toward a first rating), the table of its games, where its
    opponents' ratings came from, and the lines below (the cap, its sums, its own K)."""

    plan: TournamentPlan
    head: str
    above: tuple[str, ...]
    table: tuple[str, ...]
    sources: tuple[str, ...]
    below: tuple[str, ...]


@dataclass(frozen=True)
class ExplainNotCounted:
    """The games of the period that did not count: `title` ("Games not counted: 1
    (no-moves)"), the games (`items`) and their table."""

    title: str
    items: tuple[NotCounted, ...]
    table: tuple[str, ...]


ExplainSection = ExplainSaid | ExplainTournament | ExplainNotCounted
"""A part of `tracker explain`'s page; the text puts an empty line between two."""


def section_lines(section: ExplainSection) -> list[str]:
    """A section as `tracker explain` prints it."""
    if isinstance(section, ExplainSaid):
        return list(section.lines)
    if isinstance(section, ExplainTournament):
        s = section
        return [s.head, *s.above, *s.table, *s.sources, *s.below]
    if isinstance(section, ExplainNotCounted):
        return [f"{section.title}:", *section.table]
    assert_never(section)


def explain_lines(
    replay_: Replay, period: Period, player: PlayerRef, width: int | None = None
) -> list[str]:
    """The period the way FIDE's calculation page shows it, as lines of text: where the
    rating came from and K, each tournament, what was assumed and not counted, the period's
    sum, then the official rating, the Elo tag and the notes; its tables fitted to `width`
    columns (None: no limit, as JSON and the season report keep them)."""
    sections = explain_sections(replay_, period, player, width)
    lines = section_lines(sections[0])
    for section in sections[1:]:
        lines.append("")
        lines += section_lines(section)
    return lines


def explain_sections(
    replay_: Replay, period: Period, player: PlayerRef, width: int | None = None
) -> list[ExplainSection]:
    """`explain_lines` as its sections, in order (the season page draws each its own way)."""
    row = replay_.row(period)
    if row is None:
        return [ExplainSaid(tuple(_carried_over(replay_, period, player)))]
    lines = [
        f"{player.name}: {replay_.rating_list} list {row.period} "
        f"(list of {row.period.list_date:%d %b %Y})"
    ]
    if row.rating_before is None and row.out is None and row.first is None and row.anchored:
        return [ExplainSaid(tuple(lines + _start_lines(replay_, row)))]
    lines += _before_lines(replay_, row, player)
    sections: list[ExplainSection] = [ExplainSaid(tuple(lines))]
    for plan in row.tournaments:
        if not plan.counted:
            continue  # nothing of it counted (online, excluded...): under "Games not counted"
        sections.append(_explain_tournament(plan, row, replay_.list_kinds, width))
    sections += _assumed_sections(row, width)
    lines = _sum_lines(replay_, row)
    lines += _published_lines(row)
    lines += [
        f"Note: {note_text(note)}"
        for note in row.notes
        if isinstance(note, TournamentNote | TagsDisagree)
    ]
    lines += ["Note: " + note_text(note) for note in row.twice]
    lines += ["Assumed: " + assumption_text(a, player) for a in row.assumptions]
    sections.append(ExplainSaid(tuple(lines)))
    return sections


def _carried_over(replay_: Replay, period: Period, player: PlayerRef) -> list[str]:
    """A list month without a row: the rating carried over from the list before, or NotFound
    for a period the replay never reached."""
    rl = replay_.rating_list
    before = [r for r in replay_.rows if r.period < period]
    if before and period <= replay_.rows[-1].period and is_list_month(period, rl):
        last = before[-1]
        carried = "unrated" if last.published is None else str(last.published)
        return [
            f"{player.name}: {rl} list {period} (list of {period.list_date:%d %b %Y})",
            f"No game, official entry or adjustment on this list: the rating carries over "
            f"from the {last.period} list: {carried}.",
        ]
    periods = ", ".join(str(r.period) for r in replay_.rows[-12:]) or "none"
    raise NotFound(
        f"no {rl} rating period {period} for {player.name}: periods with games or "
        f"official entries are {periods}"
    )


def _start_lines(replay_: Replay, row: PeriodRow) -> list[str]:
    """The period the replay starts at (its official rating), and what is inside it."""
    lines = [f"Start of the replay: official rating {row.official_rating} on this list."]
    lines += [
        f"  (included in it: {u.label}, {unit_dates(u)}: no Elo tag of the player's "
        "to replay it from)"
        for u in replay_.before_start
    ]
    return lines


def _before_lines(replay_: Replay, row: PeriodRow, player: PlayerRef) -> list[str]:
    """The rating before the period, where it came from, and the K of the period."""
    lines: list[str] = []
    if row.before_official:
        first = next((r.period for r in replay_.rows if r.official_rating is not None), None)
        lines.append(
            f"Before the first official rating ({first}): from the games and the "
            "player's own Elo tags."
        )
    was = "unrated" if row.rating_before is None else str(row.rating_before)
    lines.append(f"Rating before: {was} ({before_text(row.rating_before_source)})")
    if row.out is not None:
        # (a count assumed: what it assumes, and the command that records the fact, are
        # said under "Assumed:" below)
        reason = k_text(
            row.out.k_reason,
            count_assumed=any(a.fact is PlayerFact.RATED_GAMES for a in row.assumptions),
        )
        lines.append(f"K {row.out.k}: {reason}" + _k_from_list(replay_, row, player))
        if row.out.k_by_tournament:
            lines.append(
                "  each tournament is rated with the K of the list in force at its "
                f"start: {k_by_tournament(row.out)} (below)"
            )
    return lines


def _assumed_sections(row: PeriodRow, width: int | None) -> list[ExplainSection]:
    """The games put on the list and the tournaments put in the period by assumption, and
    the games not counted."""
    sections: list[ExplainSection] = []
    assumed = list_assumed_games(row)
    if assumed:
        said = Said(
            f"List assumed: {plural(assumed, 'counted game')} without a time control, put on "
            "this list ",
            LIST_ASSUMED_HOW,
            ".",
        )
        sections.append(ExplainSaid((said,)))
    closing = closing_texts(row)
    if closing:
        sections.append(ExplainSaid(tuple("Period assumed: " + x for x in closing)))
    if row.not_counted:
        table = _not_counted_lines(row.not_counted, width)
        title = f"Games {not_counted_text(row)}"
        sections.append(ExplainNotCounted(title, tuple(row.not_counted), tuple(table)))
    return sections


def _sum_lines(replay_: Replay, row: PeriodRow) -> list[str]:
    """The period summed up: its change and the rating after, or the first rating; FIDE's
    count of games, the one-off adjustment and the rating the list shows."""
    lines: list[str] = []
    if row.out is not None:
        o = row.out
        product = "sum of each tournament's K x chg" if o.k_by_tournament else "K x sum"
        lines.append(
            f"Period: {plural(o.games, 'game')}, {plural_points(Fraction(o.points))}, expected "
            f"{o.expected}; {product} = {fmt_signed(o.change_exact)}, rounded once "
            f"(.5 away from zero) to {fmt_signed(o.change)}"
        )
        after = "unrated" if o.rating_after is None else str(o.rating_after)
        lines.append(
            f"Rating after: {row.rating_before} {o.change:+d} = "
            f"{after}" + (f" ({engine_text(o.reason)})" if o.reason else "")
        )
    if row.first is not None:
        f = row.first
        if f.rating is not None:
            lines.append(
                f"First rating: {f.rating} from {plural(f.games, 'game')}, "
                f"{plural_points(Fraction(f.points))}, average {_average(f.average)}"
                + _fictitious(row)
            )
        else:
            lines.append(f"No rating yet: {engine_words(f.reason)}")
        lines += ignored_lines(f, "  ")
    lines += _fide_count(replay_, row)
    if row.adjustment:
        lines.append(f"One-off adjustment: {adjustment_text(row.adjustment)}")
    if row.replayed is not None and row.out is not None and row.replayed != row.out.rating_after:
        lines.append(f"Replayed rating on the list: {row.replayed}")
    return lines


def _published_lines(row: PeriodRow) -> list[str]:
    """The official rating of the period, else the player's Elo tag for the list."""
    lines: list[str] = []
    if row.official is not None:
        if row.official_rating is None:
            lines.append(f"Official {row.period}: listed without a rating")
        else:
            diff = row.difference
            lines.append(
                f"Official {row.period}: {row.official_rating}"
                + ("" if diff is None else f" (difference {fmt_signed(diff) or '0'})")
                + ("; the next period starts from it" if row.anchored else "")
            )
    if row.elo_tag is not None:
        diff = row.tag_difference
        if diff == 0:
            lines.append(f"Elo tag for the {row.period} list: {row.elo_tag}, as replayed")
        else:
            fast_tag = tag_anchor_text(row)
            lines.append(
                f"Elo tag for the {row.period} list: {row.elo_tag}"
                + ("" if fast_tag is None else f" ({fast_tag})")
                + ("" if diff is None else f" (replayed minus tag {fmt_signed(diff)})")
                + "; no official entry for this list: the next period starts from it"
            )
    return lines


def _k_from_list(replay_: Replay, row: PeriodRow, player: PlayerRef) -> str:
    """Where a list fact behind K came from: the official K's list (and its file), the birth
    year read from a list when none was recorded."""
    earlier = [r.official for r in replay_.rows if r.period < row.period and r.official]
    said = ""
    if row.facts.official_k is not None:
        entry = next((e for e in reversed(earlier) if e.k == row.facts.official_k), None)
        if entry is not None:
            said += f" (printed on the {entry.period} list, {entry.source})"
    if player.birth_year is None and row.facts.birth_year is not None:
        entry = next((e for e in earlier if e.birth_year == row.facts.birth_year), None)
        if entry is not None:
            said += f" (birth year {entry.birth_year} from the {entry.period} list, {entry.source})"
    return said


def ignored_lines(first: FirstRatingOut, indent: str, what: str = "ignored") -> list[str]:
    """One line per tournament left out of a first rating, with its own reason (outside the
    26-month window, after the list date, a zero score in the first event)."""
    reasons: tuple[Ignored | None, ...] = first.ignored_reasons
    if len(reasons) != len(first.ignored):
        reasons = (None,) * len(first.ignored)
    return [
        f"{indent}{what}: {label}" + (f" ({ignored_text(why)})" if why else "")
        for label, why in zip(first.ignored, reasons, strict=True)
    ]


def rating_from(fact: GameFact, kinds: Mapping[Period, ListKind] | None = None) -> str:
    """Where a game's opponent rating came from, short: "list" (FIDE's whole list in
    force) or "excerpt" (an excerpt of it), with the month of the list before it where the
    excerpt in force lacked the opponent ("list 2022-02"), and the Elo tag when it says
    otherwise; or "tag" (the organiser's Elo tag), "tag (not on the excerpt)" where the
    excerpt in force lacked the opponent."""
    if fact.opponent_rating_source is RatingSource.ELO_TAG:
        return "tag" if fact.not_on_excerpt is None else "tag (not on the excerpt)"
    used = fact.opponent_list
    word = "excerpt" if used is not None and (kinds or {}).get(used) is ListKind.EXCERPT else "list"
    if used is not None and fact.not_on_excerpt is not None:
        word += f" {used}"
    tag = fact.opponent_elo_tag
    if tag is None or tag.strip() == str(fact.opponent_elo):
        return word
    return f"{word} (tag {tag})"


def kind_text(kind: ListKind) -> str:
    """A list's kind, as explain and check say it after the file's name."""
    return "an excerpt" if kind is ListKind.EXCERPT else "FIDE's whole list"


def _lists_lines(
    plan: TournamentPlan, kinds: Mapping[Period, ListKind], indent: str = "    "
) -> list[str]:
    """Under a tournament's games: the list files its opponents' ratings came from (each
    with its kind), and the opponents the excerpt in force lacked, with what rated them."""
    used: dict[str, Period | None] = {}
    lacked: dict[Period, list[GameFact]] = {}
    rl = plan.unit.rating_list
    for fact in plan.counted:
        if fact.opponent_rating_source is not RatingSource.ELO_TAG:
            used.setdefault(opponent_source_text(fact, rl), fact.opponent_list)
        if fact.not_on_excerpt is not None:
            lacked.setdefault(fact.not_on_excerpt, []).append(fact)
    lines = []
    for source, period in sorted(used.items()):
        said = "" if period is None or period not in kinds else f", {kind_text(kinds[period])}"
        lines.append(f"{indent}opponents' ratings from the {source}{said}")
    for force, facts in sorted(lacked.items()):
        ways: dict[Period | None, int] = {}
        untagged = 0  # (no list before it rated them, nor a tag: not counted)
        for f in facts:
            if f.opponent_list is None and f.opponent_elo is None:
                untagged += 1
                continue
            ways[f.opponent_list] = ways.get(f.opponent_list, 0) + 1
        how = ", ".join(
            [
                f"{n} by the {used} list"
                if used is not None
                else f"{n} by {'the Elo tag' if n == 1 else 'their Elo tags'}"
                for used, n in ways.items()
            ]
            + ([f"{untagged} without a rating (no Elo tag): not counted"] if untagged else [])
        )
        lines.append(
            f"{indent}not on the {rl} {force} list (an excerpt: it says nothing of the players "
            f"it lacks): {plural(len(facts), 'game')} rated as before it, {how}"
        )
    return lines


def _fide_count(replay_: Replay, row: PeriodRow) -> list[str]:
    """FIDE's count of the player's rated games on this list (the list file's Gms or
    <games>, or `official add --games`), and the replay's when it differs."""
    entry = row.official
    if entry is None or entry.games is None:
        return []
    kind = replay_.list_kinds.get(row.period)
    where = (
        "recorded by hand"
        if entry.source == "manual"
        else entry.source
        if kind is None
        else f"{entry.source}, {kind_text(kind)}"
    )
    line = f"FIDE's count: {plural(entry.games, 'game')} rated on the {row.period} list ({where})"
    if entry.games != row.games:
        return [
            Said(
                f"{line}; the replay counts {row.games}: ",
                command_line("check").quoted(),
                " says what is " + ("missing" if entry.games > row.games else "extra"),
            )
        ]
    return [line]


def _explain_tournament(
    plan: TournamentPlan, row: PeriodRow, kinds: Mapping[Period, ListKind], width: int | None
) -> ExplainTournament:
    u = plan.unit
    tout = tournament_out(plan, row)
    ro = "unrated" if plan.ro is None else str(plan.ro)
    pinned = f", pinned to {u.period}" if u.pinned else ""
    head = f"{u.label} ({unit_dates(u)}{pinned}): Ro {ro} ({plan_ro_text(plan)})"
    rc = _rc(plan, row)
    if rc is not None:
        head += f", Rc {rc}"
    above = [f"  note: {tag_differs_text(plan.note)}"] if plan.note else []
    if tout is None:
        table: list[str] = []
        if plan.counted:
            above.append(f"  {plural(len(plan.counted), 'game')} pooled toward a first rating")
            rows = [
                [g.opponent, fmt_int(g.opponent_elo), fmt_points(g.score)] for g in plan.counted
            ]
            table = render_table(
                ["Opponent", "Rating", "Score"], rows, (1, 2), indent="    ", width=width
            )
        return ExplainTournament(plan, head, tuple(above), tuple(table), (), ())
    rows = []
    for g, fact in zip(tout.games, plan.counted, strict=False):
        used = "" if g.difference_used is None else str(g.difference_used)
        rating = fmt_int(g.opponent_rating) + ("*" if g.capped else "")
        listed = fact.opponent_rating_source is not RatingSource.ELO_TAG
        rows.append(
            [
                g.label or fact.opponent,
                rating,
                rating_from(fact, kinds),
                used,
                "" if g.expected is None else str(g.expected),
                fmt_points(Fraction(g.score)),
                "" if g.change is None else fmt_signed(g.change),
                "" if g.k_change is None else fmt_signed(g.k_change),
                ""
                if g.counted
                else (
                    "unrated on the list"
                    if listed and g.opponent_rating is None
                    else g.reason or "not counted"
                ),
            ]
        )
    headers = ["Opponent", "Rating", "From", "D", "PD", "Score", "Chg", "K x chg", "Not counted"]
    if not any(r[-1] for r in rows):  # every game counted: no column for why one did not
        headers, rows = headers[:-1], [r[:-1] for r in rows]
    table = render_table(headers, rows, (1, 3, 4, 5, 6, 7), indent="    ", width=width)
    sources = _lists_lines(plan, kinds)
    below: list[str] = []
    if any(g.capped for g in tout.games):
        below.append("    * the difference is capped (the rating difference used is shown in D)")
    fig = tournament_figures(plan, row)
    rp = "" if fig.performance is None else f", performance {fig.performance}"
    below.append(
        f"  {plural(tout.games_counted, 'game')}, {plural_points(Fraction(tout.points))}, expected "
        f"{tout.expected}, chg {fmt_signed(tout.change) or '0'}, "
        f"K x chg {fmt_signed(tout.k_change) or '0'} (rounded {fmt_signed(fig.change) or '0'})"
        f"{rp}"
    )
    assert row.out is not None
    if tout.k != row.out.k:
        assert tout.k_reason is not None  # (a K of its own: why)
        below.append(f"  K {tout.k} for this tournament: {k_text(tout.k_reason)}")
    return ExplainTournament(plan, head, tuple(above), tuple(table), tuple(sources), tuple(below))


def _not_counted_lines(items: Sequence[NotCounted], width: int | None) -> list[str]:
    rows = [
        [
            n.tournament,
            n.game.date.isoformat() if n.game.date else "?",
            n.game.opponent,
            n.game.result,
            why_text(n),
        ]
        for n in items
    ]
    return render_table(
        ["Tournament", "Date", "Opponent", "Result", "Why"], rows, indent="  ", width=width
    )


def _average(average: Decimal | None) -> str:
    """The opponents' average (Ra) as a person reads it: exact when it has two decimals or
    fewer, else to two decimals (the engine keeps it exact: 12407/7, not 1772.43)."""
    if average is None:
        return "-"
    shown = average.quantize(Decimal("0.01"), rounding=ROUND_HALF_UP)
    if shown != average:
        return f"{shown} (rounded)"
    return f"{average:f}".rstrip("0").rstrip(".") if "." in f"{average:f}" else f"{average:f}"


def _fictitious(row: PeriodRow) -> str:
    """Under the editions of the fictitious draws (Mar 2024 on), what Ra and the score p
    count beside the games (draws against 1800 opponents), so that the figures can be redone
    by hand: "with 2 draws against 1800: p = 3.5/7"."""
    edition = edition_for(row.rating_list, row.period.list_date)
    first = row.first
    if edition.first_formula is not FirstFormula.FICTITIOUS_DRAWS or first is None:
        return ""
    m = edition.first_fictitious_games
    rating = edition.first_fictitious_rating
    points = fmt_points(Fraction(first.points) + Fraction(m, 2))
    return (
        f" (the average and the score count {m} fictitious draws against {rating}: "
        f"p = {points}/{first.games + m})"
    )
