"""Seeds an organiser types that the store or the wire cannot hold: one sentence and exit 2, never a traceback.

The store keeps a tournament's and a league's seed in a signed 64-bit column, and a match played on an
arena (a program seat's match, `arena-match`) carries its seed as RunMatch's uint64. Before, a seed past
either range got as far as SQLite (OverflowError) or protobuf (ValueError) and the command died with a
traceback. In range, every seed plays, and a match is the same on the compiled and the pure build.
"""

from __future__ import annotations

import json
import os
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tourney.tournament.cli.main import app

runner = CliRunner()
TOO_BIG_TO_STORE = str(1 << 63)
TOO_BIG_FOR_THE_WIRE = str(1 << 64)
PROGRAM = f"cmd:{sys.executable} {Path(__file__).parents[2] / 'clients/python/examples/random_bot.py'}"


def _one_sentence(args: list[str]) -> str:
    result = runner.invoke(app, args)
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and "Traceback" not in result.output, result.output
    return lines[0]


@pytest.mark.parametrize("seed", [TOO_BIG_TO_STORE, str(-(1 << 63) - 1)])
def test_a_stored_seed_out_of_range_is_one_sentence(tmp_path: Path, seed: str) -> None:
    db = str(tmp_path / "t.db")
    commands = [
        ["run", "--bots", "random,greedy", "--local", "--db", db, "--seed", seed],
        ["sprt", "--bots", "greedy,random", "--local", "--rounds", "1", "--db", db, "--seed", seed],
        ["league", "create", "lg", "--game", "tiny-ninjas", "--schedule", "0 * * * *", "--db", db, "--seed", seed],
    ]
    for args in commands:
        line = _one_sentence(args)
        assert f"--seed must be from {-(1 << 63)} to {(1 << 63) - 1}, not {seed}" in line, line


@pytest.mark.timeout(120)
@pytest.mark.parametrize("seed", ["-1", TOO_BIG_FOR_THE_WIRE])
def test_a_match_seed_the_wire_cannot_carry_is_one_sentence(seed: str) -> None:
    for args in (["match", "--bots", f"{PROGRAM},random", "--seed", seed],
                 ["arena-match", "--bots", "random,random", "--seed", seed]):
        line = _one_sentence(args)
        assert f"--seed must be from 0 to {(1 << 64) - 1}, not {seed}" in line, line


@pytest.mark.timeout(300)
def test_the_largest_seeds_play_alike_compiled_and_pure(tmp_path: Path) -> None:
    # The chance streams work in machine integers when compiled: the ends of each range must give the
    # same match as the pure source (and the stored seed must come back as given).
    seeds = [str((1 << 64) - 1), str((1 << 63) - 1), "0"]
    for game in ("tiny-ninjas", "ninja-versus-ninja", "maitre-ninja", "ninja-arena"):
        for seed in seeds:
            builds = [_match_json(game, seed, pure) for pure in (False, True)]
            assert builds[0] == builds[1], (game, seed)
    result = runner.invoke(app, ["run", "--bots", "random,greedy", "--local", "--db", str(tmp_path / "t.db"),
                                 "--seed", str(-(1 << 63)), "--json"])
    assert result.exit_code == 0, result.output


def _match_json(game: str, seed: str, pure: bool) -> dict[str, object]:
    """`tourney match --json` of random against random, without its timings, on one build."""
    env = {**os.environ, "TOURNEY_PURE": "1"} if pure else {k: v for k, v in os.environ.items() if k != "TOURNEY_PURE"}
    command = ("import sys; from tourney.tournament.cli import app; "
               "sys.argv[0] = 'tourney'; app()")
    out = subprocess.run([sys.executable, "-c", command, "match", "-g", game, "--bots", "random,random",
                          "--seed", seed, "--json"], capture_output=True, text=True, env=env, timeout=120,
                         check=True).stdout
    doc = json.loads(out)
    doc.pop("seconds", None)
    return doc
