"""What rlimits cannot cap for a whole sandbox, kept by a watch: its memory and its scratch files.

Without a cgroup (not root, as in the image) a bot's caps are rlimits, and an rlimit holds one
process: four children of a bot under a "1 GiB" address-space cap held 2.8 GiB between them (64
could hold 64 GiB). Nor does any rlimit see its scratch: a file on a tmpfs takes kernel memory (an
inode and a dentry, about 1 KB) but none of the mount's size when empty, and a bot made 1,000,000
empty files in /tmp in 13 s, 930 MB of the machine's kernel memory (a tmpfs may hold as many inodes as
half the machine's pages, and bubblewrap cannot set nr_inodes). A cgroup charges all of it to the bot.

So, without one, the worker looks a few times a second: the proportional set size (PSS: a page shared
by n processes counts 1/n to each, so forked children are not counted twice) of every process of the
sandbox plus the bytes of its scratch mounts against the memory cap, and the inodes used on those mounts
against the file cap, seen through /proc/PID of the sandbox's processes; past either the bot is killed.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

SCRATCH = ("tmp", "home/bot", "dev/shm")  # the sandbox's writable mounts (mounts.py), from its root
WATCH_S = 0.2  # between two looks: a bot making 75,000 files a second passes its cap by some 15,000
MOST_PROCESSES = 4096  # processes looked at a time (the pids cap is at most 4,096)


def sandbox_processes(pid: int) -> list[int]:
    """The processes below `pid` (bubblewrap outside the sandbox), each thread's children followed, bounded."""
    found: list[int] = []
    waiting = [pid]
    while waiting and len(found) < MOST_PROCESSES:
        parent = waiting.pop()
        with contextlib.suppress(OSError, ValueError):
            for task in Path(f"/proc/{parent}/task").iterdir():
                kids = [int(k) for k in (task / "children").read_text().split()]
                found += kids
                waiting += kids
    return found[:MOST_PROCESSES]


def _scratch(pid: int) -> list[os.statvfs_result] | None:
    """The scratch mounts as process `pid` sees them; None while its root is still the worker's (bubblewrap
    has not moved into the sandbox yet) or once it is gone."""
    root = f"/proc/{pid}/root"
    try:
        if os.stat(root).st_dev == os.stat("/").st_dev:
            return None
        return [os.statvfs(f"{root}/{mount}") for mount in SCRATCH]
    except OSError:
        return None


def _pss_bytes(pid: int) -> int:
    """Process `pid`'s proportional set size in bytes (0 once it is gone)."""
    with contextlib.suppress(OSError, ValueError, IndexError):
        for line in Path(f"/proc/{pid}/smaps_rollup").read_text().splitlines():
            if line.startswith("Pss:"):
                return int(line.split()[1]) * 1024
    return 0


class RlimitWatch:
    """Looks at the sandbox started as `pid` while `alive()`: past `memory_bytes` of memory or `files`
    scratch files it sets `memory_exceeded` or `files_exceeded` and calls `kill` once. Stops by itself
    when the sandbox ends, or at `stop()`."""

    def __init__(self, pid: int, memory_bytes: int, files: int, alive: Callable[[], bool],
                 kill: Callable[[], None]) -> None:
        self.pid = pid
        self.memory_bytes = memory_bytes
        self.files = files
        self.alive = alive
        self.kill = kill
        self.memory_exceeded = False
        self.files_exceeded = False
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"rlimit-watch-{pid}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        while not self._stopped.wait(WATCH_S) and self.alive():
            processes = sandbox_processes(self.pid)
            mounts = _scratch(processes[0]) if processes else None
            if mounts is None:
                continue
            files = sum(m.f_files - m.f_ffree for m in mounts)
            memory = sum((m.f_blocks - m.f_bfree) * m.f_frsize for m in mounts) + sum(map(_pss_bytes, processes))
            self.files_exceeded = files > self.files
            self.memory_exceeded = memory > self.memory_bytes
            if self.files_exceeded or self.memory_exceeded:
                self.kill()
                return

    def stop(self) -> None:
        """End the watch (the sandbox is being stopped)."""
        self._stopped.set()
