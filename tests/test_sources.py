"""Opening what the user names: files, folders, globs, archives, standard input."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import os
import sqlite3
import subprocess
import sys
import tarfile
import threading
import zipfile
from collections.abc import Callable, Iterator
from pathlib import Path
from typing import TYPE_CHECKING, Any, Literal

import pytest

import tracker.files.sources as sources
import tracker.files.spool as spool
from tests.conftest import SAMPLES, subprocess_env, tracker_command
from tracker.app.importing import ImportOptions, import_paths
from tracker.errors import BadInput, NotFound
from tracker.files.sources import MAX_NESTING, iter_sources, spool_source
from tracker.store import Store, open_store

if TYPE_CHECKING:
    from _typeshed import WriteableBuffer

PGN = b'[Event "E"]\n[White "A"]\n[Black "B"]\n[Result "1-0"]\n\n1. e4 1-0\n'


def names(paths: list[str]) -> list[str]:
    return [s.name for s in iter_sources(paths)]


def read(path: str | Path) -> list[bytes]:
    out = []
    for s in iter_sources([str(path)]):
        with s.open() as f:
            out.append(f.read())
    return out


def test_plain_and_compressed_files(tmp_path: Path) -> None:
    (tmp_path / "a.pgn").write_bytes(PGN)
    (tmp_path / "b.PGN.GZ").write_bytes(gzip.compress(PGN))
    (tmp_path / "c.pgn.bz2").write_bytes(bz2.compress(PGN))
    (tmp_path / "d.pgn.xz").write_bytes(lzma.compress(PGN))
    for name in ("a.pgn", "b.PGN.GZ", "c.pgn.bz2", "d.pgn.xz"):
        assert read(tmp_path / name) == [PGN]


def test_a_named_file_is_read_whatever_its_suffix(tmp_path: Path) -> None:
    (tmp_path / "games.txt").write_bytes(PGN)
    assert read(tmp_path / "games.txt") == [PGN]


def test_folder_is_searched_recursively_in_order(tmp_path: Path) -> None:
    (tmp_path / "sub" / "deeper").mkdir(parents=True)
    (tmp_path / "b.pgn").write_bytes(PGN)
    (tmp_path / "a.pgn.gz").write_bytes(gzip.compress(PGN))
    (tmp_path / "sub" / "deeper" / "c.Pgn").write_bytes(PGN)
    (tmp_path / "notes.txt").write_text("not a game")
    got = names([str(tmp_path)])
    assert got == [
        str(tmp_path / "a.pgn.gz"),
        str(tmp_path / "b.pgn"),
        str(tmp_path / "sub" / "deeper" / "c.Pgn"),
    ]


def test_zip_members_are_streamed(tmp_path: Path) -> None:
    z = tmp_path / "twic1427g.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("twic1427.pgn", PGN)
        zf.writestr("readme.txt", "hello")
        zf.writestr("more/second.PGN", PGN + PGN)
    got = list(iter_sources([str(z)]))
    assert [s.name for s in got] == [f"{z}:twic1427.pgn", f"{z}:more/second.PGN"]
    for s, want in zip(got, [PGN, PGN + PGN], strict=True):
        for _ in range(2):  # a fresh stream each time
            with s.open() as f:
                assert f.read() == want
    assert not list(tmp_path.glob("*.pgn"))  # nothing unpacked to disk


def test_zip_without_pgn(tmp_path: Path) -> None:
    z = tmp_path / "docs.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("readme.txt", "hello")
    with pytest.raises(BadInput, match="holds no .pgn file"):
        iter_sources([str(z)])


def test_not_a_zip(tmp_path: Path) -> None:
    (tmp_path / "fake.zip").write_bytes(b"this is not a zip")
    with pytest.raises(BadInput, match="not a readable zip"):
        iter_sources([str(tmp_path / "fake.zip")])


def test_glob_patterns(tmp_path: Path) -> None:
    (tmp_path / "x1.pgn").write_bytes(PGN)
    (tmp_path / "x2.pgn").write_bytes(PGN)
    (tmp_path / "y.pgn").write_bytes(PGN)
    assert names([str(tmp_path / "x*.pgn")]) == [str(tmp_path / "x1.pgn"), str(tmp_path / "x2.pgn")]
    with pytest.raises(NotFound, match="no file matches"):
        iter_sources([str(tmp_path / "z*.pgn")])


def test_missing_path_and_empty_folder(tmp_path: Path) -> None:
    with pytest.raises(NotFound, match="no such file or folder"):
        iter_sources([str(tmp_path / "missing.pgn")])
    (tmp_path / "empty").mkdir()
    (tmp_path / "empty" / "notes.txt").write_text("x")
    with pytest.raises(NotFound, match="holds no PGN files"):
        iter_sources([str(tmp_path / "empty")])
    with pytest.raises(BadInput):
        iter_sources([])


def test_errors_come_before_any_source(tmp_path: Path) -> None:
    (tmp_path / "a.pgn").write_bytes(PGN)
    with pytest.raises(NotFound):
        iter_sources([str(tmp_path / "a.pgn"), str(tmp_path / "missing.pgn")])


def test_the_same_file_twice_is_listed_once(tmp_path: Path) -> None:
    (tmp_path / "a.pgn").write_bytes(PGN)
    assert names([str(tmp_path), str(tmp_path / "a.pgn")]) == [str(tmp_path / "a.pgn")]


def test_damaged_archive_raises_bad_input_when_read(tmp_path: Path) -> None:
    from tracker.pgn import read_games

    (tmp_path / "bad.pgn.gz").write_bytes(gzip.compress(PGN * 100)[:60])
    (source,) = iter_sources([str(tmp_path / "bad.pgn.gz")])
    with source.open() as f, pytest.raises(BadInput, match="bad.pgn.gz: the file cannot be read"):
        list(read_games(f, source.name))


@pytest.mark.parametrize(
    "payload",
    [PGN, gzip.compress(PGN), bz2.compress(PGN), lzma.compress(PGN)],
    ids=["plain", "gzip", "bzip2", "xz"],
)
def test_spooled_stream_can_be_opened_again(payload: bytes) -> None:
    spool = io.BytesIO(payload)
    source = spool_source("-", spool)
    with source.open() as a, source.open() as b:
        assert a.read(10) == PGN[:10]
        assert b.read() == PGN
        assert a.read() == PGN[10:]


def test_spooled_zip_reads_its_first_pgn_member() -> None:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w") as zf:
        zf.writestr("x.pgn", PGN)
    with spool_source("-", buf).open() as f:
        assert f.read() == PGN


def test_standard_input_is_read_once(monkeypatch: pytest.MonkeyPatch) -> None:
    class FakeStdin:
        buffer = io.BytesIO(PGN)

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    monkeypatch.setattr(spool, "_STDIN", None)
    (first,) = iter_sources(["-"])
    (again,) = iter_sources(["-"])  # stdin is exhausted; the spool is kept
    assert first.name == "-"
    for s in (first, again, first):
        with s.open() as f:
            assert f.read() == PGN


def test_zip_member_reads_lines(tmp_path: Path) -> None:
    z = tmp_path / "a.zip"
    with zipfile.ZipFile(z, "w") as zf:
        zf.writestr("a.pgn", PGN)
    (source,) = iter_sources([str(z)])
    with source.open() as f:
        assert f.readline() == b'[Event "E"]\n'
        assert f.read() == PGN[len(b'[Event "E"]\n') :]


# -- issue 19: a zip of many members, same-named members, bad entries, limits ---------------


def game(i: int) -> bytes:
    return PGN.replace(b'"E"', f'"E{i}"'.encode())


@pytest.mark.slow  # import workers (processes) over archives
def test_a_zip_of_many_members_is_opened_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 6: the central directory was read again for every member (twice: the hash,
    then the games): 2,000 members took 37 s. Now the members share one open archive: the
    number of ZipFile opens does not grow with the members (linear, not quadratic)."""
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.store import open_store

    opened: list[int] = []

    class Counted(zipfile.ZipFile):
        def __init__(self, *args: Any, **kwargs: Any) -> None:
            opened.append(1)
            super().__init__(*args, **kwargs)

    monkeypatch.setattr(zipfile, "ZipFile", Counted)
    counts = []
    for n in (20, 200):
        z = tmp_path / f"m{n}.zip"
        with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
            for i in range(n):
                zf.writestr(f"g{i:04}.pgn", game(i))
        opened.clear()
        with open_store(str(tmp_path / f"m{n}.db")) as store:
            report = import_paths(store, [str(z)], ImportOptions(workers=False))
        assert report.total("added") == n and not report.failed
        counts.append(len(opened))
    assert counts[0] == counts[1] <= 2, counts


