"""Who is who and which tournament: player names matched, games grouped into
tournaments (pure: standard library only)."""
