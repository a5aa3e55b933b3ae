"""What a command writes (`--output`, the demo's files): the file an option names, checked
first (never the database, nor a folder, nor an existing file without --force), then
written whole or not at all (tracker.files.outputs)."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path

from tracker.files.outputs import Output, check_output, clean_before, write_atomic
from tracker.store.db import database_file

__all__ = ["Output", "OutputFile", "output_file", "write_text"]


@dataclass(frozen=True)
class OutputFile:
    """The file an --output names, checked, and what killed writes of it had left beside
    it (removed, to be said)."""

    output: Output
    removed: list[Path]


def output_file(output: str, db: str, *, force: bool) -> OutputFile:
    """The file `output` names, refused when it is the database `db` (or its -wal, -shm),
    a folder, in a missing folder, an existing file without `force`, or neither a file, a
    character device nor a FIFO; what killed writes of it left is removed."""
    found = check_output(Path(output), database_file(db), force=force)
    return OutputFile(found, clean_before(found))


def write_text(
    output: Output, text: str, *, encoding: str = "utf-8", newline: str | None = None
) -> None:
    """Write `text` into `output`, whole or not at all (a temporary file renamed into place,
    or copied into a device or a FIFO)."""
    write_atomic(output.path, lambda tmp: tmp.write_text(text, encoding=encoding, newline=newline))