def test_two_zip_members_of_one_name_are_both_read(tmp_path: Path) -> None:
    """Item 9: the second `x.pgn` of a zip written twice over was dropped without a word."""
    import warnings

    z = tmp_path / "twice.zip"
    with warnings.catch_warnings(), zipfile.ZipFile(z, "w") as zf:
        warnings.simplefilter("ignore")  # zipfile warns of the duplicate name
        zf.writestr("x.pgn", game(1))
        zf.writestr("x.pgn", game(2))
    got = list(iter_sources([str(z)]))
    assert [s.name for s in got] == [f"{z}:x.pgn", f"{z}:x.pgn (copy 2)"]
    for s, want in zip(got, [game(1), game(2)], strict=True):
        with s.open() as f:
            assert f.read() == want


def test_a_newer_copy_appended_to_a_tar_is_read_too(tmp_path: Path) -> None:
    """Item 9: `tar -r` appends a newer x.pgn; both are read, the newer one named so."""
    import tarfile

    t = tmp_path / "s.tar"
    for data in (game(1), game(2)):
        with tarfile.open(t, "a") as tf:
            info = tarfile.TarInfo("x.pgn")
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    got = list(iter_sources([str(t)]))
    assert [s.name for s in got] == [f"{t}:x.pgn", f"{t}:x.pgn (copy 2)"]
    with got[1].open() as f:
        assert f.read() == game(2)


