"""Formats, ratings, leagues, the results store and the `tourney` command line."""
