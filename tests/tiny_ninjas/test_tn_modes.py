"""Modes (spec §7, §8): Blitz, Survivor, Champion, Solo; golden scenarios G8, G13-G16, G20."""

from __future__ import annotations

import random
from typing import Any

import pytest
from hypothesis import given, settings
from hypothesis import strategies as st

from tests.tiny_ninjas.helpers import act, battle, labels
from tests.tiny_ninjas.test_tn_property import play_random
from tourney.engine.core import Inject
from tourney.engine.games.tiny_ninjas import GAME, solo
from tourney.engine.games.tiny_ninjas import actions as A
from tourney.engine.games.tiny_ninjas.data import INSTANCE_TYPE, TYPE_BY_NAME
from tourney.engine.games.tiny_ninjas.rules import (
    P_CHOOSE,
    P_DEFEND,
    P_MULLIGAN,
    P_SOLO_H1,
    P_SOLO_H2,
    P_SURVIVOR,
    build_deck,
)
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState

# ----------------------------------------------------------------------------- config


def test_modes_are_listed_and_remove_their_cards() -> None:
    assert GAME.modes == ("standard", "blitz", "survivor", "champion", "solo")
    sizes = {m: len(build_deck(GAME.new_state(1, config={"mode": m}).cfg)) for m in GAME.modes}
    assert sizes == {"standard": 58, "blitz": 55, "survivor": 54, "champion": 58, "solo": 54}
    exp = {m: len(build_deck(GAME.new_state(1, config={"mode": m, "use_expansion": True}).cfg)) for m in GAME.modes}
    assert exp == {"standard": 70, "blitz": 65, "survivor": 66, "champion": 70, "solo": 66}


def test_handicaps_apply_per_seat_in_any_mode() -> None:
    s = GAME.new_state(1, config={"mode": "survivor", "start_health": {1: 5}, "reveal_hand": {0: True}})
    assert s.health == [8, 5]
    assert s.observe(1)["revealed_hands"] == {"0": s.observe(0)["hand"]}
    assert "revealed_hands" not in s.observe(0) or "1" not in s.observe(0)["revealed_hands"]


# ----------------------------------------------------------------------------- BLITZ


def test_blitz_mulligan_is_simultaneous_and_hidden() -> None:
    s = GAME.new_state(5, config={"mode": "blitz", "chooser": 0})
    assert len(s.hands[0]) == 15 and len(s.hands[1]) == 15
    assert s.phase == P_MULLIGAN and s.to_act() == (0, 1)
    first0 = s.legal_actions(0)[1]
    assert isinstance(first0, A.Mulligan)
    s.apply({0: first0, 1: A.KEEP_HAND})
    assert s.legal_actions(1) == [A.KEEP_HAND]  # a finished seat only waits
    assert s.observe(0)["mulligan_marked"] == [first0.label.split(" ", 1)[1]]
    assert "mulligan_marked" not in s.observe(1) or s.observe(1)["mulligan_marked"] == []
    assert s.discard == []  # nothing is public until both are done
    s.apply({0: A.KEEP_HAND, 1: A.KEEP_HAND})
    assert s.discard == [first0.card]
    assert len(s.hands[0]) == 15 and first0.card not in s.hands[0]
    assert s.phase == P_CHOOSE and s.to_act() == (0,)


def test_blitz_mulligan_stops_at_five() -> None:
    s = GAME.new_state(6, config={"mode": "blitz"})
    for _ in range(5):
        s.apply({0: s.legal_actions(0)[1], 1: A.KEEP_HAND})
    assert s.phase == P_CHOOSE
    assert len(s.discard) == 5 and len(s.hands[0]) == 15


def test_blitz_single_attack_rounds_and_must_attack() -> None:
    s = GAME.new_state(8, config={"mode": "blitz", "mulligan": 0, "chooser": 0})
    act(s, "attack first")
    assert "end round" not in labels(s)
    act(s, labels(s)[0])
    while s.phase == P_DEFEND:
        act(s, "no defend")
    if not s.is_over():
        assert s.attacker == 1 and s.round == 2


