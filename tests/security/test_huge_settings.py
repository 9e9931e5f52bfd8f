"""Game options given as text (`--set KEY=VALUE`) too big or too deep for Python's parsers: one sentence.

An int of more than 4,300 digits is refused by int() and json.loads with a ValueError that is not a
JSONDecodeError, and JSON nested past the recursion limit with a RecursionError: both escaped the
option reader as tracebacks (exit 1) instead of reaching the option's own check.
"""

from __future__ import annotations

import pytest
from typer.testing import CliRunner

from tourney.tournament.cli.main import app

runner = CliRunner()


@pytest.mark.parametrize("value", ["9" * 5000, "-" + "9" * 5000, "[" * 5000 + "9" * 5000 + "]" * 5000,
                                   "[" * 30_000])
def test_a_setting_past_pythons_parsers_is_one_sentence(value: str) -> None:
    for key in ("max_health", "hand_limit"):  # an int option and a per-seat one
        result = runner.invoke(app, ["match", "--bots", "random,random", "--set", f"{key}={value}"])
        assert result.exit_code == 2, result.output
        lines = result.stderr.strip().splitlines()
        assert len(lines) == 1 and lines[0].startswith("error: config") and "Traceback" not in result.output, lines
        assert len(lines[0]) < 400  # the sentence names the value, shortened
