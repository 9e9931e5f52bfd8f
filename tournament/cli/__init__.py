"""The `tourney` command line: main.py is the root app (the console script's `app`), which adds each
sub-app (export, pair, serve, web, bot, league, bots, ladder) with `add_typer`; shared.py holds what every
command module shares. The sub-apps never import the root; only this package imports `tourney.web`."""

import os

from tourney.engine.core.environment import GRPC_VERBOSITY_ENV

# gRPC's C core logs notices (e.g. about fork() while starting a bot program) straight to stderr;
# a person at the terminal should see only tourney's own lines and real gRPC errors. Set before
# any command module imports grpc.
os.environ.setdefault(GRPC_VERBOSITY_ENV, "ERROR")

from tourney.tournament.cli.main import app  # noqa: E402  (after the line above, which grpc reads)

__all__ = ["app"]
