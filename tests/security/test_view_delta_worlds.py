"""Hello.view_delta (alone, and with json_view_only) keeps hidden what the whole view keeps hidden: two
worlds that differ only in what a seat never saw (Tiny Ninjas: an opponent's hidden card, the next card of
the draw pile, chance still to come; Maître Ninja: other seats' face-down cards) send that seat the same
ActionRequest bytes, request for request, through the arena's own RemoteSeat, until the rules show the
difference; and what the arena keeps for a seat's deltas is one number, whatever the match (json_view_only
adds none)."""

from __future__ import annotations

import asyncio
import itertools
import random
from typing import Any

import pytest

from tests.security.swap import chance_drawn, fork_future, step_alike
from tests.security.test_swap_worlds import mn_fork, tn_revealed, tn_swap
from tourney.engine.core import DecisionRequest, State, get_game
from tourney.engine.games.tiny_ninjas.data import INSTANCE_TYPE
from tourney.engine.server.codecs import codec_for
from tourney.engine.server.sessions import BotSession, RemoteSeat

SEEDS = 30
STEPS = 120


class Wire:
    """A view_delta bot's session (json_view_only or not) whose messages are kept as the arena would write them."""

    def __init__(self, loop: asyncio.AbstractEventLoop, game_id: str, json_view_only: bool = False) -> None:
        self.game_id = game_id
        self.session = BotSession("s", "bot", [game_id], 1, loop, view_delta=True, json_view_only=json_view_only)
        self.sent: list[bytes] = []
        self.session.outbound.put = self._put  # type: ignore[method-assign]

    def _put(self, item: bytes | None) -> None:
        if item is not None:
            self.sent.append(item)

    def seat(self) -> RemoteSeat:
        return RemoteSeat(self.session, "m", codec_for(self.game_id), 10.0)


def _ask(seat: RemoteSeat, state: State, observer: int) -> None:
    request = DecisionRequest(state.game, observer, None, state.legal_actions(observer), None, state)
    seat.request(request, lambda _: None)


def _swap_top(a: State) -> State | None:
    """World a with the next card to be drawn swapped for the nearest one of another type below it: whoever
    draws it next is shown it (only that seat, when it is the opponent, whose private `drew` it is)."""
    b: Any = a.clone()
    draw = b.draw
    j = next((j for j in range(len(draw) - 2, -1, -1) if INSTANCE_TYPE[draw[j]] != INSTANCE_TYPE[draw[-1]]), None)
    if j is None:
        return None
    draw[-1], draw[j] = draw[j], draw[-1]
    return b  # type: ignore[no-any-return]


def _compare(game_id: str, config: dict[str, Any], seed: int, fork_kind: str, loop: asyncio.AbstractEventLoop,
             json_view_only: bool) -> int:
    """Play to a random point asking the observer on its turns, fork, play both worlds alike: the requests
    the observer gets must be the same bytes until the rules reveal the difference. How many compared."""
    rng = random.Random(seed)
    players = rng.choice((2, 3, 4)) if game_id == "maitre-ninja" else 2
    a = get_game(game_id).new_state(seed, players=players, config=config)
    observer = rng.randrange(players)
    wire_a, wire_b = Wire(loop, game_id, json_view_only), Wire(loop, game_id, json_view_only)
    seat_a = wire_a.seat()
    for _ in range(rng.randrange(1, 60)):  # the match so far: the observer's deltas have started
        if a.is_over():
            return 0
        if observer in a.to_act():
            _ask(seat_a, a, observer)
        a.apply({s: rng.choice(list(a.legal_actions(s))) for s in a.to_act()})
    if a.is_over():
        return 0
    at_fork = dict(a.chance._state)  # type: ignore[attr-defined]
    if fork_kind == "fights":
        fought = mn_fork(a, observer, rng)
        if fought is None:
            return 0
        b, mn_revealed = fought

        def revealed(x: State, y: State) -> bool:
            return mn_revealed(x, y, observer)
    elif fork_kind in ("hidden", "pile"):
        swapped = tn_swap(a, observer, rng) if fork_kind == "hidden" else None
        forked = _swap_top(a) if fork_kind == "pile" else None if swapped is None else swapped[0]
        if forked is None:
            return 0
        b = forked

        def revealed(x: State, y: State) -> bool:
            return tn_revealed(x, y, observer)
    else:
        b = fork_future(a, rng)
        b_at_fork = dict(b.chance._state)  # type: ignore[attr-defined]

        def revealed(x: State, y: State) -> bool:
            return chance_drawn(x, at_fork) or chance_drawn(y, b_at_fork)
    seat_b = wire_b.seat()
    # The same match so far: world b's seat has been sent what a's was, under the same request ids.
    seat_b._mark = seat_a._mark
    wire_b.session._ids = itertools.count(len(wire_a.sent) + 1)
    wire_a.sent.clear()
    compared = 0
    for _ in range(STEPS):
        if a.is_over() or b.is_over() or revealed(a, b):
            break
        if observer in a.to_act():
            _ask(seat_a, a, observer)
            _ask(seat_b, b, observer)
            assert wire_a.sent[-1] == wire_b.sent[-1], f"seat {observer}'s delta tells the worlds apart"
            compared += 1
        if not step_alike(a, b, observer, rng):
            break
    assert len(wire_a.sent) == len(wire_b.sent) == compared
    return compared


@pytest.mark.parametrize("json_view_only", [False, True], ids=["typed", "json-only"])
@pytest.mark.parametrize("fork_kind", ["hidden", "pile", "future"])
@pytest.mark.parametrize("config", [{"mode": m} for m in get_game("tiny-ninjas").modes] + [{"use_expansion": True}],
                         ids=lambda c: "-".join(f"{k}={v}" for k, v in c.items()))
def test_worlds_a_seat_cannot_tell_apart_send_it_the_same_deltas(config: dict[str, Any], fork_kind: str,
                                                                 json_view_only: bool) -> None:
    loop = asyncio.new_event_loop()
    try:
        compared = sum(_compare("tiny-ninjas", config, seed, fork_kind, loop, json_view_only) for seed in range(SEEDS))
    finally:
        loop.close()
    assert compared >= SEEDS // 6  # not vacuous: requests were compared (chance soon shows in most worlds)


@pytest.mark.parametrize("json_view_only", [False, True], ids=["typed", "json-only"])
def test_maitre_ninja_worlds_with_other_face_down_cards_send_the_same_deltas(json_view_only: bool) -> None:
    loop = asyncio.new_event_loop()
    try:
        compared = sum(_compare("maitre-ninja", {}, seed, "fights", loop, json_view_only) for seed in range(SEEDS))
    finally:
        loop.close()
    assert compared >= SEEDS // 6


@pytest.mark.parametrize("json_view_only", [False, True], ids=["typed", "json-only"])
def test_a_seat_s_delta_state_is_one_number(json_view_only: bool) -> None:
    """However long the match, what the arena keeps for a seat's deltas is the log position it reached."""
    loop = asyncio.new_event_loop()
    try:
        state = get_game("tiny-ninjas").new_state(3, config={"mode": "champion"})
        seat = Wire(loop, "tiny-ninjas", json_view_only).seat()
        rng = random.Random(3)
        before = set(vars(seat)) if hasattr(seat, "__dict__") else set()
        while not state.is_over():
            for s in state.to_act():
                _ask(seat, state, s)
            assert seat._mark == len(state.log)
            state.apply({s: rng.choice(list(state.legal_actions(s))) for s in state.to_act()})
        assert set(vars(seat)) == before, "no per-seat field is added as the match goes on"
    finally:
        loop.close()
