"""The words of the typed values the layers below hand out: advice as the command of today's
command line (tracker.advice), why a game did not count (`NotCountedWhy` with its detail),
the facts K assumed, the tournaments the closing-date rule moved. The one place that spells
them: renaming a flag or rewording a reason touches this module, not the replay."""

from __future__ import annotations

from collections.abc import Iterable

from tracker.advice import (
    AddOfficial,
    Advice,
    ExcludeTournament,
    ExcludeYear,
    PinPeriod,
    PinYear,
    PlayerFact,
    SetPlayerFact,
    SetRo,
    SetTournamentList,
)
from tracker.errors import TrackerError
from tracker.fide.calendar import replay_from
from tracker.fide.eventnames import NAME_REASONS
from tracker.model import LAST_PERIOD, NotRated, Period, RatingList
from tracker.periods import (
    Assumption,
    GameFact,
    NotCounted,
    PeriodRow,
    RatingFrom,
    RatingSource,
    TournamentPlan,
)
from tracker.periods.assumed import ClosingDate, LeftOut, closing_dates, left_out
from tracker.periods.notes import (
    EngineSays,
    FirstNotCompressed,
    FirstRated,
    IncludesEarlier,
    Note,
    PlayoffsClassical,
    ReanchoredOnOfficial,
    ReanchoredOnTag,
    StartsAtOfficial,
    StartsFromStandard,
    StoredTwice,
    TagDiffers,
    TagsAside,
    TagsDisagree,
    TournamentNote,
    WaitsForList,
)
from tracker.periods.policies import (
    GAMES_A_DAY_FAST_EVENT,
    GAMES_A_DAY_NOT_STANDARD,
    GAMES_COMPLETED_WHEN_UNKNOWN,
    STANDARD_TAG_WINDOW_MONTHS,
)
from tracker.periods.reasons import (
    NotCountedDetail,
    NotCountedWhy,
    ScheduleSays,
    StandardTag,
    Unplaced,
)
from tracker.reports.rulewords import engine_text
from tracker.reports.said import Command, Said, command_line, joined
from tracker.unresolved import (
    MayBeOne,
    NoneTracked,
    NotAName,
    PlayerNotFound,
    PlayerUnclear,
    SeveralMatch,
    TooLong,
    Unresolved,
)

# --- advice --------------------------------------------------------------------------------

_FACT_OPTIONS = {
    PlayerFact.RATED_GAMES: "--rated-games N",
    PlayerFact.BIRTH_YEAR: "--birth-year YYYY",
    PlayerFact.EVER_2400: "--ever-2400",
}


def command(advice: Advice, who: str = "ID") -> Command:
    """The command that does what `advice` says; `who` names the player (a FIDE ID, a
    quoted name, or a placeholder such as ID or PLAYER)."""
    if isinstance(advice, SetPlayerFact):
        return command_line("player", "set", who, _FACT_OPTIONS[advice.fact])
    if isinstance(advice, AddOfficial):
        on = "" if advice.rating_list is None else f"--list {advice.rating_list}"
        period = "YYYY-MM" if advice.period is None else str(advice.period)
        k = "--k K" if advice.with_k else ""
        return command_line("official", "add", who, on, "--period", period, "--rating R", k)
    if isinstance(advice, PinYear):
        period = "YYYY-MM" if advice.period is None else str(advice.period)
        return command_line("event", "set", "--year", advice.year, "--period", period)
    if isinstance(advice, ExcludeYear):
        return command_line("event", "set", "--year", advice.year, "--exclude")
    tournament = "ID" if advice.tournament_id is None else str(advice.tournament_id)
    if isinstance(advice, PinPeriod):
        period = "YYYY-MM" if advice.period is None else str(advice.period)
        return command_line("event", "set", tournament, "--period", period)
    if isinstance(advice, SetTournamentList):
        lists = "|".join(str(rl) for rl in advice.lists) or "LIST"
        return command_line("event", "set", tournament, "--list", lists)
    if isinstance(advice, ExcludeTournament):
        return command_line("event", "set", tournament, "--exclude")
    assert isinstance(advice, SetRo)
    ro = "R" if advice.ro is None else advice.ro
    return command_line("event", "set", tournament, "--ro", ro)


