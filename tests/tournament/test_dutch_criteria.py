"""The criteria checker that judges our Dutch pairings against py4swiss's: it must tell worse from better."""

from __future__ import annotations

import pytest

from tests.tournament.dutch_criteria import brackets_of, compare_pairings, round_totals
from tourney.tournament.formats.dutch import entrants_from_rounds
from tourney.tournament.formats.pairing import PlayedGame

# Round one of eight: the top half won, colours alternating down the board. Players 0-3 have a point;
# 0 and 2 had white (they want black), 1 and 3 black (they want white); 4-7 the other way round.
ROUND_ONE = [PlayedGame((0, 4), (1.0, 0.0)), PlayedGame((5, 1), (0.0, 1.0)), PlayedGame((2, 6), (1.0, 0.0)),
             PlayedGame((7, 3), (0.0, 1.0))]
PEOPLE = entrants_from_rounds(8, [ROUND_ONE], 5)
BEST = ([(1, 0), (3, 2), (4, 5), (6, 7)], None)


def test_the_same_round_is_same_and_a_different_equally_good_one_a_tie():
    assert compare_pairings(PEOPLE, BEST, BEST, 1).outcome == "same"
    other = ([(1, 2), (3, 0), (4, 7), (6, 5)], None)  # every preference met again, other partners
    assert compare_pairings(PEOPLE, other, BEST, 1).outcome == "tie"
    flipped = ([(0, 1), (3, 2), (4, 5), (6, 7)], None)
    assert compare_pairings(PEOPLE, flipped, BEST, 1).outcome == "colours"


def test_a_rematch_is_worse_before_anything_else():
    rematch = ([(0, 4), (1, 5), (2, 6), (3, 7)], None)
    verdict = compare_pairings(PEOPLE, rematch, BEST, 1)
    assert (verdict.outcome, verdict.criterion) == ("worse", "C.1-C.3")
    assert compare_pairings(PEOPLE, BEST, rematch, 1).outcome == "better"


def test_floating_a_player_out_of_a_bracket_it_could_be_paired_in_is_worse_on_c5():
    floats = ([(1, 2), (5, 0), (6, 3), (4, 7)], None)  # 0 and 3 float down though they can meet in their group
    verdict = compare_pairings(PEOPLE, floats, BEST, 1)
    assert (verdict.outcome, verdict.bracket, verdict.criterion) == ("worse", 0, "C.5 pairs")


def test_unmet_colour_preferences_are_counted_from_the_colours_given():
    clashes = ([(0, 2), (1, 3), (4, 5), (6, 7)], None)  # 0 and 2 both want black, 1 and 3 both white
    verdict = compare_pairings(PEOPLE, clashes, BEST, 1)
    assert (verdict.outcome, verdict.bracket, verdict.criterion) == ("worse", 0, "C.10 colour preference unmet")
    assert round_totals(PEOPLE, clashes, 1)["C.10 colour preference unmet"] == 2
    assert round_totals(PEOPLE, BEST, 1)["C.10 colour preference unmet"] == 0


def test_a_player_left_out_is_refused():
    with pytest.raises(ValueError, match="neither paired nor the bye"):
        brackets_of(PEOPLE, [(1, 0), (3, 2), (4, 5)], None)
