"""The sandbox as the deploy image runs it, made on this machine from its two parts.

A non-root worker with no cgroup whose user already runs more processes than a bot may (a Ray
node's threads alone pass 64): RLIMIT_NPROC counts every process of a user, so set before bwrap it
would stop bwrap itself; the sandbox sets it inside its own user namespace, where only the bot's
count. A partly hidden /proc (Docker masks some of it), where the kernel refuses the bot a
fresh /proc: the bot then gets none, and a seccomp filter instead of bwrap's --disable-userns
(which needs one) keeps it from making user namespaces. And no user namespaces at all (Docker's
default seccomp profile): hosted bots are refused in one sentence that says what to allow.
"""

from __future__ import annotations

import contextlib
import os
import shutil
import stat
import subprocess
import sys
import sysconfig
import tempfile
from collections.abc import Iterator
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


@contextlib.contextmanager
def reachable_by_anyone(*paths: Path) -> Iterator[None]:
    """Let any user pass through the folders above `paths` (as the image's are) for the block's length.

    A checkout may sit under a private folder (mktemp -d makes 0700 ones); the worker's user must reach
    the installed code there, as it does in the image. The modes are put back afterwards.
    """
    changed: dict[Path, int] = {}
    for path in paths:
        for folder in [path, *path.parents]:
            mode = folder.stat().st_mode
            if folder not in changed and not mode & stat.S_IXOTH:
                changed[folder] = stat.S_IMODE(mode)
                folder.chmod(stat.S_IMODE(mode) | stat.S_IXOTH)
    try:
        yield
    finally:
        for folder, mode in changed.items():
            folder.chmod(mode)


def test_a_busy_non_root_worker_starts_bots_and_caps_their_processes() -> None:
    with tempfile.TemporaryDirectory(prefix="tourney-sandbox-user-") as folder, \
            reachable_by_anyone(Path(SITE), Path(__file__).resolve()):
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


# The bot: is there a /proc, and may it make a user namespace (unshare(CLONE_NEWUSER), by its number)?
USERNS = """
import ctypes, errno, os, platform
libc = ctypes.CDLL(None, use_errno=True)
number = {"x86_64": 272, "aarch64": 97}[platform.machine()]
result = libc.syscall(number, 0x10000000)
print("proc", os.path.exists("/proc/self"), "unshare", result, errno.errorcode.get(ctypes.get_errno()), flush=True)
"""


def play_userns_probe(masked: bool) -> str:
    """Run the probe in a sandbox from a worker in a mount namespace of its own, /proc/sys hidden or not."""
    with tempfile.TemporaryDirectory(prefix="tourney-sandbox-proc-") as folder:
        work = Path(folder)
        (work / "bundle").mkdir()
        (work / "bundle" / "userns.py").write_text(USERNS)
        worker = (f"from pathlib import Path\nfrom tourney.workers.sandbox import SandboxedProgram\nimport time\n"
                  f"work = Path({folder!r})\n"
                  "bot = SandboxedProgram('python3 userns.py', work / 'bundle', work / 'a.sock', 'p', work / 'p.log')\n"
                  "with bot as b:\n"
                  "    deadline = time.monotonic() + 60\n"
                  "    while b.alive() and time.monotonic() < deadline:\n"
                  "        time.sleep(0.02)\n")
        # As Docker does to /proc/sys: a read-only bind over it, which the sandbox's user namespace cannot undo.
        mask = "mount --bind -o ro /proc/sys /proc/sys && " if masked else ""
        done = subprocess.run(["unshare", "--mount", "--propagation", "private", "sh", "-c",
                               f'{mask}exec "$0" -c "$1"', sys.executable, worker],
                              capture_output=True, text=True, timeout=90)
        assert done.returncode == 0, done.stderr
        return (work / "p.log").read_text(errors="replace")


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare (util-linux)")
def test_a_hidden_proc_leaves_the_bot_no_proc_and_no_user_namespaces() -> None:
    plain, masked = play_userns_probe(masked=False), play_userns_probe(masked=True)
    assert "proc True unshare -1" in plain, plain  # its own /proc; --disable-userns refuses
    assert "proc False unshare -1 EPERM" in masked, masked  # no /proc at all; the filter refuses


@pytest.mark.skipif(shutil.which("unshare") is None, reason="needs unshare (util-linux)")
def test_no_user_namespaces_refuses_hosted_bots_in_one_sentence(tmp_path: Path) -> None:
    bundle = tmp_path / "bot"
    bundle.mkdir()
    (bundle / "bot.py").write_text("print('never started')\n")
    tourney = str(Path(sys.executable).parent / "tourney")
    # A user namespace of its own that may make no more: bwrap's first step fails, as under Docker's default profile.
    done = subprocess.run(["unshare", "--user", "--map-root-user", "sh", "-c",
                           'echo 0 > /proc/sys/user/max_user_namespaces && exec "$@"', "sh", tourney, "bot", "submit",
                           "probe", str(bundle), "--run", "python3 bot.py", "--game", "tiny-ninjas",
                           "--db", str(tmp_path / "store.db")], capture_output=True, text=True, timeout=120)
    assert done.returncode == 2, done.stderr
    assert "bwrap may not make a user namespace here" in done.stderr and "deploy/seccomp/bwrap.json" in done.stderr
    assert "Traceback" not in done.stderr and len(done.stderr.strip().splitlines()) == 1, done.stderr
