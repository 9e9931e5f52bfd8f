"""A hosted bot's process in its sandbox: started in its cgroup, capped, and killed whole at the end.

The starter is `sh`, which writes its own pid into the cgroups and then becomes `prlimit` and
then `bwrap` (exec, same pid): everything the bot starts is inside the caps from its first
instruction. Without a usable cgroup (not root, or cgroup v2 only, as in a container) the caps
fall back to rlimits, per process: address space for memory, RLIMIT_NPROC for processes, no
CPU-share cap, and a watch on what they miss: the whole sandbox's memory and scratch files
(rlimit_watch.py). RLIMIT_NPROC is
set inside the sandbox, after bwrap made its user namespace: the kernel then counts the sandbox's
own processes against it, where set outside it would count every process of the worker's user (a
Ray node's threads alone pass 64, so bwrap could not even start). None for root, whose processes
the kernel never counts against it.
"""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import threading
from pathlib import Path
from types import TracebackType

from tourney.workers.sandbox.cache import BundleLease
from tourney.workers.sandbox.cgroup import Cgroup, cgroups_usable
from tourney.workers.sandbox.limits import SandboxLimits, require_bwrap
from tourney.workers.sandbox.log_room import make_room
from tourney.workers.sandbox.mounts import bwrap_argv
from tourney.workers.sandbox.probes import fresh_proc_mountable
from tourney.workers.sandbox.rlimit_watch import RlimitWatch
from tourney.workers.sandbox.userns_filter import filter_fd

# Joins each cgroup named before `--`, then executes the rest (exit 97: a cgroup could not be joined).
JOIN_AND_EXEC = 'while [ "$1" != -- ]; do echo $$ > "$1" || exit 97; shift; done; shift; exec "$@"'
REAP_WAIT_S = 5.0


class SandboxedProgram:
    """One sandboxed run of a bundle's command; use as a context manager so it is always killed."""

    def __init__(self, run: str, bundle: Path, socket_path: Path, name: str, log_path: Path,
                 limits: SandboxLimits | None = None, token: str = "", lease: BundleLease | None = None) -> None:
        self.run = run
        self.lease = lease  # the cache's lease on `bundle`, given back at stop
        self.token = token  # this match's token for the bot's name (TOURNEY_TOKEN)
        self.bundle = bundle
        self.socket_path = socket_path
        self.name = name
        self.log_path = log_path
        self.log_start = 0  # each run writes a fresh log
        self.limits = limits or SandboxLimits.from_env()
        self.process: subprocess.Popen[bytes] | None = None
        self.cgroup: Cgroup | None = None
        self.wall_hit = False
        self._timer: threading.Timer | None = None
        self._watch: RlimitWatch | None = None  # without a cgroup: the caps no rlimit keeps for the whole sandbox

    def argv(self, userns_filter: int | None = None) -> list[str]:
        """The full command: join the cgroups (or set rlimits), cap files, then bwrap (`userns_filter`:
        see bwrap_argv)."""
        limits = self.limits
        rlimits = [f"--fsize={limits.file_bytes}", f"--nofile={limits.open_files}", "--core=0"]
        inside: list[str] = []
        if self.cgroup is None:
            rlimits.append(f"--as={limits.memory_bytes}")
            if os.geteuid() != 0:
                inside = ["prlimit", f"--nproc={limits.pids}", "--"]
        joins = self.cgroup.procs_files() if self.cgroup is not None else []
        sandbox = bwrap_argv(require_bwrap(), self.run, self.bundle, self.socket_path.parent, self.socket_path.name,
                             self.name, self.token, limits, inside, userns_filter)
        return ["/bin/sh", "-c", JOIN_AND_EXEC, "sh", *joins, "--", "prlimit", *rlimits, "--", *sandbox]

    def start(self) -> SandboxedProgram:
        """Start the bot in its sandbox; its output goes to its log (a fresh file per run)."""
        if self.cgroup is None and cgroups_usable():
            self.cgroup = Cgroup(f"{self.name[:40]}-{os.getpid()}-{secrets.token_hex(4)}", self.limits).create()
        userns_filter = None if fresh_proc_mountable(require_bwrap()) else filter_fd()
        try:
            argv = self.argv(userns_filter)
            self.log_path.parent.mkdir(parents=True, exist_ok=True)
            make_room(self.log_path.parent, self.limits.file_bytes, self.limits.log_folder_bytes, self.log_path)
            with self.log_path.open("wb") as log:
                # Started from "/": bubblewrap passes its own working directory on as PWD to the sandbox's
                # first process, where the bot could read the organiser's folder in /proc/1/environ.
                self.process = subprocess.Popen(argv, env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL,
                                                stdout=log, stderr=log, start_new_session=True, cwd="/",
                                                pass_fds=() if userns_filter is None else (userns_filter,))
        finally:
            if userns_filter is not None:
                os.close(userns_filter)
        self._timer = threading.Timer(self.limits.wall_s, self._wall_cap)
        self._timer.daemon = True
        self._timer.start()
        if self.cgroup is None:
            self._watch = RlimitWatch(self.process.pid, self.limits.memory_bytes, self.limits.scratch_files,
                                      self.alive, self.kill)
        return self

    def _wall_cap(self) -> None:
        self.wall_hit = True
        self.kill()

    def alive(self) -> bool:
        """True while the sandbox runs."""
        return self.process is not None and self.process.poll() is None

    def kill(self) -> None:
        """Kill bwrap (its pid namespace dies with it) and every process left in the cgroup."""
        if self.process is None:
            return
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        if self.cgroup is not None:
            self.cgroup.kill()

    def limit_hit(self) -> str | None:
        """Which cap stopped the bot, in words, or None."""
        gib = self.limits.memory_bytes / (1 << 30)
        watch = self._watch
        if (self.cgroup is not None and self.cgroup.out_of_memory()) or (watch is not None and watch.memory_exceeded):
            return f"killed: out of memory (its limit is {gib:g} GiB)"
        if self.cgroup is not None and self.cgroup.pids_capped():
            return f"it reached the cap of {self.limits.pids} processes"
        if watch is not None and watch.files_exceeded:
            return f"killed: it kept more than {self.limits.scratch_files:,} files in its scratch folders"
        if self.wall_hit:
            return f"killed: it ran past the wall-time cap of {self.limits.wall_s:g} s"
        return None

    def stop(self) -> int | None:
        """Kill everything the bot started, reap it and remove its cgroups; returns its exit status."""
        if self._timer is not None:
            self._timer.cancel()
        if self._watch is not None:
            self._watch.stop()
        try:
            if self.process is None:
                return None
            self.kill()
            with contextlib.suppress(subprocess.TimeoutExpired):
                self.process.wait(REAP_WAIT_S)
            if self.cgroup is not None:
                self.cgroup.remove()
            return self.process.returncode
        finally:
            if self.lease is not None:
                self.lease.release()

    def __enter__(self) -> SandboxedProgram:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
