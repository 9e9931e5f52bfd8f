"""The clock a starting bot program is timed on: wall time less the time it sat waiting for a CPU.

A program has CONNECT_WAIT_S to start and say Hello. On a loaded machine a program that needs
half a second of work can wait many seconds for a turn on a core; timing it by the wall would
forfeit matches for the machine's load, not the bot's fault. Linux counts, per thread, the time a
thread was runnable but not running (the second field of /proc/PID/task/TID/schedstat). This
clock charges a program the wall time since it was started less the largest such delay among its
threads, its descendants' threads and the threads of the process serving its arena (a starved
arena answers its Hello late): a program that sleeps or blocks is charged in full, one kept
off the CPU is not. A sandboxed program's waits of its own doing are charged: time its CPU cap (its
cgroup) held its threads back, and time its threads queued behind each other (it is charged at least
the CPU it used): the clock is then about how long the start would take on an idle machine with
the program's caps. An absolute ceiling on the wall still ends every wait, so threads that crowd
each other out cannot stall a match for long. Where /proc has no schedstat, it is the wall.
"""

from __future__ import annotations

import os
import time
from collections.abc import Callable, Iterable, Mapping
from dataclasses import dataclass
from pathlib import Path

PROC = Path("/proc")
TREE_EVERY_S = 0.2  # how often the program's process tree is looked up again (it is a scan of /proc)
CLOCK_TICKS = os.sysconf("SC_CLK_TCK")  # the unit of a process's CPU times in /proc/PID/stat


@dataclass(frozen=True, slots=True)
class ThreadTimes:
    """What /proc says of one thread: seconds it ran, seconds it waited runnable, and whether it is runnable now."""

    ran: float
    waited: float
    runnable: bool


def thread_times(pid: int) -> dict[tuple[int, int], ThreadTimes]:
    """Each live thread of process pid, keyed (pid, tid)."""
    found: dict[tuple[int, int], ThreadTimes] = {}
    task = PROC / str(pid) / "task"
    try:
        tids = os.listdir(task)
    except OSError:
        return found
    for tid in tids:
        try:
            ran, waited = (task / tid / "schedstat").read_text().split()[:2]
            state = (task / tid / "stat").read_text().rsplit(")", 1)[-1].split()[0]
            found[(pid, int(tid))] = ThreadTimes(int(ran) / 1e9, int(waited) / 1e9, state == "R")
        except (OSError, IndexError, ValueError):
            continue
    return found


def descendants(roots: Iterable[int]) -> set[int]:
    """The processes in the trees under roots (the roots included), from each process's parent in /proc."""
    return set().union(*trees(roots).values())


def trees(roots: Iterable[int]) -> dict[int, set[int]]:
    """Each root's process tree (the root included), from one scan of every process's parent in /proc."""
    children: dict[int, list[int]] = {}
    for entry in os.listdir(PROC):
        if not entry.isdigit():
            continue
        try:
            stat = (PROC / entry / "stat").read_text()
        except OSError:
            continue
        # The name, in parentheses, may hold spaces: the parent pid is the second field after it.
        after_name = stat.rsplit(")", 1)[-1].split()
        if len(after_name) > 1 and after_name[1].isdigit():
            children.setdefault(int(after_name[1]), []).append(int(entry))
    found: dict[int, set[int]] = {}
    for root in roots:
        if root <= 0:
            continue
        tree = found.setdefault(root, set())
        todo = [root]
        while todo:
            pid = todo.pop()
            if pid not in tree:
                tree.add(pid)
                todo.extend(children.get(pid, ()))
    return found


def process_cpu(pid: int) -> float:
    """CPU seconds process pid and the children it reaped have used (0.0 once it is gone)."""
    try:
        fields = (PROC / str(pid) / "stat").read_text().rsplit(")", 1)[-1].split()
        return sum(int(tick) for tick in fields[11:15]) / CLOCK_TICKS
    except (OSError, ValueError):
        return 0.0


