"""Why the text a command was given names no one player (tracker.app.players.find_player),
as values (pure: standard library only): `Unresolved`, and the errors that carry it,
`PlayerNotFound` and `PlayerUnclear` (tracker.reports.words says them)."""

from __future__ import annotations

from dataclasses import dataclass

from tracker.errors import BadInput, NotFound


@dataclass(frozen=True)
class NoneTracked:
    """No player named, and none is tracked."""


@dataclass(frozen=True)
class TooLong:
    """A player argument too long for a name or a FIDE ID (`length` characters; at most
    `limit`)."""

    length: int
    limit: int


@dataclass(frozen=True)
class NotAName:
    """A player argument with nothing of a name in it (no letter, no digit)."""

    text: str


@dataclass(frozen=True)
class NoMatch:
    """No player matches `text`: `near` the players (name, FIDE ID) with its longest word
    `word` in a spelling, by name; `players` how many the database has."""

    text: str
    word: str
    near: tuple[tuple[str, int | None], ...]
    players: int


@dataclass(frozen=True)
class SeveralMatch:
    """Several players (name, FIDE ID; by name) match `text` as well."""

    text: str
    players: tuple[tuple[str, int | None], ...]


@dataclass(frozen=True)
class MayBeOne:
    """Several players match `text` as well, and their names may all be one person's (the
    same surname, given names that fit, no two FIDE IDs, no game between them): `players`
    (name, FIDE ID, games), most games first. Only `tracker player merge` makes them one."""

    text: str
    players: tuple[tuple[str, int | None, int], ...]


Unresolved = NoneTracked | TooLong | NotAName | NoMatch | SeveralMatch | MayBeOne
"""Why the text a command was given names no one player."""


class PlayerNotFound(NotFound):
    """Nobody matches (or nobody is tracked): `why` (tracker.reports.words says it)."""

    def __init__(self, why: NoneTracked | NoMatch) -> None:
        super().__init__(why)
        self.why = why


class PlayerUnclear(BadInput):
    """A player argument that names no one player (several match, no name): `why`."""

    def __init__(self, why: TooLong | NotAName | SeveralMatch | MayBeOne) -> None:
        super().__init__(why)
        self.why = why
