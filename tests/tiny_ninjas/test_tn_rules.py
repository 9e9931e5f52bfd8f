"""Turn structure, abilities, configuration and chance streams of the standard battle."""

from __future__ import annotations

import random

import pytest

from tests.tiny_ninjas.helpers import act, battle, labels
from tourney.engine.core import Chance, ConfigError, IllegalAction, Inject
from tourney.engine.games.tiny_ninjas import GAME
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas.data import CARDS, DIE_FACES, INSTANCE_TYPE, TYPE_BY_NAME
from tourney.engine.games.tiny_ninjas.rules import P_CHOOSE, P_DEFEND, P_PLAY, P_REVIVE, build_deck


def test_card_table_counts_and_die_marginals() -> None:
    assert sum(c.count for c in CARDS if not c.expansion) == 58
    assert sum(c.count for c in CARDS if c.expansion) == 12
    counts = {c.name: c.count for c in CARDS}
    assert (counts["Alien"], counts["Angel"], counts["Medic"], counts["Baby"], counts["Grim"]) == (1, 2, 2, 2, 2)
    blades = [f[0] for f in DIE_FACES]
    assert (blades.count("One"), blades.count("Two"), blades.count("Three")) == (3, 2, 1)
    assert sorted(f[1] for f in DIE_FACES).count("Green") == 2
    assert [f[2] for f in DIE_FACES].count("White") == 3


def test_expansion_is_off_by_default_and_adds_twelve() -> None:
    assert len(build_deck(GAME.default_config())) == 58
    cfg = GAME.default_config()
    cfg["use_expansion"] = True
    deck = build_deck(cfg)
    assert len(deck) == 70
    assert sum(1 for c in deck if INSTANCE_TYPE[c] == TYPE_BY_NAME["Spy"]) == 2


def test_setup_deals_five_each_and_the_chooser_decides() -> None:
    s = GAME.new_state(3)
    assert len(s.hands[0]) == 5 and len(s.hands[1]) == 5
    assert len(s.draw) == 48
    assert s.phase == P_CHOOSE
    (chooser,) = s.to_act()
    assert labels(s) == ["attack first", "defend first"]
    act(s, "attack first")
    # The first Defender discards one, then the first Attacker holds 5 and the Defender 4.
    assert s.to_act() == (1 - chooser,)
    act(s, labels(s)[0])
    assert len(s.hands[chooser]) == 5 and len(s.hands[1 - chooser]) == 4
    assert s.attacker == chooser and s.round == 1


def test_random_chooser_is_a_coin_flip_from_the_tiebreak_stream() -> None:
    choosers = {GAME.new_state(seed).to_act()[0] for seed in range(40)}
    assert choosers == {0, 1}
    for seed in range(10):
        expected = Chance(seed).below("tiebreak", 2)
        assert GAME.new_state(seed).to_act() == (expected,)
    assert GAME.new_state(5, config={"chooser": 1}).to_act() == (1,)


def test_end_round_only_after_an_attack_and_round_ends_when_the_hand_is_empty() -> None:
    s = battle(["Trio", "Solo"], ["Robot", "Robot"])
    assert "end round" not in labels(s)
    act(s, "play Trio")
    act(s, "no defend")
    assert "end round" in labels(s)
    act(s, "play Solo")
    act(s, "no defend")
    # The Attacker's hand is empty: the Round ended by itself and seat 1 replenished to 5.
    assert s.attacker == 1 and s.round == 2
    assert len(s.hands[1]) == 5 and len(s.hands[0]) == 0


def test_no_defence_decision_without_cards_or_damage() -> None:
    s = battle(["Trio", "Trio", "Medic"], ["Robot", "Robot", "Robot"])
    act(s, "play Medic")
    assert s.phase == P_PLAY  # a non-damaging play offers no D3
    s.hands[1].clear()
    s._legal = None
    act(s, "play Trio")
    assert s.phase == P_PLAY and s.health[1] == 7


