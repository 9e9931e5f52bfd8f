"""Random legal battles (hypothesis): the invariants hold at every step, in every mode."""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st

from tourney.engine.games.tiny_ninjas import GAME
from tourney.engine.games.tiny_ninjas.rules import P_SOLO_H2, build_deck
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState

MAX_STEPS = 5000


def check_invariants(s: TinyNinjasState, deck: list[int]) -> None:
    for p in (0, 1):
        assert 0 <= s.health[p] <= s.maxh[p]
        assert len(s.hands[p]) <= max(s.limit[p], 0) or (s.solo and p == 1 and not s.hands[p])
    in_flight = [s.ai_card] if s.solo and s.phase == P_SOLO_H2 and s.ai_card >= 0 else []
    cards = s.draw + s.discard + s.hands[0] + s.hands[1] + in_flight
    assert sorted(cards) == deck, "every card is in the draw pile, the discard pile, a hand or in flight"
    assert s.round <= s.cfg["round_cap"]
    assert s.attacks <= s.cfg["attack_cap_per_round"]


def check_hidden(s: TinyNinjasState, seat: int, rng: random.Random) -> None:
    """observe(seat) must not depend on anything seat cannot see."""
    obs = s.observe(seat)
    json.dumps(obs)
    opp = 1 - seat
    for ev in obs["events"]:
        if ev["type"] in ("drew", "intel"):
            assert ev["seat"] == seat
    if not s.cfg["reveal_hand"][opp]:
        assert str(opp) not in obs["revealed_hands"]
    twin = s.determinize(seat, rng)
    assert twin.observe(seat) == obs
    assert [a.label for a in twin.legal_actions(seat)] == [a.label for a in s.legal_actions(seat)]
    assert sorted(twin.draw + twin.discard + twin.hands[0] + twin.hands[1]) == sorted(
        s.draw + s.discard + s.hands[0] + s.hands[1])
    spectator = s.public_view()
    assert "hand" not in spectator
    for ev in spectator["events"]:
        assert ev["type"] not in ("drew", "intel")


def play_random(seed: int, choice_seed: int, config: dict[str, Any] | None, check_every: int = 7) -> TinyNinjasState:
    s = GAME.new_state(seed, config=config)
    deck = sorted(build_deck(s.cfg))
    rng = random.Random(choice_seed)
    for step in range(MAX_STEPS):
        check_invariants(s, deck)
        if s.is_over():
            break
        if step % check_every == 0:
            check_hidden(s, s.to_act()[0], rng)
        s.apply({p: rng.choice(list(s.legal_actions(p))) for p in s.to_act()})
    assert s.is_over(), "a battle ended within the step bound"
    out = s.outcome()
    assert out.reason != "cap" or s.cfg["round_cap"] < 100
    assert sorted(x for tier in out.ranking for x in tier) == [0, 1]
    json.dumps(dict(out.details))
    return s


@settings(max_examples=2000, deadline=None)
@given(seed=st.integers(0, 2**40), choice=st.integers(0, 2**40))
def test_standard_random_battles(seed: int, choice: int) -> None:
    s = play_random(seed, choice, None)
    assert s.outcome().reason in ("elimination", "double_knockout")


@settings(max_examples=300, deadline=None)
@given(seed=st.integers(0, 2**40), choice=st.integers(0, 2**40))
def test_expansion_and_handicaps_random_battles(seed: int, choice: int) -> None:
    config = {"use_expansion": True, "hand_limit": [4, 5], "start_health": [5, 8],
              "max_health": [10, 8], "reveal_hand": [True, False]}
    play_random(seed, choice, config)
