"""Achievements: per-match ones from the game's details, streaks counted across matches."""

from __future__ import annotations

import json

from tourney.tournament.rating.achievements import Earned, match_achievements, streak_achievements

RULES = ((15, 3, "win 3 in a row vs the same opponent"), (16, 5, "win 5 in a row vs the same opponent"))


def win(a: str, b: str) -> list[tuple[str, int, int]]:
    return [(a, 0, 1), (b, 1, 1)]


def draw(a: str, b: str) -> list[tuple[str, int, int]]:
    return [(a, 0, 2), (b, 0, 2)]


def test_match_achievements_map_seats_to_entrants():
    details = json.dumps({"achievements": {"0": [2, 5], "1": [7]},
                          "achievement_names": {"0": ["win without losing health", "attack for 10 with Legend"],
                                                "1": ["fully deplete the draw pile"]}})
    assert match_achievements(details, ["ann", "bob"]) == [
        Earned("ann", 2, "win without losing health"), Earned("ann", 5, "attack for 10 with Legend"),
        Earned("bob", 7, "fully deplete the draw pile")]
    assert match_achievements("{}", ["ann", "bob"]) == []


def test_three_wins_in_a_row_against_one_opponent():
    results = [win("a", "b"), win("a", "b")[::-1], win("a", "b"), win("c", "a")]
    # a beat b three times in a row (seat order does not matter); the loss to c is another pair.
    assert streak_achievements(results, RULES) == [Earned("a", 15, RULES[0][2], "b")]


def test_a_draw_or_loss_resets_the_streak_and_five_earns_both():
    broken = [win("a", "b"), win("a", "b"), draw("a", "b"), win("a", "b"), win("a", "b")]
    assert streak_achievements(broken, RULES) == []
    five = [win("a", "b")] * 5
    assert [e.number for e in streak_achievements(five, RULES)] == [15, 16]
    assert streak_achievements(five, ()) == []


SOLO_RULES = (
    (15, 3, "win 3 in a row vs the same opponent", {"mode": ("standard",)}),
    (22, 3, "solo: win on NORMAL 3 times in a row", {"mode": ("solo",), "difficulty": ("normal",)}),
)


def test_rules_follow_the_config_with_the_game_defaults_filling_gaps():
    from tourney.tournament.rating.achievements import rules_for

    defaults = {"mode": "standard", "difficulty": "normal"}
    assert [r[0] for r in rules_for(SOLO_RULES, {}, defaults)] == [15]
    assert [r[0] for r in rules_for(SOLO_RULES, {"mode": "SOLO"}, defaults)] == [22]
    assert rules_for(SOLO_RULES, {"mode": "solo", "difficulty": "hard"}, defaults) == []


def test_a_streak_against_the_game_itself():
    solo_win, solo_loss = [("a", 0, 1)], [("a", 1, 1)]
    rules = [(22, 3, "solo: win on NORMAL 3 times in a row")]
    assert streak_achievements([solo_win, solo_win, solo_loss, solo_win, solo_win], rules) == []
    assert streak_achievements([solo_loss, solo_win, solo_win, solo_win], rules) == [
        Earned("a", 22, "solo: win on NORMAL 3 times in a row", None)]
