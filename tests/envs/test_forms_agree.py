"""The AEC, Parallel and Gymnasium forms of one match show a seat the same tensor, mask and JSON view at
each of its decisions: a policy trained on one form plays the same in another."""

from __future__ import annotations

import random

import numpy as np
import pytest

from tourney.envs import SeatEnv, TourneyAEC, TourneyParallel
from tourney.envs.agents import agent_name

# (game, opponents of the learner in seat 0, config); a simultaneous game and sequential ones.
CASES = [
    ("tiny-ninjas", ["random"], {"mode": "blitz"}),
    ("ninja-versus-ninja", ["greedy"], None),
    ("maitre-ninja", ["random", "random"], None),
    ("ninja-arena", ["random", "random"], None),
]


def _seen(observation, info):
    return observation["observation"].tobytes(), observation["action_mask"].tobytes(), info["view"]


def _gymnasium_match(game, opponents, config, seed):
    """Seat 0's (tensor, mask, view) at each of its decisions, and every joint step the match played."""
    env = SeatEnv(game, opponents, seat=0, config=config)
    joints = []
    play = env.table.play

    def recording(joint):
        joints.append(dict(joint))
        return play(joint)

    env.table.play = recording
    observation, info = env.reset(seed=seed)
    rng, seen, over = random.Random(seed), [], False
    while not over:
        seen.append(_seen(observation, info))
        legal = np.flatnonzero(observation["action_mask"])
        observation, _, over, _, info = env.step(int(legal[rng.randrange(len(legal))]))
    return seen, joints


def _index(table, seat, action):
    """The fixed index of `action` among the seat's legal actions (an index may depend on its neighbours)."""
    legal = table.legal(seat)[0]
    return table.encoding.action_indices(legal)[legal.index(action)]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "opponents", "config"), CASES, ids=[c[0] for c in CASES])
def test_the_three_forms_show_seat_0_the_same(game, opponents, config):
    seen, joints = _gymnasium_match(game, opponents, config, seed=11)
    players = len(opponents) + 1

    aec = TourneyAEC(game, players, config)
    aec.reset(seed=11)
    aec_seen = []
    for joint in joints:
        for _ in joint:
            agent = aec.agent_selection
            seat = aec.possible_agents.index(agent)
            if seat == 0:
                aec_seen.append(_seen(aec.observe(agent), aec.infos[agent]))
            aec.step(_index(aec.table, seat, joint[seat]))

    parallel = TourneyParallel(game, players, config)
    observations, infos = parallel.reset(seed=11)
    parallel_seen = []
    for joint in joints:
        if 0 in joint:
            parallel_seen.append(_seen(observations["seat_0"], infos["seat_0"]))
        actions = {agent_name(s): _index(parallel.table, s, a) for s, a in joint.items()}
        observations, _, _, _, infos = parallel.step(actions)

    assert len(seen) > 1
    assert aec_seen == seen
    assert parallel_seen == seen
    assert all(aec.terminations.values()) and not parallel.agents  # the replayed match ended there too
