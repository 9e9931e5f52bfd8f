"""A hosted seat in one match: the version's bundle from the store (cached by hash) run in a sandbox.

Whoever plays the match (a Ray worker, or the command itself) opens the store named by the
plan, so a cluster needs no shared filesystem: the bytes travel from the database.
"""

from __future__ import annotations

import functools
import os
import threading
from pathlib import Path
from typing import TYPE_CHECKING

from sqlalchemy.engine import Engine

from tourney.engine.core import ConfigError
from tourney.tournament.store.hosted_tables import HostedVersion
from tourney.workers.program_specs import parse_hosted
from tourney.workers.sandbox import SandboxedProgram, SandboxLimits, cached_bundle, require_bwrap

if TYPE_CHECKING:
    from tourney.workers.programs import HostedStart

_engines: dict[str, Engine] = {}
_opening = threading.Lock()  # Alembic's schema check is not safe from two threads at once


def _store(url: str) -> Engine:
    """One engine per store URL per process (opening one checks the schema: not once per match)."""
    from tourney.tournament.store.database import open_store

    with _opening:
        if url not in _engines:
            _engines[url] = open_store(url)
        return _engines[url]


def resolved(store: str, spec: str) -> HostedVersion:
    """The version a hosted spec names, read from `store`."""
    from tourney.tournament.store.hosted import resolve_version

    if not store:  # e.g. a plan played on an arena, which has no store of bundles
        raise ConfigError(f"'{spec}' cannot play here: hosted bots play where the store that keeps them is known "
                          "(tourney match/run/sprt/league run-due with --db).")
    name, version = parse_hosted(spec)
    return resolve_version(_store(store), name, version)


def hosted_program(store: str, spec: str, name: str, token: str, socket_path: Path, log_dir: Path,
                   limits: SandboxLimits | None = None) -> SandboxedProgram:
    """The sandboxed program of a hosted seat (not started), connecting to the arena at socket_path
    as `name` with `token`."""
    from tourney.tournament.store.hosted import bundle_bytes

    require_bwrap()
    version = resolved(store, spec)
    lease = cached_bundle(version.sha256, functools.partial(bundle_bytes, _store(store)))
    return SandboxedProgram(version.run, lease.folder, socket_path, name, log_path(log_dir, name), limits, token,
                            lease)


def hosted_starter(store: str) -> HostedStart:
    """How a match played by workers/programs.py starts the hosted seats whose bundles are in `store`."""
    return functools.partial(hosted_program, store)


def log_path(log_dir: Path, name: str) -> Path:
    """Where a hosted seat's log goes: one file per seat name and process, rewritten each match, so two
    workers of one machine playing the same seat at once never write into one file."""
    return log_dir / f"{name}.{os.getpid()}.log"
