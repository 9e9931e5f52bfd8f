"""Swiss pairing properties over many random tournaments: the pairer is a pure function we call directly."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tests.tournament.py4swiss_reference import py4swiss_round
from tourney.tournament.formats.pairing import PlayedGame
from tourney.tournament.formats.swiss import player_states, rounds_of, swiss_round


def simulate(n: int, rounds: int, seed: int, draws: bool = True):
    """Play `rounds` Swiss rounds with random results; return the history and each round's pairing."""
    rng = random.Random(seed)
    history: list[PlayedGame] = []
    played = []
    for _ in range(rounds):
        before = player_states(n, history)
        pairs, bye = swiss_round(n, history)
        played.append((before, pairs, bye))
        for a, b in pairs:
            # The stronger seed wins more often, so score groups spread like a real event.
            x = rng.choice([1.0, 0.5, 0.0] if draws else [1.0, 0.0]) if rng.random() < 0.6 else float(a < b)
            history.append(PlayedGame((a, b), (x, 1.0 - x)))
        if bye is not None:
            history.append(PlayedGame((bye,), (1.0,)))
    return history, played


CASES = [(n, seed) for n in (2, 3, 4, 5, 7, 8, 9, 16, 21, 40, 101) for seed in range(6)]


@pytest.mark.parametrize("n,seed", CASES)
def test_every_player_is_paired_once_a_round_with_at_most_one_bye_each(n, seed):
    rounds = min(n - 1 + n % 2, 9)
    history, played = simulate(n, rounds, seed)
    for _, pairs, bye in played:
        everyone = [p for pair in pairs for p in pair] + ([bye] if bye is not None else [])
        assert sorted(everyone) == list(range(n))
        assert (bye is not None) == (n % 2 == 1)
    byes = Counter(bye for _, _, bye in played if bye is not None)
    assert all(c == 1 for c in byes.values())


def rematch_free_round_exists(n: int, before) -> bool:
    """Brute force: can this round be paired (any bye among those with the fewest) without a rematch?"""
    fewest = min(s.byes for s in before)

    def pairable(rest: list[int]) -> bool:
        if not rest:
            return True
        a = rest[0]
        return any(b not in before[a].opponents and pairable([x for x in rest[1:] if x != b]) for b in rest[1:])

    if n % 2 == 0:
        return pairable(list(range(n)))
    return any(pairable([i for i in range(n) if i != bye]) for bye in range(n) if before[bye].byes == fewest)


@pytest.mark.parametrize("n,seed", [c for c in CASES if c[0] <= 9])
def test_no_rematch_while_one_can_be_avoided(n, seed):
    _, played = simulate(n, n - 1 + n % 2, seed)
    for before, pairs, _ in played:
        rematches = sum(b in before[a].opponents for a, b in pairs)
        assert rematches == 0 or not rematch_free_round_exists(n, before)


@pytest.mark.parametrize("n,seed", [c for c in CASES if c[0] > 9])
def test_large_fields_never_rematch_in_nine_rounds(n, seed):
    history, _ = simulate(n, 9, seed)
    met = Counter(frozenset(g.seats) for g in history if len(g.seats) == 2)
    assert max(met.values()) == 1


@pytest.mark.parametrize("n,seed", [(n, s) for n in (101, 500) for s in range(4)])
def test_score_groups_are_respected(n, seed):
    # Almost every game is inside a score group and floaters drop about one group.
    _, played = simulate(n, 7, seed)
    same = near = total = 0
    for before, pairs, _ in played:
        for a, b in pairs:
            gap = abs(before[a].score - before[b].score)
            same += gap == 0
            near += gap <= 1.0
            total += 1
    assert same / total >= 0.9
    assert near / total >= 0.99


@pytest.mark.parametrize("n,seed", [(n, s) for n in (5, 9, 21, 101) for s in range(6)])
def test_the_bye_goes_to_the_lowest_player_without_one(n, seed):
    # FIDE C.2/C.4: the lowest player without a bye gets it, unless the others could then not all be
    # paired; then the Dutch rules move it up, exactly as the reference pairer (py4swiss) does.
    history, played = simulate(n, min(n, 9), seed)
    for done, (before, _, bye) in enumerate(played):
        assert bye is not None
        eligible = [s for s in before if s.byes == 0]
        if eligible:
            assert before[bye].byes == 0
            if before[bye].score != min(s.score for s in eligible):
                so_far = rounds_of(history)[:done]
                assert py4swiss_round(n, so_far, 99)[1] == bye


@pytest.mark.parametrize("n,seed", [(n, s) for n in (8, 9, 40, 101) for s in range(4)])
def test_seats_are_balanced(n, seed):
    history, _ = simulate(n, 9 if n > 9 else n - 1, seed)
    for s in player_states(n, history):
        assert abs(s.seat_balance) <= 2


def test_the_first_round_pairs_top_half_against_bottom_half():
    pairs, bye = swiss_round(8, [])
    assert sorted(tuple(sorted(p)) for p in pairs) == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert bye is None


def test_pairing_is_a_pure_function_of_the_history():
    history, _ = simulate(33, 5, 3)
    assert swiss_round(33, history) == swiss_round(33, list(history))


def test_ten_thousand_players_pair_without_rematches():
    history, _ = simulate(10_000, 3, 1)
    met = Counter(frozenset(g.seats) for g in history if len(g.seats) == 2)
    assert max(met.values()) == 1


def naive_pods(n, k, states):
    order = sorted(range(n), key=lambda i: (-states[i].score, i))[: n - n % k]
    return [order[i:i + k] for i in range(0, len(order), k)]


@pytest.mark.parametrize("n,k", [(12, 3), (13, 4), (20, 4), (30, 5), (17, 6)])
def test_multiplayer_swiss_pods_cover_everyone_and_avoid_repeat_opponents(n, k):
    from tourney.tournament.formats.swiss import player_states_multi, swiss_pods

    ours = naive = 0
    for seed in range(4):
        rng = random.Random(seed)
        history: list[PlayedGame] = []
        byes: Counter[int] = Counter()
        for _ in range(4):
            states = player_states_multi(n, history)
            pods, out = swiss_pods(n, k, history)
            assert sorted([p for pod in pods for p in pod] + out) == list(range(n))
            assert all(len(pod) == k for pod in pods) and len(out) == n % k
            byes.update(out)

            def repeats(groups, states=states):
                return sum(1 for pod in groups for a in pod for b in pod if a < b and b in states[a].opponents)

            ours += repeats(pods)
            naive += repeats(naive_pods(n, k, states))
            for pod in pods:
                order = list(pod)
                rng.shuffle(order)
                history.append(PlayedGame(tuple(order), tuple(1.0 if i == 0 else 0.0 for i in range(k))))
            history.extend(PlayedGame((b,), (1.0 / k,)) for b in out)
        assert max(byes.values(), default=0) <= 1 or 4 * (n % k) > n
    assert ours <= naive
    assert ours < naive or naive == 0