def _blitz_endgame(health: tuple[int, int]) -> TinyNinjasState:
    cfg: dict[str, Any] = {"mode": "blitz", "mulligan": 0, "initial_hand": 1, "chooser": 0,
                           "start_health": list(health)}
    s = GAME.new_state(3, config=cfg, inject=Inject(deck_order=["Grim", "Grim"], dice=[1, 1]))
    act(s, "attack first")
    act(s, "play Grim")  # White: no effect; the Round ends after one attack
    assert s.attacker == 1
    act(s, "play Grim")
    return s


def test_g14_blitz_ends_when_both_hands_are_empty() -> None:
    s = _blitz_endgame((6, 6))
    out = s.outcome()
    assert out.reason == "cards_exhausted" and out.ranking == ((0, 1),)
    assert 17 in out.details["achievements"][0] and 17 in out.details["achievements"][1]
    s = _blitz_endgame((6, 5))
    assert s.outcome().ranking == ((0,), (1,))


def test_blitz_skips_an_empty_handed_attacker() -> None:
    cfg: dict[str, Any] = {"mode": "blitz", "mulligan": 0, "initial_hand": 2, "chooser": 0}
    s = GAME.new_state(3, config=cfg, inject=Inject(deck_order=["Grim", "Grim", "Medic", "Medic"], dice=[1, 1]))
    act(s, "attack first")
    act(s, "play Grim")
    act(s, "play Medic")
    act(s, "play Grim")
    act(s, "play Medic")
    assert s.is_over()
    s = GAME.new_state(3, config=cfg, inject=Inject(deck_order=["Grim", "Trio", "Trio", "Trio"], dice=[1, 1]))
    act(s, "attack first")
    act(s, "play Grim")
    act(s, "play Trio")
    act(s, "defend Trio")  # seat 0 is now empty-handed: its Round is skipped
    assert s.attacker == 1 and s.round == 4 and s.to_act() == (1,)
    assert [e for e in s.public_view()["events"] if e["type"] == "skip_round"]
    act(s, "play Trio")
    assert s.is_over() and s.outcome().reason == "cards_exhausted"


# ----------------------------------------------------------------------------- SURVIVOR


