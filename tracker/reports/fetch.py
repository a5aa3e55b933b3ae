"""What `tracker official fetch` says: a line for each month as it is had or missed (what
happened and what to do), and the summing up at the end (fetched, from the cache, missing,
not out yet, and the players of the database each list has)."""

from __future__ import annotations

import urllib.parse
from collections.abc import Sequence

from tracker.app.fetch import (
    ARCHIVE_FROM,
    FIDE_DOWNLOADS,
    MAX_UNZIPPED,
    Fetched,
    FetchOutcome,
    FetchSettings,
    ListMonth,
    Missing,
    Why,
    default_cache,
)
from tracker.model import Period, RatingList
from tracker.reports.listfile import LIST_FILE_COLUMNS, list_file_json, reason
from tracker.reports.text import plural

NAMES_SHOWN = 12
"""The months a summing-up line names one by one (the others are counted)."""


def month_text(rating_list: RatingList, period: Period) -> str:
    return f"{rating_list} {period}"


def size_text(size: int) -> str:
    """Bytes as a person reads them: 812 bytes, 45.3 KB, 3.1 MB."""
    if size < 1000:
        return f"{size} bytes"
    if size < 1_000_000:
        return f"{size / 1000:.1f} KB"
    return f"{size / 1_000_000:.1f} MB"


def _host(url: str) -> str:
    return urllib.parse.urlsplit(url).netloc or url


def _status(m: Missing) -> str:
    return f"HTTP {m.status}" + (f" {m.detail}" if m.detail else "")


def _tries(m: Missing) -> str:
    return f"{m.tries} {'try' if m.tries == 1 else 'tries'}"


def missing_text(m: Missing, settings: FetchSettings) -> str:
    """Why a month was not had, and what to do, as one clause."""
    host = _host(m.url)
    cache = settings.cache if settings.cache is not None else default_cache()
    why = m.why
    if why is Why.NOT_PUBLISHED:
        if settings.base_url == FIDE_DOWNLOADS:
            return (
                f"FIDE's folder has no such file ({m.url}: {_status(m)}): FIDE never "
                "published this list; skipped"
            )
        return (  # a mirror or a folder of the user's: it may lack a list FIDE published
            f"the folder has no such file ({m.url}: {_status(m)}): a copy of FIDE's folder "
            "may lack it, or --base-url names the wrong folder; skipped"
        )
    if why is Why.NOT_YET:
        day = m.period.list_date.isoformat()
        if m.status is not None:  # asked for: this month's or next month's list
            return (
                f"not out yet: FIDE's folder does not have the list of {day} yet ({m.url}: "
                f"{_status(m)}): fetch again in a few days"
            )
        return f"not out yet: FIDE publishes it on {day} (or a day or two before): fetch again then"
    if why is Why.BEFORE_ARCHIVE:
        return (
            f"not available: FIDE's download folder starts with the list of {ARCHIVE_FROM}; skipped"
        )
    if why is Why.NOT_IN_CACHE:
        return f"not in the cache ({cache}): run without --offline to download it"
    if why is Why.DAMAGED_IN_CACHE:
        return (
            f"the file in the cache ({m.detail}) was damaged and is removed: run without "
            "--offline to download it again"
        )
    if why is Why.NO_NETWORK:
        return (
            f"cannot reach {host} ({m.detail or 'no connection'}; {_tries(m)}): check the "
            "network connection and --base-url, then run the command again"
        )
    if why is Why.NO_SUCH_HOST:
        return (
            f"the server name {urllib.parse.urlsplit(m.url).hostname} does not resolve "
            f"({m.detail}): check the network connection and --base-url"
        )
    if why is Why.TLS:
        return (
            f"the secure connection to {host} failed ({m.detail}): check the computer's "
            "date and certificates, and --base-url"
        )
    if why is Why.TIMEOUT:
        return (
            f"{host} sent nothing for {settings.timeout:g} s ({_tries(m)}): try again "
            "later, or give a longer --timeout"
        )
    if why is Why.SERVER:
        return f"{host} failed ({_status(m)}; {_tries(m)}): try again later"
    if why is Why.REFUSED:
        return f"{m.url} was refused ({_status(m)}): check --base-url"
    if why is Why.TRUNCATED:
        got = f"{m.size:,} of {m.expected:,} bytes" if m.expected else f"{m.size:,} bytes"
        return f"the download was cut short ({got}; {_tries(m)}): try again later"
    if why is Why.TOO_BIG:
        if m.size > settings.max_bytes:
            return (
                f"{m.url} is {size_text(m.size)}, more than the {size_text(settings.max_bytes)} "
                "a FIDE list can be: check --base-url"
            )
        return (
            f"{m.url} holds {size_text(m.size)} unzipped, more than the "
            f"{size_text(MAX_UNZIPPED)} a FIDE list can be: check --base-url"
        )
    if why is Why.NOT_A_ZIP:
        what = "an HTML page" if m.detail == "html" else "not a zip"
        return (
            f"{m.url} is {what}, not FIDE's zipped list: check --base-url (a folder laid out "
            "as FIDE's download folder); nothing kept"
        )
    if why is Why.NOT_A_LIST:
        return f"{m.url} holds no FIDE list ({m.detail}): check --base-url; nothing kept"
    if why is Why.WRONG_LIST:
        held_list, held_period = m.found
        if m.detail == "combined":
            held = "a combined list (standard, rapid and blitz)"
        else:
            held = "the " + " list of ".join(
                str(x) for x in (held_list, held_period) if x is not None
            )
            held += " list" if held_period is None else ""
        return (
            f"{m.url} holds {held}, not the {m.rating_list} list of {m.period}: check "
            "--base-url; nothing kept"
        )
    assert why is Why.CACHE
    return (
        f"cannot write the cache folder {cache} ({m.detail}): free some space, or give "
        "another folder with --cache"
    )


