"""FIDE's list files from its download folder, over HTTP, into a cache folder: the only
module of tracker that reaches the network (`tracker official fetch`, through
tracker.app.fetch), with the standard library only (urllib).

`ListFetcher(settings).get(rating_list, period)` gives one month's list file: from the cache
when it is there (a month is downloaded once), else downloaded from `settings.base_url`
under FIDE's name for it (`file_names`), checked, and landed in the cache whole: the body goes
to a temporary file in the cache folder (size bounded, a read that stalls `timeout` seconds
fails), is checked (a zip holding one list of that list and month, every byte of it
readable: `check_list_zip`), then renamed to its name. A failure leaves nothing in the cache.
Network errors (a refused or reset connection, a stall, a cut body, a 5xx) are retried a few
times with back-off. What happened is a typed value (`Fetched`, or `Missing` with its `Why`);
tracker.reports.fetch words it.
"""

from __future__ import annotations

import contextlib
import dataclasses
import enum
import errno
import http.client
import os
import secrets
import socket
import ssl
import time
import urllib.error
import urllib.parse
import urllib.request
import zipfile
import zlib
from collections.abc import Callable
from dataclasses import dataclass
from pathlib import Path
from typing import IO

from tracker import __version__
from tracker.errors import BadInput
from tracker.lists.layout import MONTHS, list_from_name, period_from_name
from tracker.lists.listfile import open_list
from tracker.model import Period, RatingList

FIDE_DOWNLOADS = "https://ratings.fide.com/download/"
"""FIDE's download folder (shared/spec/fide-list-formats.md)."""
ARCHIVE_FROM = Period(2001, 1)
"""The first list of FIDE's download folder: earlier months are not available there."""
PREFIXED_FROM = Period(2012, 7)
"""From the first rapid and blitz lists (Jul 2012), every archive name says its list
(`standard_jul12frl.zip`); the standard lists before it are named by the month alone
(`apr04frl.zip`, holding `APR04FRL.TXT`), with the prefixed name tried second."""

TIMEOUT = 30.0
"""Seconds a connection or a read may stall before the try fails."""
RETRIES = 3
"""Tries after the first on a network error (a refused or reset connection, a stall, a cut
body, a 5xx answer)."""
BACKOFF = 1.0
"""Seconds before the first retry; each next waits twice as long."""
BACKOFF_ENV = "TRACKER_FETCH_BACKOFF"
"""Overrides BACKOFF (the tests make it short)."""
MAX_BYTES = 256 << 20
"""The largest download taken: FIDE's biggest single list, the standard XML, is about 40 MB
zipped."""
MAX_UNZIPPED = 1 << 30
"""The largest list a zip may hold (the standard XML unzipped is about 200 MB): a zip that
says more is refused before it is read (a zip bomb)."""
CHUNK = 1 << 16
STALE_SECONDS = 24 * 3600
"""A temporary file left in the cache by a killed run is removed after this long (younger
ones may be another run's, still downloading)."""
PART_PREFIX, PART_SUFFIX = ".fetch-", ".part"
CACHE_ENV = "TRACKER_LIST_CACHE"


def default_cache() -> Path:
    """The cache folder: $TRACKER_LIST_CACHE, else the user's cache directory
    ($XDG_CACHE_HOME, else ~/.cache) /tracker/lists."""
    given = os.environ.get(CACHE_ENV)
    if given:
        return Path(given)
    base = os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base and Path(base).is_absolute() else Path.home() / ".cache"
    return root / "tracker" / "lists"


def backoff_seconds() -> float:
    """BACKOFF, or the environment's TRACKER_FETCH_BACKOFF when it is a number >= 0."""
    text = os.environ.get(BACKOFF_ENV)
    if text:
        with contextlib.suppress(ValueError):
            value = float(text)
            if 0 <= value <= 60:
                return value
    return BACKOFF


