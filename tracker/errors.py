"""The project's one exception family.

Library code raises these with a sentence that says what happened and what to do next;
only `tracker.cli` turns them into a message on stderr and an exit code.
"""

from __future__ import annotations


class TrackerError(Exception):
    """Something the user can fix: the message says what happened and what to do."""

    exit_code: int = 1


class BadInput(TrackerError):
    """A value given on the command line (or in a file) is not acceptable."""

    exit_code = 2


class NotFound(TrackerError):
    """A player, tournament, file or period the user named does not exist."""

    exit_code = 1


class DatabaseError(TrackerError):
    """The database cannot be opened or used (folder, read-only, corrupt, newer schema)."""

    exit_code = 1
