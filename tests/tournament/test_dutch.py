"""Small Swiss fields are paired by the FIDE Dutch rules (py4swiss): check its key properties here."""

from __future__ import annotations

import random
from collections import Counter

import pytest

from tourney.tournament.formats.dutch import dutch_round
from tourney.tournament.formats.pairing import PlayedGame
from tourney.tournament.formats.swiss import player_states


@pytest.mark.parametrize("n,seed", [(n, s) for n in (4, 7, 10, 15) for s in range(3)])
def test_dutch_rounds_have_no_rematch_one_bye_each_and_score_groups(n, seed):
    rng = random.Random(seed)
    rounds: list[list[PlayedGame]] = []
    gaps: list[float] = []
    total = min(n - 1, 5)
    for _ in range(total):
        before = player_states(n, [g for r in rounds for g in r])
        pairs, bye = dutch_round(n, rounds, total)
        everyone = [p for pair in pairs for p in pair] + ([bye] if bye is not None else [])
        assert sorted(everyone) == list(range(n))
        for a, b in pairs:
            assert b not in before[a].opponents
            gaps.append(abs(before[a].score - before[b].score))
        if bye is not None:
            assert before[bye].byes == 0
        games = []
        for a, b in pairs:
            x = rng.choice([1.0, 0.5, 0.0])
            games.append(PlayedGame((a, b), (x, 1.0 - x)))
        if bye is not None:
            games.append(PlayedGame((bye,), (1.0,)))
        rounds.append(games)
    # Mostly within score groups (tiny fields are forced in their last rounds, so only on average).
    assert sum(gaps) / len(gaps) <= 0.5
    byes = Counter(g.seats[0] for r in rounds for g in r if len(g.seats) == 1)
    assert all(c == 1 for c in byes.values())
    for s in player_states(n, [g for r in rounds for g in r]):
        assert abs(s.seat_balance) <= 2


def test_dutch_first_round_is_top_half_against_bottom_half():
    pairs, bye = dutch_round(8, [], 5)
    assert sorted(tuple(sorted(p)) for p in pairs) == [(0, 4), (1, 5), (2, 6), (3, 7)]
    assert bye is None


def test_round_one_colours_alternate_down_the_boards():
    # E.5: the top seed has white, then colours alternate board by board (the old pairer gave the whole top
    # half seat 0).
    pairs, bye = dutch_round(9, [], 5)
    assert pairs == [(0, 4), (5, 1), (2, 6), (7, 3)] and bye == 8
