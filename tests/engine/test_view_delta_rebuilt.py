"""Hello.view_delta for every game whose view carries a log: the views `observe_since` gives, put back
together by the Python SDK (`SeatLogs`), equal `observe` number for number and byte for byte, in every
mode, over random playouts, whichever requests a seat is asked (only on its turns, or also between)."""

from __future__ import annotations

import random
from typing import Any

from hypothesis import given, settings
from hypothesis import strategies as st
from tourney_bot.views import SeatLogs

from tourney.engine.core import State, get_game
from tourney.engine.server.codecs.base import json_bytes

MAX_STEPS = 5000
# The games whose view has a log (the others send whole views: State.observe_since's default).
GAMES = ("tiny-ninjas", "ninja-versus-ninja", "maitre-ninja")
CASES = [(g, m) for g in GAMES for m in get_game(g).modes]


def config_of(game_id: str, mode: str) -> dict[str, Any]:
    """The mode's configuration (a Champion series of three wins, so that it runs long)."""
    if game_id == "tiny-ninjas":
        return {"mode": mode, "series_wins": 3} if mode == "champion" else {"mode": mode}
    return {}


def play_rebuilding(game_id: str, mode: str, seed: int, choice_seed: int, ask_chance: float
                    ) -> tuple[State, int]:
    """A random match in which, at each step, each seat is asked with `ask_chance` (the acting seats always,
    as the arena asks them) for its delta view, rebuilt and checked against the whole view; the final state,
    and the most items one delta carried."""
    state = get_game(game_id).new_state(seed, config=config_of(game_id, mode))
    rng = random.Random(choice_seed)
    asking = random.Random(choice_seed + 1)  # apart from the moves': the match is the same however it is asked
    logs = SeatLogs()
    marks = [0] * state.num_players
    widest = 0
    for _ in range(MAX_STEPS):
        acting = set(state.to_act())
        for seat in range(state.num_players):
            if seat not in acting and asking.random() >= ask_chance:
                continue
            delta, marks[seat] = state.observe_since(seat, marks[seat])
            note = delta["view_delta"]
            widest = max(widest, len(delta[note["list"]]))
            whole = state.observe(seat)
            rebuilt = logs.whole("m", seat, delta)
            assert rebuilt == whole
            assert json_bytes(rebuilt) == json_bytes(whole)  # the same keys in the same order
        if state.is_over():
            break
        state.apply({p: rng.choice(list(state.legal_actions(p))) for p in state.to_act()})
    assert state.is_over()
    return state, widest


@settings(max_examples=300, deadline=None)
@given(case=st.sampled_from(CASES), seed=st.integers(0, 2**40), choice=st.integers(0, 2**40),
       ask_chance=st.sampled_from([0.0, 0.02, 0.3, 1.0]))
def test_rebuilt_views_equal_whole_views(case: tuple[str, str], seed: int, choice: int, ask_chance: float) -> None:
    play_rebuilding(case[0], case[1], seed, choice, ask_chance)


def test_a_delta_is_small_however_long_the_match() -> None:
    """Asked at every step, a seat is sent a few items a request, not its whole log."""
    for game_id in GAMES:
        state, widest = play_rebuilding(game_id, "standard", 5, 5, 1.0)
        whole = state.observe(0)
        longest = len(whole[{"tiny-ninjas": "events", "ninja-versus-ninja": "log"}.get(game_id, "history")])
        assert widest < max(8, longest // 4), (game_id, widest, longest)
