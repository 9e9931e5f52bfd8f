"""A seat's legal summary worked out from its dice (`rules.satisfiable`, what `observe()` and the
training tensor use) names exactly the techniques the seat's legal list activates, and the tensor of
the seat's view is the tensor read from the state, at every decision of random playouts drawn by
hypothesis over every mode and table size. Run compiled, and with TOURNEY_PURE=1 on the source."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st_

from tourney.engine.core import Action, Illegal
from tourney.engine.games.ninja_arena import GAME, rules
from tourney.engine.games.ninja_arena.actions import Activate

# (players, config): each mode at 2 to 4 seats, Duel, and the Genin Pack up to six seats.
TABLES: list[tuple[int, dict[str, Any]]] = [
    *[(n, {"mode": mode}) for mode in ("standard", "tick", "realtime") for n in (2, 3, 4)],
    (2, {"mode": "duel"}),
    *[(n, {"genin_pack": True}) for n in (2, 4, 5, 6)],
    (2, {"mode": "duel", "genin_pack": True}),
]


def listed_techniques(legal: Any) -> list[str]:
    """The keys of the techniques a legal list activates, sorted: what the summary must name."""
    return sorted({a.technique for a in legal if isinstance(a, Activate)})


@settings(max_examples=60, deadline=None)
@given(table=st_.sampled_from(TABLES), seed=st_.integers(0, 2**31 - 1), mistakes=st_.booleans())
def test_the_summary_and_the_tensor_match_the_legal_list_and_the_state(
        table: tuple[int, dict[str, Any]], seed: int, mistakes: bool) -> None:
    players, config = table
    encoding = GAME.encoding()
    state = GAME.new_state(seed, players=players, config=dict(config))
    rng = random.Random(seed)
    named = 0
    while True:
        for seat in range(state.n):
            listed = listed_techniques(state.legal_actions(seat))
            assert rules.satisfiable(state, seat) == listed
            view = state.observe(seat)
            if "summary" in view:
                assert view["summary"]["satisfiable"] == listed
            assert encoding.encode(view) == encoding.encode_state(state, seat)
            named += bool(listed)
        if state.is_over():
            break
        joint: dict[int, Action] = {}
        for seat in state.to_act():
            # Now and then a Mistake, whose penalties and KOs reach states random play meets less.
            mistake = mistakes and rng.random() < 0.05
            joint[seat] = Illegal(raw="x") if mistake else rng.choice(state.legal_actions(seat))
        state.apply(joint)
    assert named > 0  # not vacuous: some seat could activate a technique along the way


def test_a_seat_waiting_on_a_duel_decision_can_activate_nothing() -> None:
    # Random play meets a Duel pause about once in thirty matches, and never with dice that could
    # activate: make one by hand on a table where seat 0's dice satisfy a technique.
    for seed in range(200):
        state = GAME.new_state(seed, players=2, config={"mode": "duel"})
        rng = random.Random(seed)
        while not state.is_over() and not rules.satisfiable(state, 0):
            state.apply({s: rng.choice(state.legal_actions(s)) for s in state.to_act()})
        if not state.is_over():
            break
    assert listed_techniques(state.legal_actions(0)), "no seed gave seat 0 a technique to activate"
    state.pending_switch = 1
    assert state.legal_actions(0) == [] and rules.satisfiable(state, 0) == []
    assert "summary" not in state.observe(0) or state.observe(0)["summary"]["satisfiable"] == []
