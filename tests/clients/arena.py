"""A real `tourney serve` on a loopback port, and matches played on it by `tourney arena-match`."""

from __future__ import annotations

import json
import os
import subprocess
import sys
from collections.abc import Iterator
from contextlib import contextmanager
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[2]
# The entry point `tourney` is `tourney.tournament.cli:app`; `-m tourney.tournament.cli` would run a second copy of it.
TOURNEY = [sys.executable, "-c", "import sys; from tourney.tournament.cli import app; sys.argv[0] = \"tourney\"; app()"]
ADMIN = "Vq7-hN2xLp9cRt4wZs8k"  # a real secret: `tourney serve` refuses weak ones
ENV = {**os.environ, "PYTHONPATH": str(ROOT), "TOURNEY_ADMIN_TOKEN": ADMIN}
# What every SDK plays in CI: a turn-based game with hidden cards, a dice game, and a real-time match
# (requests withdrawn and renewed as the view changes): (game, real time).
GAMES = (("tiny-ninjas", False), ("ninja-versus-ninja", False), ("ninja-arena", True))


@contextmanager
def served(move_ms: int = 10_000, env: dict[str, str] | None = None) -> Iterator[str]:
    """`tourney serve --allow-anonymous` on a free port (with `env`, default ENV); yields its host:port and
    stops it after."""
    proc = subprocess.Popen([*TOURNEY, "serve", "--port", "0", "--allow-anonymous", "--move-ms", str(move_ms)],
                            cwd=ROOT, env=env or ENV, stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert proc.stdout is not None
        line = proc.stdout.readline()  # the server prints its address first (or dies: an empty line)
        assert line.startswith("arena listening on "), line + (proc.stderr.read() if proc.stderr else "")
        yield line.rsplit(" ", 1)[1].strip()
    finally:
        proc.terminate()
        try:
            proc.wait(20)
        except subprocess.TimeoutExpired:
            proc.kill()
            proc.wait(20)


def arena_match(address: str, game: str, bots: str, seed: int, realtime: bool = False) -> dict[str, Any]:
    """Play one match on the arena with `tourney arena-match --json` and return its record."""
    done = subprocess.run([*TOURNEY, "arena-match", "--arena", address, "--game", game, "--bots", bots,
                           "--seed", str(seed), "--json", *(["--realtime"] if realtime else [])],
                          cwd=ROOT, env=ENV, capture_output=True, text=True, timeout=300)
    assert done.returncode == 0, done.stderr
    record: dict[str, Any] = json.loads(done.stdout)
    return record


def play_each_game(address: str, bot_name: str, bot: subprocess.Popen[str]) -> list[dict[str, Any]]:
    """Once `bot` has connected as `bot_name`, play each of GAMES against `random` (the SDK bot in seat 0,
    then seat 1) and return the records; fails with the bot's stderr when it exits early."""
    records = []
    for seed, (game, realtime) in enumerate(GAMES):
        seats = f"remote:{bot_name},random" if seed % 2 == 0 else f"random,remote:{bot_name}"
        if bot.poll() is not None:
            raise AssertionError(f"the bot exited with {bot.returncode}: {bot.stderr.read() if bot.stderr else ''}")
        records.append(arena_match(address, game, seats, seed + 1, realtime))
    return records


def program_plays(args: list[str], bot_name: str, cwd: Path | None = None) -> tuple[list[dict[str, Any]], str]:
    """Start the bot program `args` against a fresh `tourney serve` (the launcher's environment, leaving after
    len(GAMES) matches), play GAMES with it, and return the records and what it printed on stdout once it
    exited by itself with status 0."""
    with served() as address:
        env = {**os.environ, "TOURNEY_ARENA": address, "TOURNEY_BOT_NAME": bot_name,
               "TOURNEY_MATCHES": str(len(GAMES))}
        env.pop("PYTHONPATH", None)  # the bot gets nothing of the repository
        bot = subprocess.Popen(args, cwd=cwd, env=env, text=True, stdout=subprocess.PIPE, stderr=subprocess.PIPE)
        try:
            assert bot.stderr is not None
            said = bot.stderr.readline()  # every SDK says one line once welcomed (or the error it died of)
            assert said.startswith(f"bot '{bot_name}' connected"), said + bot.stderr.read()
            records = play_each_game(address, bot_name, bot)
            out, err = bot.communicate(timeout=120)
        finally:
            if bot.poll() is None:
                bot.kill()
                bot.wait(20)
    assert bot.returncode == 0, err
    return records, out
