"""deploy/check.sh's hosted bot: it tries to get out of its sandbox, then plays random legal moves.

Every probe that gets through (a TCP connection to a service the container itself reaches, a
write into the bundle or /usr, a file left by an earlier match, a variable of the organiser's,
a memory or process cap that is missing) ends the bot at once with exit status 3, before it says
Hello: its match then ends as a crash, never normally, and the check fails. Each probe prints what
happened to the bot's log.
"""

import os
import random
import sys
from pathlib import Path

from tourney_bot import Bot, run_bot

# What the sandbox gives a bot (workers/sandbox/mounts.py; bwrap sets PWD); anything else came from the organiser.
ALLOWED_ENV = {"HOME", "LANG", "PATH", "PWD", "PYTHONPATH", "PYTHONDONTWRITEBYTECODE", "PYTHONUNBUFFERED", "NODE_PATH",
               "TOURNEY_ARENA", "TOURNEY_BOT_NAME", "TOURNEY_TOKEN"}
FORK_TRIES = 100  # well above the 64-process cap, and bounded if there is none
MEMORY_TRY = 2 << 30  # twice the 1 GiB cap


def tcp_connected() -> bool:
    """Connect to the address in probe_target.txt (written by check.sh): PostgreSQL's container."""
    import socket
    host, port = Path("probe_target.txt").read_text().split()
    try:
        socket.create_connection((host, int(port)), timeout=3).close()
    except OSError as error:
        print(f"probe: TCP to {host}:{port} refused ({error})")
        return False
    return True


def written(path: Path) -> bool:
    """True when `path` could be created (it must not, in a read-only place)."""
    try:
        path.write_text("x")
    except OSError as error:
        print(f"probe: writing {path} refused ({error.strerror})")
        return False
    return True


def processes_forked() -> int:
    """How many children could be alive at once (they wait on a pipe, then all exit)."""
    read_end, write_end = os.pipe()
    children = []
    try:
        while len(children) < FORK_TRIES:
            pid = os.fork()
            if pid == 0:
                os.close(write_end)
                os.read(read_end, 1)
                os._exit(0)
            children.append(pid)
    except OSError as error:
        print(f"probe: fork refused after {len(children)} children ({error.strerror})")
    os.close(write_end)
    for pid in children:
        os.waitpid(pid, 0)
    return len(children)


def memory_granted() -> bool:
    """True when 2 GiB could be allocated."""
    try:
        block = bytearray(MEMORY_TRY)
    except MemoryError:
        print("probe: 2 GiB refused (MemoryError)")
        return False
    del block
    return True


def escapes() -> list[str]:
    """Every way out that worked, in words."""
    found = []
    if tcp_connected():
        found.append("a TCP connection got through")
    for path in (Path.cwd() / "left-behind.txt", Path("/usr/left-behind.txt")):
        if written(path):
            found.append(f"{path} could be written")
    marker = Path(os.environ.get("HOME", "/tmp")) / "earlier-match.txt"
    if marker.exists():
        found.append("a file from an earlier match was still there")
    written(marker)  # the next match must not see it
    extra = sorted(set(os.environ) - ALLOWED_ENV)
    if extra:
        found.append(f"the organiser's environment leaked in: {', '.join(extra)}")
    if processes_forked() >= FORK_TRIES:
        found.append(f"{FORK_TRIES} processes could be started")
    if memory_granted():
        found.append("2 GiB of memory could be allocated")
    return found


class RandomMoves(Bot):
    """Plays a random legal action: the check is about where it runs, not how well."""

    def act(self, observation, legal_actions, request):  # type: ignore[no-untyped-def]
        return random.randrange(len(legal_actions))


if __name__ == "__main__":
    got_out = escapes()
    if got_out:
        print("ESCAPED: " + "; ".join(got_out))
        sys.exit(3)
    print("probe: every way out was refused; playing")
    run_bot(RandomMoves())