class StartClock:
    """Seconds a set of started programs has been charged since the clock was made (see the module)."""

    def __init__(self, roots: Iterable[int], ceiling_s: float, serving: int | None = None,
                 held: Mapping[int, Callable[[], float]] | None = None) -> None:
        """roots: the started programs (their descendants count too); serving: the process whose own
        threads answer them (the arena's), whose waits for a CPU are not held against them either;
        held: the roots in a sandbox of their own, each with the seconds its CPU cap (its cgroup) has
        held its threads back so far. Such a program's waits for its own cap, and for its own other
        threads, are its doing: the cap's hold is taken from its waits, and it is charged at least the
        CPU its tree used (at most the wall), else a silent program spinning more threads than it can
        run would stay to the ceiling."""
        self.roots = [pid for pid in roots if pid > 0]
        self.ceiling_s = ceiling_s
        self.serving = {serving} if serving else set()
        self.started = self._polled = time.monotonic()
        self._tree_at = self.started
        self._held = {root: cap for root, cap in (held or {}).items() if root in self.roots}
        self._held_base = {root: cap() for root, cap in self._held.items()}
        self._trees = trees(self.roots)
        self._pids = set().union(*self._trees.values()) | self.serving
        self._base = {key: t.waited for pid in self._pids for key, t in thread_times(pid).items()}
        self._cpu_base = {pid: process_cpu(pid) for root in self._held for pid in self._trees.get(root, ())}
        self._used = 0.0  # the most CPU seconds a sandboxed tree has used since the clock was made
        self._last: dict[tuple[int, int], ThreadTimes] = {}
        self._pending: dict[tuple[int, int], float] = {}
        self._waited = 0.0

    def wall(self) -> float:
        """Seconds on the wall since the clock was made."""
        return time.monotonic() - self.started

    def cpu_used(self) -> float:
        """The most CPU seconds a sandboxed program's tree has used since the clock was made (as of the
        last look): the least such a program is charged."""
        return self._used

    def charged(self) -> float:
        """Wall seconds less the longest any of the programs' threads waited for a CPU meanwhile (for a
        sandboxed program: at least the CPU it used).

        The kernel adds to a thread's wait only when the thread gets a CPU, so a thread that is
        runnable and has not run since the last look has been waiting all along: that time counts
        as waited before the kernel says so."""
        now = time.monotonic()
        if self.roots and now - self._tree_at >= TREE_EVERY_S:
            self._trees, self._tree_at = trees(self.roots), now
            self._pids = set().union(*self._trees.values()) | self.serving
            # A process that ends is reaped inside the tree: its CPU moves into its parent's, never lost.
            for root in self._held:
                used = sum(process_cpu(pid) - self._cpu_base.get(pid, 0.0) for pid in self._trees.get(root, ()))
                self._used = max(self._used, used)
        step, self._polled = now - self._polled, now
        # A thread's wait includes the time its own cap held it back (summed over CPUs: never less).
        capped = {pid: cap() - self._held_base[root] for root, cap in self._held.items()
                  for pid in self._trees.get(root, ())}
        # Only the threads alive now are kept: a program that starts and ends threads by the thousand
        # would otherwise leave a record of each for as long as the wait lasts.
        last, pending = self._last, self._pending
        self._last, self._pending = {}, {}
        for pid in self._pids:
            for key, times in thread_times(pid).items():
                before = last.get(key)
                stalled = before is not None and times.runnable and times.ran == before.ran
                self._pending[key] = pending.get(key, 0.0) + step if stalled else 0.0
                self._last[key] = times
                # A thread first seen after the clock started has waited only since it began.
                waited = times.waited - self._base.get(key, 0.0) + self._pending[key] - capped.get(pid, 0.0)
                self._waited = max(self._waited, waited)
        wall = now - self.started
        return max(0.0, wall - self._waited, min(self._used, wall))

    def expired(self, limit_s: float) -> bool:
        """Whether the programs have been charged limit_s, or the wall has reached the ceiling."""
        return self.charged() >= limit_s or self.wall() >= self.ceiling_s
