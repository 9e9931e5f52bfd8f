"""The results store: every table, every query, and the retry policy, one idea per module.

- tables.py: the results tables (tournaments, entrants, matches, seats, ratings, achievements);
- league_tables.py: the league tables (their own metadata);
- database.py: open_store (URL, driver, SQLite pragmas) and the Alembic upgrade (../migrations);
- retry.py: how a transaction waits out a database server that went away;
- codec.py: JSON columns and packed replays;
- records.py: a finished match on its way to the store (StoredMatch: the one MatchResult as plain values,
  and who held its seats), built where it was played;
- results.py: a stored match read back into that MatchResult;
- writes.py: tournaments, batches of matches (one converter from records to rows), ratings, streaks;
- reads.py: what is stored, the pairers' history, and the streamed end-of-run reads (standings, streaks).

Import from the module that holds a name (`from tourney.tournament.store.database import open_store`);
this package re-exports nothing.
"""
