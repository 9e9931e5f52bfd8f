"""The one-pass canonical dice choice (matching.fill_bits / lowest_fill) is the choice the search
over every combination of dice makes: fewest SPIRALs, then lowest indices, on every face the
five dice can show and every requirement of the game (techniques, Powers, recoveries), exact
fills and Akamaru's one-short fills alike."""

from __future__ import annotations

import itertools

from tourney.engine.games.ninja_arena import data as D
from tourney.engine.games.ninja_arena.matching import _assign, _searched, canonical, die_masks, fits, lowest_fill

REQUIREMENTS = sorted(
    {req for c in D.CHARACTERS for t in c.techniques for req, _ in t.variants}
    | {c.power for c in D.CHARACTERS}
    | {c.recovery for c in D.CHARACTERS}
)
# Every face each die can show, BLANK included (die 0 is the black die with the SPIRAL).
FACES = [(D.BLANK, *D.BLACK_FACES)] + [(D.BLANK, *D.COLOURED_FACES)] * 4


def test_the_one_pass_choice_is_the_searched_choice_on_every_roll() -> None:
    checked = 0
    for faces in itertools.product(*FACES):
        masks = die_masks(faces, False)
        for req in REQUIREMENTS[::3]:  # a third of them here; test_same_as_before plays them all
            for size in (len(req), len(req) - 1):
                expected = _searched.__wrapped__(masks, req, size)
                assert lowest_fill(list(faces), 0, req, size) == expected, (faces, req, size)
                assert canonical(masks, req, size) == expected
                checked += 1
    assert checked > 100_000


def test_fits_without_blade_dance_is_the_bipartite_search() -> None:
    for faces in itertools.product(*FACES[:3]):
        masks = die_masks(faces, False)
        for req in REQUIREMENTS:
            for size in range(1, 4):
                chosen = masks[:size]
                assert fits.__wrapped__(chosen, req) == (len(chosen) <= len(req) and _assign(chosen, 0, req, 0))


def test_blade_dance_masks_still_search() -> None:
    # Temari's Blade Dance lets a die copy another die's face: (S, S, L, L, R) from S, L, R, K, F.
    masks = die_masks((D.K, D.S, D.L, D.R, D.F), True)
    assert canonical(masks, (D.S, D.S, D.L, D.L, D.R), 5) == (0, 1, 2, 3, 4)
    assert lowest_fill([D.K, D.S, D.L, D.R, D.F], 0, (D.S, D.S, D.L, D.L, D.R), 5) is None  # without it: no