def file_names(rating_list: RatingList, period: Period, *, xml: bool = False) -> tuple[str, ...]:
    """The names FIDE's download folder gives one month's list, in the order tried:
    `standard_nov25frl.zip` (`standard_nov25frl_xml.zip` with `xml`); before PREFIXED_FROM,
    the standard list's `apr04frl.zip` first."""
    stem = f"{MONTHS[period.month - 1]}{period.year % 100:02d}frl"
    tail = "_xml.zip" if xml else ".zip"
    prefixed = f"{rating_list}_{stem}{tail}"
    if rating_list is RatingList.STANDARD and period < PREFIXED_FROM:
        return (stem + tail, prefixed)
    return (prefixed,)


def check_base_url(url: str) -> str:
    """The base URL as a folder (a `/` at its end), or BadInput: http or https, a host."""
    parts = urllib.parse.urlsplit(url.strip())
    if parts.scheme.lower() not in ("http", "https") or not parts.hostname:
        raise BadInput(
            f"--base-url {url!r} is not an http:// or https:// address of a folder: give one "
            f"like {FIDE_DOWNLOADS}"
        )
    if parts.query or parts.fragment:
        raise BadInput(f"--base-url {url!r}: give the folder without ?query or #fragment")
    path = parts.path if parts.path.endswith("/") else parts.path + "/"
    return urllib.parse.urlunsplit((parts.scheme.lower(), parts.netloc, path, "", ""))


class Why(enum.Enum):
    """Why a month's list file could not be had."""

    NOT_PUBLISHED = "not-published"  # the folder has no such file (404) for a past month
    NOT_YET = "not-yet"  # a month whose list is not out yet (or a 404 for it)
    BEFORE_ARCHIVE = "before-archive"  # before ARCHIVE_FROM
    NOT_IN_CACHE = "not-in-cache"  # --offline, and the cache does not have it
    DAMAGED_IN_CACHE = "damaged-in-cache"  # --offline, and the cache's file was damaged
    NO_NETWORK = "no-network"  # the connection could not be made, or broke
    NO_SUCH_HOST = "no-such-host"  # the server's name does not resolve
    TLS = "tls"  # the secure connection failed (a certificate, a protocol)
    TIMEOUT = "timeout"  # the server stalled
    SERVER = "server"  # a 5xx answer
    REFUSED = "refused"  # another 4xx answer (401, 403...)
    TRUNCATED = "truncated"  # the body ended before its announced length
    TOO_BIG = "too-big"  # more than MAX_BYTES
    NOT_A_ZIP = "not-a-zip"  # an HTML page, or anything else where a zip should be
    NOT_A_LIST = "not-a-list"  # a zip, but no readable list in it
    WRONG_LIST = "wrong-list"  # a zip of another month or list
    CACHE = "cache"  # the cache folder cannot be written (a full disk, no permission)


STOPS_THE_RUN = frozenset({Why.NO_NETWORK, Why.NO_SUCH_HOST, Why.TLS, Why.CACHE})
"""Failures every next download would meet too: a run stops at the first."""
RETRIED = frozenset({Why.NO_NETWORK, Why.TIMEOUT, Why.SERVER, Why.TRUNCATED})


@dataclass(frozen=True)
class Fetched:
    """A month's list file in the cache: downloaded now (`cached` False) or found there."""

    rating_list: RatingList
    period: Period
    path: Path
    cached: bool
    size: int


@dataclass(frozen=True)
class Missing:
    """A month's list file not had, and why. `url`: the address asked (the last one);
    `status`: the HTTP status when one came; `detail`: the system's or the reader's own
    words (an error message); `tries`: the tries made; `found`: what a wrong file held
    (its list and month, when it said)."""

    rating_list: RatingList
    period: Period
    why: Why
    url: str = ""
    status: int | None = None
    detail: str = ""
    tries: int = 0
    found: tuple[RatingList | None, Period | None] = (None, None)
    size: int = 0  # (TRUNCATED: bytes had; TOO_BIG: the size announced or reached)
    expected: int = 0  # (TRUNCATED: bytes announced)


