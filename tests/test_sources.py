"""Opening what the user names: files, folders, globs, archives, standard input."""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import sys
import zipfile
from pathlib import Path

import pytest

import tracker.sources as sources
from tracker.errors import BadInput, NotFound
from tracker.sources import iter_sources, spool_source

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
    monkeypatch.setattr(sources, "_STDIN", None)
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


def test_a_zip_of_many_members_is_opened_once(tmp_path: Path,
                                              monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 6: the central directory was read again for every member (twice: the hash,
    then the games): 2,000 members took 37 s. Now the members share one open archive: the
    number of ZipFile opens does not grow with the members (linear, not quadratic)."""
    from tracker.importer import ImportOptions, import_paths
    from tracker.store import open_store

    opened: list[int] = []

    class Counted(zipfile.ZipFile):
        def __init__(self, *args: object, **kwargs: object) -> None:
            opened.append(1)
            super().__init__(*args, **kwargs)  # type: ignore[arg-type]

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
    assert sorted(got) == sorted(str(d / n) for n in (
        "a.pgn", "damaged.zip", "dangling.pgn", "loop.pgn", "photos.zip", "sub/b.pgn"))
    for name, why in (("damaged.zip", "is not a readable zip archive"),
                      ("dangling.pgn", "is a symbolic link to .*gone.pgn, which does not exist"),
                      ("loop.pgn", "is a symbolic link that leads back to itself"),
                      ("photos.zip", "holds no .pgn file")):
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


def test_a_subfolder_that_cannot_be_read_is_said(tmp_path: Path,
                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    """Item 9: os.walk skipped an unreadable subfolder without a word. (Simulated: the tests
    may run as root, whom permissions do not stop.)"""
    import os

    d = tmp_path / "games"
    (d / "locked").mkdir(parents=True)
    (d / "locked" / "x.pgn").write_bytes(game(1))
    (d / "a.pgn").write_bytes(game(2))
    real_scandir = os.scandir

    def scandir(path: object = ".") -> object:
        if str(path) == str(d / "locked"):
            raise PermissionError(13, "Permission denied", str(path))
        return real_scandir(path)  # type: ignore[arg-type]

    monkeypatch.setattr(os, "scandir", scandir)
    got = list(iter_sources([str(d)]))
    assert [s.name for s in got] == [str(d / "a.pgn"), str(d / "locked")]
    with pytest.raises(BadInput, match=r"folder .*locked cannot be read \(Permission denied\); "
                                       "nothing in it was imported"):
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


def test_a_decompression_bomb_is_refused_by_its_ratio(tmp_path: Path) -> None:
    """Item 5: 100 GiB of zeros in a 76 KB .bz2 ran for 47 minutes printing nothing; the
    ratio limit stops it past RATIO_FLOOR (here 24 MiB of zeros: a fraction of a second)."""
    from tracker.sources import RATIO_FLOOR, LimitExceeded

    for suffix, pack in ((".bz2", bz2.compress), (".gz", gzip.compress),
                         (".xz", lzma.compress)):
        bomb = tmp_path / f"zeros.pgn{suffix}"
        bomb.write_bytes(pack(b"\0" * (RATIO_FLOOR + 8 * sources.MiB)))
        (source,) = iter_sources([str(bomb)])
        with source.open() as f, pytest.raises(LimitExceeded, match=(
                "zeros.pgn.*: decompresses to over 1,000 times its size: refused as a "
                "decompression bomb; if the file is genuine, raise --max-ratio")):
            while f.read(1 << 16):
                pass


def test_the_size_limit_and_raising_it(tmp_path: Path) -> None:
    from tracker.sources import LimitExceeded, Limits

    big = tmp_path / "big.pgn.gz"
    data = PGN * 30_000  # 1.7 MB
    big.write_bytes(gzip.compress(data))
    (source,) = iter_sources([str(big)], Limits(max_size=sources.MiB))
    for how in ("read", "readline", "seek"):
        with source.open() as f, pytest.raises(LimitExceeded, match=(
                r"big.pgn.gz: more than 1M once decompressed: refused \(a decompression "
                r"bomb\?\); if the file is genuine, raise --max-size")):
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
    from tracker.sources import LimitExceeded, Limits

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
    from tracker.sources import LimitExceeded, Limits

    class Endless(io.RawIOBase):
        def readable(self) -> bool:
            return True

        def readinto(self, buffer: bytearray | memoryview) -> int:  # type: ignore[override]
            buffer[:] = bytes(len(buffer))
            return len(buffer)

    class FakeStdin:
        buffer = io.BufferedReader(Endless())

    said: list[tuple[str, int]] = []
    monkeypatch.setattr(sys, "stdin", FakeStdin())
    monkeypatch.setattr(sources, "_STDIN", None)
    limits = Limits(max_size=40 * sources.MiB, on_spool=lambda n, b: said.append((n, b)))
    with pytest.raises(LimitExceeded, match=r"standard input holds more than 40M: refused "
                                            r"\(nothing of it was imported\)"):
        iter_sources(["-"], limits)
    assert said == [("-", 16 * sources.MiB), ("-", 32 * sources.MiB), ("-", -1)]


@pytest.mark.parametrize("text, size", [("100", 100), ("1K", 1024), ("16G", 16 << 30),
                                        ("1.5M", 3 << 19), ("2gib", 2 << 30)])
def test_sizes_as_the_option_takes_them(text: str, size: int) -> None:
    assert sources.parse_size(text) == size


@pytest.mark.parametrize("text", ["", "0", "-1", "x", "1Q", "1e30"])
def test_a_size_that_is_not_one(text: str) -> None:
    with pytest.raises(BadInput, match="is not a size"):
        sources.parse_size(text)


@pytest.mark.parametrize("workers", [False, True])
def test_zip_members_read_through_one_archive_in_workers_too(
        tmp_path: Path, monkeypatch: pytest.MonkeyPatch, workers: bool) -> None:
    """The shared archive is opened again in a forked worker (never the parent's file
    position); the games are the same either way, hash thread and all."""
    from tracker.importer import ImportOptions, batches, import_paths
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


def test_the_zip_members_bench_runs(tmp_path: Path) -> None:
    """bench/zip_members.py (the figures of docs/reliability.md), on a tiny zip."""
    import subprocess

    from tests.conftest import REPO

    proc = subprocess.run(
        [sys.executable, str(REPO / "bench" / "zip_members.py"), "--members", "30", "--runs",
         "1", "--workdir", str(tmp_path)], capture_output=True, text=True, timeout=300, cwd=REPO)
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
    with pytest.raises(BadInput, match=r"pipe.pgn is a named pipe, not a file: not read from a "
                                       r"folder \(it could wait for ever\); name it itself"):
        pipe.open()
    with a.open() as f:
        assert f.read() == game(1)
