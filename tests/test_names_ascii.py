"""tracker.identity.names.normalize_name takes a short way for ASCII names: the same key as the
general way (NFKD, combining marks dropped, casefold, punctuation and underscores as spaces,
whitespace runs as one space, stripped) for every ASCII character and for names made of
them, and for the names of the sample season and the corpus."""

from __future__ import annotations

import random
import re
import unicodedata

from tests.conftest import SAMPLES
from tracker.identity.names import normalize_name

_PUNCT = re.compile(r"[^\w\s]", re.UNICODE)
_SPACE = re.compile(r"\s+")


def _general(name: str) -> str:
    decomposed = unicodedata.normalize("NFKD", name)
    stripped = "".join(c for c in decomposed if not unicodedata.combining(c))
    folded = stripped.casefold().replace("_", " ")
    return _SPACE.sub(" ", _PUNCT.sub(" ", folded)).strip()


def test_every_ascii_character_and_pair() -> None:
    chars = [chr(c) for c in range(128)]
    for a in chars:
        assert normalize_name(a) == _general(a), repr(a)
        for b in chars:
            text = f"{a}x{b}Y {b}{a}"
            assert normalize_name(text) == _general(text), repr(text)


def test_random_ascii_names() -> None:
    rnd = random.Random(18)
    alphabet = [chr(c) for c in range(128)] + list("aeiou nrst,.-'_") * 8
    for _ in range(20_000):
        text = "".join(rnd.choice(alphabet) for _ in range(rnd.randint(0, 24)))
        assert normalize_name(text) == _general(text), repr(text)


def test_the_names_of_the_sample_season() -> None:
    from tracker.pgn import read_games

    names: set[str] = set()
    for path in SAMPLES.glob("*.pgn"):
        with path.open("rb") as stream:
            for raw in read_games(stream, path.name):
                names.update(raw.tags.get(tag, "") for tag in ("White", "Black", "Event"))
    assert len(names) > 20 and any(not n.isascii() for n in names)
    for name in names:
        assert normalize_name(name) == _general(name), name