def bad_folder(tmp_path: Path) -> Path:
    """A folder with two good files and every kind of bad entry."""
    d = tmp_path / "games"
    (d / "sub").mkdir(parents=True)
    (d / "a.pgn").write_bytes(game(1))
    (d / "sub" / "b.pgn").write_bytes(game(2))
    (d / "damaged.zip").write_bytes(b"PK\x03\x04 not really a zip")
    with zipfile.ZipFile(d / "photos.zip", "w") as zf:
        zf.writestr("cat.jpg", b"\xff\xd8")
    (d / "dangling.pgn").symlink_to(d / "gone.pgn")
    (d / "loop.pgn").symlink_to(d / "loop.pgn")
    (d / "sub" / "up").symlink_to(d)  # a link back to a folder above: not followed
    return d


def test_a_bad_entry_in_a_folder_fails_alone(tmp_path: Path) -> None:
    """Item 9: a damaged or unrelated zip, a dangling link or a link loop in a folder
    stopped the whole folder (or was an internal error: ELOOP); each now fails alone."""
    d = bad_folder(tmp_path)
    got = {s.name: s for s in iter_sources([str(d)])}
    assert sorted(got) == sorted(
        str(d / n)
        for n in ("a.pgn", "damaged.zip", "dangling.pgn", "loop.pgn", "photos.zip", "sub/b.pgn")
    )
    for name, why in (
        ("damaged.zip", "is not a readable zip archive"),
        ("dangling.pgn", "is a symbolic link to .*gone.pgn, which does not exist"),
        ("loop.pgn", "is a symbolic link that leads back to itself"),
        ("photos.zip", "holds no .pgn file"),
    ):
        with pytest.raises((BadInput, NotFound), match=why):
            got[str(d / name)].open()
    for name, data in (("a.pgn", game(1)), ("sub/b.pgn", game(2))):
        with got[str(d / name)].open() as f:
            assert f.read() == data


def test_a_link_loop_named_itself_is_one_clear_error(tmp_path: Path) -> None:
    (tmp_path / "loop.pgn").symlink_to(tmp_path / "loop.pgn")
    with pytest.raises(BadInput, match="loop.pgn is a symbolic link that leads back to itself"):
        iter_sources([str(tmp_path / "loop.pgn")])
    (tmp_path / "gone.pgn").symlink_to(tmp_path / "nothing.pgn")
    with pytest.raises(NotFound, match="gone.pgn is a symbolic link to .*nothing.pgn, which"):
        iter_sources([str(tmp_path / "gone.pgn")])