def result_line(result: Fetched | Missing, settings: FetchSettings) -> str:
    """The line said when a month is had or missed."""
    head = month_text(result.rating_list, result.period)
    if isinstance(result, Missing):
        return f"{head}: {missing_text(result, settings)}"
    if result.cached:
        return f"{head}: in the cache ({result.path.name})"
    return f"{head}: downloaded {result.path.name} ({size_text(result.size)})"


def _names(months: Sequence[ListMonth]) -> str:
    shown = ", ".join(month_text(m.rating_list, m.period) for m in months[:NAMES_SHOWN])
    more = len(months) - NAMES_SHOWN
    return shown + (f" and {more:,} more" if more > 0 else "")


def _months(results: Sequence[Fetched | Missing]) -> list[ListMonth]:
    return [ListMonth(r.period, r.rating_list) for r in results]


def summary_lines(outcome: FetchOutcome) -> list[str]:
    """The summing up: what was fetched, taken from the cache, missing, not out yet, not
    tried, and the database's players each imported list has."""
    parts = [
        ("fetched", _months(outcome.fetched)),
        ("from the cache", _months(outcome.cached)),
        ("missing", _months(outcome.missing)),
        ("not out yet", _months(outcome.due)),
        ("not tried", outcome.untried),
    ]
    lines = [
        f"{label}: {len(months):,} ({_names(months)})" if months else f"{label}: 0"
        for label, months in parts
        if months or label in ("fetched", "from the cache", "missing")
    ]
    found = []
    for one in outcome.imports:
        s = one.outcome.summary
        head = month_text(one.month.rating_list, one.month.period)
        if s is None:
            found.append(f"{head}: not imported")
            continue
        by_name = f" ({s.matched:,} matched by name)" if s.matched else ""
        found.append(f"{head}: {s.kept:,}{by_name}")
    if found:
        lines.append("players of the database on each list: " + "; ".join(found))
    return lines


def failure_line(outcome: FetchOutcome, where: str = "above") -> str:
    """The error line of a run that did not get everything asked for (exit 1); `where` the
    reasons were said (above, or in the fields of --format csv|json)."""
    missing = _months(outcome.missing) + outcome.untried
    failed = [i.month for i in outcome.not_imported]
    parts = []
    if missing:
        parts.append(f"{plural(len(missing), 'list')} not had: {_names(missing)}")
    if failed:
        parts.append(f"{plural(len(failed), 'list')} not imported: {_names(failed)}")
    had = len(outcome.imports) - len(failed)
    other = "the other list" if had == 1 else f"the other {had} lists"
    tail = f"; {other} imported" if had else ""
    return "; ".join(parts) + f" (why and what to do: {where}){tail}"


# --- --format csv|json ------------------------------------------------------------------

FETCH_COLUMNS = (
    "list",
    "period",
    "fetched",
    "file",
    "bytes",
    "reason",
    "why",
    *LIST_FILE_COLUMNS[1:],
)
"""A month's list fetched, one row each (`tracker official fetch --format csv`; the fields of
its JSON objects): how it was had (downloaded, cached) or not (missing, not-yet, not-tried;
`reason` the cause as a code, `why` what to do), then what importing it gave (the fields of
`tracker official import`'s rows: `outcome` imported, not-imported or not-had)."""


def fetch_rows(outcome: FetchOutcome, settings: FetchSettings) -> list[dict[str, object]]:
    """Every month asked for, in order: what fetching it and importing it gave."""
    results = {ListMonth(r.period, r.rating_list): r for r in outcome.results}
    imports = {i.month: i.outcome for i in outcome.imports}
    rows: list[dict[str, object]] = []
    for month in outcome.wanted:
        row: dict[str, object] = {"list": str(month.rating_list), "period": str(month.period)}
        got = results.get(month)
        if isinstance(got, Fetched):
            row.update(
                fetched="cached" if got.cached else "downloaded",
                file=got.path.name,
                bytes=got.size,
                reason=None,
                why=None,
            )
        elif isinstance(got, Missing):
            row.update(
                fetched="not-yet" if got.why is Why.NOT_YET else "missing",
                file=None,
                bytes=None,
                reason=got.why.value,
                why=missing_text(got, settings),
            )
        else:
            row.update(fetched="not-tried", file=None, bytes=None, reason=None, why=None)
            if outcome.stopped is not None:
                stop = outcome.stopped
                row.update(
                    reason=stop.why.value,
                    why=f"not tried after {month_text(stop.rating_list, stop.period)}: "
                    + missing_text(stop, settings),
                )
        done = imports.get(month)
        if done is None:
            row.update(dict.fromkeys(LIST_FILE_COLUMNS[1:]))
            row["outcome"] = "not-had"
        else:
            error = None if done.error is None else reason(str(done.error), done.target.label)
            file_row = list_file_json(done.target.label, done.summary, error)
            row.update((k, file_row[k]) for k in LIST_FILE_COLUMNS[1:])
        rows.append(row)
    return rows


def interrupted_text(cache: object) -> str:
    """What `official fetch` says when Ctrl-C stops it (`cache`: the folder of the lists)."""
    return (
        f"interrupted: the lists downloaded stay in the cache ({cache}) and those "
        "imported stay imported; nothing of the file being downloaded or imported was "
        "kept: run the command again to go on"
    )


def fetched_not_imported_text(label: str, why: str, path: object) -> str:
    """A downloaded list that could not be imported, and where the file is."""
    return f"{label}: not imported: {why} (the file: {path}; delete it to download it again)"
