"""`tourney match --verbose` shows a person the play without leaking secret commitments."""

from __future__ import annotations

from typer.testing import CliRunner

from tourney.tournament.cli import app


def test_simultaneous_commitments_are_not_printed():
    result = CliRunner().invoke(app, ["match", "--game", "maitre-ninja", "--bots", "nash,random", "--seed", "3",
                                      "--verbose"])
    assert result.exit_code == 0, result.output
    seat_lines = [line for line in result.stdout.splitlines() if line.startswith("seat ")]
    assert seat_lines, "the play-by-play names who acted"
    # Maître Ninja's attacker and defender commit at once; their choices stay off the screen
    # and only the game's public rendering (cards as they are flipped) shows what happened.
    assert all(line.endswith(": committed") for line in seat_lines)
    assert "Fight 1" in result.stdout
    # The defender lays its row alone, parry by parry: those steps stay unnamed too.
    assert any(line.count("seat ") == 1 for line in seat_lines)
    assert "parry DO" not in result.stdout and "parry JU" not in result.stdout


def test_sequential_moves_are_printed_with_their_labels():
    result = CliRunner().invoke(app, ["match", "--game", "ninja-versus-ninja", "--bots", "greedy,random",
                                      "--seed", "2", "--verbose"])
    assert result.exit_code == 0, result.output
    assert any(line.startswith("seat 0 (greedy): ") and not line.endswith("committed")
               for line in result.stdout.splitlines())


def test_simultaneous_moves_are_named_together_once_applied():
    result = CliRunner().invoke(app, ["match", "--game", "ninja-arena", "--bots", "random,greedy", "--seed", "1",
                                      "--verbose"])
    assert result.exit_code == 0, result.output
    joint = [line for line in result.stdout.splitlines() if line.startswith("seat 0 (random): ") and "; seat 1" in line]
    assert joint and not any(line.endswith("committed") for line in joint)


def test_a_blitz_mulligan_names_no_card():
    result = CliRunner().invoke(app, ["match", "--game", "tiny-ninjas", "--mode", "blitz", "--bots", "random,random",
                                      "--seed", "1", "--verbose"])
    assert result.exit_code == 0, result.output
    assert "mulligan " not in result.stdout and "seat 0 (random): committed" in result.stdout