def test_a_subfolder_that_cannot_be_read_is_said(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Item 9: os.walk skipped an unreadable subfolder without a word. (Simulated: the tests
    may run as root, whom permissions do not stop.)"""
    import os

    d = tmp_path / "games"
    (d / "locked").mkdir(parents=True)
    (d / "locked" / "x.pgn").write_bytes(game(1))
    (d / "a.pgn").write_bytes(game(2))
    real_scandir = os.scandir

    def scandir(path: str | os.PathLike[str] = ".") -> Iterator[os.DirEntry[str]]:
        if str(path) == str(d / "locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)

    monkeypatch.setattr(os, "scandir", scandir)
    got = list(iter_sources([str(d)]))
    assert [s.name for s in got] == [str(d / "a.pgn"), str(d / "locked")]
    with pytest.raises(
        BadInput,
        match=r"folder .*locked cannot be read \(Permission denied\); "
        "nothing in it was imported",
    ):
        got[1].open()


def test_a_double_star_glob_through_link_loops_ends(tmp_path: Path) -> None:
    """Item 9: glob's `**` followed two links that loop (2^40 paths: never returned); each
    real folder is now visited once."""
    import signal

    d = tmp_path / "games"
    (d / "sub").mkdir(parents=True)
    (d / "a.pgn").write_bytes(game(1))
    (d / "sub" / "b.pgn").write_bytes(game(2))
    (d / "sub" / "up").symlink_to(d)
    (d / "sub" / "up2").symlink_to(d)

    def too_long(signum: int, frame: object) -> None:
        raise TimeoutError("the glob did not end")

    old = signal.signal(signal.SIGALRM, too_long)
    signal.alarm(20)
    try:
        got = names([str(d / "**" / "*.pgn")])
    finally:
        signal.alarm(0)
        signal.signal(signal.SIGALRM, old)
    assert got == [str(d / "a.pgn"), str(d / "sub" / "b.pgn")]
    assert names([str(d / "**")]) == [str(d / "a.pgn"), str(d / "sub" / "b.pgn")]
    assert names([str(d / "*" / "*.pgn")]) == [str(d / "sub" / "b.pgn")]


# -- limits (item 5) --------------------------------------------------------------------------


@pytest.mark.slow  # decompresses until the ratio is past the limit
def test_a_decompression_bomb_is_refused_by_its_ratio(tmp_path: Path) -> None:
    """Item 5: 100 GiB of zeros in a 76 KB .bz2 ran for 47 minutes printing nothing; the
    ratio limit stops it past RATIO_FLOOR (here 24 MiB of zeros: a fraction of a second)."""
    from tracker.files.sources import RATIO_FLOOR, LimitExceeded

    for suffix, pack in ((".bz2", bz2.compress), (".gz", gzip.compress), (".xz", lzma.compress)):
        bomb = tmp_path / f"zeros.pgn{suffix}"
        bomb.write_bytes(pack(b"\0" * (RATIO_FLOOR + 8 * sources.MiB)))
        (source,) = iter_sources([str(bomb)])
        with (
            source.open() as f,
            pytest.raises(
                LimitExceeded,
                match=(
                    "zeros.pgn.*: decompresses to over 1,000 times its size: refused as a "
                    "decompression bomb; if the file is genuine, raise --max-ratio"
                ),
            ),
        ):
            while f.read(1 << 16):
                pass


def test_the_size_limit_and_raising_it(tmp_path: Path) -> None:
    from tracker.files.sources import LimitExceeded, Limits

    big = tmp_path / "big.pgn.gz"
    data = PGN * 30_000  # 1.7 MB
    big.write_bytes(gzip.compress(data))
    (source,) = iter_sources([str(big)], Limits(max_size=sources.MiB))
    for how in ("read", "readline", "seek"):
        with (
            source.open() as f,
            pytest.raises(
                LimitExceeded,
                match=(
                    r"big.pgn.gz: more than 1M once decompressed: refused \(a decompression "
                    r"bomb\?\); if the file is genuine, raise --max-size"
                ),
            ),
        ):
            if how == "read":
                f.read()
            elif how == "readline":
                while f.readline():
                    pass
            else:
                f.seek(0, io.SEEK_END)
    (source,) = iter_sources([str(big)], Limits(max_size=2 * sources.MiB))
    with source.open() as f:
        assert f.read() == data


def test_a_zip_member_past_the_limits_is_refused_from_its_sizes(tmp_path: Path) -> None:
    from tracker.files.sources import LimitExceeded, Limits

    z = tmp_path / "z.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        zf.writestr("big.pgn", PGN * 30_000)
        zf.writestr("small.pgn", PGN)
    big, small = iter_sources([str(z)], Limits(max_size=sources.MiB))
    with pytest.raises(LimitExceeded, match=r"z.zip:big.pgn: more than 1M once decompressed"):
        big.open()
    with small.open() as f:
        assert f.read() == PGN
    big, _ = iter_sources([str(z)], Limits(max_ratio=2))
    with big.open() as f:  # under RATIO_FLOOR: a small file may shrink a lot
        assert len(f.read()) == len(PGN) * 30_000


def test_standard_input_is_bounded_and_shows_progress(monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 5: `cat /dev/zero | tracker import -` spooled until the disk was full."""
    from tracker.files.sources import LimitExceeded, Limits

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: WriteableBuffer) -> int:
            view = memoryview(buffer).cast("B")
            view[:] = bytes(len(view))
            return len(view)

    class FakeStdin:
        buffer = io.BufferedReader(Endless())

    said: list[tuple[str, int]] = []
    monkeypatch.setattr(sys, "stdin", FakeStdin())
    monkeypatch.setattr(spool, "_STDIN", None)
    limits = Limits(max_size=40 * sources.MiB, on_spool=lambda n, b: said.append((n, b)))
    with pytest.raises(
        LimitExceeded,
        match=r"standard input holds more than 40M: refused "
        r"\(nothing of it was imported\)",
    ):
        iter_sources(["-"], limits)
    assert said == [("-", 16 * sources.MiB), ("-", 32 * sources.MiB), ("-", -1)]


@pytest.mark.parametrize(
    "text, size",
    [("100", 100), ("1K", 1024), ("16G", 16 << 30), ("1.5M", 3 << 19), ("2gib", 2 << 30)],
)
def test_sizes_as_the_option_takes_them(text: str, size: int) -> None:
    assert sources.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "0", "-1", "x", "1Q", "1e30"])
def test_a_size_that_is_not_one(text: str) -> None:
    with pytest.raises(BadInput, match="is not a size"):
        sources.parse_size(text)


@pytest.mark.slow  # import workers (processes) over archives
@pytest.mark.parametrize("workers", [False, True])
def test_zip_members_read_through_one_archive_in_workers_too(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: bool
) -> None:
    """The shared archive is opened again in a forked worker (never the parent's file
    position); the games are the same either way, hash thread and all."""
    from tracker.app.importing import ImportOptions, import_paths
    from tracker.importer import batches
    from tracker.store import open_store

    monkeypatch.setattr(batches, "WORKER_MIN_BYTES", 0)  # the path of big sources
    z = tmp_path / "w.zip"
    with zipfile.ZipFile(z, "w", zipfile.ZIP_DEFLATED) as zf:
        for i in range(12):
            zf.writestr(f"m{i:02}.pgn", b"".join(game(i * 10 + j) for j in range(10)))
    with open_store(str(tmp_path / "w.db")) as store:
        report = import_paths(store, [str(z)], ImportOptions(workers=workers))
        assert report.total("added") == 120 and not report.failed
        again = import_paths(store, [str(z)], ImportOptions(workers=workers))
    assert all(s.already is not None for s in again.sources)


