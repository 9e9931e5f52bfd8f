"""Hypothesis stateful tests: each engine driven by arbitrary legal and illegal action sequences.

Legal actions are chosen by index (any integer, reduced modulo the legal list). Illegal ones:
for Ninja Arena, which rules on illegal actions itself, an `Illegal` action for some seats
(what the referee sends for an out-of-range index) must be absorbed as a Mistake; the other
games must refuse a foreign action, a missing action or an action for the wrong seat with
IllegalAction and leave the state exactly as it was. Invariants are checked after every step,
and at the end the same inputs replayed on a fresh state give the same match (determinism).
"""

from __future__ import annotations

import json
import math
import unittest
from typing import Any

from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from hypothesis.stateful import RuleBasedStateMachine, initialize, invariant, precondition, rule

from tourney.engine.core import Illegal, IllegalAction, State, get_game

SETTINGS = settings(max_examples=20, stateful_step_count=100, deadline=None,
                    suppress_health_check=[HealthCheck.too_slow, HealthCheck.filter_too_much])


def _snapshot(state: State) -> str:
    """Everything observable about a state (public view, each seat's view, who acts, legal labels)."""
    doc: dict[str, Any] = {"public": state.public_view(), "over": state.is_over(),
                           "seats": [state.observe(s) for s in range(state.num_players)]}
    if not state.is_over():
        doc["to_act"] = list(state.to_act())
        doc["legal"] = {s: _legal_summary(state, s) for s in state.to_act()}
    return json.dumps(doc, sort_keys=True, default=repr)


def _legal_summary(state: State, seat: int) -> list[Any]:
    """The size and the first and last labels of a legal list (a Maître Ninja defender can have ~35,000)."""
    legal = state.legal_actions(seat)
    return [len(legal), [a.label for a in legal[:4]], [a.label for a in legal[-4:]]]


def machine_for(game_id: str, players: int) -> type[unittest.TestCase]:
    """A RuleBasedStateMachine over `game_id` with `players` seats, as a TestCase."""
    game = get_game(game_id)

    class EngineMachine(RuleBasedStateMachine):
        state: State
        seed: int
        inputs: list[tuple[frozenset[int], dict[int, int]]]

        @initialize(seed=st.integers(0, 2**31 - 1))
        def start(self, seed: int) -> None:
            self.seed = seed
            self.state = game.new_state(seed, players=players)
            self.inputs = []

        def _joint(self, picks: list[int]) -> dict[int, int]:
            acting = list(self.state.to_act())
            return {s: picks[i % len(picks)] % len(self.state.legal_actions(s)) for i, s in enumerate(acting)}

        def _apply(self, joint: dict[int, int], illegal: frozenset[int] = frozenset()) -> None:
            actions = {s: Illegal(raw=str(i)) if s in illegal else self.state.legal_actions(s)[i]
                       for s, i in joint.items()}
            self.state.apply(actions)

        @precondition(lambda self: not self.state.is_over())
        @rule(picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=6))
        def play_legal(self, picks: list[int]) -> None:
            joint = self._joint(picks)
            self._apply(joint)
            self.inputs.append((frozenset(), joint))

        if game.handles_illegal_actions:
            @precondition(lambda self: not self.state.is_over())
            @rule(picks=st.lists(st.integers(0, 10**6), min_size=1, max_size=6), mask=st.integers(1, 63))
            def play_with_illegal(self, picks: list[int], mask: int) -> None:
                joint = self._joint(picks)
                bad = frozenset(s for s in joint if mask >> s & 1)
                self._apply(joint, bad)  # a Mistake for the bad seats, never an exception
                self.inputs.append((bad, joint))
        else:
            @precondition(lambda self: not self.state.is_over())
            @rule(kind=st.sampled_from(["foreign", "missing", "wrong_seat", "stranger"]), raw=st.text(max_size=8))
            def refuse_illegal(self, kind: str, raw: str) -> None:
                before = _snapshot(self.state)
                acting = list(self.state.to_act())
                seat = acting[0]
                others = [s for s in range(players) if s not in acting]
                legal0 = self.state.legal_actions(seat)[0]
                attempt: dict[int, Any]
                if kind == "foreign":
                    attempt = {s: Illegal(raw=raw) for s in acting}
                elif kind == "missing":
                    attempt = {}
                elif kind == "wrong_seat" and others:
                    attempt = {others[0]: legal0}
                else:
                    attempt = {s: self.state.legal_actions(s)[0] for s in acting}
                    attempt[seat] = Illegal(raw="stranger")
                try:
                    self.state.apply(attempt)
                except IllegalAction:
                    pass
                else:
                    raise AssertionError(f"{game_id} accepted an illegal joint action ({kind})")
                assert _snapshot(self.state) == before, f"a refused {kind} action changed the state"

        @precondition(lambda self: self.state.is_over())
        @rule()
        def act_after_the_end(self) -> None:
            before = _snapshot(self.state)
            attempt = {s: Illegal(raw="late") for s in range(players)}
            try:
                self.state.apply(attempt)
            except IllegalAction:
                pass
            else:
                assert game.handles_illegal_actions, f"{game_id} accepted an action after the end"
            assert _snapshot(self.state) == before, "an action after the end changed the state"

        @invariant()
        def consistent(self) -> None:
            state = self.state
            if not hasattr(self, "state"):
                return
            json.dumps(state.public_view())  # views are plain JSON data
            for s in range(players):
                json.dumps(state.observe(s))
            if state.is_over():
                outcome = state.outcome()
                ranked = sorted(s for tier in outcome.ranking for s in tier)
                assert ranked == list(range(players))
                assert len(outcome.scores) == players
                assert all(0.0 <= outcome.points(s) <= 1.0 for s in range(players))
                assert math.isclose(sum(outcome.points(s) for s in range(players)), players / 2)
            else:
                acting = list(state.to_act())
                assert acting and len(set(acting)) == len(acting)
                assert all(0 <= s < players for s in acting)
                for s in acting:
                    summary = _legal_summary(state, s)
                    assert summary[0] > 0
                    assert summary == _legal_summary(state, s)  # stable
            # A clone is indistinguishable (and independent: checked by the replay at the end).
            assert _snapshot(state.clone()) == _snapshot(state)

        def teardown(self) -> None:
            if not hasattr(self, "state"):
                return
            again = game.new_state(self.seed, players=players)
            for bad, joint in self.inputs:
                actions = {s: Illegal(raw=str(i)) if s in bad else again.legal_actions(s)[i] for s, i in joint.items()}
                again.apply(actions)
            assert _snapshot(again) == _snapshot(self.state), "the same inputs gave a different match"

    EngineMachine.TestCase.settings = SETTINGS
    return EngineMachine.TestCase


TestTinyNinjas = machine_for("tiny-ninjas", 2)
TestNinjaVersusNinja = machine_for("ninja-versus-ninja", 2)
TestMaitreNinja2 = machine_for("maitre-ninja", 2)
TestMaitreNinja4 = machine_for("maitre-ninja", 4)
TestNinjaArena2 = machine_for("ninja-arena", 2)
TestNinjaArena4 = machine_for("ninja-arena", 4)