def _survivor(health: int, deck: list[str], dice: list[int] | None = None, picks: list[int] | None = None
              ) -> TinyNinjasState:
    cfg = {"mode": "survivor", "chooser": 0, "opening_discard": False, "start_health": [health, 8],
           "initial_hand": len(deck) // 2}
    s = GAME.new_state(4, config=cfg, inject=Inject(deck_order=deck, dice=dice or [], picks=picks or []))
    act(s, "attack first")
    return s


def test_g13_survivor_heal_is_capped_at_eight() -> None:
    s = _survivor(7, ["Trio", "Trio", "Angel", "Angel"])
    assert s.phase == P_SURVIVOR and labels(s) == ["survivor doom", "survivor heal_1", "survivor pass"]
    act(s, "survivor heal_1")
    assert s.health[0] == 8
    act(s, "play Trio")
    act(s, "no defend")
    act(s, "end round")
    act(s, "survivor pass")
    act(s, "play Angel")
    act(s, "revive Trio")
    act(s, "end round")
    assert s.attacker == 0 and s.phase == P_SURVIVOR
    act(s, "survivor heal_1")
    assert s.health[0] == 8


def test_survivor_doom_and_the_grims_are_out_of_the_deck() -> None:
    s = _survivor(8, ["Trio", "Trio", "Pirate", "Robot"], dice=[2], picks=[1])
    assert all(INSTANCE_TYPE[c] != TYPE_BY_NAME["Grim"] for c in build_deck(s.cfg))
    act(s, "survivor doom")  # Black: a random Defender card is discarded
    assert s.observe(1)["hand"] == ["Pirate"]
    assert s.observe(0)["discard_pile"] == ["Robot"]
    assert s.phase != P_SURVIVOR


def test_survivor_achievement_needs_no_option_used() -> None:
    for seed in range(30):
        s = play_random(seed, seed, {"mode": "survivor"})
        out = s.outcome()
        for seat in (0, 1):
            used = out.details["stats"][seat]["survivor_options_used"]
            won = out.ranking[0] == (seat,)
            assert (18 in out.details["achievements"][seat]) == (won and used == 0)


# ----------------------------------------------------------------------------- CHAMPION


def test_g15_champion_levels_and_the_loser_chooses() -> None:
    cfg = {"mode": "champion", "chooser": 0, "opening_discard": False}
    deck = ["Legend", "Trio", "Trio", "Trio", "Trio", "Robot", "Robot", "Robot", "Robot", "Robot"]
    s = GAME.new_state(9, config=cfg, inject=Inject(deck_order=deck, dice=[6, 6]))
    assert s.health == [6, 6] and s.tokens == [0, 0]
    act(s, "attack first")
    assert labels(s)[0] == "play Legend"  # no power-ups
    act(s, "play Legend")
    act(s, "no defend")
    assert not s.is_over()
    assert s.wins == [1, 0] and s.level == [1, 2]
    assert s.health == [6, 8] and s.maxh == [6, 8]
    assert s.phase == P_CHOOSE and s.to_act() == (1,)
    assert len(s.hands[0]) == 5 and len(s.hands[1]) == 5 and s.discard == []
    assert s.battles[0]["winner"] == 0


def test_champion_series_result_names_the_battles() -> None:
    for seed in range(20):
        s = play_random(seed, seed + 1, {"mode": "champion"})
        out = s.outcome()
        battles = out.details["battles"]
        wins = out.details["wins"]
        assert wins == [sum(1 for b in battles if b["winner"] == p) for p in (0, 1)]
        assert len(battles) <= 9
        if out.reason == "series":
            winner = out.ranking[0][0]
            assert wins[winner] == 3 and wins[1 - winner] < 3
            assert (19 in out.details["achievements"][winner]) == (wins[1 - winner] == 0)
        for b in battles:
            assert b["levels"] == [1 + sum(1 for x in battles[: b["battle"] - 1] if x["winner"] == 1 - p)
                                   for p in (0, 1)]


def test_champion_draws_are_replayed_with_the_same_levels_and_chooser() -> None:
    cfg = {"mode": "champion", "opening_discard": False, "round_cap": 1}
    deck = ["Solo", "Trio", "Trio", "Trio", "Trio", "Robot", "Robot", "Robot", "Robot", "Robot"]
    s = GAME.new_state(9, config=cfg, inject=Inject(deck_order=deck, dice=[2]))
    chooser = s.to_act()[0]
    act(s, "attack first")
    act(s, "play Solo")
    act(s, "defend Robot")  # Black: Blue 3 blocks the 2 Blue
    act(s, "end round")  # the round cap: equal health, a drawn battle
    assert s.battles[0]["winner"] == -1 and s.battles[0]["reason"] == "cap"
    assert s.level == [1, 1] and s.wins == [0, 0]
    assert s.battle == 2 and s.phase == P_CHOOSE and s.to_act() == (chooser,)


# ----------------------------------------------------------------------------- SOLO


def _solo(hand: list[str], ai_cards: list[str], difficulty: str = "normal", dice: list[int] | None = None,
          picks: list[int] | None = None, **extra: Any) -> TinyNinjasState:
    cfg = {"mode": "solo", "difficulty": difficulty, **extra}
    s = GAME.new_state(2, config=cfg, inject=Inject(deck_order=hand + ai_cards, dice=dice or [],
                                                    picks=picks or []))
    assert s.observe(0)["hand"] == hand
    return s


@pytest.mark.parametrize(("difficulty", "ai_health"), [("easy", 7), ("normal", 9), ("hard", 10)])
def test_g8_solo_difficulties(difficulty: str, ai_health: int) -> None:
    s = _solo(["Trio", "Medic", "Pirate", "Pirate", "Pirate"], ["Robot"], difficulty, dice=[2])
    assert s.phase == P_SOLO_H1 and s.to_act() == (0,)
    assert labels(s) == ["play Medic", "declare attack"]
    act(s, "declare attack")
    assert s.phase == P_SOLO_H2 and s.observe(0)["ai_card"] == "Robot"
    assert "play Medic" not in labels(s)  # no HEAL once the AI has drawn
    act(s, "play Trio")
    assert s.health[1] == ai_health
    assert s.observe(0)["discard_pile"] == ["Trio", "Robot"]
    assert "end round" in labels(s)


def _to_ai_round(s: TinyNinjasState) -> None:
    act(s, "play Medic")
    act(s, "end round")


@pytest.mark.parametrize(("ai_health", "heals"), [(6, True), (7, False)])
def test_g16_solo_ai_princess(ai_health: int, heals: bool) -> None:
    s = _solo(["Medic", "Trio", "Trio", "Trio", "Trio"], ["Princess", "Medic", "Angel"], ai_health=ai_health,
              picks=[0])
    _to_ai_round(s)
    events = s.observe(0)["events"]
    first = next(i for i, e in enumerate(events) if e["type"] == "ai_attack")
    after = events[first + 1]
    if heals:
        assert after == {"type": "health", "health": [10, 8]}
    else:
        assert after == {"type": "attack", "colour": 2, "amount": 2, "undefendable": 0, "frozen": False}
        assert s.phase == P_DEFEND and s.to_act() == (0,)
        act(s, "no defend")
        assert s.health[0] == 8


def test_g20_solo_angel_revives_a_random_non_angel() -> None:
    s = _solo(["Medic", "Trio", "Trio", "Pirate", "Pirate"], [], picks=[0])
    ids = {name: [c for c in s.draw if s.observe(0) and INSTANCE_TYPE[c] == TYPE_BY_NAME[name]]
           for name in ("Trio", "Angel", "Medic")}
    trio, other_angel, this_angel = ids["Trio"][0], ids["Angel"][0], ids["Angel"][1]
    medic = ids["Medic"][0]
    for c in (trio, other_angel, medic, this_angel):
        s.draw.remove(c)
    s.discard = [trio, other_angel, medic]
    s.draw.append(this_angel)  # the top card: the AI's attack 2
    s.attacker, s.attacks, s.round = solo.AI, 1, 2
    solo._ai_attack(s)
    assert s.observe(0)["discard_pile"] == ["Trio", "Angel", "Medic", "Angel"]
    assert s.phase == P_DEFEND and s.p_amount == 3 and s.p_colour == 1
    act(s, "no defend")
    assert s.health[0] == 7
    assert [e["attack"] for e in s.observe(0)["events"] if e["type"] == "ai_attack"] == [2, 3]


def test_solo_ai_wolf_freeze_only_before_the_third_attack() -> None:
    # Attack 1 is Wolf rolling Three: attack 2 (Trio) is undefendable.
    s = _solo(["Medic", "Pirate", "Pirate", "Pirate", "Pirate"], ["Wolf", "Trio", "Medic"], dice=[6])
    _to_ai_round(s)
    assert s.phase == P_SOLO_H1 and s.health[0] == 7
    # Attack 3 is Wolf rolling Three: nothing happens, the next human Round is not frozen.
    s = _solo(["Medic", "Pirate", "Pirate", "Pirate", "Pirate"], ["Angel", "Angel", "Wolf", "Trio"], dice=[6],
              picks=[0, 0])
    _to_ai_round(s)
    assert s.phase == P_SOLO_H1 and s.health == [10, 10] and not s.freeze


def test_solo_ai_alien_blocks_without_abducting_and_human_alien_abducts() -> None:
    s = _solo(["Pirate", "Medic", "Trio", "Trio", "Trio"], ["Alien"], "easy", dice=[4])
    act(s, "declare attack")
    act(s, "play Pirate")
    assert s.health[1] == 10 and s.observe(0)["discard_pile"] == ["Pirate", "Alien"]
    s = _solo(["Medic", "Alien", "Trio", "Trio", "Trio"], ["Pirate", "Medic", "Angel"], dice=[4], picks=[0])
    _to_ai_round(s)
    act(s, "defend Alien")
    assert "Pirate" in s.observe(0)["hand"] and s.health[0] == 10


def _ai_round_attacks(events: list[dict[str, Any]]) -> list[int]:
    """How many AI attacks each AI Round made."""
    counts: list[int] = []
    ai_round = False
    for e in events:
        if e["type"] == "round":
            ai_round = e["attacker"] == solo.AI
            if ai_round:
                counts.append(0)
        elif e["type"] == "ai_attack" and ai_round:
            counts[-1] += 1
    return counts


@pytest.mark.parametrize("difficulty", ["easy", "normal", "hard"])
def test_solo_ai_always_attacks_three_times_and_never_uses_tokens(difficulty: str) -> None:
    for seed in range(40):
        s = play_random(seed, seed, {"mode": "solo", "difficulty": difficulty})
        events = s.public_view()["events"]
        counts = _ai_round_attacks(events)
        assert all(c == 3 for c in counts[:-1])
        assert all(1 <= c <= 3 for c in counts)  # the last AI Round may be cut short by a knockout
        assert not [e for e in events if e["type"] == "play" and e["seat"] == solo.AI]
        assert s.tokens[solo.AI] == 0
        out = s.outcome()
        assert out.details["difficulty"] == difficulty
        assert out.details["achievements"][1] == []


def test_solo_harder_is_harder_for_a_random_player() -> None:
    wins = {}
    for difficulty in ("easy", "hard"):
        wins[difficulty] = sum(
            play_random(seed, seed, {"mode": "solo", "difficulty": difficulty}, check_every=1000)
            .outcome().ranking[0] == (0,) for seed in range(150))
    assert wins["easy"] > wins["hard"]


# ----------------------------------------------------------------------------- every mode


@pytest.mark.parametrize("mode", ["blitz", "survivor", "champion", "solo"])
@settings(max_examples=150, deadline=None)
@given(seed=st.integers(0, 2**40), choice=st.integers(0, 2**40))
def test_random_play_in_every_mode(mode: str, seed: int, choice: int) -> None:
    s = play_random(seed, choice, {"mode": mode, "use_expansion": bool(seed % 2)}, check_every=11)
    out = s.outcome()
    expected = {"blitz": {"elimination", "double_knockout", "cards_exhausted"},
                "survivor": {"elimination", "double_knockout"},
                "champion": {"series", "series_cap"},
                "solo": {"elimination", "double_knockout"}}[mode]
    assert out.reason in expected
    assert "achievements" in out.details


def test_modes_are_deterministic() -> None:
    for mode in ("blitz", "survivor", "champion", "solo"):
        a = play_random(77, 5, {"mode": mode}, check_every=1000)
        b = play_random(77, 5, {"mode": mode}, check_every=1000)
        assert a.outcome() == b.outcome()
        assert a.public_view() == b.public_view()
        rng = random.Random(0)
        assert a.determinize(0, rng).observe(0) == a.observe(0)


# ----------------------------------------------------------------------------- end conditions, achievements


def test_champion_series_cap_decides_on_battle_wins() -> None:
    capped = 0
    for seed in range(8):
        s = play_random(seed, seed, {"mode": "champion", "series_cap": 3}, check_every=1000)
        out = s.outcome()
        wins = out.details["wins"]
        assert len(out.details["battles"]) <= 3
        assert (out.reason == "series_cap") == (max(wins) < 3)
        if out.reason == "series_cap":
            capped += 1
            assert len(out.details["battles"]) == 3
            assert (out.ranking == ((0, 1),)) == (wins[0] == wins[1])
    assert capped > 0


def test_solo_round_cap_counts_human_and_ai_rounds() -> None:
    s = _solo(["Medic", "Trio", "Trio", "Trio", "Trio"], ["Medic", "Angel", "Angel"], round_cap=2, picks=[0, 0])
    _to_ai_round(s)
    assert s.is_over() and s.round == 2
    out = s.outcome()
    assert out.reason == "cap" and out.ranking == ((0, 1),)


def test_achievements_of_a_handicapped_first_round_win() -> None:
    s = battle(["Legend", "Trio", "Trio", "Trio"], ["Robot"] * 4, dice=[6, 6], health=(5, 10),
               hand_limit={0: 4}, reveal_hand={0: True})
    act(s, "play Legend")
    act(s, "no defend")
    out = s.outcome()
    assert out.details["achievements"] == {0: [1, 2, 5, 6, 8, 10, 11, 12, 13], 1: []}
    assert out.details["achievement_names"][0][0] == "win without healing"
    assert out.details["stats"][0]["legend_best_attack"] == 10


def test_command_line_text_is_accepted_as_config() -> None:
    s = GAME.new_state(1, config={"mode": "Solo", "difficulty": "HARD", "start_health": {"0": "8"},
                                  "reveal_hand": {"1": "true"}, "round_cap": "50"})
    assert s.cfg["mode"] == "solo" and s.cfg["difficulty"] == "hard"
    assert s.health == [8, 10] and s.cfg["reveal_hand"] == [False, True] and s.cfg["round_cap"] == 50
