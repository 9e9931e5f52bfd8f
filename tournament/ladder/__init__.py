"""The continuous ladder: bots (any spec) keep playing matches chosen from their ratings.

- scheduler.py: the matchmaking rule (new and uncertain bots first, close ratings, a quota), in memory;
- plan.py: one ladder match as a worker plays it (seeded by the ladder's secret key);
- loop.py: schedule, store, play on the executor, rate in arrival order, store; resume after a crash;
- members.py: adding bots and reading the standings;
- metrics.py: the Prometheus series (matches/s, queue, longest wait).

The tables are tournament/store/ladder_tables.py; their reads and writes tournament/store/ladder_rows.py.
"""
