"""The worked example: a small training run with a fixed seed must beat random, and the trained
policy plays a real match as a `cmd:` bot program."""

from __future__ import annotations

from pathlib import Path

import pytest

from examples.policy.policy import Policy
from examples.policy.train import score, train
from tourney.tournament.programs import play_with_programs


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
