"""Invariants over thousands of random games, and determinism from seed and action log."""

from __future__ import annotations

import random

from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

from tourney.engine.games.ninja_versus_ninja import GAME, NvnState
from tourney.engine.games.ninja_versus_ninja.data import MISSION_TURNS, NUM_SQUARES
from tourney.engine.games.ninja_versus_ninja.paths import IN_HOME
from tourney.engine.games.ninja_versus_ninja.rules import NO_SQUARE

from .helpers import pos


def _outside_home(state: NvnState, seat: int) -> list[int]:
    return [q for q in range(NUM_SQUARES) if state.occ[seat] >> q & 1 and not IN_HOME[seat][q]]


def _check(state: NvnState) -> None:
    assert state.occ[0] & state.occ[1] == 0, "two Ninjas on one square"
    for seat in (0, 1):
        out = _outside_home(state, seat)
        assert len(out) <= 1, "more than one mission"
        # A Ninja is on a mission if and only if it stands outside its home dojo.
        assert out == ([] if state.m_sq[seat] == NO_SQUARE else [state.m_sq[seat]])
        if state.m_sq[seat] != NO_SQUARE:
            assert 0 <= state.m_turns[seat] < MISSION_TURNS
            assert state.shadow[seat] == state.m_depth[seat]
        else:
            assert state.shadow[seat] == 0
        assert state.occ[seat].bit_count() <= 6


@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
@given(seed=st.integers(0, 2**32 - 1), first=st.sampled_from(["rolloff", 0, 1]))
def test_random_games_keep_the_invariants(seed: int, first: str | int) -> None:
    state = GAME.new_state(seed, config={"first_player": first})
    rng = random.Random(seed)
    scores = state.score[:]
    counts = [state.occ[0].bit_count(), state.occ[1].bit_count()]
    while not state.is_over():
        _check(state)
        moves = state.legal_moves()
        assert moves, "a decision with no legal move"
        state.apply_index(rng.randrange(len(moves)))
        now = [state.occ[0].bit_count(), state.occ[1].bit_count()]
        assert all(a >= b for a, b in zip(state.score, scores, strict=True)), "score went down"
        assert all(a <= b for a, b in zip(now, counts, strict=True)), "a Ninja came back"
        scores, counts = state.score[:], now
    _check(state)
    assert state.turn_number < state.cap and state.outcome().reason in ("points", "elimination")
    outcome = state.outcome()
    winner = outcome.ranking[0][0]
    if outcome.reason == "points":
        assert state.score[winner] >= state.target
    else:
        assert state.occ[1 - winner] == 0


def test_turn_cap_ends_the_game() -> None:
    state = GAME.new_state(5, config={"turn_cap": 6})
    rng = random.Random(1)
    while not state.is_over():
        state.apply_index(rng.randrange(len(state.legal_moves())))
    assert state.turn_number == 6 and state.outcome().reason == "cap"
    ranking = state.outcome().ranking
    if state.score[0] != state.score[1]:
        assert ranking[0] == (0 if state.score[0] > state.score[1] else 1,)
    elif state.occ[0].bit_count() != state.occ[1].bit_count():
        assert ranking[0] == (0 if state.occ[0].bit_count() > state.occ[1].bit_count() else 1,)
    else:
        assert ranking == ((0, 1),)


def test_cap_tiebreaks() -> None:
    even = GAME.position(["a1", "b1"], ["a11", "b11"], dice=(1, 1), config={"turn_cap": 1})
    even.apply_index(0)  # one home move each way changes nothing: draw on score and Ninjas
    assert even.outcome().reason == "cap" and even.outcome().ranking == ((0, 1),)
    more = GAME.position(["a1", "b1", "c1"], ["a11", "b11"], dice=(1, 1), config={"turn_cap": 1})
    more.apply_index(0)
    assert more.outcome().ranking == ((0,), (1,))
    assert pos(["a1"], dice=(1, 1)).cap == 300


def _play(seed: int, picks: int) -> tuple[NvnState, list[int]]:
    state = GAME.new_state(seed)
    rng = random.Random(picks)
    log = []
    while not state.is_over():
        i = rng.randrange(len(state.legal_moves()))
        log.append(i)
        state.apply_index(i)
    return state, log


def test_same_seed_and_actions_replay_the_same_match() -> None:
    for seed in range(20):
        first, log = _play(seed, seed + 100)
        again = GAME.new_state(seed)
        for i in log:
            again.apply({again.to_move: again.legal_actions(again.to_move)[i]})
        assert again.public_view() == first.public_view()
        assert again.outcome() == first.outcome()


def test_different_seeds_give_different_dice() -> None:
    rolls = {tuple(entry[1] for entry in _play(seed, 7)[0].log()[:6]) for seed in range(10)}
    assert len(rolls) > 5


def test_duplicate_seats_swap_the_dice() -> None:
    """Seat s's dice come from dice/s: with the same seed, each seat's rolls do not depend on moves."""
    a, _ = _play(3, 1)
    b, _ = _play(3, 2)
    rolls_a = [[e[1] for e in a.log() if e[0] == s] for s in (0, 1)]
    rolls_b = [[e[1] for e in b.log() if e[0] == s] for s in (0, 1)]
    for s in (0, 1):
        n = min(len(rolls_a[s]), len(rolls_b[s]))
        assert rolls_a[s][:n] == rolls_b[s][:n]