def commands(advice: Iterable[Advice], who: str = "ID") -> str | None:
    """The commands of several pieces of advice, "; " between them (None: no advice)."""
    return joined("; ", [command(a, who) for a in advice]) or None


LIST_ASSUMED_HOW = Said(
    "by assumption (the event's name, else standard); ",
    command(SetTournamentList()).quoted(),
    " corrects a tournament",
)
"""How games without a time control came to their list, and the command that corrects it:
every output that counts such games ends its sentence with it."""

# --- the facts K assumed ---------------------------------------------------------------------

_ASSUMED = {
    PlayerFact.RATED_GAMES: f"{GAMES_COMPLETED_WHEN_UNKNOWN}+ rated games completed",
    PlayerFact.BIRTH_YEAR: "not a junior (birth year unknown)",
    PlayerFact.EVER_2400: "never rated 2400+ on this list",
}


def assumed_text(a: Assumption) -> str:
    """What the replay took for the fact nobody recorded ("30+ rated games completed")."""
    if a.first_rating is not None:
        return (
            f"the {a.first_rating} rating was a first rating (no Elo tag of yours in the "
            "games before it): fewer than 30 rated games, counted from its games"
        )
    return _ASSUMED[a.fact]


def assumption_command(a: Assumption, who: str = "ID") -> Command:
    """The command that records the assumed fact, the player named as `who`."""
    return command(a.advice, who)


def assumption_text(a: Assumption, who: str = "ID") -> Said:
    """ "K assumes X (COMMAND)": the fact assumed and the command that records it."""
    return Said(f"K assumes {assumed_text(a)} (", assumption_command(a, who), ")")


# --- games not counted -----------------------------------------------------------------------

BY_THE_NAME = NAME_REASONS - {NotRated.VARIANT.value}
"""The not-rated reasons only a name gives (a variant comes from the Variant tag too)."""

_FAST = (RatingList.RAPID, RatingList.BLITZ)


def _too_early(rating_list: RatingList) -> tuple[str, str]:
    if rating_list == RatingList.STANDARD:
        return "before 2008", "FIDE rated by tournament averages, not replayed"
    return f"before {replay_from(rating_list).isoformat()}", f"no {rating_list} ratings yet"


def reason_text(
    why: NotCountedWhy, detail: NotCountedDetail = None, *, any_id: bool = False
) -> Said:
    """Why a game did not count, in full, with the command that settles it where there is
    one (`any_id`: the tournament named ID in it, to group the tournaments of one reason)."""
    if why is NotCountedWhy.EXCLUDED:
        return Said("excluded (", command_line("event", "set", "--exclude"), ")")
    if why is NotCountedWhy.NOT_RATED:
        return Said(str(detail or "not rated"))
    if why is NotCountedWhy.BY_THE_ENGINE:
        return Said(str(detail or "not counted"))
    if why is NotCountedWhy.UNFINISHED:
        return Said(NotRated.UNFINISHED.value)
    if why is NotCountedWhy.INSIDE_OFFICIAL:
        return Said("rated on or before the official list the replay starts from")
    if why is NotCountedWhy.NO_PERIOD:
        return Said("no rating period for it")
    if isinstance(detail, ScheduleSays):
        fast = command(SetTournamentList(None if any_id else detail.tournament_id, _FAST))
        label = reason_label(why, detail)
        if why is NotCountedWhy.MATCH_GAMES_A_DAY:
            return Said(
                f"{label}: a rapid or blitz match or a tie-break, not standard (", fast, ")"
            )
        if why is NotCountedWhy.FAST_EVENT:
            return Said(f"{label}: a rapid or blitz event, not standard (", fast, ")")
        return Said(f"{label}: not standard (rapid or blitz? ", fast, ")")
    if isinstance(detail, StandardTag):
        add = command(AddOfficial(detail.rating_list))
        return Said(
            f"{reason_label(why, detail)}: the Elo tag {detail.tag} in {detail.tournament} is "
            "taken as the player's standard rating (",
            add,
            ")",
        )
    assert isinstance(detail, Unplaced), (why, detail)
    if why is NotCountedWhy.TOO_EARLY:
        return Said(": ".join(_too_early(detail.rating_list)))
    if why is NotCountedWhy.ONLY_YEAR and detail.year is not None:
        return Said(f"{only_year(detail.year)}: ", year_commands(detail.year))
    pin = command(PinPeriod(None if any_id else detail.tournament_id)).quoted()
    if why is NotCountedWhy.NO_DATE:
        return Said("no date: pin it with ", pin)
    return Said(
        f"{reason_label(why, detail)}: no list after {LAST_PERIOD} is replayed (a wrong date "
        "in the PGN?): pin it with ",
        pin,
    )


