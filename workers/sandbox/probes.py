"""What this machine lets bubblewrap do, found by trying it (a few milliseconds each).

A container with Docker's default seccomp profile refuses user namespaces altogether; one with
Docker's masked /proc allows them but refuses a fresh /proc inside (the kernel will not mount a
proc while the existing one is partly hidden). A success is remembered for the process; a failure
is tried again at the next start, so a probe that failed only because the machine was overloaded
does not stay wrong.
"""

from __future__ import annotations

import subprocess

PROBE_TIMEOUT_S = 30.0  # one bwrap start, normally milliseconds; bounded on a loaded machine
_succeeded: set[tuple[str, ...]] = set()


def _runs(argv: list[str]) -> bool:
    key = tuple(argv)
    if key in _succeeded:
        return True
    try:
        done = subprocess.run(argv, env={"PATH": "/usr/bin:/bin"}, stdin=subprocess.DEVNULL, capture_output=True,
                              timeout=PROBE_TIMEOUT_S, check=False)
    except (OSError, subprocess.TimeoutExpired):
        return False
    if done.returncode == 0:
        _succeeded.add(key)
    return done.returncode == 0


def user_namespaces_allowed(bwrap: str) -> bool:
    """True when bwrap may make a user namespace here."""
    return _runs([bwrap, "--unshare-user", "--ro-bind", "/", "/", "--", "true"])


def fresh_proc_mountable(bwrap: str) -> bool:
    """True when bwrap may also mount a fresh /proc for a pid namespace of its own."""
    return _runs([bwrap, "--unshare-user", "--unshare-pid", "--ro-bind", "/", "/", "--proc", "/proc", "--", "true"])
