"""Views list exactly the events a seat may see, at every step, on a state and on its copies."""

from __future__ import annotations

import json
import random
from typing import Any

import pytest

from tourney.engine.core import get_game
from tourney.engine.games.tiny_ninjas.state import _event_dict


def test_views_list_exactly_the_events_each_seat_may_see_at_every_step() -> None:
    game = get_game("tiny-ninjas")
    state = game.new_state(21, players=2)
    rng = random.Random(21)
    steps = 0
    while not state.is_over():
        for seat in (0, 1, -1):
            view = state.public_view() if seat == -1 else state.observe(seat)
            expected = [_event_dict(ev) for ev in state.log if ev[0] == -1 or ev[0] == seat]
            assert view["events"] == expected
        twin = state.clone()  # a copy builds its own event dicts, and agrees
        assert twin.observe(0)["events"] == state.observe(0)["events"]
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
        steps += 1
    assert steps > 10 and any(ev[0] != -1 for ev in state.log)  # private events were there to filter


def test_views_asked_now_and_then_over_a_champion_series_match_the_log_filtered_afresh() -> None:
    """Each viewer's event list grows with the log between its views (cached, not refiltered per call):
    asked at uneven intervals, it still holds exactly that viewer's events, windowed and counted."""
    from tourney.engine.games.tiny_ninjas.state import EVENTS_SHOWN

    game = get_game("tiny-ninjas")
    state = game.new_state(8, players=2, config={"mode": "champion"})
    rng = random.Random(8)
    steps = 0
    while not state.is_over() and steps < 5000:  # bounded: a series ends long before
        if rng.random() < 0.3:
            for seat in rng.sample((0, 1, -1), 2):
                everything = [_event_dict(ev) for ev in state.log if ev[0] == -1 or ev[0] == seat]
                if seat == -1:
                    view = state.public_view()
                    assert view["events"] == everything
                    view["events"].append({"type": "scribble"})  # a caller's change stays its own
                else:
                    view = state.observe(seat)
                    assert view["events"] == everything[-EVENTS_SHOWN:]
                    assert view["events_total"] == len(everything)
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
        steps += 1
    assert state.is_over()
    assert state.public_view()["events"] == [_event_dict(ev) for ev in state.log if ev[0] == -1]


def _scribble(value: Any) -> None:
    """Change every dict and list inside `value`, as a careless caller might."""
    if isinstance(value, dict):
        for item in list(value.values()):
            _scribble(item)
        value["scribble"] = True
    elif isinstance(value, list):
        for item in value:
            _scribble(item)
        value.append("scribble")


@pytest.mark.parametrize("mode", ["standard", "champion", "blitz"])
def test_a_caller_that_changes_a_view_changes_neither_the_state_nor_another_view(mode: str) -> None:
    """Every container of a view is the caller's own: changing all of them leaves the state's later views,
    a view taken before, a copy's views and the spectator's exactly as they were."""
    game = get_game("tiny-ninjas")
    state = game.new_state(5, players=2, config={"mode": mode})
    rng = random.Random(5)
    steps = 0
    while not state.is_over() and steps < 5000:  # bounded: a series ends long before
        for seat in state.to_act():
            kept = state.observe(seat)
            before = json.dumps(kept)
            public = json.dumps(state.public_view())
            twin = state.clone()
            _scribble(state.observe(seat))
            _scribble(state.public_view())
            _scribble(twin.observe(seat))
            assert json.dumps(kept) == before
            assert json.dumps(state.observe(seat)) == before
            assert json.dumps(twin.observe(seat)) == before
            assert json.dumps(state.public_view()) == public
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
        steps += 1
    assert state.is_over() and steps > 10


def test_each_event_renders_as_the_log_entry_reads_byte_for_byte_in_every_mode() -> None:
    """The views' renderer (`_render`, written out kind by kind) gives `_event_dict`'s dict with its keys in
    the same order: the arena sends the JSON as built, unsorted, so the order is part of the message."""
    from tourney.engine.games.tiny_ninjas.state import _render

    game = get_game("tiny-ninjas")
    kinds = set()
    for mode in ("standard", "blitz", "survivor", "champion", "solo"):
        for seed in range(6):
            state = game.new_state(seed, players=2, config={"mode": mode, "use_expansion": True})
            rng = random.Random(seed)
            for _ in range(3000):  # bounded: every match ends long before
                if state.is_over():
                    break
                state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
            assert state.is_over()
            for ev in state.log:
                kinds.add(ev[1])
                assert json.dumps(_render(ev)) == json.dumps(_event_dict(ev)), ev
    assert {"roll", "attack", "play", "health", "shield", "defend", "draw", "drew", "round", "end_round",
            "no_defend", "end"} <= kinds  # every kind written out was met, and one that is not


@pytest.mark.parametrize("mode", ["standard", "champion", "blitz", "solo"])
def test_the_private_event_counts_follow_the_log_on_the_state_its_copies_and_its_samples(mode: str) -> None:
    """observe() finds its window and `events_total` from the state's count of each seat's private events,
    not by filtering the log: the counts must equal the log's at every step, on a clone and on a
    determinized sample too, and a copy's new events must not count on its original."""
    game = get_game("tiny-ninjas")
    state = game.new_state(3, players=2, config={"mode": mode, "use_expansion": True})
    rng = random.Random(3)

    def counted(s: Any) -> list[int]:
        return [sum(1 for ev in s.log if ev[0] == seat) for seat in (0, 1)]

    steps = 0
    while not state.is_over() and steps < 5000:  # bounded: a series ends long before
        assert state.private_counts == counted(state)
        twin = state.clone()
        sample = state.determinize(rng.choice((0, 1)), random.Random(steps))
        before = list(state.private_counts)
        for copy in (twin, sample):
            if not copy.is_over():
                copy.apply({s: rng.choice(list(copy.legal_actions(s))) for s in copy.to_act()})
            assert copy.private_counts == counted(copy)
        assert state.private_counts == before == counted(state)
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
        steps += 1
    assert state.is_over() and state.private_counts == counted(state)
    assert sum(state.private_counts) > 0  # there were private events to count
    state.forget_log()
    assert state.log == [] and state.private_counts == [0, 0]
    assert state.observe(0)["events"] == [] and state.observe(1)["events_total"] == 0


def test_a_changed_view_leaves_the_next_views_window_and_count_as_they_were() -> None:
    """A Champion series past the window: a caller that empties or pads a view's events changes neither
    the window the next view shows nor the count it reports (the counts are the state's own ints)."""
    from tourney.engine.games.tiny_ninjas.state import EVENTS_SHOWN

    game = get_game("tiny-ninjas")
    state = game.new_state(6, players=2, config={"mode": "champion"})  # a long series: 474 events
    rng = random.Random(6)
    steps = 0
    while len(state.log) < EVENTS_SHOWN + 150 and not state.is_over() and steps < 5000:
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
        steps += 1
    assert len(state.log) >= EVENTS_SHOWN + 150  # the window no longer holds everything
    for seat in (0, 1):
        kept = json.dumps(state.observe(seat))
        view = state.observe(seat)
        view["events"].clear()
        view["events_total"] = 0
        state.observe(seat)["events"].extend([{"type": "scribble"}] * EVENTS_SHOWN)
        again = state.observe(seat)
        assert json.dumps(again) == kept
        everything = [_event_dict(ev) for ev in state.log if ev[0] == -1 or ev[0] == seat]
        assert again["events"] == everything[-EVENTS_SHOWN:] and again["events_total"] == len(everything)
