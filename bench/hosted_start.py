"""A hosted bot's sandboxed start against a bare start of the same program.

    .venv/bin/python bench/hosted_start.py [--runs 20]

Two programs, each started `--runs` times bare (a plain process, as `cmd:` starts it) and in the
sandbox (bubblewrap plus its cgroups, as `hosted:` starts it):
- "python -c pass": start to exit, the cost of the sandbox alone, its teardown included (a network
  namespace is slow to destroy; a match does not wait for that);
- "SDK bot to Hello": start until the arena has the bot's Hello (bare over loopback TCP,
  sandboxed over the arena's Unix socket), what a match waits for.
Bare and sandboxed starts alternate (a busy machine's load drifts). Prints a table of medians and
90th percentiles and the sandbox's extra cost; no assertions (the goal: at most 100 ms more than bare).
"""

from __future__ import annotations

import argparse
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tourney.engine.server.config import ArenaConfig  # noqa: E402
from tourney.engine.server.launcher import BotProcess  # noqa: E402
from tourney.engine.server.local import LocalArena  # noqa: E402
from tourney.workers.sandbox import SandboxedProgram  # noqa: E402

BOT = """import random
from tourney_bot import Bot, run_bot

class Random(Bot):
    def act(self, observation, legal_actions, request):
        return random.randrange(len(legal_actions))

run_bot(Random())
"""
WAIT_S = 30.0


def timed(start: Callable[[], object], ready: Callable[[], bool], stop: Callable[[], object]) -> float:
    """Milliseconds from start() until ready(), polled; stop() afterwards (not timed)."""
    began = time.perf_counter()
    start()
    deadline = began + WAIT_S
    while not ready():
        if time.perf_counter() > deadline:
            raise SystemExit("a program did not get ready within 30 s")
        time.sleep(0.001)
    took = (time.perf_counter() - began) * 1000
    stop()
    return took


def bare_exit(folder: Path) -> float:
    holder: list[subprocess.Popen[bytes]] = []
    return timed(lambda: holder.append(subprocess.Popen([sys.executable, "-c", "pass"], cwd=folder)),
                 lambda: holder[0].poll() is not None, lambda: None)


def sandboxed_exit(folder: Path, logs: Path) -> float:
    program = SandboxedProgram("python3 -c pass", folder, logs / "none.sock", "exit", logs / "exit.log")
    return timed(program.start, lambda: not program.alive(), program.stop)


def bare_hello(folder: Path, arena: LocalArena, logs: Path, i: int) -> float:
    name = f"bare-{i}"
    bot = BotProcess(f"cmd:python3 {folder / 'bot.py'}", name, arena.address, "", logs)
    return timed(bot.start, lambda: arena.arena.connected(name), bot.stop)


def sandboxed_hello(folder: Path, arena: LocalArena, socket: Path, logs: Path, i: int) -> float:
    name = f"boxed-{i}"
    program = SandboxedProgram("python3 bot.py", folder, socket, name, logs / f"{name}.log")
    return timed(program.start, lambda: arena.arena.connected(name), program.stop)


def row(label: str, bare: list[float], boxed: list[float]) -> str:
    def p90(xs: list[float]) -> float:
        return sorted(xs)[max(0, int(len(xs) * 0.9) - 1)]

    extra = statistics.median(boxed) - statistics.median(bare)
    return (f"{label:<22}{statistics.median(bare):>10.1f}{p90(bare):>10.1f}{statistics.median(boxed):>12.1f}"
            f"{p90(boxed):>10.1f}{extra:>12.1f}")


def start_table(runs: int) -> list[str]:
    """The table's lines: `runs` bare and sandboxed starts of each program (bench/hosted.py prints it too)."""
    with tempfile.TemporaryDirectory(prefix="tourney-bench-") as tmp:
        folder, logs = Path(tmp) / "bot", Path(tmp) / "logs"
        folder.mkdir()
        folder.chmod(0o755)
        (folder / "bot.py").write_text(BOT)
        socket = Path(tmp) / "arena.sock"
        config = ArenaConfig(allow_anonymous=True)
        with LocalArena(config, unix_paths=[str(socket)]) as arena:
            # Bare and sandboxed starts alternate, so a change in the machine's load hits both alike.
            exits: tuple[list[float], list[float]] = ([], [])
            hellos: tuple[list[float], list[float]] = ([], [])
            for i in range(runs):
                exits[0].append(bare_exit(folder))
                exits[1].append(sandboxed_exit(folder, logs))
                hellos[0].append(bare_hello(folder, arena, logs, i))
                hellos[1].append(sandboxed_hello(folder, arena, socket, logs, i))
    return [f"{runs} starts each, milliseconds",
            f"{'program':<22}{'bare med':>10}{'bare p90':>10}{'sandbox med':>12}{'sbx p90':>10}{'extra med':>12}",
            row("python -c pass to exit", *exits), row("SDK bot to Hello", *hellos)]


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--runs", type=int, default=20)
    print("\n".join(start_table(parser.parse_args().runs)))


if __name__ == "__main__":
    main()
