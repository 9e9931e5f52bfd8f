"""The worked example: a small training run with a fixed seed must beat random, and the trained
policy plays a real match as a `cmd:` bot program."""

from __future__ import annotations

import json
import shlex
import shutil
from pathlib import Path

import pytest
from typer.testing import CliRunner

from examples.policy.policy import Policy
from examples.policy.train import score, train
from tourney.tournament.cli import app
from tourney.workers.programs import play_with_programs

ROOT = Path(__file__).resolve().parents[2]


@pytest.mark.timeout(600)
def test_a_small_training_run_beats_random():
    """Trained, the policy takes most points from random, and more than the untrained policy (always the
    first legal action, which already beats random in Tiny Ninjas) on the same seeds: the training did it."""
    trained = score(train(episodes=400, seed=1), matches=200)
    assert trained > 0.6
    assert trained >= score(Policy(), matches=200) + 0.05


@pytest.mark.timeout(120)
def test_the_trained_bot_plays_as_a_program(tmp_path):
    bot = Path(__file__).resolve().parents[2] / "examples" / "policy" / "bot.py"
    result = play_with_programs("tiny-ninjas", [f"cmd:python3 {bot}", "random"], 1, {}, None,
                                log_dir=tmp_path)
    assert result.termination.name != "CRASH", result.reason
    assert len(result.replay.steps) > 1


@pytest.mark.timeout(300)
@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_the_example_folder_submits_as_a_hosted_bot_as_the_readme_says(tmp_path):
    """README's submit line for the example, run in a fresh folder: it validates in the sandbox (where the
    folder is /bot, with no repository around it) and then plays as hosted:mypolicy."""
    readme = (ROOT / "README.md").read_text()
    line = next(x for x in readme.splitlines() if x.startswith("tourney bot submit mypolicy examples/policy"))
    args = shlex.split(line)[1:]
    args[args.index("examples/policy")] = str(ROOT / "examples" / "policy")
    db = str(tmp_path / "t.db")
    submitted = CliRunner().invoke(app, [*args, "--db", db])
    assert submitted.exit_code == 0, submitted.output
    assert "validated in tiny-ninjas" in submitted.stdout
    played = CliRunner().invoke(app, ["match", "--game", "tiny-ninjas", "--bots", "hosted:mypolicy,random",
                                      "--seed", "2", "--db", db, "--json"])
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["termination"] in ("normal", "adjudication")


@pytest.mark.timeout(300)
def test_the_readmes_tournament_gives_the_table_it_shows(tmp_path, monkeypatch):
    """README's seeded tournament of the committed policy against random, run as written: each bot's
    games and W-D-L are the ones the README's table shows (the tournament is a pure function of its seeds)."""
    lines = (ROOT / "README.md").read_text().splitlines()
    start = next(i for i, x in enumerate(lines) if x.startswith("tourney run --local --game tiny-ninjas --bots \"cmd:"))
    args = shlex.split(lines[start])[1:]
    args[args.index("policy.db")] = str(tmp_path / "policy.db")
    table = next(i for i in range(start, len(lines)) if lines[i].startswith("| # | bot |"))
    shown = [[cell.strip() for cell in row.strip("|").split("|")] for row in lines[table + 2:table + 4]]
    monkeypatch.chdir(ROOT)  # the bot's path in the line is the repository's
    ran = CliRunner().invoke(app, args, terminal_width=200)
    assert ran.exit_code == 0, ran.output
    rows = [[cell.strip() for cell in line.split("│")[1:-1]] for line in ran.stdout.splitlines()
            if line.startswith("│ ")]
    standings = rows[:len(shown)]  # the standings come first, other tables (achievements) after
    assert [row[1:4] for row in standings] == [row[1:4] for row in shown]
