"""Bot programs as seats: `cmd:python3 mybot.py` starts a process that connects to the arena.

A leading `python3` or `python` means the Python running tourney (sys.executable): that one
has grpc and the SDK installed, the system's usually has not.

The program gets TOURNEY_ARENA=host:port, TOURNEY_TOKEN and TOURNEY_BOT_NAME in its
environment, connects, plays its matches and, when they are done, is asked to stop
(SIGTERM), then killed if it lingers. Its stderr (and stdout) go to one log file per bot.
"""

from __future__ import annotations

import contextlib
import os
import re
import shlex
import shutil
import signal
import subprocess
import sys
import time
from pathlib import Path
from types import TracebackType

from tourney.engine.core import ConfigError
from tourney.engine.core.environment import (
    ARENA_ENV,
    BOT_NAME_ENV,
    CONCURRENCY_ENV,
    GAMES_ENV,
    MATCHES_ENV,
    PROTO_ENV,
    TOKEN_ENV,
)

CMD_PREFIX = "cmd:"
PYTHON_NAMES = ("python", "python3")  # a program started with these runs on tourney's own Python


def is_command(spec: str) -> bool:
    """True for a seat spec that names a program (`cmd:...`)."""
    return spec.startswith(CMD_PREFIX)


def command_words(spec: str) -> list[str]:
    """The words of a `cmd:` spec (or a bare command line) as a shell would split them."""
    try:
        return shlex.split(spec[len(CMD_PREFIX):] if is_command(spec) else spec)
    except ValueError as exc:  # shlex's "No closing quotation" / "No escaped character"
        raise ConfigError(f"cannot read the command '{spec}' ({str(exc).lower()}): close its quotes, e.g. "
                          "cmd:python3 -c 'print(1, 2)'.") from None


def command_name(spec: str, seat: int) -> str:
    """A bot name for a program seat: its script's stem plus the seat, e.g. mybot-0."""
    words = command_words(spec)
    if not words:
        raise ConfigError(f"'{spec}' names no program: write e.g. cmd:python3 mybot.py.")
    stem = Path(words[-1]).stem or Path(words[0]).name
    return f"{re.sub(r'[^A-Za-z0-9_.-]', '_', stem)[:40]}-{seat}"


def program_argv(spec: str) -> list[str]:
    """The argv a `cmd:` spec starts, with a leading python/python3 made tourney's own Python."""
    argv = command_words(spec)
    if not argv:
        raise ConfigError(f"'{spec}' names no program: write e.g. cmd:python3 mybot.py.")
    if argv[0] in PYTHON_NAMES:
        argv[0] = sys.executable
    return argv


def check_program(spec: str) -> None:
    """Fail with one sentence when the program a `cmd:` spec starts is not here: its executable is not
    on PATH (or not a file), or the script given to Python is not a file. A program that exists but
    fails is left to fail when it is started (its match says why)."""
    argv = program_argv(spec)
    if shutil.which(argv[0]) is None:
        raise ConfigError(f"there is no program '{argv[0]}' for '{spec}' (not on PATH, or not an executable file): "
                          "check the command, e.g. cmd:python3 mybot.py.")
    if argv[0] == sys.executable and len(argv) > 1 and argv[1].endswith(".py") and not Path(argv[1]).is_file():
        raise ConfigError(f"there is no script {argv[1]} for '{spec}' here (in {Path.cwd()}): check its path.")


def group_members(pgid: int) -> list[int]:
    """Live (not zombie) processes of process group `pgid`, from /proc (Linux); elsewhere a signal probe."""
    proc = Path("/proc")
    if not proc.is_dir():
        try:
            os.killpg(pgid, 0)
        except (ProcessLookupError, PermissionError):
            return []
        return [pgid]
    out = []
    for entry in proc.iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # gone meanwhile
            continue
        fields = stat[stat.rfind(")") + 2:].split()
        if len(fields) > 2 and fields[2] == str(pgid) and fields[0] not in ("Z", "X"):
            out.append(int(entry.name))
    return out


# Settings the SDKs read (clients/python/tourney_bot.py, clients/node/bot.js) that a bot program
# may inherit; every other TOURNEY_* variable is the organiser's.
BOT_SETTINGS = frozenset({GAMES_ENV, MATCHES_ENV, CONCURRENCY_ENV, PROTO_ENV})


class BotProcess:
    """One launched bot program; use as a context manager so it is always stopped."""

    def __init__(self, spec: str, name: str, address: str, token: str = "", log_dir: Path | None = None,
                 stop_grace_s: float = 5.0) -> None:
        self.spec = spec
        self.name = name
        self.argv = program_argv(spec)
        self.address = address
        self.token = token
        self.log_path = (log_dir or Path("bot-logs")) / f"{name}.log"
        self.stop_grace_s = stop_grace_s
        self.process: subprocess.Popen[bytes] | None = None
        self.log_start = 0  # where this start's lines begin in the (appended) log file

    def start(self) -> BotProcess:
        """Start the program with the arena's address, its token and its name in the environment
        (and no other TOURNEY_* variable, and nothing about its matches: no seed reaches it).

        Starting a bot that runs already does nothing (a second copy would outlive stop()).
        """
        if self.alive():
            return self
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        # The organiser's own TOURNEY_* settings (admin token, database URL, ...) stay with the
        # organiser: a bot program gets what it needs to connect and the SDKs' own settings.
        inherited = {k: v for k, v in os.environ.items() if not k.startswith("TOURNEY_") or k in BOT_SETTINGS}
        env = {**inherited, ARENA_ENV: self.address, TOKEN_ENV: self.token,
               BOT_NAME_ENV: self.name}
        log = self.log_path.open("ab")
        self.log_start = log.tell()
        try:
            # Its own session (and process group): stop() then reaches every process the bot forked,
            # even after the program itself has exited.
            self.process = subprocess.Popen(self.argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log,
                                            start_new_session=True)
        except OSError as exc:
            raise ConfigError(f"cannot start '{self.spec}' ({exc}): check the command.") from None
        finally:
            log.close()
        return self

    def alive(self) -> bool:
        """True while the program runs."""
        return self.process is not None and self.process.poll() is None

    def _signal_group(self, sig: signal.Signals) -> bool:
        """Send `sig` to the bot's whole process group; False when no process of it is left."""
        assert self.process is not None
        try:
            os.killpg(self.process.pid, sig)
        except (ProcessLookupError, PermissionError):
            return False
        return True

    def _group_alive(self) -> bool:
        """True while a live (not zombie) process of the bot's group runs."""
        assert self.process is not None
        return bool(group_members(self.process.pid))

    def stop(self) -> int | None:
        """Ask the program (and whatever it forked) to stop, kill them after the grace period.

        Returns the program's exit code; the program is always reaped (no zombie is left).
        """
        if self.process is None:
            return None
        self._signal_group(signal.SIGTERM)
        try:
            self.process.wait(self.stop_grace_s)
        except subprocess.TimeoutExpired:
            self._signal_group(signal.SIGKILL)
            self.process.wait(self.stop_grace_s)
        # Forked children outlive a program that exits at once: give them the grace period too.
        deadline = time.monotonic() + self.stop_grace_s
        while self._group_alive() and time.monotonic() < deadline:
            time.sleep(0.02)
        with contextlib.suppress(ProcessLookupError, PermissionError):
            os.killpg(self.process.pid, signal.SIGKILL)
        return self.process.returncode

    def __enter__(self) -> BotProcess:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
