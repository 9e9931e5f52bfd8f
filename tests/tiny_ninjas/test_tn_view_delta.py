"""Hello.view_delta for Tiny Ninjas: the views `observe_since` gives, put back together by the Python SDK
(`SeatLogs`), equal `observe` number for number and byte for byte, in every mode, whichever requests a
seat is asked; and the delta renders only what the log gained."""

from __future__ import annotations

import random

from hypothesis import given, settings
from hypothesis import strategies as st
from tourney_bot.views import SeatLogs

from tourney.engine.games.tiny_ninjas import GAME
from tourney.engine.games.tiny_ninjas.game import MODES
from tourney.engine.games.tiny_ninjas.state import EVENTS_SHOWN, TinyNinjasState
from tourney.engine.server.codecs.base import json_bytes

MAX_STEPS = 5000


def _config(mode: str) -> dict[str, object]:
    return {"mode": mode, "series_wins": 3} if mode == "champion" else {"mode": mode}


def play_rebuilding(seed: int, choice_seed: int, mode: str, ask_chance: float) -> tuple[TinyNinjasState, int]:
    """A random match in which, at each step, each seat is asked with `ask_chance` (the acting seat always, as
    the arena asks it) for its delta view, rebuilt and checked against the whole view; the state, and the
    most events one delta had to cover."""
    state = GAME.new_state(seed, config=_config(mode))
    assert isinstance(state, TinyNinjasState)
    rng = random.Random(choice_seed)
    asking = random.Random(choice_seed + 1)  # apart from the moves': the match is the same however it is asked
    logs = SeatLogs()
    marks = [0, 0]
    widest = 0
    for _ in range(MAX_STEPS):
        acting = set(state.to_act())
        for seat in (0, 1):
            if seat not in acting and asking.random() >= ask_chance:
                continue
            since = marks[seat]
            delta, marks[seat] = state.observe_since(seat, since)
            assert marks[seat] == len(state.log)
            assert len(delta["events"]) <= len(state.log) - since, "only what the log gained is rendered"
            widest = max(widest, len(delta["events"]))
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
@given(seed=st.integers(0, 2**40), choice=st.integers(0, 2**40), mode=st.sampled_from(MODES),
       ask_chance=st.sampled_from([0.0, 0.02, 0.3, 1.0]))
def test_rebuilt_views_equal_whole_views(seed: int, choice: int, mode: str, ask_chance: float) -> None:
    play_rebuilding(seed, choice, mode, ask_chance)


def test_a_delta_holds_only_the_new_events() -> None:
    state = GAME.new_state(7)
    assert isinstance(state, TinyNinjasState)
    rng = random.Random(7)
    marks = [0, 0]
    for _ in range(40):
        if state.is_over():
            break
        seat = state.to_act()[0]
        delta, marks[seat] = state.observe_since(seat, marks[seat])
        whole = state.observe(seat)
        new = len(delta["events"])
        assert whole["events"][len(whole["events"]) - new:] == delta["events"]
        assert delta["events_total"] == whole["events_total"]
        assert {k: v for k, v in delta.items() if k not in ("events", "events_from")} == \
            {k: v for k, v in whole.items() if k != "events"}
        state.apply({p: rng.choice(list(state.legal_actions(p))) for p in state.to_act()})
    _, mark = state.observe_since(0, marks[0])
    again, _ = state.observe_since(0, mark)
    assert again["events"] == [], "asked again with no step between: nothing new"


def test_the_window_is_kept_exactly_past_its_size() -> None:
    """A Champion series logs more than a view's window holds: the rebuilt view drops what the whole view
    drops, whether a seat is asked at every step or only on its own turns, and when it is first asked once
    the window has moved on."""
    for seed in range(40):
        state, widest = play_rebuilding(seed, seed, "champion", 1.0)
        if state.observe(0)["events_total"] > EVENTS_SHOWN + 64:
            break
    else:
        raise AssertionError("no Champion series of 40 outgrew the window")
    assert widest < EVENTS_SHOWN, "asked at every step, a delta is a few events"
    rarely, _ = play_rebuilding(seed, seed, "champion", 0.0)
    assert rarely.log == state.log, "the same match, asked otherwise"
    delta, _ = state.observe_since(0, 0)
    assert len(delta["events"]) == EVENTS_SHOWN < delta["events_total"]
    assert delta["events_from"] == delta["events_total"] - EVENTS_SHOWN
    assert SeatLogs().whole("m", 0, delta) == state.observe(0)
