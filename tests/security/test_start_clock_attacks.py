"""A hostile bot program against its start clock (workers/start_clock.py), with real processes in a real
cgroup: what it can make the clock forgive, and what the clock reads of it."""

from __future__ import annotations

import secrets
import subprocess
import sys
import time
from collections.abc import Iterator

import pytest

from tests.server.harness import WAIT_S
from tourney.workers.sandbox.cgroup import Cgroup, cgroups_usable
from tourney.workers.sandbox.limits import SandboxLimits
from tourney.workers.sandbox.process import JOIN_AND_EXEC
from tourney.workers.start_clock import StartClock

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
        clock = StartClock([bot.pid], ceiling_s=60.0, held={bot.pid: capped.throttled_s})
        deadline = time.monotonic() + WAIT_S
        while clock.wall() < 3.0 and time.monotonic() < deadline:
            time.sleep(0.05)
        assert len(capped.members()) == 4  # the premise: all four spin in the capped group
        assert capped.throttled_s() > 1.0  # ... and the cap held them back
        # Only the machine's own delays, in the tenth of each period the cap lets the group run, are forgiven.
        assert clock.charged() >= clock.wall() / 2
    finally:
        capped.kill()
        bot.wait()
