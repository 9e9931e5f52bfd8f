"""What the CLI prints for people fits an 80-column terminal and cuts nothing.

`tourney games` used to print 650-column tables; `--help` in a pipe (80 columns) cut an option's
name to `--no-allow-anonymo…`. Each is checked at 80 columns: no line wider, no ellipsis, and every
option name, game option and bot still there in full.
"""

from __future__ import annotations

import os
import subprocess
import sys

import click
import typer
from typer.testing import CliRunner

from tourney.engine.bots import bot_names
from tourney.engine.bots.registry import GENERIC
from tourney.engine.core import get_game
from tourney.tournament.cli import app

WIDTH = 80
GAMES = ("maitre-ninja", "ninja-arena", "ninja-versus-ninja", "tiny-ninjas")  # the installed ones


def _commands() -> list[tuple[list[str], click.Command]]:
    """Every command and subcommand of `tourney`, with the words that name it."""
    found: list[tuple[list[str], click.Command]] = []

    def walk(command: click.Command, words: list[str]) -> None:
        found.append((words, command))
        if isinstance(command, click.Group):
            for name, sub in command.commands.items():
                walk(sub, [*words, name])
    walk(typer.main.get_command(app), [])
    return found


def test_games_fits_80_columns_in_a_pipe_and_keeps_every_name() -> None:
    env = {k: v for k, v in os.environ.items() if k not in ("COLUMNS", "TERMINAL_WIDTH")}
    done = subprocess.run([sys.executable, "-c", "from tourney.tournament.cli import app; app()", "games"],
                          capture_output=True, text=True, env=env, timeout=120)
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    assert max(len(line) for line in lines) <= WIDTH, [line for line in lines if len(line) > WIDTH]
    assert "…" not in done.stdout
    for game in map(get_game, GAMES):
        assert game.id in done.stdout
        for key in game.options.valid_keys():
            assert f"  {key} (" in done.stdout  # each option on its own line, never cut
        for bot in bot_names(game):
            if GENERIC.get(bot) is not None and not GENERIC[bot].__module__.startswith("tourney."):
                continue  # a test's own bot (tests/ops/slow_bot.py), registered in this process only
            assert f"  {bot}: " in done.stdout


def test_every_help_fits_80_columns_without_cutting_an_option_name() -> None:
    runner = CliRunner(env={"COLUMNS": str(WIDTH), "TERMINAL_WIDTH": None})
    for words, command in _commands():
        result = runner.invoke(app, [*words, "--help"])
        assert result.exit_code == 0, (words, result.output)
        assert "…" not in result.stdout, (words, result.stdout)
        assert max(len(line) for line in result.stdout.splitlines()) <= WIDTH
        for param in command.params:
            for name in [*param.opts, *param.secondary_opts]:
                if name.startswith("--"):
                    assert name in result.stdout, (words, name)
