"""Player names: the normalized form used for matching (pure, standard library only).

Normalization folds case, accents, punctuation and spacing, so "Carlsen, Magnus" and
"carlsen,  magnus" match. It never reorders words or expands initials: "Magnus Carlsen"
and "Carlsen,M" stay different players until a FIDE ID or `tracker player merge` ties them.
Finding a player the user names (`match_rank`) is more lenient: the words in any order,
the start of the name or of its words, or a part of it.
"""

from __future__ import annotations

import re
import unicodedata

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
