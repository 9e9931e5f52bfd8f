"""Submitting a version: pack the folder or archive, check the games, store the bundle (validation follows)."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from sqlalchemy.engine import Engine

from tourney.engine.core import ConfigError, available_games, get_game
from tourney.tournament.store.hosted import add_version
from tourney.tournament.store.hosted_tables import HostedVersion
from tourney.workers.program_specs import check_name
from tourney.workers.sandbox import SandboxLimits, pack_bundle, require_bwrap
from tourney.workers.sandbox.mounts import bundle_argv


def submit_version(engine: Engine, name: str, path: Path, run: str, games: Sequence[str]) -> HostedVersion:
    """Store a new version of bot `name` from `path`, pending validation; one sentence for bad input."""
    check_name(name)
    try:
        argv = bundle_argv(run)  # as the sandbox will split it: a command it cannot split never validates
    except ValueError as exc:
        raise ConfigError(f"--run cannot be read as a command ({exc}): close its quotes, e.g. --run "
                          "\"python3 'my bot.py'\".") from None
    if not argv or not argv[0]:
        raise ConfigError("--run is empty: give the command that starts the bot, e.g. --run \"python3 bot.py\".")
    chosen = [get_game(g).id for g in games] if games else [g.id for g in available_games()]
    require_bwrap()  # a bundle that cannot be validated here is not stored
    SandboxLimits.from_env()
    packed, sha256, files = pack_bundle(path)
    return add_version(engine, name, packed, sha256, files, run, chosen)