def test_legal_actions_deduplicate_types_and_carry_the_first_copy() -> None:
    s = battle(["Trio", "Pirate", "Trio", "Princess", "Pirate"], ["Robot"] * 5)
    legal = s.legal_actions(0)
    plays = [a for a in legal if isinstance(a, A.Play) and not a.tokens]
    assert [a.label for a in plays] == ["play Trio", "play Pirate", "play Princess ATTACK", "play Princess HEAL"]
    assert plays[0].card == s.hands[0][0] and plays[1].card == s.hands[0][1]
    assert len(legal) == 4 * 4  # 4 plays (Princess twice) x 4 token subsets
    assert s.legal_actions(1) == ()


def test_defence_labels_and_yellow_only_when_available() -> None:
    s = battle(["Trio", "Trio"], ["Robot", "Pirate"], dice=[1])
    act(s, "play Trio")
    assert labels(s) == ["defend Robot", "defend Robot +YELLOW", "defend Pirate", "defend Pirate +YELLOW",
                         "no defend"]
    act(s, "defend Pirate +YELLOW")  # White 2 + 1 = 3 blocks everything
    assert s.health == [10, 10]
    act(s, "play Trio")
    assert labels(s) == ["defend Robot", "no defend"]


def test_wrong_shield_blocks_nothing_and_illegal_actions_are_refused() -> None:
    s = battle(["Trio", "Trio"], ["Robot", "Robot"], dice=[2])
    with pytest.raises(IllegalAction):
        s.apply({0: A.END_ROUND})
    with pytest.raises(IllegalAction):
        s.apply({0: A.NO_DEFEND})
    act(s, "play Trio")
    act(s, "defend Robot")  # Blue shield 3 against Red damage
    assert s.health[1] == 7


def test_power_ups_off_means_no_tokens() -> None:
    s = battle(["Trio", "Trio"], ["Robot", "Robot"], power_ups=False)
    assert labels(s) == ["play Trio"]
    act(s, "play Trio")
    assert labels(s) == ["defend Robot", "no defend"]


def test_revive_is_a_sub_choice_over_non_angel_discards() -> None:
    s = battle(["Trio", "Angel", "Angel"], ["Robot", "Pirate", "Pirate"], dice=[1])
    act(s, "play Angel")  # nothing eligible yet: nothing happens
    assert s.phase == P_PLAY and len(s.hands[0]) == 2
    act(s, "play Trio")
    act(s, "defend Pirate")
    act(s, "play Angel")
    assert s.phase == P_REVIVE and s.to_act() == (0,)
    assert labels(s) == ["revive Trio", "revive Pirate"]
    act(s, "revive Pirate")
    assert s.observe(0)["hand"] == ["Pirate"]
    assert s.observe(0)["discard_pile"] == ["Angel", "Trio", "Angel"]
    assert s.attacks == 3


def test_princess_heal_and_attack() -> None:
    s = battle(["Princess", "Princess", "Trio"], ["Robot"] * 3, health=(5, 10))
    act(s, "play Princess HEAL +RED")  # the token is spent with no effect
    assert s.health == [7, 10] and s.phase == P_PLAY
    assert s.observe(0)["tokens"][0] == ["BLUE", "YELLOW"]
    act(s, "play Princess ATTACK +BLUE")
    assert s.phase == P_DEFEND and s.p_amount == 3


def test_medic_heal_is_capped_at_max_health() -> None:
    s = battle(["Medic", "Trio"], ["Robot", "Robot"], health=(9, 10))
    act(s, "play Medic")
    assert s.health[0] == 10
    assert s.stats[0][0] == 1  # healing_received counts what was actually gained