Outcome = Fetched | Missing
Progress = Callable[[str, int, int | None], None]
"""Told a file's name, the bytes downloaded so far and the bytes announced (None: unknown)."""


@dataclass(frozen=True)
class FetchSettings:
    """How to fetch: the folder's address, the cache folder, TXT or XML, only the cache
    (`offline`), and the network's patience."""

    base_url: str = FIDE_DOWNLOADS
    cache: Path | None = None  # None: default_cache()
    xml: bool = False
    offline: bool = False
    timeout: float = TIMEOUT
    retries: int = RETRIES
    backoff: float | None = None  # None: backoff_seconds()
    max_bytes: int = MAX_BYTES


class _Failed(Exception):
    """One try's failure (internal): a Missing's fields."""

    def __init__(
        self,
        why: Why,
        *,
        status: int | None = None,
        detail: str = "",
        found: tuple[RatingList | None, Period | None] = (None, None),
        size: int = 0,
        expected: int = 0,
    ) -> None:
        super().__init__(why.value)
        self.why = why
        self.status = status
        self.detail = detail
        self.found = found
        self.size = size
        self.expected = expected

    def missing(self, rating_list: RatingList, period: Period, url: str, tries: int) -> Missing:
        return Missing(
            rating_list,
            period,
            self.why,
            url=url,
            status=self.status,
            detail=self.detail,
            tries=tries,
            found=self.found,
            size=self.size,
            expected=self.expected,
        )


class _WebRedirects(urllib.request.HTTPRedirectHandler):
    """Redirects followed to http and https addresses only (urllib would follow one to
    ftp:// too); another is refused as the answer it came with."""

    def redirect_request(
        self,
        req: urllib.request.Request,
        fp: IO[bytes],
        code: int,
        msg: str,
        headers: http.client.HTTPMessage,
        newurl: str,
    ) -> urllib.request.Request | None:
        if urllib.parse.urlsplit(newurl).scheme.lower() not in ("http", "https"):
            raise urllib.error.HTTPError(
                req.full_url, code, f"{msg}, to {newurl}: not followed", headers, fp
            )
        return super().redirect_request(req, fp, code, msg, headers, newurl)


