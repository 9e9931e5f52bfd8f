"""Golden scenarios G1-G12 and G17-G19 of the Tiny Ninjas spec (§11), with forced chance."""

from __future__ import annotations

from tests.tiny_ninjas.helpers import act, battle, labels
from tourney.engine.games.tiny_ninjas.rules import P_DEFEND, P_OVER, P_PLAY


def discard_names(s):  # type: ignore[no-untyped-def]
    return s.observe(0)["discard_pile"]


def test_g1_battle_example_1_trio_vs_archer_orange() -> None:
    s = battle(["Trio", "Pirate", "Pirate", "Pirate", "Pirate"], ["Archer", "Robot", "Robot", "Robot", "Robot"],
               dice=[1])
    act(s, "play Trio")
    assert s.phase == P_DEFEND
    act(s, "defend Archer")
    assert s.health == [10, 7]
    assert discard_names(s) == ["Trio", "Archer"]
    assert len(s.hands[0]) == 4 and len(s.hands[1]) == 4


def test_g2_battle_example_2_master_vs_wolf() -> None:
    s = battle(["Master", "Trio", "Trio", "Trio", "Trio"], ["Wolf", "Robot", "Robot", "Robot", "Robot"],
               dice=[4, 6, 1, 6])
    act(s, "play Master")
    assert s.p_amount == 3 and s.p_colour == 2  # 1 + 2 Blue
    act(s, "defend Wolf")
    assert s.health == [9, 8]


def test_g3_battle_example_3_robot_vs_shadow() -> None:
    s = battle(["Robot", "Trio", "Trio", "Trio", "Trio"], ["Shadow", "Pirate", "Pirate", "Pirate", "Pirate"],
               dice=[1, 2])
    act(s, "play Robot")
    assert s.p_amount == 2
    act(s, "defend Shadow")
    assert s.health == [10, 10]


def test_g4_red_token_adds_one_and_is_spent() -> None:
    s = battle(["Pirate", "Trio", "Trio", "Trio", "Trio"], ["Robot"] * 5, dice=[6])
    assert "play Pirate +RED" in labels(s) and "play Pirate +RED +BLUE" in labels(s)
    act(s, "play Pirate +RED")
    act(s, "no defend")
    assert s.health[1] == 5
    assert s.observe(0)["tokens"][0] == ["BLUE", "YELLOW"]
    assert "play Trio +RED" not in labels(s)


def test_g5_sneak_attack_is_undefendable_and_ignores_the_token() -> None:
    s = battle(["Shadow", "Trio", "Trio", "Trio", "Trio"], ["Robot"] * 5, dice=[6])
    act(s, "play Shadow +RED")
    assert s.phase == P_PLAY and s.to_act() == (0,)  # no D3 although the Defender holds cards
    assert s.health == [10, 8]
    assert s.observe(1)["tokens"][0] == ["BLUE", "YELLOW"]


def test_g6_life_drain() -> None:
    s = battle(["Vampire", "Trio", "Trio", "Trio", "Trio"], ["Robot"] * 5, dice=[4], health=(6, 10))
    act(s, "play Vampire")
    act(s, "no defend")
    assert s.health == [8, 8]
    assert s.stats[0][3] == 2  # vampire_heal_total


def test_g6_life_drain_fully_blocked_drains_nothing() -> None:
    s = battle(["Vampire", "Trio", "Trio", "Trio", "Trio"], ["Pirate"] * 5, dice=[4, 1], health=(6, 10))
    act(s, "play Vampire")
    act(s, "defend Pirate")
    assert s.health == [6, 10]


def test_g7_doom_black_discards_the_forced_pick() -> None:
    s = battle(["Grim", "Trio", "Trio"], ["Pirate", "Trio", "Solo"], dice=[2], picks=[1])
    act(s, "play Grim")
    assert s.observe(1)["hand"] == ["Pirate", "Solo"]
    assert discard_names(s) == ["Grim", "Trio"]
    assert s.phase == P_PLAY and s.health == [10, 10]


def test_g7_doom_white_does_nothing() -> None:
    s = battle(["Grim", "Trio", "Trio"], ["Pirate", "Trio", "Solo"], dice=[1])
    act(s, "play Grim")
    assert s.observe(1)["hand"] == ["Pirate", "Trio", "Solo"]
    assert s.phase == P_PLAY and s.health == [10, 10]


def test_g9_deep_freeze_makes_the_next_attack_undefendable() -> None:
    s = battle(["Wolf", "Solo", "Trio", "Trio", "Trio"], ["Robot"] * 5, dice=[6])
    act(s, "play Wolf")
    assert s.phase == P_PLAY and s.freeze and s.observe(1)["freeze_pending"]
    act(s, "play Solo")
    assert s.phase == P_PLAY  # no D3
    assert s.health == [10, 8]
    assert not s.freeze


