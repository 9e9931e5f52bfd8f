"""Two worlds that differ only in what one seat never saw, driven by the same public actions.

A world is forked from a match in progress in one of two ways:
- hidden: everything hidden from the observer *now* is resampled (the other hands, face-down
  cards, the draw pile's order) while future chance stays the same in both worlds;
- future: only the chance still to come (dice not yet rolled, cards not yet drawn) differs.
Both worlds then take the same actions, chosen by label: the observer's legal labels must be
the same in both, the others play a label legal in both. At every step the observer's view
and the public view must be identical, until the rules themselves reveal the difference
(`revealed`), which ends the comparison.
"""

from __future__ import annotations

import json
import random
from collections.abc import Callable
from dataclasses import dataclass
from typing import Any

from tourney.engine.core import State
from tourney.engine.server.codecs import codec_for

Revealed = Callable[[State, State, int], bool]


def seen(state: State, seat: int) -> Any:
    """What `seat` and any spectator are shown, as the wire carries it, and what a trainer is shown:
    [observation, public view, the training tensor built from the state (`Encoding.encode_state`,
    which reads the state itself, so it must hide what the view hides), and the bytes of the arena's
    ActionRequest fields for the seat: its typed observation (the game's codec) and, when it acts,
    its typed legal actions]."""
    encoding = state.game.encoding()
    tensor = None if encoding is None else encoding.encode_state(state, seat)
    observation = state.observe(seat)
    codec = codec_for(state.game.id)
    wire = [codec.observation_bytes(observation).hex()]
    if not state.is_over() and seat in state.to_act():
        wire += [codec.action(action).SerializeToString().hex() for action in state.legal_actions(seat)]
    return json.loads(json.dumps([observation, state.public_view(), tensor, wire]))


def fork_hidden(state: State, observer: int, rng: random.Random) -> State:
    """A world the observer cannot tell from `state` now, with the same chance to come."""
    twin = state.determinize(observer, rng)
    twin.chance = state.clone().chance  # type: ignore[attr-defined]
    return twin


def fork_future(state: State, rng: random.Random) -> State:
    """The same world with other chance to come (future dice, shuffles and picks)."""
    twin = state.clone()
    twin.chance.reseed(rng.getrandbits(62))  # type: ignore[attr-defined]
    return twin


def chance_drawn(state: State, at_fork: dict[str, int]) -> bool:
    """Whether any random stream moved since the fork (chance positions are engine-private)."""
    return bool(state.chance._state != at_fork)  # type: ignore[attr-defined]


@dataclass
class Run:
    """How far a pair of worlds was compared."""

    steps: int = 0


def midgame(state: State, rng: random.Random, limit: int = 200) -> State:
    """A position taken at random from one random playout of `state` (never a finished one)."""
    positions = [state.clone()]
    while not state.is_over() and len(positions) < limit:
        state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
        if not state.is_over():
            positions.append(state.clone())
    return rng.choice(positions)


def drive(a: State, b: State, observer: int, rng: random.Random, steps: int, revealed: Revealed) -> Run:
    """Drive both worlds with the same labels; fail at the first view that tells them apart."""
    run = Run()
    for _ in range(steps):
        view_a, view_b = seen(a, observer), seen(b, observer)
        if view_a != view_b:
            if revealed(a, b, observer):
                return run
            raise AssertionError(f"seat {observer} tells the worlds apart after {run.steps} steps:\n"
                                 f"{first_difference(view_a, view_b)}")
        if a.is_over() or b.is_over() or not step_alike(a, b, observer, rng):
            return run
        run.steps += 1
    return run


def step_alike(a: State, b: State, observer: int, rng: random.Random) -> bool:
    """One joint step of both worlds with the same labels (the observer's legal labels must be the same);
    False, with nothing played, when they cannot take the same step."""
    if list(a.to_act()) != list(b.to_act()):
        return False
    joint_a, joint_b = {}, {}
    for seat in a.to_act():
        legal_a = {x.label: x for x in a.legal_actions(seat)}
        legal_b = {x.label: x for x in b.legal_actions(seat)}
        if seat == observer:
            assert list(legal_a) == list(legal_b), f"seat {observer}'s legal actions tell the worlds apart"
            common = list(legal_a)
        else:
            common = [label for label in legal_a if label in legal_b]
        if not common:
            return False  # the other seat's own options differ: its next move would show it
        label = rng.choice(common)
        joint_a[seat], joint_b[seat] = legal_a[label], legal_b[label]
    a.apply(joint_a)
    b.apply(joint_b)
    return True


def first_difference(x: Any, y: Any, path: str = "") -> str:
    """Where two JSON values first differ, for a readable failure."""
    if isinstance(x, dict) and isinstance(y, dict):
        for k in sorted(set(x) | set(y)):
            if x.get(k) != y.get(k):
                return first_difference(x.get(k), y.get(k), f"{path}.{k}")
    if isinstance(x, list) and isinstance(y, list) and len(x) == len(y):
        for i, (u, v) in enumerate(zip(x, y, strict=True)):
            if u != v:
                return first_difference(u, v, f"{path}[{i}]")
    return f"{path or 'view'}: {json.dumps(x)[:300]} != {json.dumps(y)[:300]}"