def test_grab_on_white_steals_a_random_card() -> None:
    s = battle(["Baby", "Trio", "Trio"], ["Robot", "Pirate", "Solo"], dice=[1], picks=[2])
    act(s, "play Baby")
    assert s.observe(0)["hand"] == ["Trio", "Trio", "Solo"]
    assert s.observe(1)["hand"] == ["Robot", "Pirate"]
    assert s.observe(1)["known_cards"][0] == ["Solo"]


def test_expansion_abilities_phantom_meditate_intel() -> None:
    s = battle(["Ghost", "Monk", "Spy", "Trio"], ["Robot", "Robot", "Pirate", "Pirate"], health=(8, 10),
               use_expansion=True)
    act(s, "play Ghost")
    assert s.health == [8, 9] and s.phase == P_PLAY
    act(s, "play Monk")
    assert s.health[0] == 9 and len(s.hands[0]) == 3  # played one, drew one
    act(s, "play Spy +BLUE")
    assert s.phase == P_DEFEND and s.p_amount == 2
    intel = [e for e in s.observe(0)["events"] if e["type"] == "intel"]
    assert intel and intel[0]["cards"] == ["Robot", "Robot", "Pirate", "Pirate"]
    assert not [e for e in s.observe(1)["events"] if e["type"] == "intel"]
    assert not [e for e in s.public_view()["events"] if e["type"] == "intel"]


def test_wolf_counter_applies_against_any_colour() -> None:
    s = battle(["Trio", "Trio"], ["Wolf", "Robot"], dice=[6, 6])
    act(s, "play Trio")
    act(s, "defend Wolf")  # Three + Three: shield 0, counter 2; the Blue shield cannot block Red
    assert s.health == [8, 7]


def test_lazy_reshuffle_when_the_draw_pile_runs_out() -> None:
    s = battle(["Trio", "Trio"], ["Robot", "Robot"])
    # Leave one card in the draw pile; the rest is face up in the discard pile.
    s.discard.extend(s.draw[1:])
    del s.draw[1:]
    act(s, "play Trio")
    act(s, "no defend")
    assert not s.empty_flag
    act(s, "end round")  # seat 1 draws 3: the last card, then a reshuffle, then 2 more
    assert len(s.hands[1]) == 5
    assert s.empty_flag
    assert s.discard == []
    assert [e for e in s.public_view()["events"] if e["type"] == "reshuffle"]
    assert sorted(s.draw + s.discard + s.hands[0] + s.hands[1]) == sorted(build_deck(s.cfg))


def test_hand_limit_four_handicap_deals_four() -> None:
    s = GAME.new_state(2, config={"hand_limit": {0: 4}})
    assert len(s.hands[0]) == 4 and len(s.hands[1]) == 5


def test_round_cap_decides_on_health() -> None:
    s = battle(["Trio", "Trio"], ["Solo", "Solo"], round_cap=1)
    act(s, "play Trio")
    act(s, "no defend")
    act(s, "end round")
    out = s.outcome()
    assert out.reason == "cap" and out.ranking == ((0,), (1,))
    assert out.scores == (10.0, 7.0)


def test_attack_cap_force_ends_the_round() -> None:
    s = battle(["Trio", "Trio", "Trio"], ["Solo", "Solo", "Solo"], attack_cap_per_round=2)
    act(s, "play Trio")
    act(s, "no defend")
    act(s, "play Trio")
    act(s, "no defend")
    assert s.attacker == 1 and s.round == 2


@pytest.mark.parametrize(
    "config",
    [
        {"mode": "chess"},
        {"start_health": [11, 10]},
        {"hand_limit": [5]},
        {"chooser": 2},
        {"bogus": 1},
        {"power_ups": "maybe"},
        {"remove_cards": {"Ninja": 1}},
        {"difficulty": "insane"},
    ],
)
def test_bad_config_is_one_sentence(config: dict[str, object]) -> None:
    with pytest.raises(ConfigError) as err:
        GAME.new_state(1, config=config)
    assert str(err.value).endswith(".")


def test_bad_player_count() -> None:
    with pytest.raises(ConfigError):
        GAME.new_state(1, players=3)


