"""The bubblewrap command line of a sandboxed bot: what it sees, read-only, and nothing else.

Inside: /usr (and the /lib, /bin links), the Python that runs tourney at its own path, the
directories that hold grpcio, protobuf and the Python SDK under /opt/tourney, the bundle at /bot
(its working directory), the match's arena socket under /run/arena, and a fresh tmpfs of a
fixed size for HOME, /tmp and /dev/shm, the only places it may write. No network namespace but
its own empty one, its own pid, ipc and uts namespaces, an unprivileged uid with no capabilities,
and no user namespaces of its own.

/proc is a fresh one for the bot's pid namespace. Where the kernel refuses that mount (a container
whose /proc is partly hidden, as Docker's masked paths do) the bot gets no /proc at all: binding
the container's would show it the worker's processes, whose environment holds the database URL.
There userns_filter's seccomp program, not --disable-userns (which writes the sandbox's /proc/sys),
keeps it from making user namespaces.
"""

from __future__ import annotations

import importlib.util
import os
import shlex
import sys
from pathlib import Path

from tourney.engine.core.environment import ARENA_ENV, BOT_NAME_ENV, TOKEN_ENV
from tourney.workers.sandbox.limits import SandboxLimits

BUNDLE = "/bot"
ARENA_DIR = "/run/arena"
HOME = "/home/bot"
LIBS = "/opt/tourney/lib"
PACKAGE = "/opt/tourney/package"
NOBODY = "65534"
PYTHON_NAMES = ("python", "python3")  # the bundle's `python3` is the interpreter running tourney
SDK_MODULES = ("grpc", "google.protobuf", "tourney_bot")  # what a Python bundle may import without shipping it
NODE_CLIENT = Path(__file__).resolve().parents[2] / "clients" / "node"  # bot.js, in a checkout or the image


def python_dirs() -> list[Path]:
    """The distinct sys.path entries that hold the modules a Python bundle may import."""
    found: list[Path] = []
    for module in SDK_MODULES:
        spec = importlib.util.find_spec(module.split(".")[0])
        if spec is None or spec.origin is None:
            continue
        origin = Path(spec.origin)
        top = origin.parent.parent if origin.name == "__init__.py" else origin.parent
        if top not in found:
            found.append(top)
    return found


def interpreter() -> Path:
    """The real file of the Python running tourney (a venv's python is a link to it)."""
    return Path(os.path.realpath(sys.executable))


def system_mounts() -> list[str]:
    """/usr read-only and the merged-/usr links (or the real directories on an older layout)."""
    args = ["--ro-bind", "/usr", "/usr"]
    for top in ("lib", "lib64", "bin", "sbin", "lib32"):
        path = Path("/") / top
        if path.is_symlink():
            args += ["--symlink", os.readlink(path), f"/{top}"]
        elif path.is_dir():
            args += ["--ro-bind", str(path), f"/{top}"]
    # Debian's `alternatives` links (node, java) and the linker cache; nothing else of /etc.
    args += ["--ro-bind-try", "/etc/alternatives", "/etc/alternatives",
             "--ro-bind-try", "/etc/ld.so.cache", "/etc/ld.so.cache"]
    return args


def runtime_mounts() -> tuple[list[str], dict[str, str]]:
    """Binds for Python (and the Node client, if present) and the variables that point at them."""
    args: list[str] = []
    prefix = Path(sys.base_prefix).resolve()
    if not str(prefix).startswith("/usr"):
        args += ["--ro-bind", str(prefix), str(prefix)]
    paths = []
    for i, folder in enumerate(python_dirs()):
        paths.append(f"{LIBS}/{i}")
        args += ["--ro-bind", str(folder), paths[-1]]
    # The SDK imports tourney.engine (the client and the generated stubs): that layer, alone, as a package.
    engine = Path(importlib.util.find_spec("tourney.engine").origin or "").parent  # type: ignore[union-attr]
    args += ["--ro-bind", str(engine), f"{PACKAGE}/tourney/engine"]
    paths.append(PACKAGE)
    env = {"PYTHONPATH": ":".join(paths), "PYTHONDONTWRITEBYTECODE": "1", "PYTHONUNBUFFERED": "1"}
    if (NODE_CLIENT / "bot.js").is_file():
        args += ["--ro-bind", str(NODE_CLIENT), "/opt/tourney/node"]
        env["NODE_PATH"] = "/opt/tourney/node/node_modules"
    env["PATH"] = f"{interpreter().parent}:/usr/local/bin:/usr/bin:/bin"
    return args, env


def bundle_argv(run: str) -> list[str]:
    """The bundle's command, with a leading python/python3 made the interpreter bound in."""
    argv = shlex.split(run)
    if argv and argv[0] in PYTHON_NAMES:
        argv[0] = str(interpreter())
    return argv


def bwrap_argv(bwrap: str, run: str, bundle: Path, arena_dir: Path, socket_name: str, name: str, token: str,
               limits: SandboxLimits, inside: list[str] | None = None, userns_filter: int | None = None) -> list[str]:
    """The whole bwrap command that runs `run` from the bundle, connected to the arena socket only;
    `inside` is a prefix run within the sandbox before the bundle's command (e.g. prlimit). Given
    `userns_filter`, the descriptor of userns_filter's program (where no /proc can be mounted), the bot
    gets no /proc and that filter; else a fresh /proc and bwrap's --disable-userns, which writes it."""
    mounts, env = runtime_mounts()
    env.update({"HOME": HOME, "LANG": "C.UTF-8", ARENA_ENV: f"unix:{ARENA_DIR}/{socket_name}",
                BOT_NAME_ENV: name, TOKEN_ENV: token})
    proc = userns_filter is None
    no_userns = ["--disable-userns"] if proc else ["--seccomp", str(userns_filter)]
    args = [bwrap, "--unshare-all", "--unshare-user", *no_userns, "--uid", NOBODY, "--gid", NOBODY,
            "--cap-drop", "ALL", "--die-with-parent", "--new-session", "--hostname", "bot",
            *system_mounts(), *mounts,
            "--ro-bind", str(bundle), BUNDLE, "--ro-bind", str(arena_dir), ARENA_DIR,
            *(["--proc", "/proc"] if proc else []), "--dev", "/dev",
            "--size", str(limits.shm_bytes), "--tmpfs", "/dev/shm",
            "--size", str(limits.scratch_bytes), "--tmpfs", HOME,
            "--size", str(limits.scratch_bytes), "--tmpfs", "/tmp",
            # bwrap's root and /dev are tmpfs as big as half the machine's memory: read-only, so the bot
            # writes only where a size caps it (the rlimit caps count no tmpfs page).
            "--remount-ro", "/dev", "--remount-ro", "/",
            "--chdir", BUNDLE, "--clearenv"]
    for key, value in sorted(env.items()):
        args += ["--setenv", key, value]
    return [*args, "--", *(inside or []), *bundle_argv(run)]
