"""Every view a game hands out is JSON-ready: it survives `json.loads(json.dumps(view))` unchanged.

`observe()` and `public_view()` promise a JSON-ready dict (docs/CONTRIBUTING.md), and bots in other
languages, the web viewer and replays all read them through JSON. A tuple left in a view turns into
a list on the way, so a view that compares unequal after the round trip is one that a bot in Python
and a bot in Go would see differently. Random playouts of every game, mode and player count check it
after every step.
"""

from __future__ import annotations

import json
import random
from typing import Any

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.engine.core import State, get_game

# (game, players, config): every mode and player count whose views differ in shape.
SETUPS: list[tuple[str, int, dict[str, Any]]] = [
    ("ninja-arena", 2, {}),
    ("ninja-arena", 4, {}),
    ("ninja-arena", 6, {"genin_pack": True}),
    ("ninja-arena", 2, {"mode": "duel"}),
    ("tiny-ninjas", 2, {}),
    ("tiny-ninjas", 2, {"mode": "blitz"}),
    ("tiny-ninjas", 2, {"mode": "survivor"}),
    ("tiny-ninjas", 2, {"mode": "champion"}),
    ("tiny-ninjas", 2, {"reveal_hand": [True, True]}),
    ("tiny-ninjas", 2, {"mode": "solo"}),
    ("maitre-ninja", 2, {}),
    ("maitre-ninja", 4, {}),
    ("ninja-versus-ninja", 2, {}),
]
MAX_STEPS = 400


def _round_trips(view: Any) -> bool:
    return bool(json.loads(json.dumps(view)) == view)


def _check_views(state: State, where: str) -> None:
    public = state.public_view()
    assert _round_trips(public), f"{where}: public_view is not JSON-ready: {public!r}"
    for seat in range(state.num_players):
        seen = state.observe(seat)
        assert _round_trips(seen), f"{where}: observe({seat}) is not JSON-ready: {seen!r}"


def _play_checking_views(game_id: str, players: int, config: dict[str, Any], seed: int) -> None:
    """A random playout (moves drawn from `seed`) with every view checked before each step and at the end."""
    state = get_game(game_id).new_state(seed, players=players, config=dict(config))
    rng = random.Random(seed)
    for step in range(MAX_STEPS):
        _check_views(state, f"{game_id} {config} seed {seed} step {step}")
        if state.is_over():
            return
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
    _check_views(state, f"{game_id} {config} seed {seed} after {MAX_STEPS} steps")


@settings(max_examples=6, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(setup=st.sampled_from(SETUPS), seed=st.integers(0, 2**31 - 1))
def test_every_view_of_a_random_playout_round_trips_through_json(
        setup: tuple[str, int, dict[str, Any]], seed: int) -> None:
    _play_checking_views(*setup, seed)


def test_every_setup_round_trips_for_fixed_seeds() -> None:
    """Each setup at least once, so no game is left to the draw of the property test."""
    for game_id, players, config in SETUPS:
        for seed in (0, 1):
            _play_checking_views(game_id, players, config, seed)