def only_year(year: int) -> str:
    """What a tournament dated only by a year of the replayed span is (`2011.??.??`)."""
    return f"dated only by year ({year})"


def year_commands(year: int) -> Said:
    """The two commands that settle every tournament dated only by `year` at once."""
    return Said(
        command(PinYear(year)).quoted(),
        " pins them all, ",
        command(ExcludeYear(year)).quoted(),
        " sets them all aside",
    )


NAMES_SHOWN = 3  # the tournaments named where a line sums up a group of them


def some_names(names: list[str]) -> str:
    """The first NAMES_SHOWN names, and how many more."""
    shown = ", ".join(names[:NAMES_SHOWN])
    more = len(names) - NAMES_SHOWN
    return f"{shown} and {more} more" if more > 0 else shown


def reason_label(why: NotCountedWhy, detail: NotCountedDetail = None) -> str:
    """Why a game did not count as one short label, as `tracker history` counts them:
    "tie-break (by the name)" for a reason only a name gives, else the reason without its
    detail and advice ("excluded", "no date", "4+ games on one day without a time
    control")."""
    if why is NotCountedWhy.NOT_RATED and detail in BY_THE_NAME:
        return f"{detail} (by the name)"
    if why is NotCountedWhy.EXCLUDED:
        return "excluded"
    if isinstance(detail, ScheduleSays):
        if why is NotCountedWhy.MATCH_GAMES_A_DAY:
            return (
                f"{detail.games} games on one day against the same opponent in round "
                f"{detail.round} without a time control"
            )
        if why is NotCountedWhy.FAST_EVENT:
            return (
                f"{GAMES_A_DAY_FAST_EVENT}+ games a day on {detail.days} days without a time "
                "control"
            )
        return f"{GAMES_A_DAY_NOT_STANDARD}+ games on one day without a time control"
    if isinstance(detail, StandardTag):
        return f"no {detail.rating_list} rating to start from"
    if isinstance(detail, Unplaced):
        if why is NotCountedWhy.TOO_EARLY:
            return _too_early(detail.rating_list)[0]
        if why is NotCountedWhy.TOO_LATE:
            if detail.end is None and detail.year is not None:
                return f"played in {detail.year}"
            end = "?" if detail.end is None else detail.end.isoformat()
            return f"played until {end}"
        if why is NotCountedWhy.ONLY_YEAR and detail.year is not None:
            return only_year(detail.year)
        return "no date"
    return reason_text(why, detail)


def why_text(n: NotCounted) -> Said:
    """Why the game `n` did not count, in full (`reason_text`)."""
    return reason_text(n.why, n.detail)


def label_counts(skipped: Iterable[NotCounted]) -> dict[str, int]:
    """Games not counted by label (`reason_label`)."""
    counts: dict[str, int] = {}
    for n in skipped:
        label = reason_label(n.why, n.detail)
        counts[label] = counts.get(label, 0) + 1
    return counts


def most_first(counts: dict[str, int]) -> tuple[tuple[str, int], ...]:
    """(label, games), the most games first (then by label)."""
    return tuple(sorted(counts.items(), key=lambda kv: (-kv[1], kv[0])))


def left_out_counts(items: Iterable[LeftOut]) -> tuple[tuple[str, int], ...]:
    """A period's games not counted (`tracker.periods.assumed.left_out`), (label, games),
    most first; the engine's count of games against an unrated opponent stands for that
    label."""
    counts: dict[str, int] = {}
    for item in items:
        label = reason_label(item.why, item.detail)
        engine = item.why is NotCountedWhy.BY_THE_ENGINE
        counts[label] = item.games if engine else counts.get(label, 0) + item.games
    return most_first(counts)


def not_counted_counts(row: PeriodRow) -> tuple[tuple[str, int], ...]:
    """The period's games not counted, (label, games), most first: those the replay left
    out and those the engine did (an opponent without a rating), as `history` counts
    them."""
    return left_out_counts(left_out(row))


# --- where ratings came from ------------------------------------------------------------

