"""`tourney games` tells a bot author every bot's one-line description and options, through
the installed `tourney` program; a bad option value is one sentence and exit code 2."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

TOURNEY = str(Path(sys.executable).parent / "tourney")


def tourney(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOURNEY, *args], capture_output=True, text=True, timeout=120, check=False,
                          env={"COLUMNS": "200", "PATH": str(Path(sys.executable).parent)})


def test_games_json_carries_each_bots_description_and_options() -> None:
    result = tourney("games", "--json")
    assert result.returncode == 0, result.stderr
    games = {g["id"]: g for g in json.loads(result.stdout)["games"]}
    nvn = {b["name"]: b for b in games["ninja-versus-ninja"]["bot_details"]}
    assert [b["name"] for b in games["ninja-versus-ninja"]["bot_details"]] == games["ninja-versus-ninja"]["bots"]
    assert "MCTS" in nvn["ismcts"]["description"]
    ms = next(o for o in nvn["ismcts"]["options"] if o["name"] == "ms")
    assert (ms["type"], ms["default"], ms["minimum"]) == ("float", None, 1)
    iterations = next(o for o in nvn["ismcts"]["options"] if o["name"] == "iterations")
    assert iterations["default"] == 150
    assert {o["name"] for o in nvn["expectimax"]["options"]} == {"ms", "iterations", "depth", "beam"}
    assert nvn["random"]["options"] == [] and nvn["random"]["description"]
    arena = {b["name"]: b for b in games["ninja-arena"]["bot_details"]}
    assert "Power" in arena["greedy"]["description"]  # the game's own greedy replaces the generic one


def test_games_table_prints_descriptions_and_option_usage() -> None:
    result = tourney("games")
    assert result.returncode == 0, result.stderr
    text = " ".join(result.stdout.split())  # lines are folded to the terminal's width
    assert "ninja-versus-ninja bots:" in text
    assert "expectimax: expectimax over the 2d4 rolls" in text
    assert "options: ms=<float> (>= 1), iterations=<int> (default 150, >= 1)" in text
    assert "rollout=<greedy|random> (default greedy)" in text
    assert "options: no options" in text  # random


def test_a_bad_bot_option_is_one_sentence_from_the_real_program() -> None:
    result = tourney("match", "--game", "ninja-versus-ninja", "--bots", "ismcts:ms=abc,greedy")
    assert result.returncode == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert lines == ["error: bot option ismcts:ms=abc is not a number: write e.g. ismcts:ms=50."]