def test_g9_ending_the_round_clears_the_freeze() -> None:
    s = battle(["Wolf", "Solo", "Trio", "Trio", "Trio"], ["Solo", "Robot", "Robot", "Robot", "Robot"], dice=[6])
    act(s, "play Wolf")
    act(s, "end round")
    assert not s.freeze and s.attacker == 1
    act(s, "play Solo")
    assert s.phase == P_DEFEND  # seat 1's attack is defendable as usual


def test_g10_abduct_takes_the_fully_blocked_attacking_card() -> None:
    s = battle(["Pirate", "Trio", "Trio", "Trio", "Trio"], ["Alien", "Robot", "Robot", "Robot", "Robot"],
               dice=[4])
    act(s, "play Pirate")
    act(s, "defend Alien")
    assert s.health == [10, 10]
    assert s.observe(1)["hand"] == ["Robot"] * 4 + ["Pirate"]
    assert discard_names(s) == ["Alien"]
    assert s.observe(0)["known_cards"][1] == ["Pirate"]


def test_g10_abduct_fails_when_damage_gets_through() -> None:
    s = battle(["Pirate", "Trio", "Trio", "Trio", "Trio"], ["Alien", "Robot", "Robot", "Robot", "Robot"],
               dice=[6])
    act(s, "play Pirate")
    act(s, "defend Alien")
    assert s.health == [10, 9]
    assert discard_names(s) == ["Pirate", "Alien"]
    assert s.observe(1)["hand"] == ["Robot"] * 4


def test_g11_double_knockout_is_a_draw() -> None:
    s = battle(["Master", "Trio", "Trio", "Trio", "Trio"], ["Wolf", "Robot", "Robot", "Robot", "Robot"],
               dice=[4, 6, 1, 6], health=(1, 2))
    act(s, "play Master")
    act(s, "defend Wolf")
    assert s.health == [0, 0]
    assert s.phase == P_OVER
    out = s.outcome()
    assert out.ranking == ((0, 1),)
    assert out.reason == "double_knockout"
    assert out.points(0) == 0.5


def test_g12_round_end_replenishes_the_defender_only() -> None:
    s = battle(["Trio", "Trio", "Trio", "Solo", "Solo"], ["Robot", "Robot", "Pirate", "Pirate", "Pirate"],
               dice=[1, 1])
    act(s, "play Trio")
    act(s, "defend Pirate")  # White: 2 of 3 blocked
    act(s, "play Trio")
    act(s, "defend Pirate")
    act(s, "play Trio")
    act(s, "no defend")
    assert len(s.hands[0]) == 2 and len(s.hands[1]) == 3
    r = s.round
    act(s, "end round")
    assert s.round == r + 1
    assert s.attacker == 1
    assert len(s.hands[1]) == 5 and len(s.hands[0]) == 2
    assert s.to_act() == (1,)


def test_g17_legend_for_ten() -> None:
    s = battle(["Legend", "Trio", "Trio", "Trio", "Trio"], ["Robot"] * 5, dice=[6, 6])
    act(s, "play Legend")
    assert s.p_amount == 10
    act(s, "no defend")
    out = s.outcome()
    assert s.health[1] == 0
    assert out.ranking == ((0,), (1,)) and out.reason == "elimination"
    assert 5 in out.details["achievements"][0]


def test_g18_shell_white_blocks_everything() -> None:
    s = battle(["Archer", "Trio", "Trio", "Trio", "Trio"], ["Turtle", "Robot", "Robot", "Robot", "Robot"],
               dice=[3, 1])
    act(s, "play Archer +BLUE")
    assert s.p_amount == 4
    act(s, "defend Turtle")
    assert s.health == [10, 10]


def test_g18_shell_black_is_a_yellow_one() -> None:
    s = battle(["Archer", "Trio", "Trio", "Trio", "Trio"], ["Turtle", "Robot", "Robot", "Robot", "Robot"],
               dice=[3, 2])
    act(s, "play Archer +BLUE")
    act(s, "defend Turtle")
    assert s.health == [10, 7]
    assert s.stats[1][2] == 1  # counted as a Yellow shield for achievement 6


def test_g19_opening_discard() -> None:
    s = battle(["Trio"] * 5, ["Robot", "Pirate", "Solo", "Solo", "Wolf"], chooser=1, opening_discard=True,
               first="defend first")
    assert s.phase == 1 and s.to_act() == (1,)
    assert labels(s) == ["discard Robot", "discard Pirate", "discard Solo", "discard Wolf"]
    act(s, "discard Solo")
    assert len(s.hands[1]) == 4 and s.attacker == 0
    assert len(s.hands[0]) == 5
    assert s.to_act() == (0,) and s.phase == P_PLAY
    assert discard_names(s) == ["Solo"]
