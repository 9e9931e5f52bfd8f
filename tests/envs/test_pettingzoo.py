"""The PettingZoo environments: PettingZoo's own API tests for every game and mode, seeded replay,
and hidden information staying hidden."""

from __future__ import annotations

import random

import numpy as np
import pytest
from pettingzoo.test import api_test, parallel_api_test, parallel_seed_test, seed_test

from tourney.engine.core import ConfigError, Inject, get_game
from tourney.envs import Table, TourneyAEC, TourneyParallel

# (game, players, config): every game and every mode, the largest tables included.
CASES = [("tiny-ninjas", None, {"mode": m}) for m in ("standard", "blitz", "survivor", "champion", "solo")] + [
    ("tiny-ninjas", None, {"use_expansion": True}),
    ("ninja-versus-ninja", None, None),
    ("maitre-ninja", 2, None),
    ("maitre-ninja", 3, None),
    ("maitre-ninja", 4, None),
    ("ninja-arena", 2, None),
    ("ninja-arena", 3, None),
    ("ninja-arena", 4, None),
    ("ninja-arena", 5, {"genin_pack": True}),
    ("ninja-arena", 6, {"genin_pack": True}),
    ("ninja-arena", 2, {"mode": "tick"}),
    ("ninja-arena", 2, {"mode": "duel"}),
    ("ninja-arena", 3, {"mode": "realtime"}),
]
IDS = [f"{g}-{p}-{c}" for g, p, c in CASES]


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "players", "config"), CASES, ids=IDS)
def test_pettingzoo_api_tests_pass(game, players, config):
    api_test(TourneyAEC(game, players, config), num_cycles=60)
    parallel_api_test(TourneyParallel(game, players, config), num_cycles=60)


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "players", "config"), CASES, ids=IDS)
def test_pettingzoo_seed_tests_pass(game, players, config):
    """PettingZoo's own check that two environments reset with one seed play alike, spaces' samples too."""
    seed_test(lambda: TourneyAEC(game, players, config), num_cycles=30)
    parallel_seed_test(lambda: TourneyParallel(game, players, config), num_cycles=30)


@pytest.mark.parametrize(("game", "players", "config"), CASES, ids=IDS)
def test_render_is_the_games_text_in_every_form(game, players, config):
    aec, parallel = TourneyAEC(game, players, config, "ansi"), TourneyParallel(game, players, config, "ansi")
    aec.reset(seed=2)
    parallel.reset(seed=2)
    text = get_game(game).render(aec.table.state)
    assert aec.render() == parallel.render() == text and text
    assert TourneyAEC(game, players, config).render() is None  # no render_mode: no render


def _played(game, players, config, seed, chooser_seed):
    """Every observation (tensor, mask, view) of an AEC match whose choices come from chooser_seed."""
    env = TourneyAEC(game, players, config)
    env.reset(seed=seed)
    rng = random.Random(chooser_seed)
    seen = []
    for agent in env.agent_iter(max_iter=5000):
        observation, _, done, cut, info = env.last()
        seen.append((agent, observation["observation"].tolist(), np.flatnonzero(observation["action_mask"]).tolist(),
                     info["view"]))
        legal = np.flatnonzero(observation["action_mask"])
        env.step(None if done or cut else int(legal[rng.randrange(len(legal))]))
    return seen


@pytest.mark.timeout(300)
@pytest.mark.parametrize(("game", "players", "config"), CASES, ids=IDS)
def test_same_seed_and_actions_give_the_same_observations(game, players, config):
    first = _played(game, players, config, 7, 3)
    assert first == _played(game, players, config, 7, 3)
    assert first != _played(game, players, config, 7, 4)  # other choices show otherwise: the check can fail


def test_the_opponents_hidden_cards_are_not_in_the_seats_observation():
    """Two Tiny Ninjas deals that differ only in seat 1's hand (and the pile): seat 0 sees the same."""
    game = get_game("tiny-ninjas")
    order = list(range(58))  # the base deck
    other = order[:5] + order[10:15] + order[5:10] + order[15:]  # seat 1's five cards swapped with the pile's
    tables = []
    for deck in (order, other):
        table = Table("tiny-ninjas")
        table.reset(1)
        table.state = game.new_state(1, inject=Inject(deck_order=deck))
        tables.append(table)
    assert tables[0].view(1)["hand"] != tables[1].view(1)["hand"]  # the worlds differ
    assert tables[0].view(0)["hand"] == tables[1].view(0)["hand"]
    for a, b in zip(tables[0].observation(0).values(), tables[1].observation(0).values(), strict=True):
        assert np.array_equal(a, b)


def test_a_committed_attack_line_is_not_in_the_defenders_observation():
    """Maître Ninja: the attacker commits one line or another; the defender's observation is the same."""
    seen = []
    for pick in (0, -1):
        env = TourneyAEC("maitre-ninja", 2)
        env.reset(seed=3)
        attacker = env.infos[env.agent_selection]["view"]["attacker"]
        defender = f"seat_{1 - attacker}"
        if env.agent_selection != f"seat_{attacker}":
            env.step(int(np.flatnonzero(env.observe(defender)["action_mask"])[0]))  # the defender lays first
        lines = np.flatnonzero(env.observe(f"seat_{attacker}")["action_mask"])
        assert len(lines) > 1
        env.step(int(lines[pick]))
        seen.append(env.observe(defender))
    assert np.array_equal(seen[0]["observation"], seen[1]["observation"])
    assert np.array_equal(seen[0]["action_mask"], seen[1]["action_mask"])


def test_an_action_outside_the_mask_forfeits_the_match():
    env = TourneyAEC("ninja-versus-ninja")
    env.reset(seed=1)
    agent = env.agent_selection
    illegal = int(np.flatnonzero(env.observe(agent)["action_mask"] == 0)[0])
    env.step(illegal)
    assert all(env.terminations.values())
    assert env.infos[agent]["illegal_action"] and env.infos[agent]["reason"] == "illegal_move"
    assert env._cumulative_rewards[agent] == -1.0


def test_a_bad_config_is_one_sentence():
    with pytest.raises(ConfigError, match="genin_pack"):
        TourneyAEC("ninja-arena", 6)


def _parallel_played(seed, chooser_seed):
    env = TourneyParallel("ninja-arena", 3)
    observations, infos = env.reset(seed=seed)
    rng = random.Random(chooser_seed)
    seen = []
    for _ in range(5000):
        if not env.agents:
            break
        actions = {}
        for agent in env.agents:
            legal = np.flatnonzero(observations[agent]["action_mask"])
            actions[agent] = int(legal[rng.randrange(len(legal))]) if len(legal) else 0
        seen.append({a: (o["observation"].tolist(), infos[a]["view"]) for a, o in observations.items()})
        observations, _, _, _, infos = env.step(actions)
    return seen


@pytest.mark.timeout(300)
def test_the_parallel_environment_replays_a_seed():
    first = _parallel_played(4, 1)
    assert first == _parallel_played(4, 1)
    assert first != _parallel_played(5, 1)
