"""The Gymnasium single-seat environment: Gymnasium's checker, opponents by spec, seeded resets."""

from __future__ import annotations

import json
import shutil
from pathlib import Path

import numpy as np
import pytest
from gymnasium.utils.env_checker import check_env

from tourney.engine.core import ConfigError
from tourney.envs import SeatEnv


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "opponents", "config"), [
    ("tiny-ninjas", "random", None),
    ("ninja-versus-ninja", "greedy", None),
    ("maitre-ninja", "random,random", None),
    ("ninja-arena", "random", {"mode": "duel"}),
])
def test_check_env_passes(game, opponents, config):
    check_env(SeatEnv(game, opponents, config=config), skip_render_check=True)


def _episode(env, seed):
    observation, _ = env.reset(seed=seed)
    trace, over, reward = [], False, 0.0
    while not over:
        action = int(np.flatnonzero(observation["action_mask"])[0])
        trace.append((observation["observation"].tolist(), action))
        observation, reward, over, _, _ = env.step(action)
    return trace, reward


def test_a_seeded_reset_replays_the_match_and_ends_with_a_result():
    env = SeatEnv("tiny-ninjas", "greedy", seat=1)
    first = _episode(env, 5)
    assert first == _episode(env, 5)
    assert first[1] in (-1.0, 0.0, 1.0)


def test_an_illegal_learner_action_forfeits():
    env = SeatEnv("ninja-versus-ninja", "random")
    observation, _ = env.reset(seed=2)
    illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
    _, reward, over, _, info = env.step(illegal)
    assert over and reward == -1.0 and info["illegal_action"]


@pytest.mark.parametrize(("spec", "words"), [
    ("remote:someone", "arena"),
    ("nosuchbot", "unknown bot"),
])
def test_opponents_it_cannot_seat_are_one_sentence(spec, words):
    with pytest.raises(ConfigError, match=words):
        SeatEnv("tiny-ninjas", spec)


def test_a_seat_outside_the_table_is_refused():
    with pytest.raises(ConfigError, match="seat 2"):
        SeatEnv("tiny-ninjas", "random", seat=2)


PROGRAM = f"cmd:python3 {Path(__file__).resolve().parents[2] / 'clients/python/examples/random_bot.py'}"


@pytest.mark.timeout(300)
def test_a_program_opponent_plays_through_a_real_arena():
    """The opponent is a bot program on a private loopback arena; the learner's masks are exactly its legal
    actions there (an action inside the mask is never ruled illegal) and the match ends with a result."""
    env = SeatEnv("maitre-ninja", PROGRAM, seat=1)
    try:
        for seed in (1, 2):
            observation, _ = env.reset(seed=seed)
            over, steps = False, 0
            while not over:
                legal = np.flatnonzero(observation["action_mask"])
                assert len(legal) > 0
                observation, reward, over, _, info = env.step(int(legal[-1]))
                steps += 1
            assert not info["illegal_action"] and info["reason"] != "illegal_move"
            assert reward in (-1.0, 0.0, 1.0) and steps > 1
    finally:
        env.close()


@pytest.mark.timeout(300)
def test_check_env_passes_against_a_program():
    env = SeatEnv("tiny-ninjas", PROGRAM)
    try:
        check_env(env, skip_render_check=True)
    finally:
        env.close()


@pytest.mark.timeout(120)
def test_an_illegal_learner_action_on_the_arena_forfeits():
    env = SeatEnv("tiny-ninjas", PROGRAM, render_mode="ansi")
    try:
        observation, _ = env.reset(seed=3)
        assert json.loads(env.render())["seat"] == 0  # no state here: the render is the learner's view
        illegal = int(np.flatnonzero(observation["action_mask"] == 0)[0])
        _, reward, over, _, info = env.step(illegal)
        assert over and reward == -1.0 and info["illegal_action"]
    finally:
        env.close()


@pytest.mark.timeout(300)
@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_a_hosted_opponent_plays_sandboxed_and_the_env_passes_check_env(tmp_path):
    """The opponent is a hosted bot from a store, run in the real sandbox (the arena then admits only
    tokens: the learner gets its own); pinned when the env is made, it plays whole matches."""
    from tests.hosted.bundles import GAME, submit
    from tourney.tournament.store.database import open_store

    db = str(tmp_path / "hosted.db")
    submit(open_store(db), tmp_path, "first")  # plays its first legal action: check_env replays it exactly
    env = SeatEnv(GAME, "hosted:first", store=db)
    try:
        assert env.specs == ["hosted:first:version=1"]
        observation, _ = env.reset(seed=4)
        over, steps = False, 0
        while not over:
            observation, reward, over, _, info = env.step(int(np.flatnonzero(observation["action_mask"])[0]))
            steps += 1
        assert steps > 1 and reward in (-1.0, 0.0, 1.0) and info["reason"] not in ("crash", "timeout")
        check_env(env, skip_render_check=True)
    finally:
        env.close()
    with pytest.raises(ConfigError, match="no hosted bot 'nobody'"):
        SeatEnv(GAME, "hosted:nobody", store=db)