PUBLISHED_WORDS = {
    RatingSource.OFFICIAL: "official",
    RatingSource.ELO_TAG: "Elo tag",
    RatingSource.REPLAYED: "replayed",
    RatingSource.FIRST_RATING: "first rating",
    RatingSource.UNRATED: "unrated",
}
"""Where a list's published rating came from (`PeriodRow.source`), as the history's
`source` column says it."""


def published_word(source: RatingSource) -> str:
    return PUBLISHED_WORDS[source]


def start_text(f: RatingFrom) -> str:
    """Where the replay starts: "official 2025-09", "Elo tag 1850", "unrated", "waiting",
    "no games"."""
    if f.source is RatingSource.OFFICIAL:
        return f"official {f.period}"
    if f.source is RatingSource.ELO_TAG:
        return f"Elo tag {f.rating}"
    if f.source is RatingSource.NO_GAMES:
        return "no games"
    return str(f.source)


def before_text(f: RatingFrom) -> str:
    """Where the rating a period starts from came from: "official 2025-09 list", "Elo tag
    in Brno Open", "Elo tag of Brno Open, for the 2025-11 list", "replayed 2025-10 list(, as
    the Elo tag)", "standard rating", "unrated"."""
    if f.source is RatingSource.OFFICIAL:
        return "official" if f.period is None else f"official {f.period} list"
    if f.source is RatingSource.ELO_TAG:
        if f.period is not None:
            of = f" of {', '.join(f.tournaments)}," if f.tournaments else ""
            return f"Elo tag{of} for the {f.period} list"
        return f"Elo tag in {', '.join(f.tournaments)}"
    if f.source is RatingSource.REPLAYED:
        return f"replayed {f.period} list" + (", as the Elo tag" if f.as_tag else "")
    if f.source is RatingSource.STANDARD:
        return "standard rating"
    return str(f.source)


def ro_text(source: RatingSource, period: Period | None) -> str:
    """Where a tournament's Ro came from: "--ro override", "official 2025-09 list", "Elo
    tag", "replayed 2025-10 list", "standard 2025-10 list", "rating before the period",
    "unrated"."""
    if source is RatingSource.OVERRIDE:
        return "--ro override"
    if source is RatingSource.ELO_TAG:
        return "Elo tag"
    if source is RatingSource.RATING_BEFORE:
        return "rating before the period"
    if source in (RatingSource.OFFICIAL, RatingSource.REPLAYED, RatingSource.STANDARD):
        return f"{source} {period} list"
    return str(source)


def plan_ro_text(plan: TournamentPlan) -> str:
    """Where the tournament's Ro came from (`ro_text`)."""
    return ro_text(plan.ro_source, plan.ro_list)


def opponent_source_text(g: GameFact, rating_list: RatingList) -> str:
    """Where a game's opponent rating came from, as the exports say it: "tag" (the Elo tag),
    or the list and its file ("standard 2025-09 list (standard_sep25frl.zip)")."""
    if g.opponent_rating_source is RatingSource.ELO_TAG:
        return "tag"
    return f"{rating_list} {g.opponent_list} list ({g.opponent_list_file})"


# --- a period's notes -----------------------------------------------------------------------


def tag_differs_text(n: TagDiffers) -> str:
    return f"Elo tag {n.tag} differs from the official {n.period} rating {n.official}"


def twice_text(n: StoredTwice) -> Said:
    a, b = n.first, n.second
    where = (
        f"'{a.tournament}' (event {a.tournament_id}) and '{b.tournament}' (event {b.tournament_id})"
        if a.tournament_id != b.tournament_id
        else f"'{b.tournament}' (event {b.tournament_id}), rounds {a.round} and {b.round}"
    )
    return Said(
        f"maybe one game stored twice: {n.date.isoformat()} against {n.opponent} "
        f"({'white' if n.white else 'black'}, {n.result}) in {where}: both count (",
        command(ExcludeTournament()).quoted(),
        " leaves a tournament out)",
    )


