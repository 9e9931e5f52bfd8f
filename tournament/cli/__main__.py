"""`python -m tourney.tournament.cli`: the `tourney` command, for where the console script is not on PATH."""

from tourney.tournament.cli import app

app()
