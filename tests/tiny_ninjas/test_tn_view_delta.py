"""Hello.view_delta for Tiny Ninjas: a delta renders only what the log gained, and the window of the whole
view is kept exactly once a Champion series outgrows it (tests/engine/test_view_delta_rebuilt.py checks
the rebuilt views of random playouts in every mode)."""

from __future__ import annotations

import random

from tourney_bot.views import SeatLogs

from tests.engine.test_view_delta_rebuilt import play_rebuilding
from tourney.engine.games.tiny_ninjas import GAME
from tourney.engine.games.tiny_ninjas.state import EVENTS_SHOWN, TinyNinjasState


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
        assert delta["view_delta"] == {"list": "events", "at": whole["events_total"] - new, "first": 0}
        assert {k: v for k, v in delta.items() if k not in ("events", "view_delta")} == \
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
        state, widest = play_rebuilding("tiny-ninjas", "champion", seed, seed, 1.0)
        if state.observe(0)["events_total"] > EVENTS_SHOWN + 64:
            break
    else:
        raise AssertionError("no Champion series of 40 outgrew the window")
    assert widest < EVENTS_SHOWN, "asked at every step, a delta is a few events"
    rarely, _ = play_rebuilding("tiny-ninjas", "champion", seed, seed, 0.0)
    assert rarely.log == state.log, "the same match, asked otherwise"
    delta, _ = state.observe_since(0, 0)
    assert len(delta["events"]) == EVENTS_SHOWN < delta["events_total"]
    assert delta["view_delta"]["first"] == delta["view_delta"]["at"] == delta["events_total"] - EVENTS_SHOWN
    assert SeatLogs().whole("m", 0, delta) == state.observe(0)