def tag_anchor_text(row: PeriodRow) -> str | None:
    """A rapid or blitz list whose published rating is the player's own Elo tag, with the
    tag and the event that printed it: "re-anchored on the Elo tag 2738 of GCT Blitz 2017
    (replayed 2772)", or "starts from the Elo tag 2747 of World Rapid 2016" where the
    replay had no rating of the list before it; None for any other row, and on the standard
    list (whose tags are its own ratings: its rows say "re-anchored on the Elo tag 2733")."""
    if row.rating_list is RatingList.STANDARD or row.source is not RatingSource.ELO_TAG:
        return None
    n = next((n for n in row.notes if isinstance(n, ReanchoredOnTag)), None)
    if n is None:
        return None
    of = ", ".join(n.tournaments)
    if n.replayed is None:
        return f"starts from the Elo tag {n.tag} of {of}"
    return f"re-anchored on the Elo tag {n.tag} of {of} (replayed {n.replayed})"


def note_text(n: Note) -> str:
    """A period's note (tracker.periods.notes) in words."""
    if isinstance(n, StartsAtOfficial):
        return f"start: official rating on the {n.period} list"
    if isinstance(n, IncludesEarlier):
        count = len(n.tournaments)
        return (
            f"includes {count} earlier tournament{'' if count == 1 else 's'} with no Elo tag "
            "of the player's to replay from: " + ", ".join(n.tournaments)
        )
    if isinstance(n, WaitsForList):
        w = n.waiting
        return (
            f"waits for an official {w.rating_list} rating: the Elo tag {w.tag} in "
            f"{w.tournament} is taken as the player's standard rating (one of the "
            f"{STANDARD_TAG_WINDOW_MONTHS} months around it, or its file's import said so: "
            "policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD), not its rating on this list"
        )
    if isinstance(n, StartsFromStandard):
        return (
            f"unrated in {n.rating_list}: starts from the standard rating {n.rating} (the "
            f"{n.period} list, in force at the tournament start)"
        )
    if isinstance(n, PlayoffsClassical):
        fast = command(SetTournamentList(n.tournament_id, _FAST))
        return Said(
            f"{n.tournament}: {n.games} play-off game{'' if n.games == 1 else 's'} played one "
            "a day: classical, counted on the standard list (policy "
            "ONE_A_DAY_PLAYOFF_IS_CLASSICAL; ",
            fast,
            " says otherwise)",
        )
    if isinstance(n, TournamentNote):
        return f"{n.tournament}: {tag_differs_text(n.note)}"
    if isinstance(n, StoredTwice):
        return twice_text(n)
    if isinstance(n, EngineSays):
        return engine_text(n.said)
    if isinstance(n, FirstRated):
        return f"first rating {n.rating}"
    if isinstance(n, FirstNotCompressed):
        return f"first rating {n.rating} not compressed (COMPRESS_FIRST_RATING_OF_2024_FORMULA)"
    if isinstance(n, TagsAside):
        return (
            f"not taken as the {n.rating_list} rating, a standard rating of the player's "
            f"(of the {STANDARD_TAG_WINDOW_MONTHS} months around, or its file's import said "
            "so: policy TAG_OF_A_FAST_LIST_IS_THE_STANDARD): "
            + ", ".join(f"Elo tag {t} ({name})" for t, name in n.tags)
        )
    if isinstance(n, TagsDisagree):
        return (
            f"the Elo tags of the tournaments that started under the {n.period} list "
            "disagree: " + ", ".join(f"{t} ({name})" for t, name in n.tags)
        )
    if isinstance(n, ReanchoredOnOfficial):
        return f"re-anchored on the official rating {n.rating}"
    replayed = "unrated" if n.replayed is None else str(n.replayed)
    return f"re-anchored on the Elo tag {n.tag} ({', '.join(n.tournaments)}; replayed {replayed})"


# --- the closing-date rule -------------------------------------------------------------------


def closing_command(c: ClosingDate) -> Command:
    """The command that pins the tournament to the earlier list."""
    return command(c.advice)


def closing_text(c: ClosingDate) -> str:
    days = "1 day" if c.days_before == 1 else f"{c.days_before} days"
    return (
        f"{c.tournament} ended {c.end.isoformat()}, {days} before the {c.earlier} "
        f"list: put on the {c.put_on} list by the closing-date rule, assumed; FIDE "
        f"rates it on the {c.earlier} list when the report arrives in time"
    )


def closing_json(c: ClosingDate) -> dict[str, object]:
    """As `history --format json` writes it (`period_assumed`), with the last round."""
    return {
        "tournament": c.tournament,
        "tournament_id": c.tournament_id,
        "may_be": str(c.earlier),
        "command": closing_command(c),
        "end": c.end.isoformat(),
    }


