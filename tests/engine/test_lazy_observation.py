"""The referee builds an observation only for seats that read it, and never after their step is played."""

from __future__ import annotations

import pytest

from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, get_game
from tourney.engine.games.tiny_ninjas.state import TinyNinjasState
from tourney.engine.referee import play_match


class ReadingBot:
    """Reads its observation, then plays the first legal action; keeps its requests."""

    def __init__(self) -> None:
        self.requests: list[DecisionRequest] = []

    def act(self, request: DecisionRequest) -> int:
        assert request.observation["seat"] == request.seat
        self.requests.append(request)
        return 0


def _count_observe(monkeypatch: pytest.MonkeyPatch) -> list[int]:
    seats: list[int] = []
    real = TinyNinjasState.observe

    def counted(self: TinyNinjasState, seat: int) -> dict[str, object]:
        seats.append(seat)
        return real(self, seat)

    monkeypatch.setattr(TinyNinjasState, "observe", counted)
    return seats


def test_bots_that_use_only_the_state_cost_no_observation(monkeypatch: pytest.MonkeyPatch) -> None:
    observed = _count_observe(monkeypatch)
    game = get_game("tiny-ninjas")
    result = play_match("tiny-ninjas", [make_bot("random", game, 1), make_bot("greedy", game, 2)], seed=3)
    assert sum(s.decisions for s in result.seats) > 10
    assert observed == []


def test_a_seat_that_reads_gets_the_view_of_its_own_step_and_only_it_is_built(
        monkeypatch: pytest.MonkeyPatch) -> None:
    observed = _count_observe(monkeypatch)
    game = get_game("tiny-ninjas")
    reader = ReadingBot()
    result = play_match("tiny-ninjas", [reader, make_bot("random", game, 2)], seed=4)
    assert observed == [0] * result.seats[0].decisions  # one view per decision of seat 0, none for seat 1
    # Each view kept is the one of its step: the match replayed shows the same views at the same points.
    replayed = get_game("tiny-ninjas").new_state(4, players=2)
    kept = iter(reader.requests)
    for step in result.replay.steps:
        for decision in step:
            if decision.seat == 0:
                assert next(kept).observation == replayed.observe(0)
        joint = {d.seat: replayed.legal_actions(d.seat)[d.index] for d in step}
        replayed.apply(joint)


def test_an_observation_left_unread_cannot_be_read_once_the_step_is_played() -> None:
    game = get_game("tiny-ninjas")
    kept: list[DecisionRequest] = []

    class Keeper:
        def act(self, request: DecisionRequest) -> int:
            kept.append(request)
            return 0

    play_match("tiny-ninjas", [Keeper(), make_bot("random", game, 1)], seed=5)
    assert len(kept) > 2
    with pytest.raises(RuntimeError, match="after the step was played"):
        _ = kept[0].observation
