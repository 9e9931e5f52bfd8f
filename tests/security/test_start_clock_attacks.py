"""A hostile bot program against its start clock (workers/start_clock.py), with real processes in a real
cgroup: what it can make the clock forgive, and what the clock reads of it."""

from __future__ import annotations

import contextlib
import os
import secrets
import signal
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.server.harness import WAIT_S
from tourney.workers.sandbox.cgroup import Cgroup, cgroups_usable
from tourney.workers.sandbox.limits import SandboxLimits
from tourney.workers.sandbox.process import JOIN_AND_EXEC
from tourney.workers.start_clock import StartClock, descendants

pytestmark = [pytest.mark.skipif(not cgroups_usable(), reason="needs cgroup v1 groups this process may make"),
              pytest.mark.timeout(120)]

# Four processes spinning until killed (at most WAIT_S): more than a tenth of a CPU can ever run.
SPINNERS = f"""
import os, time
for _ in range(2):
    os.fork()
end = time.monotonic() + {WAIT_S}
while time.monotonic() < end:
    pass
"""


@pytest.fixture
def capped() -> Iterator[Cgroup]:
    """A sandbox's groups with a tenth of a CPU, removed (members killed) at the end."""
    group = Cgroup(f"startclock-{secrets.token_hex(4)}", SandboxLimits(cpus=0.1)).create()
    try:
        yield group
    finally:
        group.remove()


def _start_in(group: Cgroup, code: str) -> subprocess.Popen[bytes]:
    """Python running `code` in `group`, joined before its first instruction (as the sandbox's starter does)."""
    return subprocess.Popen(["sh", "-c", JOIN_AND_EXEC, "sh", *group.procs_files(), "--", sys.executable, "-c", code])


def test_threads_held_back_by_the_bots_own_cpu_cap_are_charged(capped: Cgroup) -> None:
    # Before: a thread the bot's own CPU cap throttles is runnable and not running, which the clock
    # took for a busy machine, so a silent bot that spun a few processes under its cap was charged
    # almost nothing (0.07 s in 4 s) and stayed until the wall ceiling, six times the limit.
    bot = _start_in(capped, SPINNERS)
    try:
        held_before = capped.throttled_s()
        clock = StartClock([bot.pid], ceiling_s=60.0, held={bot.pid: capped.throttled_s})
        uncapped = StartClock([bot.pid], ceiling_s=60.0)  # the same program, its cap's hold not known
        deadline = time.monotonic() + WAIT_S
        while clock.wall() < 3.0 and time.monotonic() < deadline:
            time.sleep(0.05)
        charged, forgiven_anyway = clock.charged(), uncapped.charged()
        held = capped.throttled_s() - held_before
        assert len(capped.members()) == 4  # the premise: all four spin in the capped group
        assert held > 0.5  # ... and the cap held them back
        # What the cap held back is charged (the cgroup counts it on each CPU, a thread on one at a time).
        assert charged >= forgiven_anyway + 0.8 * held / (os.cpu_count() or 1), (charged, forgiven_anyway, held)
    finally:
        capped.kill()
        bot.wait()


# Starts threads until refused (at most 1,000), says how many, and keeps them.
THREAD_HOARDER = """
import threading, time
stop = threading.Event()
started = 0
try:
    for _ in range(1000):
        threading.Thread(target=stop.wait, args=(60,), daemon=True).start()
        started += 1
except RuntimeError:
    pass
print(started, flush=True)
stop.wait(60)
"""

# Threads and child processes that start and end as fast as they can (for 60 s at most).
CHURNER = """
import os, threading, time
end = time.monotonic() + 60
while time.monotonic() < end:
    threads = [threading.Thread(target=time.sleep, args=(0.002,)) for _ in range(4)]
    for t in threads:
        t.start()
    if os.fork() == 0:
        time.sleep(0.002)
        os._exit(0)
    for t in threads:
        t.join()
    os.wait()
"""


def test_the_pids_cap_bounds_the_threads_the_clock_reads() -> None:
    # The attack: a thousand threads, each read from /proc twice a poll. The sandbox's pids cap counts
    # threads too, so the clock never reads more than the cap's worth of the bot.
    group = Cgroup(f"startclock-{secrets.token_hex(4)}", SandboxLimits(pids=16)).create()
    try:
        bot = subprocess.Popen(["sh", "-c", JOIN_AND_EXEC, "sh", *group.procs_files(), "--", sys.executable, "-c",
                                THREAD_HOARDER], stdout=subprocess.PIPE, text=True)
        assert bot.stdout is not None
        started = int(bot.stdout.readline())
        clock = StartClock([bot.pid], ceiling_s=60.0)
        clock.charged()
        read = {key for key in clock._last if key[0] in descendants([bot.pid])}
        assert started < 16 and len(read) <= 16 and group.pids_capped()
    finally:
        group.remove()
        bot.wait()


def test_tasks_that_vanish_while_the_clock_reads_them_are_skipped_and_forgotten() -> None:
    # The attack: threads and processes that end between the listing of /proc and the reading of their
    # files, hundreds a second. Every poll still answers (a read that fails is skipped), and the clock
    # keeps only the threads alive now: before, it kept every thread it ever saw, a record each, for
    # as long as the wait lasted (up to the 30 s ceiling).
    churner = subprocess.Popen([sys.executable, "-c", CHURNER])
    try:
        clock = StartClock([churner.pid], ceiling_s=60.0)
        ever: set[tuple[int, int]] = set()
        most = 0
        for _ in range(300):  # bounded: about 3 s of polls of a tree that changes under them
            assert clock.charged() >= 0.0
            ever |= clock._last.keys()
            most = max(most, len(clock._last))
            time.sleep(0.01)
        assert churner.poll() is None and len(ever) > 50  # the premise: it churned all along
        assert most <= 16  # its main thread, four threads and a child at a time
    finally:
        churner.kill()
        churner.wait()


# Leaves a spinning grandchild behind (its parent exits, so it is re-parented out of the tree), says
# the grandchild's pid, then sleeps.
ESCAPER = f"""
import os, time
if os.fork() == 0:
    os.setsid()
    if os.fork() == 0:
        print(os.getpid(), flush=True)
        end = time.monotonic() + {WAIT_S}
        while time.monotonic() < end:
            pass
    os._exit(0)
os.wait()
time.sleep({WAIT_S})
"""


def test_a_process_that_leaves_the_tree_takes_no_forgiveness_with_it() -> None:
    # The attack: spin where the clock does not look. Then the spinner's waits are not counted either,
    # and what is left in the tree sleeps: it is charged in full.
    program = subprocess.Popen([sys.executable, "-c", ESCAPER], stdout=subprocess.PIPE, text=True)
    assert program.stdout is not None
    spinner = int(program.stdout.readline())
    try:
        clock = StartClock([program.pid], ceiling_s=60.0)
        deadline = time.monotonic() + WAIT_S
        while clock.wall() < 2.0 and time.monotonic() < deadline:
            clock.charged()
            time.sleep(0.05)
        assert spinner not in descendants([program.pid])  # the premise: the spinner left the tree
        assert clock.charged() >= clock.wall() / 2
    finally:
        with contextlib.suppress(ProcessLookupError):
            os.kill(spinner, signal.SIGKILL)
        program.kill()
        program.wait()
