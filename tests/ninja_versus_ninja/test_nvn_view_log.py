"""The view's log rows, kept as they are written and shared between copies (state.close_row), stay
each copy's own: copies that go different ways show the log a replay of their own moves shows."""

from __future__ import annotations

import random

from tourney.engine.games.ninja_versus_ninja import GAME, NvnState

SEED = 5


def _play(state: NvnState, rng: random.Random, turns: int, moves: list[int]) -> None:
    """Up to `turns` random moves, each appended to `moves`."""
    for _ in range(turns):
        if state.is_over():
            return
        k = rng.randrange(len(state.legal_moves()))
        moves.append(k)
        state.apply_index(k)


def _replayed(moves: list[int]) -> NvnState:
    state = GAME.new_state(SEED)
    for k in moves:
        state.apply_index(k)
    return state


def _log_rows(state: NvnState) -> list[list[object]]:
    """The view's log as built from the move log alone."""
    return [[seat, list(dice), label, event] for seat, dice, label, event in state.log()]


def test_copies_that_part_keep_their_own_log() -> None:
    base = GAME.new_state(SEED)
    shared: list[int] = []
    _play(base, random.Random(1), 12, shared)
    first, second = base.clone(), base.clone()
    base_view = base.observe(0)["log"]
    lines = {"base": (base, list(shared)), "first": (first, list(shared)), "second": (second, list(shared))}
    # Each grows the shared list in turn, so every copy meets a list another copy has grown.
    for turn in range(20):
        for k, (state, moves) in enumerate(lines.values()):
            _play(state, random.Random(100 * turn + k), 1, moves)
    logs = {}
    for name, (state, moves) in lines.items():
        view = state.observe(1)["log"]
        assert view == _log_rows(state), name
        assert view == _replayed(moves).observe(1)["log"], name
        logs[name] = view
    assert logs["first"] != logs["second"]  # they did part, so the check above could fail
    assert logs["base"][: len(base_view)] == base_view


def test_an_event_added_to_the_newest_entry_reaches_the_view() -> None:
    state = GAME.new_state(SEED)
    moves: list[int] = []
    _play(state, random.Random(3), 60, moves)
    assert state.observe(0)["log"] == _log_rows(state)
    copy = state.clone()
    _play(copy, random.Random(4), 40, moves)
    assert copy.observe(0)["log"] == _log_rows(copy)
    assert state.observe(0)["log"] == _log_rows(state)
