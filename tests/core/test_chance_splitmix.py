"""Every stream is exactly splitmix64 from sha256(seed/name), in the compiled build and the source alike.

The compiled build draws through `below_from_halves` (32-bit halves, machine integers) and the source
through one 64-bit int; both must give the values of the plain generator written out below, or stored
results (tests/golden) would stop replaying.
"""

from __future__ import annotations

import hashlib
import random
from collections.abc import Iterator

import tourney.engine
from tourney.engine.core import Chance, Inject
from tourney.engine.core import chance as chance_module
from tourney.engine.core.chance import below_from_halves

MASK = (1 << 64) - 1
SEEDS = [0, 1, 2, 7, 12345, 2**31 - 1, 2**62 + 9, 2**64 + 5, -3]
NAMES = ["dice/0", "dice/3", "tiebreak", "deal", "pick/ai", "setup", "ünïcode/名"]
# Sizes of the games' draws (coin, die, hands, decks) and the edges of the halves' range and beyond.
SIZES = [1, 2, 3, 5, 6, 7, 12, 52, 58, 255, 1000, 2**16 + 1, 2**29 + 3, 2**30 - 1, 2**30, 2**31 + 7, 2**40 - 1,
         2**63, 2**64 + 3]


def reference(seed: int, name: str) -> Iterator[int]:
    """splitmix64, the textbook way, started from the first 8 bytes of sha256("seed/name")."""
    state = int.from_bytes(hashlib.sha256(f"{seed}/{name}".encode()).digest()[:8], "big")
    while True:
        state = (state + 0x9E3779B97F4A7C15) % 2**64
        z = state
        z = ((z ^ (z >> 30)) * 0xBF58476D1CE4E5B9) % 2**64
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) % 2**64
        yield z ^ (z >> 31)


def test_the_build_under_test_is_the_one_installed() -> None:
    # The fast path must really run compiled, or these tests would check the source twice.
    assert chance_module._COMPILED == tourney.engine.COMPILED_RULES


def test_below_equals_the_reference_for_every_size() -> None:
    rng = random.Random(32)
    for seed in SEEDS:
        chance = Chance(seed)
        streams = {name: reference(seed, name) for name in NAMES}
        for _ in range(3000):  # streams interleaved at random, as a match draws them
            name, n = rng.choice(NAMES), rng.choice(SIZES)
            assert chance.below(name, n) == (next(streams[name]) * n) >> 64, (seed, name, n)


def test_next64s_equals_the_reference_and_continues_where_below_stopped() -> None:
    rng = random.Random(64)
    for seed in SEEDS:
        chance = Chance(seed)
        for name in NAMES:
            expected = reference(seed, name)
            for _ in range(40):
                k = rng.randrange(0, 60)
                assert chance.next64s(name, k) == [next(expected) for _ in range(k)]
                assert chance.below(name, 6) == next(expected) * 6 >> 64


def test_next_halves_split_the_reference_values_and_continue_where_below_stopped() -> None:
    """next_halves (Tiny Ninjas' deal) runs on machine integers when compiled: each value's high half,
    then its low half, the stream left where as many next64s values leave it."""
    rng = random.Random(32)
    for seed in SEEDS:
        chance = Chance(seed)
        for name in NAMES:
            expected = reference(seed, name)
            for _ in range(40):
                k = rng.randrange(0, 60)
                halves = []
                for value in [next(expected) for _ in range(k)]:
                    halves += [value >> 32, value & 0xFFFFFFFF]
                assert chance.next_halves(name, k) == halves, (seed, name, k)
                assert chance.below(name, 6) == next(expected) * 6 >> 64


def test_shuffled_and_rolls_equal_the_reference() -> None:
    for seed in SEEDS:
        chance = Chance(seed)
        deal, dice = reference(seed, "deal"), reference(seed, "dice/1")
        for size in (0, 1, 2, 6, 52, 58, 200):
            items = list(range(size))
            expected = list(items)
            for i in range(size - 1, 0, -1):
                j = next(deal) * (i + 1) >> 64
                expected[i], expected[j] = expected[j], expected[i]
            assert chance.shuffled("deal", items) == expected
        assert [chance.roll("dice/1", 6) for _ in range(500)] == [(next(dice) * 6 >> 64) + 1 for _ in range(500)]


def test_rolls_give_the_faces_of_one_roll_at_a_time_and_continue_the_stream() -> None:
    rng = random.Random(6)
    for seed in SEEDS:
        chance = Chance(seed)
        dice = reference(seed, "dice/2")
        for _ in range(300):
            k, sides = rng.randrange(0, 6), rng.choice([2, 6, 12, 2**30 - 1, 2**30, 2**40])
            assert chance.rolls("dice/2", sides, k) == [(next(dice) * sides >> 64) + 1 for _ in range(k)]
            assert chance.roll("dice/2", 6) == (next(dice) * 6 >> 64) + 1


def test_rolls_use_injected_faces_first_then_the_stream() -> None:
    chance = Chance(3, Inject(dice=[4, 2]))
    dice = reference(3, "dice/0")
    assert chance.rolls("dice/0", 6, 3) == [4, 2, (next(dice) * 6 >> 64) + 1]
    assert chance.rolls("dice/0", 6, 2) == [(next(dice) * 6 >> 64) + 1 for _ in range(2)]


def test_a_clone_draws_what_the_original_draws() -> None:
    chance = Chance(11)
    chance.below("dice/0", 6)
    twin = chance.clone()
    assert [twin.below("dice/0", 52) for _ in range(300)] == [chance.below("dice/0", 52) for _ in range(300)]


def test_the_halves_formula_on_edge_states() -> None:
    """below_from_halves, called directly: checked in whichever build runs, on states a stream may
    reach only rarely (all ones, all zeros, one half full)."""
    rng = random.Random(128)
    states = [0, 1, MASK, 2**32 - 1, 2**32, 2**63, 2**63 - 1, MASK - 2**32 + 1]
    states += [rng.getrandbits(64) for _ in range(4000)]
    sizes = [1, 2, 6, 52, 2**30 - 1] + [rng.randrange(1, 2**30) for _ in range(20)]
    for state in states:
        z = ((state ^ (state >> 30)) * 0xBF58476D1CE4E5B9) & MASK
        z = ((z ^ (z >> 27)) * 0x94D049BB133111EB) & MASK
        z ^= z >> 31
        n = rng.choice(sizes)
        assert below_from_halves(state >> 32, state & 0xFFFFFFFF, n) == (z * n) >> 64, (state, n)


def test_a_step_on_the_kept_signed_state_is_a_step_of_the_64_bit_state() -> None:
    """Streams keep their state as the signed integer of its 64 bits; _stepped and _kept (the compiled
    build's step, on machine integers) must give the plain state plus the gamma modulo 2**64."""
    rng = random.Random(256)
    states = [0, 1, MASK, 2**31, 2**32 - 1, 2**32, 2**63, 2**63 - 1, MASK - 2**32 + 1, MASK - 0x9E3779B97F4A7C15]
    states += [rng.getrandbits(64) for _ in range(4000)]
    for state in states:
        after = (state + 0x9E3779B97F4A7C15) & MASK
        hi, lo = chance_module._stepped(chance_module._as_signed(state))
        assert (hi, lo) == (after >> 32, after & 0xFFFFFFFF), state
        assert chance_module._kept(hi, lo) == chance_module._as_signed(after) == after - (after >> 63 << 64), state
