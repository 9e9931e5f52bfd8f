"""Named seeded streams and the injection hooks."""

from __future__ import annotations

from collections import Counter

import pytest

from tourney.engine.core import Chance, Inject


def test_streams_depend_only_on_seed_and_name():
    a, b = Chance(7), Chance(7)
    # Drawing from one stream does not move another: order of use across streams is free.
    xs = [a.roll("dice/0", 6) for _ in range(20)]
    _ = [b.roll("dice/1", 6) for _ in range(5)]
    assert [b.roll("dice/0", 6) for _ in range(20)] == xs
    assert [Chance(8).roll("dice/0", 6) for _ in range(20)] != xs


def test_rolls_are_uniform():
    c = Chance(1)
    counts = Counter(c.roll("d", 6) for _ in range(60000))
    assert set(counts) == {1, 2, 3, 4, 5, 6}
    assert all(abs(v - 10000) < 400 for v in counts.values())


def test_shuffle_is_a_permutation_and_clone_continues_identically():
    c = Chance(3)
    deck = list(range(58))
    first = c.shuffled("deal", deck)
    assert sorted(first) == deck and first != deck
    twin = c.clone()
    assert c.shuffled("deal", deck) == twin.shuffled("deal", deck)


def test_injected_values_come_first_then_the_stream():
    c = Chance(5, Inject(dice=[6, 1], picks=[2], shuffles=[[2, 0, 1]], deck_order=["x", "y"]))
    plain = Chance(5)
    assert c.roll("dice/0", 6) == 6 and c.roll("dice/0", 6) == 1
    assert c.roll("dice/0", 6) == plain.roll("dice/0", 6)
    assert c.pick("pick/0", 3) == 2
    assert c.shuffled("deal", ["a", "b", "c"]) == ["c", "a", "b"]
    assert c.initial_order("deal", ["p", "q"]) == ["x", "y"]


def test_a_bad_injection_is_reported():
    with pytest.raises(ValueError, match="outside"):
        Chance(1, Inject(picks=[4])).pick("p", 3)
    with pytest.raises(ValueError, match="not a permutation"):
        Chance(1, Inject(shuffles=[[0, 0]])).shuffled("deal", [1, 2])


def test_reseed_forgets_the_injection_and_positions():
    c = Chance(5, Inject(dice=[6, 6, 6, 6, 6]))
    c.roll("d", 6)
    c.reseed(99)
    fresh = Chance(99)
    assert [c.roll("d", 6) for _ in range(10)] == [fresh.roll("d", 6) for _ in range(10)]
