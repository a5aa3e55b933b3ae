"""`tracker demo`: the sample season end to end, in one command."""

from __future__ import annotations

from pathlib import Path
from typing import TYPE_CHECKING, Annotated

import typer

from tracker.errors import BadInput, Unavailable
from tracker.model import OfficialEntry, Period, RatingList

if TYPE_CHECKING:
    from tracker.app.database import Store
    from tracker.app.histories import PlayerHistory
    from tracker.app.outputs import Output
    from tracker.model import PlayerRef

# What sample_pgns/README.md names ("Official anchor"): the player, his lists before the
# season, and the facts that decide K. tests/test_demo.py keeps these equal to the README.
SAMPLE_PLAYER_FIDE_ID = 99012345
SAMPLE_ANCHOR_PERIOD = Period(2025, 9)
SAMPLE_ANCHORS = {RatingList.STANDARD: 1850, RatingList.RAPID: 1795, RatingList.BLITZ: 1760}
SAMPLE_ANCHOR_K = 20
SAMPLE_BIRTH_YEAR = 1988
SAMPLE_RATED_GAMES = 212


def find_samples(given: Path | None) -> Path:
    """The sample season: --samples, else sample_pgns/ of the source tree this tracker runs
    from, else the copy an installed package ships (tracker/samples), else ./sample_pgns."""
    here = Path(__file__).resolve()
    candidates = (
        [given]
        if given is not None
        else [
            here.parents[2] / "sample_pgns",
            here.parents[1] / "samples",
            Path.cwd() / "sample_pgns",
        ]
    )
    for c in candidates:
        if c is not None and c.is_dir():
            return c
    where = given if given is not None else "sample_pgns/"
    raise Unavailable(
        f"the sample season ({where}) was not found: run the demo from a clone of the "
        "repository, or give its folder with --samples DIR"
    )


def _say(text: str = "") -> None:
    from tracker.cli.output import echo_lines

    echo_lines([text])  # (cut to the terminal's width)


def _refuse_a_real_database(store: Store, folder: Path, db_target: str) -> None:
    """The demo adds a fictitious season and marks its player as the tracked one: never in
    a database that holds imports of anything else (a real season)."""
    from tracker.app.imports import list_imports

    names = {p.name for p in folder.rglob("*")}
    foreign = [r for r in list_imports(store) if Path(r.source.split(":", 1)[0]).name not in names]
    if foreign:
        n = len(foreign)
        raise BadInput(
            f"{db_target} holds {n} import{' that is' if n == 1 else 's that are'} not the "
            f"sample season (first: {foreign[0].source}): the demo would add a fictitious "
            "season to it and mark its player as yours; run it on a database of its own "
            "(leave out --db, or give a new file)"
        )


def register(app: typer.Typer) -> None:
    """Add this module's commands to the app."""
    app.command("demo")(demo)


def demo(
    db: Annotated[
        str | None,
        typer.Option(
            "--db",
            help="Database for the demo (default: tracker-demo.db in the output folder).",
            show_default=False,
        ),
    ] = None,
    output_dir: Annotated[
        Path,
        typer.Option(
            "--output-dir",
            "-o",
            help="Where the CSV, the chart and the season report go (created if needed).",
        ),
    ] = (Path("demo-out")),
    samples: Annotated[
        Path | None,
        typer.Option(
            "--samples",
            help="The sample season folder (default: the repository's "
            "sample_pgns/, or the copy an installed package ships).",
            show_default=False,
        ),
    ] = None,
) -> None:
    """Try tracker on the bundled sample season: import it, record the official anchor,
    replay the history, show the next list, write a CSV, a chart and the season report.

    Re-running is fine: files already imported are recognized and nothing is added twice.

    Example: tracker demo --output-dir demo-out
    """
    from tracker.app.database import open_database
    from tracker.app.histories import load_history

    folder = find_samples(samples)
    db_target, csv_path, chart, page = _outputs(db, output_dir, folder)
    with open_database(db_target) as store:
        _refuse_a_real_database(store, folder, db_target)
        _import_season(store, folder, db_target)
        me = _tracked_player(store)
        hist = load_history(store, me)
    _show_history(hist, me)
    _show_next(hist, me)
    rows = _write_files(hist, me, csv_path, chart, page)
    _say()
    _say(
        f"5. Wrote {csv_path} (every list, {rows} rows), the chart {chart} and the "
        f"season report {page} (open it in a browser)"
    )
    _say()
    _say("Next, try:")
    _say(f"   tracker explain 2025-12 --db {db_target}")
    _say(f"   tracker history --list rapid --db {db_target}")
    _say(f"   tracker event list --db {db_target}")
    _say(f"   tracker export --what games --output games.csv --db {db_target}")
    _say(f"   tracker plot --output history.svg --db {db_target}")
    _say(f"   tracker report --output season.html --db {db_target}")


