"""Player names: the normalized form used for matching (pure, standard library only).

Normalization folds case, accents, punctuation and spacing, so "Carlsen, Magnus" and
"carlsen,  magnus" match. It never reorders words or expands initials: "Magnus Carlsen"
and "Carlsen,M" stay different players until a FIDE ID or `tracker player merge` ties them.
"""

from __future__ import annotations

import re
import unicodedata

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")


def normalize_name(name: str) -> str:
    """The matching key of a name: casefolded, accents removed, punctuation as spaces."""
    decomposed = unicodedata.normalize("NFKD", name)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    folded = stripped.casefold().replace("_", " ")
    return _SPACE.sub(" ", _PUNCT.sub(" ", folded)).strip()