def _play_out(seed: int, choice_seed: int, config: dict[str, object] | None = None) -> tuple[object, list[object]]:
    s = GAME.new_state(seed, config=config)
    rng = random.Random(choice_seed)
    observations = []
    while not s.is_over():
        acts = {p: rng.choice(list(s.legal_actions(p))) for p in s.to_act()}
        s.apply(acts)
        observations.append((s.observe(0), s.observe(1)))
    return s.outcome(), observations


def test_same_seed_and_actions_give_the_same_match() -> None:
    a = _play_out(123, 9)
    b = _play_out(123, 9)
    assert a == b
    c = _play_out(124, 9)
    assert a != c


def test_duplicate_seats_get_the_same_cards_and_dice_by_seat() -> None:
    # Seat 0's opening hand depends only on the seed, whoever sits there and whatever is chosen.
    for seed in range(5):
        hands = {tuple(GAME.new_state(seed, config={"chooser": c}).hands[0]) for c in (0, 1)}
        assert len(hands) == 1
    # Seat 0's dice come from its own stream: its first roll is the same whether seat 1 rolled
    # before it or not.
    deck = ["Pirate", "Trio", "Trio", "Trio", "Trio", "Pirate", "Robot", "Robot", "Robot", "Robot"]
    s1 = GAME.new_state(42, config={"chooser": 0, "opening_discard": False}, inject=Inject(deck_order=deck))
    act(s1, "attack first")
    act(s1, "play Pirate")  # seat 0 rolls first
    first_seat0 = s1.observe(0)["last_dice"]["faces"]
    s2 = GAME.new_state(42, config={"chooser": 0, "opening_discard": False}, inject=Inject(deck_order=deck))
    act(s2, "defend first")
    act(s2, "play Pirate")  # seat 1 rolls first
    act(s2, "defend Pirate")  # then seat 0 rolls its first die
    assert s2.observe(0)["last_dice"] == {"seat": 0, "faces": first_seat0,
                                          "readings": [list(DIE_FACES[first_seat0[0] - 1])]}


def test_evaluate_and_render() -> None:
    s = battle(["Trio", "Trio"], ["Robot", "Robot"])
    v0 = GAME.evaluate(s, 0)
    assert -1 <= v0 <= 1 and abs(v0 + GAME.evaluate(s, 1)) < 1e-9
    act(s, "play Trio")
    act(s, "no defend")
    assert GAME.evaluate(s, 0) > v0
    line = GAME.render(s)
    assert "P0A 10/10hp" in line and "P1D 7/10hp" in line and "\n" not in line


def test_determinize_keeps_public_cards_and_resamples_the_rest() -> None:
    s = battle(["Pirate", "Trio", "Trio", "Trio", "Trio"], ["Alien", "Robot", "Robot", "Robot", "Robot"],
               dice=[4])
    act(s, "play Pirate")
    act(s, "defend Alien")  # Pirate is abducted: seat 0 knows it is in seat 1's hand
    pirate = s.hands[1][-1]
    hands = set()
    for k in range(30):
        twin = s.determinize(0, random.Random(k))
        assert twin.hands[0] == s.hands[0]
        assert twin.hands[1][-1] == pirate
        assert len(twin.hands[1]) == len(s.hands[1])
        assert twin.discard == s.discard
        assert sorted(twin.draw + twin.hands[1]) == sorted(s.draw + s.hands[1])
        assert twin.observe(0) == s.observe(0)
        hands.add(tuple(twin.hands[1]))
    assert len(hands) > 20  # the hidden cards really are resampled
    # Future chance is reseeded: the same stream gives different dice across determinizations.
    rolls = set()
    for k in range(20):
        twin = s.determinize(0, random.Random(k))
        rolls.add(tuple(twin.chance.roll("dice/0", 6) for _ in range(4)))
    assert len(rolls) > 10
