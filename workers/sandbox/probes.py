"""What this machine lets bubblewrap do, found by trying it once per process (each a few milliseconds).

A container with Docker's default seccomp profile refuses user namespaces altogether; one with
Docker's masked /proc allows them but refuses a fresh /proc inside (the kernel will not mount a
proc while the existing one is partly hidden).
"""

from __future__ import annotations

import functools
import subprocess

PROBE_TIMEOUT_S = 30.0  # one bwrap start, normally milliseconds; bounded on a loaded machine


def _runs(argv: list[str]) -> bool:
    try:
        done = subprocess.run(argv, env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    return done.returncode == 0


@functools.cache
def user_namespaces_allowed(bwrap: str) -> bool:
    """True when bwrap may make a user namespace here."""
    return _runs([bwrap, "--unshare-user", "--ro-bind", "/", "/", "--", "true"])


@functools.cache
def fresh_proc_mountable(bwrap: str) -> bool:
    """True when bwrap may also mount a fresh /proc for a pid namespace of its own."""
    return _runs([bwrap, "--unshare-user", "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "--", "true"])
