"""Hosted bots: `hosted:NAME[:version=N]` seats, their bundles fetched from the store and run sandboxed,
the validation match of a new version, and the `tourney bot` commands."""
