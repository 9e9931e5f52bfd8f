"""The newcomer's path through the real `tourney` command (the installed entry point, in a shell):
README.md's "Write your first bot" blocks exactly as printed, `tourney --help`, a broken bot
program, and progress lines on stderr when stdout is a pipe."""

from __future__ import annotations

import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

from typer.main import get_command

from tourney.tournament.cli import app

ROOT = Path(__file__).resolve().parents[2]
VENV_BIN = Path(sys.executable).parent
TOURNEY = VENV_BIN / "tourney"
README_PORT = "50051"


def newcomer_env() -> dict[str, str]:
    """A fresh shell's environment: no PYTHONPATH, tourney not on PATH until the README puts it there."""
    env = {k: v for k, v in os.environ.items() if not k.startswith(("TOURNEY_", "PYTHON"))}
    env["PATH"] = os.pathsep.join(p for p in env.get("PATH", "").split(os.pathsep) if Path(p) != VENV_BIN)
    env["RAY_AUTH_MODE"] = "disabled"
    return env


def section_blocks(title: str) -> list[str]:
    """The ```bash blocks of README.md's section `title`, as printed."""
    text = (ROOT / "README.md").read_text()
    section = text.split(f"## {title}\n", 1)[1].split("\n## ", 1)[0]
    return re.findall(r"```bash\n(.*?)```", section, flags=re.S)


def free_port() -> str:
    with socket.socket() as sock:
        sock.bind(("127.0.0.1", 0))
        return str(sock.getsockname()[1])


def test_write_your_first_bot_works_copied_line_by_line(tmp_path):
    first, on_arena = section_blocks("Write your first bot")
    assert README_PORT in on_arena and "kill %2 %1" in on_arena
    # It waits until the arena listens before anything connects to it, and stops both background
    # jobs however it ends (under `bash -e` a failed command skips the last line).
    assert f"/dev/tcp/127.0.0.1/{README_PORT}" in on_arena and "trap 'kill %2 %1" in on_arena
    # "From the repository folder": a folder whose .venv is this one, so `$PWD/.venv/bin` is as
    # written. The arena's port is the only change (the README's 50051 may be taken here), so the
    # bot, which reaches 50051 by default, is told the other one in TOURNEY_ARENA.
    shell, out, err = run_arena_snippet(tmp_path, first + on_arena)
    assert shell.returncode == 0, out + err
    assert "Traceback" not in err and "error:" not in err, err
    assert "bot 'mybot' connected to the arena" in err  # the SDK says when it is in
    assert "greedy (seat 1) > mybot (seat 0)" in out or "mybot (seat 0) > greedy (seat 1)" in out
    with sqlite3.connect(tmp_path / "mybot.db") as con:
        runs = con.execute("select t.id, count(m.id) from tournament t join match m on m.tournament_id = t.id "
                           "group by t.id order by t.id").fetchall()
        assert [n for _, n in runs] == [6, 4]  # the local round robin of three, then mybot v greedy on the arena
        bots = {name for (name,) in con.execute("select distinct alias from entrant")}
    assert "mybot" in bots
    # `kill %2 %1` returned at once; the arena and the bot then stop on their own (the arena
    # finishes its shutdown first). Nothing of the session may be left behind.
    assert not left_behind(shell.pid)


def left_behind(session: int) -> str:
    """The processes still in `session` once a minute has passed or none is left."""
    left = subprocess.run(["pgrep", "-a", "-s", str(session)], capture_output=True, text=True).stdout
    for _ in range(600):
        if not left:
            break
        time.sleep(0.1)
        left = subprocess.run(["pgrep", "-a", "-s", str(session)], capture_output=True, text=True).stdout
    return left


def run_arena_snippet(tmp_path: Path, script: str) -> tuple[subprocess.Popen[str], str, str]:
    """Run the README's commands in `bash -euo pipefail` from a repository-like folder; kill what is
    left if they hang."""
    (tmp_path / ".venv").symlink_to(VENV_BIN.parent)
    port = free_port()
    script = script.replace(README_PORT, port).replace(
        "tourney serve --allow-anonymous &", f"tourney serve --allow-anonymous --port {port} &")
    env = {**newcomer_env(), "TOURNEY_ARENA": f"127.0.0.1:{port}"}
    shell = subprocess.Popen(["bash", "-euo", "pipefail", "-c", script], cwd=tmp_path, env=env,
                             stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True, start_new_session=True)
    try:
        out, err = shell.communicate(timeout=300)
    except subprocess.TimeoutExpired:
        os.killpg(shell.pid, signal.SIGKILL)  # the arena and the bot too: they hold the pipes
        out, err = shell.communicate()
        raise AssertionError(f"the README's commands did not finish: {out}{err}") from None
    finally:
        if shell.poll() is None:
            os.killpg(shell.pid, signal.SIGKILL)
    return shell, out, err


