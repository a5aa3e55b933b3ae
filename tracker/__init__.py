"""tracker: a PGN-driven FIDE rating tracker.

Imports a player's PGN files, stores the games in SQLite and replays the FIDE rating
regulations, edition by edition, to rebuild the expected rating history.
"""

__version__ = "0.1.0"
