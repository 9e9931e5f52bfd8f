"""One cgroup (v1) per sandboxed process: memory, pids and CPU caps, the kill switch and what was hit.

Made under /sys/fs/cgroup/<controller>/tourney/<name> (root only). The bot's starter writes its
own pid into each group before it executes bwrap, so nothing the bot forks escapes the caps.
"""

from __future__ import annotations

import contextlib
import os
import signal
import time
from pathlib import Path

from tourney.workers.sandbox.limits import SandboxLimits

ROOT = Path("/sys/fs/cgroup")
CONTROLLERS = ("memory", "pids", "cpu")
CFS_PERIOD_US = 100_000
KILL_WAIT_S = 5.0  # a killed group is empty within milliseconds; this only bounds the wait


def cgroups_usable() -> bool:
    """True when a v1 hierarchy for each controller exists and this process may make groups in it."""
    return all((ROOT / c / "cgroup.procs").is_file() and os.access(ROOT / c, os.W_OK) for c in CONTROLLERS)


class Cgroup:
    """The groups of one sandboxed process; `create()` them, `kill()` every member, `remove()` them."""

    def __init__(self, name: str, limits: SandboxLimits) -> None:
        self.dirs = {c: ROOT / c / "tourney" / name for c in CONTROLLERS}
        self.limits = limits

    def create(self) -> Cgroup:
        """Make the groups and set their caps (swap counted with memory where the kernel accounts it)."""
        for d in self.dirs.values():
            d.mkdir(parents=True, exist_ok=True)
        memory = self.dirs["memory"]
        _write(memory / "memory.limit_in_bytes", self.limits.memory_bytes)
        if (memory / "memory.memsw.limit_in_bytes").exists():
            _write(memory / "memory.memsw.limit_in_bytes", self.limits.memory_bytes)
        _write(self.dirs["pids"] / "pids.max", self.limits.pids)
        _write(self.dirs["cpu"] / "cpu.cfs_period_us", CFS_PERIOD_US)
        _write(self.dirs["cpu"] / "cpu.cfs_quota_us", int(self.limits.cpus * CFS_PERIOD_US))
        return self

    def procs_files(self) -> list[str]:
        """The files a process writes its pid into to join every group."""
        return [str(d / "cgroup.procs") for d in self.dirs.values()]

    def members(self) -> list[int]:
        """Pids in the group (the pids controller's view: every process the bot started)."""
        try:
            text = (self.dirs["pids"] / "cgroup.procs").read_text()
        except OSError:
            return []
        return [int(p) for p in text.split()]

    def kill(self) -> None:
        """SIGKILL every member until the group is empty (bounded: forks race the sweep)."""
        deadline = time.monotonic() + KILL_WAIT_S
        while (pids := self.members()) and time.monotonic() < deadline:
            for pid in pids:
                with contextlib.suppress(ProcessLookupError, PermissionError):
                    os.kill(pid, signal.SIGKILL)
            time.sleep(0.005)

    def out_of_memory(self) -> bool:
        """True when the kernel killed a member for passing the memory cap."""
        if _counter(self.dirs["memory"] / "memory.oom_control", "oom_kill") > 0:
            return True
        with contextlib.suppress(OSError, ValueError):
            peak = int((self.dirs["memory"] / "memory.max_usage_in_bytes").read_text())
            return peak >= self.limits.memory_bytes * 0.98  # older kernels: no oom_kill counter
        return False

    def pids_capped(self) -> bool:
        """True when a fork was refused because the group had `pids` processes."""
        return _counter(self.dirs["pids"] / "pids.events", "max") > 0

    def throttled_s(self) -> float:
        """Seconds the CPU cap has held the group's threads back so far (cpu.stat's throttled_time,
        summed over the CPUs where it was throttled)."""
        return _counter(self.dirs["cpu"] / "cpu.stat", "throttled_time") / 1e9

    def remove(self) -> None:
        """Delete the (emptied) groups; a group still busy after the kill wait is left for the next sweep."""
        self.kill()
        for d in self.dirs.values():
            deadline = time.monotonic() + KILL_WAIT_S
            while d.exists():
                try:
                    d.rmdir()
                except OSError:
                    if time.monotonic() >= deadline:
                        break
                    time.sleep(0.01)


def _counter(path: Path, name: str) -> int:
    """The number named `name` in a cgroup file of "name value" lines; 0 when it is not there."""
    with contextlib.suppress(OSError, ValueError):
        for line in path.read_text().splitlines():
            key, _, value = line.partition(" ")
            if key == name:
                return int(value)
    return 0


def _write(path: Path, value: int) -> None:
    path.write_text(str(value))
