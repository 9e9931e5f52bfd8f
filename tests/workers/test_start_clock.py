"""A starting bot program is timed on its own clock: a busy machine does not forfeit it, silence still does."""

from __future__ import annotations

import os
import subprocess
import sys
import threading
import time
from pathlib import Path

import pytest

from tourney.workers.programs import play_with_programs
from tourney.workers.start_clock import StartClock, descendants

ROOT = Path(__file__).resolve().parents[2]
LIMIT_S = 3.0

# A bot that starts slowly only because the machine is busy: pinned to CPU 0 at the lowest share
# (its niceness, and its session's autogroup, where the kernel schedules by those), it spins until
# the kernel has kept it waiting for a CPU longer than the connect limit, records that wait, then
# plays as the random bot.
STARVED_BOT = f"""
import os, runpy, sys, time
os.sched_setaffinity(0, {{0}})
os.nice(19)
try:
    with open("/proc/self/autogroup", "w") as group:
        group.write("19")
except OSError:
    pass
def waited():
    return int(open("/proc/self/schedstat").read().split()[1]) / 1e9
start = time.process_time()
while waited() < {LIMIT_S + 1.0} and time.process_time() - start < 2.0:
    pass
with open(sys.argv[1] + ".tmp", "w") as out:
    out.write(f"{{waited()}} {{time.process_time() - start}}")
os.rename(sys.argv[1] + ".tmp", sys.argv[1])
# Starved enough: from here it starts like any bot, on any CPU at the usual priority (as root).
try:
    os.sched_setaffinity(0, range(os.cpu_count() or 1))
    os.setpriority(os.PRIO_PROCESS, 0, 0)
    with open("/proc/self/autogroup", "w") as group:
        group.write("0")
except OSError:
    pass
sys.argv = sys.argv[:1]
runpy.run_path({str(ROOT / "clients/python/examples/random_bot.py")!r}, run_name="__main__")
"""


def _burners(n: int) -> list[subprocess.Popen[bytes]]:
    """n processes spinning on CPU 0 at normal priority, each in its own session (its own autogroup)."""
    spin = "import os\nos.sched_setaffinity(0, {0})\nwhile True: pass"
    return [subprocess.Popen([sys.executable, "-c", spin], start_new_session=True) for _ in range(n)]


@pytest.mark.timeout(180)
def test_a_program_kept_off_the_cpu_past_the_limit_still_plays(tmp_path, monkeypatch) -> None:
    monkeypatch.setattr("tourney.workers.programs.CONNECT_WAIT_S", LIMIT_S)
    script, waited_file = tmp_path / "starved_bot.py", tmp_path / "waited"
    script.write_text(STARVED_BOT)
    burners, played = _burners(3), threading.Event()

    def stop_burners_once_starved() -> None:  # the wait is recorded: let the match itself play at speed
        deadline = time.monotonic() + 150
        while not waited_file.exists() and not played.is_set() and time.monotonic() < deadline:
            time.sleep(0.05)
        for burner in burners:
            burner.kill()

    watcher = threading.Thread(target=stop_burners_once_starved, daemon=True)
    watcher.start()
    try:
        result = play_with_programs("tiny-ninjas", [f"cmd:{sys.executable} {script} {waited_file}", "random"],
                                    seed=5, config={}, move_ms=60_000, log_dir=tmp_path / "logs")
    finally:
        played.set()
        for burner in burners:
            burner.kill()
            burner.wait()
        watcher.join()
    assert result.termination.value == "normal", result.reason
    waited, spent = map(float, waited_file.read_text().split())
    # The premise: before connecting, the program waited for a CPU longer than the limit, so a wall
    # clock would have forfeited it; it used far less of the CPU itself.
    assert waited > LIMIT_S and spent < LIMIT_S
    assert result.seats[0].stats().decisions > 0


def test_a_sleeping_program_is_charged_its_wall_time(tmp_path) -> None:
    sleeper = subprocess.Popen(["sleep", "60"])
    try:
        clock = StartClock([sleeper.pid], ceiling_s=50.0)
        deadline = time.monotonic() + 40
        while not clock.expired(0.5) and time.monotonic() < deadline:
            time.sleep(0.02)
        # A program that does not ask for the CPU owes the whole wait: it expires on its limit,
        # long before the wall ceiling.
        assert clock.charged() >= 0.5 and clock.wall() < 40
    finally:
        sleeper.kill()
        sleeper.wait()


def test_the_clock_follows_a_programs_children() -> None:
    shell = subprocess.Popen(["sh", "-c", "sleep 60 & echo $!; wait"], stdout=subprocess.PIPE, text=True)
    try:
        assert shell.stdout is not None
        child = int(shell.stdout.readline())
        tree = descendants([shell.pid])
        assert {shell.pid, child} <= tree and os.getpid() not in tree
    finally:
        subprocess.run(["pkill", "-P", str(shell.pid)], check=False)
        shell.kill()
        shell.wait()
