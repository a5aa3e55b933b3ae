"""Player names: the normalized form used for matching (pure, standard library only).

Normalization folds case, accents, punctuation and spacing, so "Carlsen, Magnus" and
"carlsen,  magnus" match. It never reorders words or expands initials: "Magnus Carlsen"
and "Carlsen,M" stay different players until a FIDE ID or `tracker player merge` ties them.
Finding a player the user names (`match_rank`) is more lenient: the words in any order,
the start of the name or of its words, or a part of it. Whether two names can be one
person's (`name_forms`, `name_fit`, `names_fit`: the same surname, and given names that are
the same or initials of each other) decides who a list row matches and when a FIDE ID may
make two players one.
"""

from __future__ import annotations

import enum
import re
import unicodedata
from collections.abc import Iterable, Sequence

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")


# The same for a name of ASCII characters only (most names; the importer normalizes every new
# one): NFKD and the combining marks change nothing there, casefold is lower, and every
# character that is neither a word character nor whitespace (underscore included) becomes a
# space; whitespace is what str.split() splits on, as \s does (tests/test_names_ascii.py
# checks both ways give the same key).
_ASCII_PUNCT = {c: " " for c in range(128) if not chr(c).isalnum() and not chr(c).isspace()}


def normalize_name(name: str) -> str:
    """The matching key of a name: casefolded, accents removed, punctuation as spaces."""
    if name.isascii():
        return " ".join(name.lower().translate(_ASCII_PUNCT).split())
    decomposed = unicodedata.normalize("NFKD", name)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    folded = stripped.casefold().replace("_", " ")
    return _SPACE.sub(" ", _PUNCT.sub(" ", folded)).strip()


# How well a typed name matches a stored one (both normalized), best first: a lookup takes
# the players of the best rank found. Only finding a player uses these; telling players
# apart (the importer) uses the normalized name alone.
SAME, SAME_WORDS, STARTS, WORD_STARTS, PART = range(5)


def _starts_distinct_words(typed: list[str], words: list[str]) -> bool:
    """Whether each typed word starts a different one of `words` (in any order)."""
    if not typed:
        return True
    first, rest = typed[0], typed[1:]
    for i, word in enumerate(words):
        if word.startswith(first) and _starts_distinct_words(rest, words[:i] + words[i + 1 :]):
            return True
    return False


def match_rank(typed: str, name: str) -> int | None:
    """How the normalized `typed` matches the normalized `name`: SAME; SAME_WORDS (in
    another order: "tomas novak" for "novak tomas"); STARTS (the name starts with it);
    WORD_STARTS (each typed word starts a different word of the name, in any order: "tom
    nov"); PART (it is a part of the name, as `tracker players --search` finds); None."""
    if not typed:
        return None
    if typed == name:
        return SAME
    typed_words, words = typed.split(), name.split()
    if sorted(typed_words) == sorted(words):
        return SAME_WORDS
    if name.startswith(typed):
        return STARTS
    if len(typed_words) <= len(words) and _starts_distinct_words(typed_words, words):
        return WORD_STARTS
    if typed in name:
        return PART
    return None


def best_matches(typed: str, spellings: Iterable[tuple[int, str]]) -> list[int]:
    """The players (ids) whose normalized spellings (id, spelling) match the normalized
    `typed` best (`match_rank`: the best rank found decides), by id; [] when none does."""
    best: dict[int, int] = {}
    for pid, norm in spellings:
        rank = match_rank(typed, norm)
        if rank is not None and rank < best.get(pid, PART + 1):
            best[pid] = rank
    if not best:
        return []
    top = min(best.values())
    return sorted(pid for pid, rank in best.items() if rank == top)


# --- two names, one person? ----------------------------------------------------------------

Form = tuple[tuple[str, ...], tuple[str, ...]]
"""A reading of a name: (surname words, given-name words), normalized."""

EXACT, INITIALS = 0, 1
"""How well two names fit (`name_fit`), best first: the same words; initials for words."""


def name_forms(name: str) -> tuple[Form, ...]:
    """The readings of a name: "Andreikin, Dmitry" -> ((andreikin), (dmitry)); a name
    without a comma (or with nothing before it) every split of its words, either way round
    ("Ding Liren": (ding), (liren) and (liren), (ding)), and all of it as the surname."""
    surname, comma, given = name.partition(",")
    if comma:
        sur = tuple(normalize_name(surname).split())
        if sur:
            return ((sur, tuple(normalize_name(given).split())),)
        name = given
    words = tuple(normalize_name(name).split())
    if not words:
        return ()
    forms: set[Form] = {(words, ())}
    for k in range(1, len(words)):
        forms.add((words[:k], words[k:]))
        forms.add((words[k:], words[:k]))
    return tuple(sorted(forms))


def given_fit(a: tuple[str, ...], b: tuple[str, ...]) -> int | None:
    """How given names fit: EXACT (the same words), INITIALS (word by word the same, or a
    single letter that starts the other's word: "d" for "dmitry"; the shorter list of words
    against the start of the longer), None (they differ, or one side has none)."""
    if a == b:
        return EXACT
    if not a or not b:
        return None
    for x, y in zip(a, b, strict=False):
        if x == y or (len(x) == 1 and y.startswith(x)) or (len(y) == 1 and x.startswith(y)):
            continue
        return None
    return INITIALS


def name_fit(a: Sequence[Form], b: Sequence[Form]) -> int | None:
    """How two names (their `name_forms`) fit: the best of their readings with one surname,
    or None."""
    best: int | None = None
    for sur_a, given_a in a:
        for sur_b, given_b in b:
            if sur_a == sur_b:
                rank = given_fit(given_a, given_b)
                if rank is not None and (best is None or rank < best):
                    best = rank
    return best


def surnames_agree(a: str, b: str) -> bool:
    """Whether two names can be one person's: a surname reading in common (or a name
    without words, which says nothing)."""
    forms_a, forms_b = name_forms(a), name_forms(b)
    if not forms_a or not forms_b:
        return True
    return bool({s for s, _ in forms_a} & {s for s, _ in forms_b})


def names_fit(a: str, b: str) -> bool:
    """Whether two names are enough to take two players for one person: the same words
    (case, accents, punctuation and order aside: "Tomáš Novák" is "Novák, Tomáš"), or a
    surname in common and given names on both sides that fit word by word, a single letter
    standing for a word it starts ("Novak, T" fits "Novák, Tomáš"; "Novák, Petr" does not).
    A name without given names fits only the same name ("Novák" is too little to tell)."""
    words_a, words_b = normalize_name(a).split(), normalize_name(b).split()
    if not words_a or not words_b:
        return False
    if sorted(words_a) == sorted(words_b):
        return True
    forms_b = [(sur, given) for sur, given in name_forms(b) if given]
    return any(
        sur_a == sur_b and given_fit(given_a, given_b) is not None
        for sur_a, given_a in name_forms(a)
        if given_a
        for sur_b, given_b in forms_b
    )


class NamesApart(enum.Enum):
    """Why two names do not fit (`names_apart`)."""

    SURNAME = "surname"  # no surname in common
    GIVEN = "given"  # a surname in common, but given names that do not fit (or none)


def names_apart(a: str, b: str) -> NamesApart | None:
    """Why two names are not enough to take two players for one person (`names_fit`), or
    None when they are."""
    if names_fit(a, b):
        return None
    return NamesApart.GIVEN if surnames_agree(a, b) else NamesApart.SURNAME