class ListFetcher:
    """Fetches months' list files into the cache (see the module docstring)."""

    def __init__(self, settings: FetchSettings, progress: Progress | None = None) -> None:
        self.settings = settings
        self.base = check_base_url(settings.base_url)
        self.cache = settings.cache if settings.cache is not None else default_cache()
        self.backoff = settings.backoff if settings.backoff is not None else backoff_seconds()
        self.progress = progress
        self._opener = urllib.request.build_opener(_WebRedirects())
        self._opener.addheaders = [
            ("User-Agent", f"fide-tracker/{__version__} (tracker official fetch)"),
            ("Accept-Encoding", "identity"),
        ]
        self._swept = False

    # -- the cache -----------------------------------------------------------------------

    def cached(self, rating_list: RatingList, period: Period) -> Path | None:
        """The month's file in the cache, if it is there."""
        for name in file_names(rating_list, period, xml=self.settings.xml):
            path = self.cache / name
            if path.is_file():
                return path
        return None

    def _sweep(self) -> None:
        """Remove the temporary files killed runs left (older than STALE_SECONDS)."""
        if self._swept:
            return
        self._swept = True
        now = time.time()
        with contextlib.suppress(OSError):
            for part in self.cache.glob(f"{PART_PREFIX}*{PART_SUFFIX}"):
                with contextlib.suppress(OSError):
                    if now - part.stat().st_mtime > STALE_SECONDS:
                        part.unlink()

    # -- one month -----------------------------------------------------------------------

    def get(self, rating_list: RatingList, period: Period, *, today: Period) -> Outcome:
        """One month's list file: from the cache, else downloaded (unless offline).
        `today`: the current month (a 404 for it or a later one is a list not out yet)."""
        if period < ARCHIVE_FROM:
            return Missing(rating_list, period, Why.BEFORE_ARCHIVE)
        found = self.cached(rating_list, period)
        if found is not None and not _looks_whole(found, rating_list, period):
            # (files land checked: this one was damaged since, or put there by hand)
            with contextlib.suppress(OSError):
                found.unlink()
            if self.settings.offline:
                return Missing(rating_list, period, Why.DAMAGED_IN_CACHE, detail=str(found))
            found = None
        if found is not None:
            return Fetched(rating_list, period, found, True, _size(found))
        if period > today.next():  # not out yet: nothing to ask
            return Missing(rating_list, period, Why.NOT_YET)
        if self.settings.offline:
            return Missing(rating_list, period, Why.NOT_IN_CACHE, detail=str(self.cache))
        try:
            self.cache.mkdir(parents=True, exist_ok=True)
        except OSError as exc:
            return Missing(rating_list, period, Why.CACHE, detail=_os_words(exc))
        self._sweep()
        outcome: Outcome | None = None
        for name in file_names(rating_list, period, xml=self.settings.xml):
            outcome = self._download(rating_list, period, name)
            if not (isinstance(outcome, Missing) and outcome.why is Why.NOT_PUBLISHED):
                break
        assert outcome is not None
        if isinstance(outcome, Missing) and outcome.why is Why.NOT_PUBLISHED and period >= today:
            return dataclasses.replace(outcome, why=Why.NOT_YET)
        return outcome

    def _download(self, rating_list: RatingList, period: Period, name: str) -> Outcome:
        url = self.base + urllib.parse.quote(name)
        tries = 0
        while True:
            tries += 1
            try:
                path, size = self._try(url, name, rating_list, period)
            except _Failed as failed:
                if failed.why in RETRIED and tries <= self.settings.retries:
                    time.sleep(self.backoff * 2 ** (tries - 1))
                    continue
                return failed.missing(rating_list, period, url, tries)
            return Fetched(rating_list, period, path, False, size)

    def _try(
        self, url: str, name: str, rating_list: RatingList, period: Period
    ) -> tuple[Path, int]:
        """One try: the file landed in the cache (its path and size), or _Failed."""
        try:
            part = _new_part(self.cache)
        except OSError as exc:
            raise _Failed(Why.CACHE, detail=_os_words(exc)) from None
        landed = False
        try:
            with part.open("r+b") as out:
                size = self._receive(url, name, out)
                _flush(out)
            check_list_zip(part, rating_list, period, name)
            final = self.cache / name
            try:
                os.replace(part, final)
            except OSError as exc:
                raise _Failed(Why.CACHE, detail=_os_words(exc)) from None
            landed = True
            _sync_folder(self.cache)
            return final, size
        except OSError as exc:  # (writing the temporary file: the network's are caught below)
            raise _Failed(Why.CACHE, detail=_os_words(exc)) from None
        finally:
            if not landed:
                with contextlib.suppress(OSError):
                    part.unlink()

    def _receive(self, url: str, name: str, out: IO[bytes]) -> int:
        """The body of `url` written to `out`: its size, or _Failed."""
        limit = self.settings.max_bytes
        try:
            response = self._opener.open(url, timeout=self.settings.timeout)
        except urllib.error.HTTPError as exc:
            exc.close()
            raise _status_failure(exc.code, exc.reason) from None
        except urllib.error.URLError as exc:
            raise _network_failure(exc.reason) from None
        except TimeoutError:
            raise _Failed(Why.TIMEOUT) from None
        except (http.client.HTTPException, ConnectionError) as exc:
            raise _Failed(Why.NO_NETWORK, detail=_net_words(exc)) from None
        except ssl.SSLError as exc:
            raise _Failed(Why.TLS, detail=_net_words(exc)) from None
        except OSError as exc:
            raise _Failed(Why.NO_NETWORK, detail=_net_words(exc)) from None
        with response:
            announced = _length(response.headers.get("Content-Length"))
            if announced is not None and announced > limit:
                raise _Failed(Why.TOO_BIG, size=announced)
            done = 0
            if self.progress is not None:
                self.progress(name, 0, announced)
            while True:
                try:
                    block = response.read(CHUNK)
                except TimeoutError:
                    raise _Failed(Why.TIMEOUT) from None
                except http.client.IncompleteRead as exc:
                    raise _Failed(
                        Why.TRUNCATED, size=done + len(exc.partial), expected=announced or 0
                    ) from None
                except (http.client.HTTPException, ConnectionError) as exc:
                    raise _Failed(Why.NO_NETWORK, detail=_net_words(exc)) from None
                except ssl.SSLError as exc:
                    raise _Failed(Why.TLS, detail=_net_words(exc)) from None
                except OSError as exc:
                    raise _Failed(Why.NO_NETWORK, detail=_net_words(exc)) from None
                if not block:
                    break
                done += len(block)
                if done > limit:
                    raise _Failed(Why.TOO_BIG, size=done)
                out.write(block)  # (an OSError here is the cache's: the caller says so)
                if self.progress is not None:
                    self.progress(name, done, announced)
            if announced is not None and done < announced:
                raise _Failed(Why.TRUNCATED, size=done, expected=announced)
        return done


