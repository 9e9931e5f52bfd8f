"""A watch on how many files a sandboxed bot keeps in its scratch folders, where no cgroup charges them.

A file on a tmpfs costs kernel memory (its inode and dentry, about 1 KB) but no block of the mount's
size: an empty file uses none. Under a cgroup that memory counts against the bot's memory cap; with
the rlimit caps (no cgroup, as in the image) it counts against nothing, and a bot made 1,000,000 empty
files in /tmp in 13 s, 930 MB of the machine's kernel memory (a tmpfs may hold as many inodes as half
the machine's pages, and bubblewrap cannot set nr_inodes). So the worker counts the inodes used on the
sandbox's scratch mounts, seen through /proc/PID/root of the sandbox's first process, a few times a
second, and kills a bot past its cap.
"""

from __future__ import annotations

import contextlib
import os
import threading
from collections.abc import Callable
from pathlib import Path

SCRATCH = ("tmp", "home/bot", "dev/shm")  # the sandbox's writable mounts (mounts.py), from its root
WATCH_S = 0.2  # between two counts: a bot making 75,000 files a second passes its cap by some 15,000


def sandbox_child(pid: int) -> int | None:
    """The process bubblewrap (`pid`) started inside the sandbox, or None before it has one."""
    with contextlib.suppress(OSError, ValueError):
        children = Path(f"/proc/{pid}/task/{pid}/children").read_text().split()
        return int(children[0]) if children else None
    return None


def scratch_files(pid: int) -> int | None:
    """Files and folders on the scratch mounts as process `pid` sees them; None while its root is still
    the worker's (bubblewrap has not moved into the sandbox yet) or once it is gone."""
    root = f"/proc/{pid}/root"
    try:
        if os.stat(root).st_dev == os.stat("/").st_dev:
            return None
        return sum(s.f_files - s.f_ffree for s in (os.statvfs(f"{root}/{mount}") for mount in SCRATCH))
    except OSError:
        return None


class ScratchWatch:
    """Counts the scratch files of the sandbox started as `pid` while `alive()`; past `cap`, sets `exceeded`
    and calls `kill` once. Stops by itself when the sandbox ends, or at `stop()`."""

    def __init__(self, pid: int, cap: int, alive: Callable[[], bool], kill: Callable[[], None]) -> None:
        self.pid = pid
        self.cap = cap
        self.alive = alive
        self.kill = kill
        self.exceeded = False
        self._stopped = threading.Event()
        self._thread = threading.Thread(target=self._run, name=f"scratch-watch-{pid}", daemon=True)
        self._thread.start()

    def _run(self) -> None:
        inside: int | None = None
        while not self._stopped.wait(WATCH_S) and self.alive():
            inside = inside or sandbox_child(self.pid)
            used = scratch_files(inside) if inside is not None else None
            if used is not None and used > self.cap:
                self.exceeded = True
                self.kill()
                return

    def stop(self) -> None:
        """End the watch (the sandbox is being stopped)."""
        self._stopped.set()
