"""The run's stored schedule numbers as a bitmap (issue 32, flat memory): it answers like a set."""

from __future__ import annotations

import random

from tourney.tournament.rating.played_numbers import GROW_LIMIT, PlayedNumbers


def test_it_answers_like_a_set_for_dense_sparse_repeated_and_odd_numbers():
    rng = random.Random(5)
    numbers = [rng.randrange(5000) for _ in range(3000)] + [0, 7, 8, 4999, -3, 10**12, 10**12, GROW_LIMIT * 3]
    kept, plain = PlayedNumbers(numbers[:100]), set(numbers[:100])
    for n in numbers[100:]:
        kept.add(n)
        plain.add(n)
        assert len(kept) == len(plain)
    probes = list(range(-10, 5100)) + [10**12, 10**12 + 1, GROW_LIMIT * 3, GROW_LIMIT * 3 - 1, "7", None]
    assert [p in kept for p in probes] == [p in plain for p in probes]


def test_a_number_far_beyond_the_plan_does_not_grow_the_bitmap():
    kept = PlayedNumbers([1, 2, 10**15])
    assert 10**15 in kept and len(kept) == 3
    assert len(kept._bits) < 1024  # the outlier went to the set, not into 10**15 bits