def closing_texts(row: PeriodRow) -> list[Said]:
    """What the closing-date rule assumed of the period's tournaments, with the command that
    pins each (tracker.periods.assumed)."""
    return [Said(f"{closing_text(c)} (", closing_command(c), ")") for c in closing_dates(row)]


# --- the player a command names ----------------------------------------------------------

PLAYERS_SHOWN = 10
"""The most players an error about a player argument names (then how many more)."""


def players_listed(names: Iterable[tuple[str, int | None]]) -> str:
    """The first players of `names` as `Name (FIDE ID n)`, '; '-separated."""
    names = list(names)
    shown = [f"{name} (FIDE ID {fide_id or '-'})" for name, fide_id in names[:PLAYERS_SHOWN]]
    more = f"; and {len(names) - PLAYERS_SHOWN:,} more" if (len(names) > PLAYERS_SHOWN) else ""
    return "; ".join(shown) + more


def unresolved_text(why: Unresolved) -> str:
    """Why the text a command was given names no one player, and what to give instead."""
    if isinstance(why, NoneTracked):
        return (
            "no player given and none is tracked: name one (a FIDE ID or a name), or mark "
            f"yours with {command_line('player', 'set', 'NAME', '--me').quoted()}"
        )
    if isinstance(why, TooLong):
        return (
            f"a player argument of {why.length:,} characters is no name or FIDE ID: "
            f"give at most {why.limit} (a FIDE ID, or a part of the name)"
        )
    if isinstance(why, NotAName):
        return f"{why.text!r} is not a player name or FIDE ID"
    if isinstance(why, SeveralMatch):
        return (
            f"{len(why.players):,} players match {why.text!r}: {players_listed(why.players)}; "
            "give more of the name or the FIDE ID"
        )
    if isinstance(why, MayBeOne):
        return (
            f"{may_be_one_text(why)}, and {why.text!r} names them then; if not, give the "
            "spelling you mean"
        )
    if why.near:
        return (
            f"no player matches {why.text!r}; with {why.word!r} in the name: "
            f"{players_listed(why.near)}"
        )
    if not why.players:
        return (
            f"no player matches {why.text!r}: the database has no player yet (import games "
            f"first: {command_line('import', 'FILE')})"
        )
    stored = "the one player" if why.players == 1 else f"all {why.players:,} players"
    listed = command_line("players").quoted()
    search = command_line("players", "--search", "PART").quoted()
    return (
        f"no player matches {why.text!r}: {listed} lists {stored}, {search} those whose name "
        "contains PART"
    )


def _player_arg(name: str, fide_id: int | None) -> str:
    """A player as a command's argument: the FIDE ID, else the name (quoted for a shell)."""
    import shlex

    return str(fide_id) if fide_id else shlex.quote(name)


def may_be_one_text(why: MayBeOne) -> str:
    """Players a name matches as well whose names may be one person's: each with their
    games, and the command that makes them one (the tracker never does on names alone)."""
    shown = [
        f"{name}{f' (FIDE ID {fide_id})' if fide_id else ''} ({games:,} "
        f"{'game' if games == 1 else 'games'})"
        for name, fide_id, games in why.players[:PLAYERS_SHOWN]
    ]
    if len(why.players) > PLAYERS_SHOWN:
        shown.append(f"and {len(why.players) - PLAYERS_SHOWN:,} more")
    keep = _player_arg(*why.players[0][:2])
    merges = " and ".join(
        command_line("player", "merge", keep, _player_arg(name, fide_id)).quoted()
        for name, fide_id, _ in why.players[1:]
    )
    return (
        f"{len(why.players):,} players match {why.text!r}, spellings that may be one "
        "person's (the same surname, given names that fit, not two FIDE IDs, no game "
        f"between them): {'; '.join(shown)}; they are not taken for one person on their names "
        f"alone: if they are one, {merges} {'makes' if len(why.players) == 2 else 'make'} "
        "them one"
    )


def error_text(exc: TrackerError) -> str:
    """An error's sentence: the one it was raised with, or for an error that carries its
    reason as a value (a player argument that names no one player) that reason worded."""
    if isinstance(exc, PlayerNotFound | PlayerUnclear):
        return unresolved_text(exc.why)
    return str(exc)
