"""How a table becomes games (tournament.formats.pairing.encounters), the same in every format."""

from __future__ import annotations

import pickle
from collections import defaultdict

import pytest

from tourney.tournament.formats.pairing import Pairing, encounters, seeds_used
from tourney.tournament.formats.registry import FORMATS, FormatSpec, format_of


def test_two_players_play_duplicate_pairs_with_the_seats_swapped() -> None:
    assert encounters((4, 7), 5) == [((4, 7), 0), ((7, 4), 0), ((4, 7), 1), ((7, 4), 1), ((4, 7), 2)]
    assert seeds_used(2, 5) == 3


@pytest.mark.parametrize("k", [2, 3, 4, 6])
def test_on_every_seed_each_entrant_sits_in_every_seat_once(k: int) -> None:
    table = tuple(range(10, 10 + k))
    games = encounters(table, 2 * k)
    seats_by_seed: dict[int, dict[int, set[int]]] = defaultdict(lambda: defaultdict(set))
    for seats, step in games:
        for seat, entrant in enumerate(seats):
            seats_by_seed[step][entrant].add(seat)
    assert sorted(seats_by_seed) == [0, 1] == list(range(seeds_used(k, 2 * k)))
    assert all(seen == set(range(k)) for by_entrant in seats_by_seed.values() for seen in by_entrant.values())


def test_formats_are_looked_up_by_name_and_a_gauntlet_with_a_test_runs_its_batches() -> None:
    assert list(FORMATS) == ["round-robin", "swiss", "gauntlet", "solo"]
    assert format_of(FormatSpec("gauntlet")) is FORMATS["gauntlet"]
    sprt = format_of(FormatSpec("gauntlet", sprt=(0.0, 5.0, 0.05, 0.05)))
    assert sprt is not FORMATS["gauntlet"] and sprt.total(FormatSpec("gauntlet", rounds=2), 3) == 2 * 2 * 2 * 8


def test_a_pairing_survives_pickling_as_itself() -> None:
    # What every Ray task sends and gets back: the same pairing, still frozen.
    original = [Pairing(7, 2, (3, 0, 1), 5), Pairing(8, 2, (1,), -1)]
    copied = pickle.loads(pickle.dumps(original, protocol=pickle.HIGHEST_PROTOCOL))
    assert copied == original and all(type(p) is Pairing for p in copied)
    with pytest.raises(AttributeError):
        copied[0].number = 1  # type: ignore[misc]