def _outputs(db: str | None, output_dir: Path, folder: Path) -> tuple[str, Output, Output, Output]:
    """The database and the demo's files (CSV, chart, season report), the folder made; a
    --db that holds anything but the sample season is refused first, before anything is
    made, and never upgraded."""
    from tracker.app.database import open_database
    from tracker.cli.output import output_file

    if db is not None and "://" not in db and Path(db).is_file():
        # Refused before anything is made (the output folder included), never upgraded.
        with open_database(db, upgrade=False) as store:
            _refuse_a_real_database(store, folder, db)
    try:
        output_dir.mkdir(parents=True, exist_ok=True)
    except OSError as exc:
        raise Unavailable(f"cannot create {output_dir}: {exc.strerror or exc}") from None
    db_target = db or str(output_dir / "tracker-demo.db")
    # The demo's own files in its folder are replaced on every run (--force), but
    # never when one of them is the database given with --db.
    csv_path = output_file(str(output_dir / "history.csv"), db_target, force=True)
    chart = output_file(str(output_dir / "history.png"), db_target, force=True)
    page = output_file(str(output_dir / "season.html"), db_target, force=True)
    return db_target, csv_path, chart, page


def _import_season(store: Store, folder: Path, db_target: str) -> None:
    """Step 1: the sample season imported (again: nothing is added twice)."""
    from tracker.app.importing import import_paths
    from tracker.reports import plural

    _say(f"1. Importing {folder} into {db_target}")
    report = import_paths(store, [str(folder)])
    before = sum(1 for s in report.sources if s.already)
    _say(
        f"   {plural(report.total('games_read'), 'game')} read, "
        f"{report.total('added')} added, {report.total('duplicates')} already there; "
        f"{plural(before, 'file')} imported before"
    )
    not_rated = ", ".join(f"{n} {why}" for why, n in sorted(report.not_rated.items()))
    if not_rated:
        _say(f"   not counted for rating: {not_rated}")


def _tracked_player(store: Store) -> PlayerRef:
    """Step 2: the sample player tracked (--me), with his facts and official anchors."""
    from tracker.app.official import add_entry
    from tracker.app.players import set_player

    facts = {"birth_year": SAMPLE_BIRTH_YEAR, "rated_games": SAMPLE_RATED_GAMES}
    me = set_player(store, str(SAMPLE_PLAYER_FIDE_ID), facts, me=True).player
    _say()
    _say(
        f"2. {me.name} (FIDE ID {me.fide_id}) is the tracked player (--me): born "
        f"{SAMPLE_BIRTH_YEAR}, {SAMPLE_RATED_GAMES} rated games before the season"
    )
    for rl, rating in SAMPLE_ANCHORS.items():
        add_entry(
            store,
            OfficialEntry(
                me.id, rl, SAMPLE_ANCHOR_PERIOD, rating, k=SAMPLE_ANCHOR_K, source="manual"
            ),
        )
    anchors = ", ".join(f"{rl} {r}" for rl, r in SAMPLE_ANCHORS.items())
    _say(
        f"   official ratings on the {SAMPLE_ANCHOR_PERIOD} lists recorded: {anchors} "
        f"(K {SAMPLE_ANCHOR_K})"
    )
    return me


def _show_history(hist: PlayerHistory, me: PlayerRef) -> None:
    """Step 3: the standard history, as `tracker history` shows it."""
    from tracker.reports import (
        HISTORY_OPTIONAL,
        history_rows,
        history_table,
        notes_said_once,
        render_table,
    )

    _say()
    _say("3. Standard history (tracker history):")
    _say()
    std_rows = history_rows(hist.replays[RatingList.STANDARD], player=me)
    headers, cells = history_table(std_rows)
    cells, legend = notes_said_once(std_rows, cells)
    for line in render_table(headers, cells, range(1, 12), indent="   ", optional=HISTORY_OPTIONAL):
        _say(line)
    for line in legend:
        _say("   " + line)


def _show_next(hist: PlayerHistory, me: PlayerRef) -> None:
    """Step 4: the next list, as `tracker next` shows it."""
    from tracker.cli.options import today
    from tracker.reports import next_lines, next_report

    _say()
    _say("4. The next list (tracker next):")
    _say()
    std = hist.replays[RatingList.STANDARD]
    for line in next_lines(next_report(std, me), today()):
        _say("   " + line if line else "")


def _write_files(
    hist: PlayerHistory, me: PlayerRef, csv_path: Output, chart: Output, page: Output
) -> int:
    """The CSV of every list, the chart and the season report written; the CSV's rows."""
    from tracker import __version__
    from tracker.app.outputs import write_text
    from tracker.reports import HISTORY_COLUMNS, history_json, history_rows, to_csv
    from tracker.reports.chart import chart_model
    from tracker.reports.plot import plot_history
    from tracker.reports.season import season_report

    rows = [r for rp in hist.replays.values() for r in history_rows(rp, player=me)]
    text = to_csv(HISTORY_COLUMNS, [history_json(r) for r in rows])
    write_text(csv_path, text, encoding="utf-8-sig", newline="")
    plot_history(chart_model(hist), chart.path)
    html = season_report(hist, version=__version__)
    write_text(page, html)
    return len(rows)