@pytest.mark.slow  # benchmark smoke: a bench script on generated data
def test_the_zip_members_bench_runs(tmp_path: Path) -> None:
    """bench/zip_members.py (the figures of docs/reliability.md), on a tiny zip."""
    import subprocess

    from tests.conftest import REPO

    proc = subprocess.run(
        [
            sys.executable,
            str(REPO / "bench" / "zip_members.py"),
            "--members",
            "30",
            "--runs",
            "1",
            "--workdir",
            str(tmp_path),
        ],
        capture_output=True,
        text=True,
        timeout=300,
        cwd=REPO,
    )
    assert proc.returncode == 0, proc.stderr[-2000:]
    assert "| 30 | " in proc.stdout


def test_a_named_pipe_in_a_folder_fails_alone_without_waiting(tmp_path: Path) -> None:
    """Opening a named pipe waits for a writer: found in a folder, it would hang the import."""
    import os

    d = tmp_path / "games"
    d.mkdir()
    (d / "a.pgn").write_bytes(game(1))
    os.mkfifo(d / "pipe.pgn")
    a, pipe = iter_sources([str(d)])
    assert pipe.name == str(d / "pipe.pgn")
    with pytest.raises(
        BadInput,
        match=r"pipe.pgn is a named pipe, not a file: not read from a "
        r"folder \(it could wait for ever\); name it itself",
    ):
        pipe.open()
    with a.open() as f:
        assert f.read() == game(1)


# -- tar archives, a zip on standard input, names that are not UTF-8, pipes named as paths,
# archives inside archives, compression told by magic bytes (bugs of the QA run) ---------


def dated_game(n: int) -> bytes:
    return (
        f'[Event "E"]\n[Site "S"]\n[Date "2025.10.0{n % 9 + 1}"]\n[Round "{n}"]\n'
        f'[White "A, B"]\n[Black "C, D"]\n[Result "1-0"]\n\n1. e4 e5 2. Nf3 1-0\n\n'
    ).encode()


A, B, C = dated_game(1), dated_game(2) + dated_game(3), dated_game(4)


def contents(paths: list[str]) -> list[tuple[str, bytes]]:
    out = []
    for s in iter_sources(paths):
        with s.open() as f:
            out.append((s.name, f.read()))
    return out


TarMode = Literal["w", "w:gz", "w:bz2", "w:xz"]


def tar_bytes(members: list[tuple[str, bytes]], mode: TarMode = "w") -> bytes:
    buf = io.BytesIO()
    with tarfile.open(fileobj=buf, mode=mode) as tf:
        for name, data in members:
            info = tarfile.TarInfo(name)
            info.size = len(data)
            tf.addfile(info, io.BytesIO(data))
    return buf.getvalue()


def zip_bytes(members: list[tuple[str, bytes]]) -> bytes:
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as zf:
        for name, data in members:
            zf.writestr(name, data)
    return buf.getvalue()


# -- bug 1: tar archives ----------------------------------------------------------------------

TAR_MODES: dict[str, TarMode] = {
    ".tar": "w",
    ".tar.gz": "w:gz",
    ".tgz": "w:gz",
    ".tar.bz2": "w:bz2",
    ".tar.xz": "w:xz",
}


@pytest.mark.parametrize("suffix", list(TAR_MODES))
def test_tar_members_are_read_in_order(tmp_path: Path, suffix: str) -> None:
    members = [
        ("./b.pgn", B),
        ("readme.txt", b"not games"),
        ("./sub/a.PGN", A),
        ("./" + "long" * 40 + ".pgn", C),
    ]  # a name over 100 bytes (a GNU/pax header)
    t = tmp_path / f"s{suffix}"
    t.write_bytes(tar_bytes(members, TAR_MODES[suffix]))
    want = [(f"{t}:{n.removeprefix('./')}", d) for n, d in members if n != "readme.txt"]
    assert contents([str(t)]) == want
    assert contents([str(t)]) == want  # a fresh stream each time
    assert sorted(p.name for p in tmp_path.iterdir()) == [t.name]  # nothing unpacked


def test_a_folder_picks_up_tar_archives(tmp_path: Path) -> None:
    (tmp_path / "s.tgz").write_bytes(tar_bytes([("a.pgn", A)], "w:gz"))
    assert contents([str(tmp_path)]) == [(f"{tmp_path / 's.tgz'}:a.pgn", A)]


