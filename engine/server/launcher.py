"""Bot programs as seats: `cmd:python3 mybot.py` starts a process that connects to the arena.

The program gets TOURNEY_ARENA=host:port, TOURNEY_TOKEN and TOURNEY_BOT_NAME in its
environment, connects, plays its matches and, when they are done, is asked to stop
(SIGTERM), then killed if it lingers. Its stderr (and stdout) go to one log file per bot.
"""

from __future__ import annotations

import os
import re
import shlex
import subprocess
from pathlib import Path
from types import TracebackType

from engine.core import ConfigError

CMD_PREFIX = "cmd:"


def is_command(spec: str) -> bool:
    """True for a seat spec that names a program (`cmd:...`)."""
    return spec.startswith(CMD_PREFIX)


def command_name(spec: str, seat: int) -> str:
    """A bot name for a program seat: its script's stem plus the seat, e.g. mybot-0."""
    words = shlex.split(spec[len(CMD_PREFIX):])
    if not words:
        raise ConfigError(f"'{spec}' names no program: write e.g. cmd:python3 mybot.py.")
    stem = Path(words[-1]).stem or Path(words[0]).name
    return f"{re.sub(r'[^A-Za-z0-9_.-]', '_', stem)[:40]}-{seat}"


class BotProcess:
    """One launched bot program; use as a context manager so it is always stopped."""

    def __init__(self, spec: str, name: str, address: str, token: str = "", log_dir: Path | None = None,
                 stop_grace_s: float = 5.0) -> None:
        self.spec = spec
        self.name = name
        self.argv = shlex.split(spec[len(CMD_PREFIX):] if is_command(spec) else spec)
        if not self.argv:
            raise ConfigError(f"'{spec}' names no program: write e.g. cmd:python3 mybot.py.")
        self.address = address
        self.token = token
        self.log_path = (log_dir or Path("bot-logs")) / f"{name}.log"
        self.stop_grace_s = stop_grace_s
        self.process: subprocess.Popen[bytes] | None = None

    def start(self) -> BotProcess:
        """Start the program with the arena's address, its token and its name in the environment."""
        self.log_path.parent.mkdir(parents=True, exist_ok=True)
        env = {**os.environ, "TOURNEY_ARENA": self.address, "TOURNEY_TOKEN": self.token,
               "TOURNEY_BOT_NAME": self.name}
        log = self.log_path.open("ab")
        try:
            self.process = subprocess.Popen(self.argv, env=env, stdin=subprocess.DEVNULL, stdout=log, stderr=log)
        except OSError as exc:
            raise ConfigError(f"cannot start '{self.spec}' ({exc}): check the command.") from None
        finally:
            log.close()
        return self

    def alive(self) -> bool:
        """True while the program runs."""
        return self.process is not None and self.process.poll() is None

    def stop(self) -> int | None:
        """Ask the program to stop, kill it after the grace period; its exit code."""
        if self.process is None:
            return None
        if self.process.poll() is None:
            self.process.terminate()
            try:
                self.process.wait(self.stop_grace_s)
            except subprocess.TimeoutExpired:
                self.process.kill()
                self.process.wait(self.stop_grace_s)
        return self.process.returncode

    def __enter__(self) -> BotProcess:
        return self.start()

    def __exit__(self, kind: type[BaseException] | None, value: BaseException | None,
                 tb: TracebackType | None) -> None:
        self.stop()
