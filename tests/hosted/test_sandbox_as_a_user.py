"""The process cap where no cgroup can be made, as in the deploy image: a non-root worker whose user
already runs more processes than a bot may (a Ray node's threads alone pass 64).

RLIMIT_NPROC counts every process of a user; set before bwrap, it would stop bwrap itself from
starting, so the sandbox sets it inside its own user namespace, where only the bot's count.
"""

from __future__ import annotations

import os
import shutil
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

import pytest

UID = 54321  # a user no other process here runs as
# The image's layout: Debian's Python in /usr, tourney's packages in a virtual environment's folder
# (this venv's, with the .pth files that point at its dependencies), readable by any user.
SYSTEM_PYTHON = Path(f"/usr/bin/python{sys.version_info.major}.{sys.version_info.minor}")
SITE = sysconfig.get_paths()["purelib"]
WORKER_THREADS = 100  # the worker's own threads, above the cap of 64 processes
pytestmark = [pytest.mark.timeout(120),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed"),
              pytest.mark.skipif(shutil.which("setpriv") is None or os.geteuid() != 0,
                                 reason="needs root and setpriv to run the worker as another user"),
              pytest.mark.skipif(not SYSTEM_PYTHON.exists(), reason=f"no {SYSTEM_PYTHON} (this Python's version)")]

# The worker: as the user, with its threads running, it plays the bundle in a sandbox and waits for it.
WORKER = f"""
import site, sys, threading, time
site.addsitedir(sys.argv[2])
from pathlib import Path
from tourney.workers.sandbox import SandboxedProgram
stop = threading.Event()
for _ in range({WORKER_THREADS}):
    threading.Thread(target=stop.wait, daemon=True).start()
work = Path(sys.argv[1])
with SandboxedProgram("python3 forks.py", work / "bundle", work / "arena.sock", "forker", work / "forker.log") as bot:
    deadline = time.monotonic() + 60
    while bot.alive() and time.monotonic() < deadline:
        time.sleep(0.02)
    print("exit", bot.process.poll(), "cgroup", bot.cgroup is not None, flush=True)
stop.set()
"""
# The bot: starts children that wait on a pipe until a fork is refused (bounded), then lets them all exit.
FORKS = """
import os
read_end, write_end = os.pipe()
children = []
try:
    while len(children) < 200:
        pid = os.fork()
        if pid == 0:
            os.close(write_end); os.read(read_end, 1); os._exit(0)
        children.append(pid)
except OSError as error:
    print("refused", error.errno)
os.close(write_end)
for pid in children:
    os.waitpid(pid, 0)
print("forked", len(children))
"""


def test_a_busy_non_root_worker_starts_bots_and_caps_their_processes() -> None:
    with tempfile.TemporaryDirectory(prefix="tourney-sandbox-user-") as folder:
        work = Path(folder)
        (work / "bundle").mkdir()
        (work / "bundle" / "forks.py").write_text(FORKS)
        for path in (work, work / "bundle", work / "bundle" / "forks.py"):
            os.chown(path, UID, UID)
        done = subprocess.run(["setpriv", f"--reuid={UID}", f"--regid={UID}", "--clear-groups",
                               str(SYSTEM_PYTHON), "-c", WORKER, str(work), SITE],
                              capture_output=True, text=True, timeout=90, env={"PATH": "/usr/bin:/bin", "HOME": folder})
        log = (work / "forker.log").read_text(errors="replace") if (work / "forker.log").exists() else ""
    assert done.returncode == 0, done.stderr
    assert "exit 0 cgroup False" in done.stdout, (done.stdout, log)  # bwrap started: no cgroup, rlimits only
    forked = int(log.split("forked")[-1])
    assert "refused 11" in log and 0 < forked < 64, log  # EAGAIN at the cap, counting only the bot's processes