def test_tar_without_pgn_and_damaged_tar(tmp_path: Path) -> None:
    (tmp_path / "docs.tar").write_bytes(tar_bytes([("readme.txt", b"x")]))
    with pytest.raises(BadInput, match=r"docs.tar holds no .pgn file"):
        iter_sources([str(tmp_path / "docs.tar")])
    whole = tar_bytes([("a.pgn", A * 2000)], "w:gz")
    (tmp_path / "cut.tar.gz").write_bytes(whole[: len(whole) // 2])
    with pytest.raises(BadInput, match=r"cut.tar.gz is not a readable tar archive"):
        iter_sources([str(tmp_path / "cut.tar.gz")])


def test_a_member_cut_short_is_an_error_not_fewer_games(tmp_path: Path) -> None:
    from tracker.pgn import read_games

    whole = tar_bytes([("a.pgn", A * 50)])
    (tmp_path / "cut.tar").write_bytes(whole)
    (source,) = iter_sources([str(tmp_path / "cut.tar")])
    (tmp_path / "cut.tar").write_bytes(whole[:1000])  # cut after the listing
    with source.open() as f, pytest.raises(BadInput, match=r"cut.tar:a.pgn: the file cannot"):
        list(read_games(f, source.name))


def test_tar_then_its_files_are_recognised(store: Store, db_path: Path, tmp_path: Path) -> None:
    """The reproduction: a tar.gz of three sample files, then the files themselves."""
    names = [
        "2025-09-12_brno-autumn-open.pgn",
        "2025-10-03_olomouc-open.pgn",
        "2025-11-21_weinviertel-open.pgn",
    ]
    t = tmp_path / "s.tar.gz"
    t.write_bytes(tar_bytes([(f"./{n}", (SAMPLES / n).read_bytes()) for n in names], "w:gz"))
    first = import_paths(store, [str(t)], ImportOptions())
    assert [s.problem_count for s in first.sources] == [0, 0, 0]
    assert first.total("added") == sum((SAMPLES / n).read_bytes().count(b"[Event ") for n in names)
    again = import_paths(store, [str(SAMPLES / n) for n in names], ImportOptions())
    assert again.total("added") == 0
    assert all(s.already is not None for s in again.sources)
    con = sqlite3.connect(db_path)
    try:
        events = {r[0] for r in con.execute("SELECT event FROM tournaments")}
    finally:
        con.close()
    assert "?" not in events and len(events) == 3


# -- bug 2: a zip on standard input -----------------------------------------------------------


def fake_stdin(monkeypatch: pytest.MonkeyPatch, data: bytes) -> None:
    class FakeStdin:
        buffer = io.BytesIO(data)

    monkeypatch.setattr(sys, "stdin", FakeStdin())
    monkeypatch.setattr(spool, "_STDIN", None)


def test_a_zip_on_standard_input_yields_every_member(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin(monkeypatch, zip_bytes([("a.pgn", A), ("x.txt", b"no"), ("b.pgn", B)]))
    assert contents(["-"]) == [("-:a.pgn", A), ("-:b.pgn", B)]


def test_a_tar_on_standard_input(monkeypatch: pytest.MonkeyPatch) -> None:
    fake_stdin(monkeypatch, tar_bytes([("a.pgn", A), ("b.pgn", B)], "w:bz2"))
    assert contents(["-"]) == [("-:a.pgn", A), ("-:b.pgn", B)]


def test_a_zip_on_standard_input_imports_every_game(
    store: Store, monkeypatch: pytest.MonkeyPatch
) -> None:
    fake_stdin(monkeypatch, zip_bytes([("a.pgn", A), ("b.pgn", B + C)]))
    report = import_paths(store, ["-"], ImportOptions())
    assert [(s.name, s.added) for s in report.sources] == [("-:a.pgn", 1), ("-:b.pgn", 3)]


def test_a_big_spool_is_read_by_two_readers_at_once(monkeypatch: pytest.MonkeyPatch) -> None:
    """Past 32 MB the spool is a temporary file: reads never share its position."""
    monkeypatch.setattr(spool, "_SPOOL_MEMORY", 1000)
    data = B * 200
    fake_stdin(monkeypatch, data)
    (source,) = iter_sources(["-"])
    got: list[bytes] = []

    def read() -> None:
        with source.open() as f:
            got.append(b"".join(iter(lambda: f.read(7), b"")))

    try:
        threads = [threading.Thread(target=read) for _ in range(4)]
        for t in threads:
            t.start()
        for t in threads:
            t.join()
    finally:
        # The package keeps the spool (a temporary file here) for the process; the end of
        # the monkeypatch drops it unclosed, so the test that made it closes it.
        kept = spool._STDIN
        if kept is not None:
            kept.close()
    assert kept is not None and not isinstance(kept, io.BytesIO)  # on disk, as meant
    assert got == [data] * 4


# -- bug 7: file names that are not UTF-8 -----------------------------------------------------


def bad_name(folder: Path) -> Path:
    name = os.fsdecode(b"Open_\x8e\xe1r.pgn")
    path = folder / name
    try:
        path.write_bytes(A)
    except (OSError, UnicodeEncodeError):  # pragma: no cover - a file system without them
        pytest.skip("the file system refuses names that are not UTF-8")
    return path


def test_a_name_that_is_not_utf8_is_shown_escaped(tmp_path: Path) -> None:
    path = bad_name(tmp_path)
    (tmp_path / "b.pgn").write_bytes(B)
    want = [(f"{tmp_path}/Open_\\x8e\\xe1r.pgn", A), (str(tmp_path / "b.pgn"), B)]
    assert contents([str(tmp_path)]) == want
    assert contents([str(path)]) == want[:1]


@pytest.mark.slow  # tracker in a subprocess
def test_a_name_that_is_not_utf8_is_imported(tmp_path: Path) -> None:
    bad_name(tmp_path)
    (tmp_path / "b.pgn").write_bytes(B)
    db = tmp_path / "t.db"
    open_store(str(db)).close()  # the import under test, not the creation of a database
    done = subprocess.run(
        tracker_command("import", str(tmp_path), "--db", str(db)),
        capture_output=True,
        env=subprocess_env(),
        timeout=120,
        check=False,
    )
    assert done.returncode == 0, done.stderr
    con = sqlite3.connect(db)
    try:
        stored = sorted(r[0] for r in con.execute("SELECT source FROM imports"))
        games = con.execute("SELECT count(*) FROM games").fetchone()[0]
    finally:
        con.close()
    assert stored == [f"{tmp_path}/Open_\\x8e\\xe1r.pgn", str(tmp_path / "b.pgn")]
    assert games == 3
    assert b"Open_\\x8e\\xe1r.pgn: 1 game read, 1 added" in done.stdout


# -- bug 11: pipes named as paths -------------------------------------------------------------


def test_a_named_pipe_is_read_once(tmp_path: Path) -> None:
    fifo = tmp_path / "games.pgn"
    os.mkfifo(fifo)

    def write() -> None:
        with open(fifo, "wb") as f:
            f.write(gzip.compress(B))

    writer = threading.Thread(target=write)
    writer.start()
    got = contents([str(fifo)])
    writer.join()
    assert got == [(str(fifo), B)]


@pytest.mark.slow  # tracker in a subprocess
def test_a_pipe_given_as_dev_fd(tmp_path: Path) -> None:
    """`tracker import <(cat f.pgn)` and `cat f.pgn | tracker import /dev/stdin`."""
    f = tmp_path / "f.pgn"
    f.write_bytes(B)
    db = tmp_path / "t.db"
    open_store(str(db)).close()  # the import under test, not the creation of a database
    # the exit of `with Popen` closes our end of cat's pipe and waits for cat
    with (
        open(f, "rb") as data,
        subprocess.Popen(["cat"], stdin=data, stdout=subprocess.PIPE) as cat,
    ):
        assert cat.stdout is not None
        done = subprocess.run(
            tracker_command("import", "/dev/stdin", "--db", str(db)),
            stdin=cat.stdout,
            capture_output=True,
            env=subprocess_env(),
            timeout=120,
            check=False,
        )
    assert done.returncode == 0, done.stderr
    assert b"/dev/stdin: 2 games read, 2 added" in done.stdout


def test_a_device_is_refused() -> None:
    with pytest.raises(BadInput, match=r"/dev/zero is a device, not a file"):
        iter_sources(["/dev/zero"])


# -- bug 23: archives inside archives, compression told by its magic bytes --------------------


def test_a_zip_inside_a_zip_is_read(tmp_path: Path) -> None:
    inner = zip_bytes([("a.pgn", A), ("b.pgn", B)])
    z = tmp_path / "outer.zip"
    z.write_bytes(zip_bytes([("inner.zip", inner), ("c.pgn.gz", gzip.compress(C))]))
    assert contents([str(z)]) == [
        (f"{z}:inner.zip:a.pgn", A),
        (f"{z}:inner.zip:b.pgn", B),
        (f"{z}:c.pgn.gz", C),
    ]


def test_archives_inside_a_tar_gz(tmp_path: Path) -> None:
    t = tmp_path / "all.tar.gz"
    t.write_bytes(
        tar_bytes(
            [
                ("one.zip", zip_bytes([("a.pgn", A)])),
                ("two.tar.xz", tar_bytes([("b.pgn", B)], "w:xz")),
                ("three.pgn.bz2", bz2.compress(C)),
            ],
            "w:gz",
        )
    )
    assert contents([str(t)]) == [
        (f"{t}:one.zip:a.pgn", A),
        (f"{t}:two.tar.xz:b.pgn", B),
        (f"{t}:three.pgn.bz2", C),
    ]


def test_members_of_the_same_name_in_two_inner_archives_are_both_kept(tmp_path: Path) -> None:
    z = tmp_path / "outer.zip"
    z.write_bytes(
        zip_bytes([("x.zip", zip_bytes([("a.pgn", A)])), ("y.zip", zip_bytes([("a.pgn", B)]))])
    )
    assert [d for _, d in contents([str(z)])] == [A, B]


def test_too_deep_or_empty_inner_archives_fail_alone(tmp_path: Path) -> None:
    deep = zip_bytes([("a.pgn", A)])
    for level in range(MAX_NESTING):
        deep = zip_bytes([(f"level{level}.zip", deep)])
    z = tmp_path / "outer.zip"
    z.write_bytes(
        zip_bytes([("deep.zip", deep), ("docs.zip", zip_bytes([("r.txt", b"x")])), ("b.pgn", B)])
    )
    got = list(iter_sources([str(z)]))
    assert [s.name for s in got] == [
        f"{z}:deep.zip:level{MAX_NESTING - 1}.zip:level{MAX_NESTING - 2}.zip",
        f"{z}:docs.zip",
        f"{z}:b.pgn",
    ]
    with pytest.raises(BadInput, match=f"an archive inside {MAX_NESTING} archives"):
        got[0].open()
    with pytest.raises(BadInput, match=r"outer.zip:docs.zip holds no .pgn file"):
        got[1].open()
    with got[2].open() as f:
        assert f.read() == B


def test_a_nested_archive_imports_every_game(store: Store, tmp_path: Path) -> None:
    z = tmp_path / "outer.zip"
    z.write_bytes(zip_bytes([("inner.zip", zip_bytes([("a.pgn", A), ("b.pgn", B)]))]))
    assert import_paths(store, [str(z)], ImportOptions()).total("added") == 3


@pytest.mark.parametrize(
    "pack", [gzip.compress, bz2.compress, lzma.compress, None], ids=["gzip", "bzip2", "xz", "zip"]
)
def test_compression_is_told_by_its_magic_bytes(
    tmp_path: Path, pack: Callable[[bytes], bytes] | None
) -> None:
    f = tmp_path / "games"
    if pack is None:
        f.write_bytes(zip_bytes([("a.pgn", A)]))
        assert contents([str(f)]) == [(f"{f}:a.pgn", A)]
    else:
        f.write_bytes(pack(B))
        assert contents([str(f)]) == [(str(f), B)]


def test_a_gz_name_holding_plain_pgn_is_read(tmp_path: Path) -> None:
    (tmp_path / "plain.pgn.gz").write_bytes(B)
    assert contents([str(tmp_path / "plain.pgn.gz")]) == [(str(tmp_path / "plain.pgn.gz"), B)]


def test_a_plain_file_still_opens_as_a_plain_file(tmp_path: Path) -> None:
    """The import splits a big plain file for two workers only when it is a real file."""
    (tmp_path / "a.pgn").write_bytes(B)
    (source,) = iter_sources([str(tmp_path / "a.pgn")])
    with source.open() as f:
        assert type(f) is io.BufferedReader and isinstance(f.raw, io.FileIO)


def test_an_encrypted_member_fails_alone_with_a_clear_line(tmp_path: Path) -> None:
    z = tmp_path / "enc.zip"
    data = bytearray(zip_bytes([("secret.pgn", A), ("open.pgn", B)]))
    local, central = data.index(b"PK\x03\x04"), data.index(b"PK\x01\x02")
    data[local + 6] |= 0x1  # the first member marked encrypted: reading needs a password
    data[central + 8] |= 0x1
    z.write_bytes(bytes(data))
    secret, plain = iter_sources([str(z)])
    with pytest.raises(BadInput, match=r"enc.zip:secret.pgn: the archive member is encrypted"):
        secret.open()
    with plain.open() as f:
        assert f.read() == B


def test_a_tar_gz_of_many_members_is_read_in_one_pass(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Member after member (twice each: the content hash, then the games), the decompressed
    stream goes on where the previous member ended instead of starting again each time."""
    members = [(f"m{i:03}.pgn", dated_game(i) * 50) for i in range(60)]
    t = tmp_path / "many.tgz"
    t.write_bytes(tar_bytes(members, "w:gz"))
    found = list(iter_sources([str(t)]))
    opened: list[str] = []
    real_open = open

    def counting_open(path: str, mode: str = "r") -> object:
        opened.append(path)
        return real_open(path, mode)

    monkeypatch.setattr(sources, "open", counting_open, raising=False)
    for source, (_, data) in zip(found, members, strict=True):
        with source.open() as first, source.open() as second:
            assert first.read() == data
            assert second.read() == data
    assert len(opened) <= 4


@pytest.mark.slow  # import workers (processes) over archives
@pytest.mark.parametrize("workers", [False, True])
def test_importing_a_tar_gz_in_a_worker_gives_the_same_result(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: bool
) -> None:
    from tests.conftest import dump_db
    from tracker.importer import batches

    monkeypatch.setattr(batches, "WORKER_MIN_BYTES", 0)  # the path of big sources
    members = [
        (f"m{i:03}.pgn", b"".join(dated_game(i * 10 + j) for j in range(10))) for i in range(12)
    ]
    t = tmp_path / "s.tar.gz"
    t.write_bytes(tar_bytes(members, "w:gz"))
    plain = tmp_path / "plain"
    plain.mkdir()
    for name, data in members:
        (plain / name).write_bytes(data)
    dumps = []
    for what, db in ((t, tmp_path / "a.db"), (plain, tmp_path / "b.db")):
        with open_store(str(db)) as store:
            report = import_paths(store, [str(what)], ImportOptions(workers=workers))
        assert report.total("added") == 120 and not report.failed
        dumps.append([line for line in dump_db(db) if 'INSERT INTO "imports"' not in line])
    assert dumps[0] == dumps[1]


def test_a_zip_name_holding_a_tar_gz_is_read(tmp_path: Path) -> None:
    z = tmp_path / "games.zip"
    z.write_bytes(tar_bytes([("a.pgn", A)], "w:gz"))
    assert contents([str(z)]) == [(f"{z}:a.pgn", A)]
