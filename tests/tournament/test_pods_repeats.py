"""Multiplayer Swiss pods keep repeats to what the score groups force: exactly for small groups."""

from __future__ import annotations

import itertools
import random

import pytest

from tourney.tournament.formats.pairing import PlayedGame
from tourney.tournament.formats.swiss import player_states_multi, pod_repeats, swiss_pods


def fewest_by_brute_force(players: list[int], k: int, met: set[frozenset[int]]) -> int:
    """The fewest repeated pairs over every split of `players` into pods of k, by enumeration."""
    best = None
    for order in itertools.permutations(players):
        pods = [order[i:i + k] for i in range(0, len(order), k)]
        cost = sum(1 for pod in pods for a, b in itertools.combinations(pod, 2) if frozenset((a, b)) in met)
        best = cost if best is None else min(best, cost)
    return best or 0


@pytest.mark.parametrize("seed", range(6))
def test_a_small_score_group_is_split_with_the_fewest_repeats(seed):
    rng = random.Random(seed)
    n, k = 8, 4
    # Earlier pods among the same 8 players, all results level, so one score group remains.
    history = []
    for _ in range(2):
        order = list(range(n))
        rng.shuffle(order)
        history += [PlayedGame(tuple(order[i:i + k]), (0.0,) * k) for i in range(0, n, k)]
    met = {frozenset((a, b)) for g in history for a, b in itertools.combinations(g.seats, 2)}
    pods, byes = swiss_pods(n, k, history)
    assert byes == []
    states = player_states_multi(n, history)
    got = sum(pod_repeats(pod, states) for pod in pods)
    assert got == fewest_by_brute_force(list(range(n)), k, met)


def test_a_thousand_players_meet_nobody_twice_while_the_score_groups_allow_it():
    rng = random.Random(2)
    n, k = 1000, 4
    history: list[PlayedGame] = []
    for _ in range(5):
        states = player_states_multi(n, history)
        pods, byes = swiss_pods(n, k, history)
        assert sum(pod_repeats(pod, states) for pod in pods) == 0
        for pod in pods:
            order = list(pod)
            rng.shuffle(order)
            history.append(PlayedGame(tuple(order), tuple(1.0 if i == 0 else 0.0 for i in range(k))))
        history.extend(PlayedGame((b,), (1.0 / k,)) for b in byes)