def check_list_zip(path: Path, rating_list: RatingList, period: Period, name: str) -> None:
    """Refuse (_Failed) a downloaded file that is not a zip holding `rating_list`'s list of
    `period`: one .txt or .xml member, every byte of it readable (its CRC), not more than
    MAX_UNZIPPED, whose name, header and first row say that list and month (what they say;
    a file that says neither is taken for what its name on the server says)."""
    with path.open("rb") as raw:
        head = raw.read(512)
    if not zipfile.is_zipfile(path):
        looks = head.lstrip().lower()
        html = looks.startswith((b"<!doctype html", b"<html", b"<?xml", b"<head", b"<body"))
        raise _Failed(Why.NOT_A_ZIP, detail="html" if html else "")
    try:
        with zipfile.ZipFile(path) as zf:
            members = [
                i
                for i in zf.infolist()
                if not i.is_dir() and i.filename.lower().endswith((".txt", ".xml"))
            ]
            if len(members) != 1:
                raise _Failed(
                    Why.NOT_A_LIST,
                    detail=f"{len(members)} .txt or .xml files in the zip, not one",
                )
            info = members[0]
            if info.file_size > MAX_UNZIPPED:
                raise _Failed(Why.TOO_BIG, size=info.file_size)
            said_list, said_period = list_from_name(info.filename), period_from_name(info.filename)
            if (said_list not in (None, rating_list)) or (said_period not in (None, period)):
                raise _Failed(Why.WRONG_LIST, found=(said_list, said_period))
            bad = zf.testzip()
            if bad is not None:
                raise _Failed(Why.NOT_A_LIST, detail=f"{bad} is damaged in the zip")
    except (zipfile.BadZipFile, zlib.error, EOFError, NotImplementedError, RuntimeError) as exc:
        raise _Failed(Why.NOT_A_LIST, detail=str(exc)) from None
    given_period = None if said_period is not None else period
    given_list = None if said_list is not None else rating_list
    try:
        with open_list(path, period=given_period, rating_list=given_list, label=name) as lst:
            first = next(iter(lst), None)
            if first is None:
                raise _Failed(Why.NOT_A_LIST, detail="no player in the list")
            held = lst.lists
            if lst.combined or held != (rating_list,) or lst.period != period:
                raise _Failed(
                    Why.WRONG_LIST,
                    found=(held[0] if len(held) == 1 else None, lst.period),
                    detail="combined" if lst.combined else "",
                )
    except BadInput as exc:
        raise _Failed(Why.NOT_A_LIST, detail=str(exc)) from None