def test_the_arena_snippet_stops_the_arena_and_the_bot_when_the_run_fails(tmp_path):
    first, on_arena = section_blocks("Write your first bot")
    # A bot name nobody connected with: `tourney run` fails, and under `bash -e` the last line never runs.
    assert "remote:mybot" in on_arena
    setup = first.split("\ntourney ", 1)[0] + "\n"  # PATH and mybot.py, without the local matches
    shell, out, err = run_arena_snippet(tmp_path, setup + on_arena.replace("remote:mybot", "remote:nobody"))
    assert shell.returncode == 2, out + err
    assert "error: " in err and "nobody" in err, err
    assert not left_behind(shell.pid)  # the trap stopped the bot and the arena


def run_tourney(*args: str, cwd: Path) -> subprocess.CompletedProcess[str]:
    return subprocess.run([str(TOURNEY), *args], cwd=cwd, env=newcomer_env(), capture_output=True, text=True,
                          timeout=600)


def test_tourney_help_names_every_command(tmp_path):
    shown = run_tourney("--help", cwd=tmp_path)
    assert shown.returncode == 0, shown.stderr
    for name, command in get_command(app).commands.items():  # type: ignore[attr-defined]
        assert re.search(rf"│ {re.escape(name)}\s", shown.stdout), name
        for sub in getattr(command, "commands", {}):
            assert sub in shown.stdout, (name, sub)


def test_a_broken_bot_program_says_why_on_the_terminal_and_in_the_match(tmp_path):
    (tmp_path / "mybot.py").write_text("import no_such_module\n")
    ran = run_tourney("run", "--local", "--bots", "cmd:python3 mybot.py,random", "--games-per-pair", "2",
                      "--db", "t.db", cwd=tmp_path)
    assert ran.returncode == 0, ran.stderr
    warned = [line for line in ran.stderr.splitlines() if line.startswith("warning: mybot forfeited")]
    assert len(warned) == 1 and "exit status 1" in warned[0] and "No module named 'no_such_module'" in warned[0]
    # the progress of a run whose stdout is a pipe: lines on stderr, the last one complete
    assert [line for line in ran.stderr.splitlines() if line.startswith("tiny-ninjas: ")][-1].startswith(
        "tiny-ninjas: 2/2 matches")
    with sqlite3.connect(tmp_path / "t.db") as con:
        reasons = [r for (r,) in con.execute("select reason from match")]
    assert len(reasons) == 2 and all("No module named 'no_such_module'" in r for r in reasons)


def test_hosted_bots_work_copied_line_by_line(tmp_path):
    """README's "Hosted bots" block as printed, after the first block of "Write your first bot" (which
    writes mybot.py): submit, show, a match, a tournament, the ladder, list and retire, in the real sandbox."""
    first = section_blocks("Write your first bot")[0]
    hosted = section_blocks("Hosted bots: submit once, played sandboxed")[0]
    assert "tourney ladder run" in hosted and "tourney bot retire mybot" in hosted
    (tmp_path / ".venv").symlink_to(VENV_BIN.parent)
    shell = subprocess.run(["bash", "-euo", "pipefail", "-c", first + hosted], cwd=tmp_path, env=newcomer_env(),
                           capture_output=True, text=True, timeout=600)
    assert shell.returncode == 0, shell.stdout + shell.stderr
    assert "Traceback" not in shell.stderr and "error:" not in shell.stderr, shell.stderr
    assert "mybot v1" in shell.stdout and "mybot retired" in shell.stdout
    with sqlite3.connect(tmp_path / "tourney.db") as con:
        ladder = con.execute("select b.alias, b.matches, b.active from ladderbot b join ladder l on l.id = b.ladder_id "
                             "where l.game = 'ninja-versus-ninja' order by b.alias").fetchall()
    assert ladder == [("greedy", 4, 1), ("mybot v1", 4, 0)]  # four matches, each between the two; retired after
