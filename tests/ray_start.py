"""Start the test session's Ray, patiently: on a loaded machine its first start can time out.

ray.init waits a fixed time for its own processes (GCS port file, raylet); when other work
hogs the cores that wait can run out. A failed start is cleaned up and tried again, so no test
depends on how busy the machine is. Under pytest-xdist each worker process starts its own.

Each attempt starts clean: its own temp directory (so nothing of a failed attempt's session,
sockets or port files is read again), and whatever processes the failed attempt spawned
(gcs_server, monitor, dashboard, raylet) are killed: ray.shutdown() does not know of a node
that never finished starting, and a surviving GCS or monitor keeps competing for the CPU the
next attempt needs. The attempt's directory is in each of those processes' command lines,
which is how they are found.

The temp directories are short ones under the system temp directory, not pytest's tmp: Ray puts
Unix sockets inside them (session_<date>_<pid>/sockets/plasma_store) and a socket path longer
than 107 bytes is refused, which pytest's nested per-worker directories overrun.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import signal
import tempfile
import time
from pathlib import Path
from typing import Any

ATTEMPTS = 3
# Seconds ray.init waits for the GCS to write its port file and to answer (Ray's default is 30
# for the first and 20 one-second retries for the second; a loaded 2-core machine needs more).
# The later wait for the raylet to register (node.py, "timed out during startup") is a fixed
# 30 s in Ray 2.60 with no setting; a fresh retry is the answer to that one.
GCS_WAIT_SECONDS = 120
GCS_WAIT_ENV = "RAY_gcs_server_port_wait_time_s"  # read by Ray's node.py
REAP_DEADLINE_SECONDS = 10.0

_roots: list[Path] = []


def start_ray(*, first_attempt: dict[str, Any] | None = None, **kwargs: Any) -> Any:
    """ray.init(**kwargs) with the test defaults, retried from a clean slate after a failed start; returns ray.

    `first_attempt` holds options for the first attempt only (a test passes one that makes it fail).
    """
    os.environ.setdefault("RAY_AUTH_MODE", "disabled")
    os.environ.setdefault(GCS_WAIT_ENV, str(GCS_WAIT_SECONDS))
    import ray

    root = Path(tempfile.mkdtemp(prefix="tourney-ray-"))
    _roots.append(root)
    # address "local": a new instance of this process's own, never another test's cluster that
    # ray.init() would find on the machine and join (xdist runs the cluster tests beside these).
    options = {"address": "local", "include_dashboard": False, "log_to_driver": False, "configure_logging": False,
               **kwargs}
    for attempt in range(1, ATTEMPTS + 1):
        temp_dir = root / str(attempt)
        temp_dir.mkdir()
        extra = (first_attempt or {}) if attempt == 1 else {}
        try:
            ray.init(**options, **extra, _temp_dir=str(temp_dir))
            return ray
        except Exception:  # Ray raises RuntimeError, TimeoutError, ValueError or its own types here
            ray.shutdown()
            kill_processes_of(temp_dir)
            if attempt == ATTEMPTS:
                raise
            time.sleep(1.0 * attempt)
    return ray


def stop_ray() -> None:
    """Shut Ray down, end any process it left, and remove the temp directories start_ray made."""
    import ray

    ray.shutdown()
    while _roots:
        root = _roots.pop()
        kill_processes_of(root)
        shutil.rmtree(root, ignore_errors=True)


def processes_of(directory: Path) -> list[int]:
    """Ids of the live processes (other than this one) whose command line names `directory`."""
    needle = os.fsencode(directory)
    found = []
    for entry in os.listdir("/proc"):
        if not entry.isdigit() or int(entry) == os.getpid():
            continue
        try:
            command = Path(f"/proc/{entry}/cmdline").read_bytes()
        except OSError:  # it ended while we looked
            continue
        if needle in command:
            found.append(int(entry))
    return found


def kill_processes_of(directory: Path) -> None:
    """SIGKILL every process a Ray start under `directory` spawned, and wait (bounded) until each is gone."""
    pids = processes_of(directory)
    for pid in pids:
        with contextlib.suppress(ProcessLookupError):  # it ended by itself meanwhile
            os.kill(pid, signal.SIGKILL)
    deadline = time.monotonic() + REAP_DEADLINE_SECONDS
    for pid in pids:
        while time.monotonic() < deadline:
            try:  # our own child: reap it, or it lingers as a zombie
                if os.waitpid(pid, os.WNOHANG) != (0, 0):
                    break
            except ChildProcessError:  # not our child (or already reaped): wait for /proc to forget it
                if not Path(f"/proc/{pid}").exists() or pid not in processes_of(directory):
                    break
            time.sleep(0.05)
