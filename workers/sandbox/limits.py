"""What a hosted bot may use, and the check that the sandbox tool is installed."""

from __future__ import annotations

import os
import shutil
from dataclasses import dataclass

from tourney.engine.core import ConfigError, TourneyError
from tourney.engine.core.environment import SANDBOX_ENV_PREFIX
from tourney.workers.sandbox.probes import user_namespaces_allowed

GIB = 1 << 30
MIB = 1 << 20


class SandboxUnavailable(TourneyError):
    """This machine cannot run hosted bots (bubblewrap is missing)."""


@dataclass(frozen=True)
class SandboxLimits:
    """Caps on one sandboxed bot process and everything it starts."""

    memory_bytes: int = GIB  # RAM (and tmpfs scratch, charged to the same cgroup)
    pids: int = 64  # processes and threads at once
    cpus: float = 1.0  # CPU time per wall second (cgroup CFS quota)
    wall_s: float = 900.0  # the whole process, start to kill: a match never keeps a bot longer
    file_bytes: int = 64 * MIB  # largest file it may write (its log and scratch files)
    scratch_bytes: int = 256 * MIB  # size of its tmpfs home and /tmp
    shm_bytes: int = 64 * MIB  # size of its /dev/shm (POSIX shared memory and semaphores)
    scratch_files: int = 100_000  # files and folders in those three, without a cgroup (rlimit_watch.py)
    open_files: int = 256
    log_folder_bytes: int = 2 * GIB  # every bot log in the log folder together (log_room.py)

    @classmethod
    def from_env(cls) -> SandboxLimits:
        """The defaults, changed by TOURNEY_SANDBOX_MEMORY_MIB, _PIDS, _CPUS, _WALL_S and _LOGS_MIB where
        set (on every machine that plays hosted bots: each worker reads its own environment)."""
        base = cls()
        return cls(memory_bytes=int(_setting("MEMORY_MIB", base.memory_bytes / MIB, 64, 64 * 1024) * MIB),
                   pids=int(_setting("PIDS", base.pids, 8, 4096)),
                   cpus=_setting("CPUS", base.cpus, 0.1, 64),
                   wall_s=_setting("WALL_S", base.wall_s, 10, 24 * 3600),
                   log_folder_bytes=int(_setting("LOGS_MIB", base.log_folder_bytes / MIB, 64, 1 << 24) * MIB))


def _setting(key: str, default: float, low: float, high: float) -> float:
    """One TOURNEY_SANDBOX_* number, checked against its range."""
    name = f"{SANDBOX_ENV_PREFIX}{key}"
    text = os.environ.get(name, "").strip()
    if not text:
        return default
    try:
        value = float(text)
    except ValueError:
        value = float("nan")
    if not low <= value <= high:
        raise ConfigError(f"{name}={text!r} is not a number from {low:g} to {high:g}: fix or unset it.")
    return value


def require_bwrap() -> str:
    """The path of bwrap, or one sentence saying what to install or allow."""
    found = shutil.which("bwrap")
    if found is None:
        raise SandboxUnavailable("hosted bots run in a bubblewrap sandbox and this machine has no `bwrap`: "
                                 "install it (apt-get install bubblewrap) or play the bot as cmd: on a "
                                 "machine you trust it on.")
    if not user_namespaces_allowed(found):
        raise SandboxUnavailable("hosted bots run in a bubblewrap sandbox and bwrap may not make a user namespace "
                                 "here: in a container, run it with the seccomp profile deploy/seccomp/bwrap.json "
                                 "(deploy/README.md, \"Hosted bots in the containers\"); on a host, allow "
                                 "unprivileged user namespaces (sysctl user.max_user_namespaces).")
    return found