# --- helpers --------------------------------------------------------------------------


def _looks_whole(path: Path, rating_list: RatingList, period: Period) -> bool:
    """A quick look at a file of the cache (it was checked whole when it landed): still a
    zip of one list whose name does not say another list or month."""
    try:
        if not zipfile.is_zipfile(path):
            return False
        with zipfile.ZipFile(path) as zf:
            members = [
                i
                for i in zf.infolist()
                if not i.is_dir() and i.filename.lower().endswith((".txt", ".xml"))
            ]
    except (OSError, zipfile.BadZipFile, EOFError, ValueError):
        return False
    if len(members) != 1 or members[0].file_size > MAX_UNZIPPED:
        return False
    name = members[0].filename
    return list_from_name(name) in (None, rating_list) and period_from_name(name) in (None, period)


def _new_part(folder: Path) -> Path:
    """A new empty temporary file in `folder`, named so that no list month is read from its
    name (hex digits: no `frl`)."""
    while True:
        part = folder / f"{PART_PREFIX}{secrets.token_hex(8)}{PART_SUFFIX}"
        try:
            fd = os.open(part, os.O_CREAT | os.O_EXCL | os.O_WRONLY, 0o644)
        except FileExistsError:
            continue
        os.close(fd)
        return part


def _flush(out: IO[bytes]) -> None:
    out.flush()
    os.fsync(out.fileno())


def _sync_folder(folder: Path) -> None:
    """The rename made durable (where the system can)."""
    with contextlib.suppress(OSError):
        fd = os.open(folder, os.O_RDONLY)
        try:
            os.fsync(fd)
        finally:
            os.close(fd)


def _size(path: Path) -> int:
    try:
        return path.stat().st_size
    except OSError:
        return 0


def _length(text: str | None) -> int | None:
    if text is None:
        return None
    text = text.strip()
    return int(text) if text.isdigit() else None


def _status_failure(code: int, reason: object) -> _Failed:
    words = str(reason or "").strip()
    if code in (404, 410):
        return _Failed(Why.NOT_PUBLISHED, status=code, detail=words)
    if code >= 500:
        return _Failed(Why.SERVER, status=code, detail=words)
    return _Failed(Why.REFUSED, status=code, detail=words)


def _network_failure(reason: object) -> _Failed:
    """A URLError's reason, sorted."""
    if isinstance(reason, socket.gaierror):
        if reason.errno in (socket.EAI_AGAIN,):  # no answer from the resolver: no network
            return _Failed(Why.NO_NETWORK, detail=_net_words(reason))
        return _Failed(Why.NO_SUCH_HOST, detail=_net_words(reason))
    if isinstance(reason, ssl.SSLError | ssl.CertificateError):
        return _Failed(Why.TLS, detail=_net_words(reason))
    if isinstance(reason, TimeoutError):
        return _Failed(Why.TIMEOUT)
    if isinstance(reason, OSError) and reason.errno in (errno.ETIMEDOUT,):
        return _Failed(Why.TIMEOUT)
    return _Failed(
        Why.NO_NETWORK,
        detail=_net_words(reason) if isinstance(reason, BaseException) else str(reason),
    )


def _net_words(exc: BaseException) -> str:
    """The system's words for a network error, one line ('Connection refused')."""
    if isinstance(exc, ssl.SSLCertVerificationError):
        text = exc.verify_message or exc.reason or str(exc)
    elif isinstance(exc, ssl.SSLError):
        text = exc.reason or str(exc)
    elif isinstance(exc, OSError) and exc.strerror:
        text = exc.strerror
    else:
        text = str(exc) or type(exc).__name__
    return " ".join(str(text).split())


def _os_words(exc: OSError) -> str:
    return " ".join(str(exc.strerror or exc).split())
