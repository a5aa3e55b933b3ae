"""The games of a PGN source made ready for the store, without touching it: `contract` (what
goes in and comes out of an import: options, a report per source, progress), `prepare` (a
game's tags to a checked `PreparedGame`: list, result, players, tournament, why not rated)
and `batches` (the batches of a source, read in this process or in forked workers, and the
import's tunables). The import itself, sources in and the store written in one transaction
a source, is tracker.app.importing. None of these modules imports the store, sqlalchemy or
chess (tracker.pgn reads the games)."""
