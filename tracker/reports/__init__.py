"""What users see of the replay, as plain data and plain text (no typer/rich: the CLI draws
its tables from these rows, tests read them directly; columns in docs/export.md). The names
other code imports from `tracker.reports` are re-exported here from the modules by job:

- `words`: the values below the reports (reasons, sources, notes, advice) as sentences and
  commands, the one place that spells them;
- `said`: a command as a value (`Command`, made by `command_line` only) and a sentence of
  text and commands (`Said`): the terminal prints its text, a page shows its commands as code;
- `players`: what a merge of two players says;
- `text`: numbers, points and plurals as printed, and the one table style;
- `figures`: a tournament's result in a period (games counted, points, Rp, change);
- `history`: the history rows and table, a row's note, a list's season summed up;
- `explain`: one period as FIDE's calculation page shows it, as lines;
- `explaingames`: the same period per game (`ExplainGame`), its JSON and CSV;
- `nextlist`: the expected rating on the next list, and what is still open;
- `export`: the tournaments list, the games export, and CSV text;
- `check`: `tracker check` as a table, lines, CSV and JSON;
- `causes`: the causes `tracker check` finds, one function per kind, with their commands;
- `target`: `tracker target` as lines, a table, CSV and JSON;
- `chart`, `plot`, `season`: the chart model, its drawing (matplotlib), the season report.
"""

from __future__ import annotations

from tracker.periods.assumed import list_assumed_games
from tracker.reports.explain import explain_lines, ignored_lines
from tracker.reports.explaingames import EXPLAIN_COLUMNS, ExplainGame, explain_games, explain_json
from tracker.reports.export import (
    EVENT_COLUMNS,
    FORMULA_STARTS,
    GAME_COLUMNS,
    GameRow,
    TournamentRow,
    event_rows,
    game_json,
    game_rows,
    game_values,
    to_csv,
    tournament_json,
)
from tracker.reports.figures import TournamentFigures, tournament_figures, unit_figures
from tracker.reports.history import (
    HISTORY_COLUMNS,
    HISTORY_OPTIONAL,
    HistoryRow,
    Season,
    assumption_command,
    assumption_text,
    history_json,
    history_row,
    history_rows,
    history_table,
    k_by_tournament,
    no_periods_text,
    notes_said_once,
    ratings_line,
    row_note,
    season_line,
    season_summary,
    unplaced_head,
    unplaced_lines,
)
from tracker.reports.nextlist import (
    OPEN_MARGIN_DAYS,
    NextReport,
    future_text,
    next_lines,
    next_report,
    open_groups,
)
from tracker.reports.text import (
    NO_WRAP,
    PIPED_WIDTH,
    RULE,
    cell_width,
    fmt_int,
    fmt_points,
    fmt_signed,
    plural,
    plural_points,
    render_table,
    terminal_width,
    wrap_text,
)
from tracker.reports.words import LIST_ASSUMED_HOW

__all__ = [
    "EVENT_COLUMNS",
    "EXPLAIN_COLUMNS",
    "FORMULA_STARTS",
    "GAME_COLUMNS",
    "HISTORY_COLUMNS",
    "HISTORY_OPTIONAL",
    "LIST_ASSUMED_HOW",
    "NO_WRAP",
    "OPEN_MARGIN_DAYS",
    "PIPED_WIDTH",
    "RULE",
    "ExplainGame",
    "GameRow",
    "HistoryRow",
    "NextReport",
    "Season",
    "TournamentRow",
    "TournamentFigures",
    "assumption_command",
    "assumption_text",
    "cell_width",
    "event_rows",
    "explain_games",
    "explain_json",
    "explain_lines",
    "fmt_int",
    "fmt_points",
    "fmt_signed",
    "future_text",
    "game_json",
    "game_values",
    "game_rows",
    "history_json",
    "history_row",
    "history_rows",
    "history_table",
    "no_periods_text",
    "notes_said_once",
    "ignored_lines",
    "k_by_tournament",
    "list_assumed_games",
    "next_lines",
    "next_report",
    "open_groups",
    "plural",
    "plural_points",
    "render_table",
    "terminal_width",
    "wrap_text",
    "row_note",
    "ratings_line",
    "season_line",
    "season_summary",
    "to_csv",
    "tournament_figures",
    "tournament_json",
    "unit_figures",
    "unplaced_head",
    "unplaced_lines",
]
