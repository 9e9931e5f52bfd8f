"""Round-robin scheduling: every pair meets, seats alternate, duplicate pairs share a seed."""

from __future__ import annotations

from collections import Counter
from itertools import combinations

import pytest

from tourney.tournament.formats.round_robin import berger_rounds, round_robin


@pytest.mark.parametrize("n", [2, 3, 4, 5, 6, 7, 10])
def test_berger_rounds_meet_every_pair_once_and_nobody_twice_a_round(n):
    rounds = berger_rounds(n)
    met = Counter(frozenset(p) for r in rounds for p in r)
    assert set(met) == {frozenset(p) for p in combinations(range(n), 2)}
    assert set(met.values()) == {1}
    for r in rounds:
        playing = [e for p in r for e in p]
        assert len(playing) == len(set(playing))
    # Seat 0 is spread fairly: nobody takes it in more than half their games plus one.
    firsts = Counter(p[0] for r in rounds for p in r)
    assert max(firsts.values()) <= (n - 1) // 2 + 1


@pytest.mark.parametrize("n,gpp", [(3, 4), (4, 2), (5, 3)])
def test_schedule_counts_seats_and_duplicate_seeds(n, gpp):
    schedule = round_robin(n, gpp)
    assert len(schedule) == n * (n - 1) // 2 * gpp
    assert [p.number for p in schedule] == list(range(len(schedule)))
    by_pair: dict[frozenset[int], list] = {}
    for p in schedule:
        by_pair.setdefault(frozenset(p.seats), []).append(p)
    for games in by_pair.values():
        assert len(games) == gpp
        # Seats alternate game by game, and games 2k, 2k+1 share a seed with the seats swapped.
        for k in range(0, gpp - 1, 2):
            a, b = games[k], games[k + 1]
            assert a.seats == b.seats[::-1]
            assert a.seed_offset == b.seed_offset
        assert len({g.seed_offset for g in games}) == (gpp + 1) // 2
    # Different pairs never share a seed.
    offsets = [{g.seed_offset for g in games} for games in by_pair.values()]
    assert sum(len(o) for o in offsets) == len(set().union(*offsets))


def test_cycles_swap_who_starts():
    one, two = round_robin(4, 1, cycles=1), round_robin(4, 1, cycles=2)
    assert len(two) == 2 * len(one)
    assert [p.seats[::-1] for p in two[len(one):]] == [p.seats for p in one]


def test_bad_sizes_are_refused():
    with pytest.raises(ValueError):
        round_robin(1)
    with pytest.raises(ValueError):
        round_robin(3, 0)
