"""The referee: results, faults with typed reasons, time control, replays, determinism."""

from __future__ import annotations

import itertools
import json

import pytest

import tests.sticks  # noqa: F401  (registers the test game)
from tourney.engine.bots import make_bot
from tourney.engine.core import DecisionRequest, SeatDisconnected, Termination, get_game
from tourney.engine.referee import Replay, TimeControl, play_match, replay_match

GAME = get_game("sticks")


class Fixed:
    """Answers with one given index, whatever is asked."""

    def __init__(self, index: object) -> None:
        self.index = index

    def act(self, request: DecisionRequest) -> int:
        return self.index  # type: ignore[return-value]


class Raises:
    def __init__(self, exc: Exception) -> None:
        self.exc = exc

    def act(self, request: DecisionRequest) -> int:
        raise self.exc


def bots(*names: str, seed: int = 1) -> list:
    return [make_bot(n, GAME, seed * 10 + i) for i, n in enumerate(names)]


def test_a_normal_match_ranks_the_winner_first_and_logs_every_decision():
    result = play_match("sticks", bots("random", "random"), seed=3)
    assert result.termination == Termination.NORMAL
    assert result.reason == "last_stick"
    assert sorted(s for tier in result.ranking for s in tier) == [0, 1]
    taken = sum(GAME.new_state(3).legal_actions(0)[d.index].n for step in result.replay.steps for d in step)
    assert taken == 10
    assert all(d.ms >= 0 for step in result.replay.steps for d in step)
    assert result.seats[0].decisions + result.seats[1].decisions == len(result.replay.steps)


def test_replaying_a_replay_reproduces_the_result_exactly():
    for seed in range(20):
        original = play_match("sticks", bots("random", "greedy", seed=seed), seed=seed)
        again = replay_match(Replay.from_dict(json.loads(json.dumps(original.replay.to_dict()))))
        assert (again.ranking, again.scores, again.reason, again.termination) == (
            original.ranking, original.scores, original.reason, original.termination)
        assert [[(d.seat, d.index) for d in s] for s in again.replay.steps] == [
            [(d.seat, d.index) for d in s] for s in original.replay.steps]


def test_a_match_is_a_pure_function_of_seed_and_bots():
    a = play_match("sticks", bots("ismcts", "random", seed=5), seed=42)
    b = play_match("sticks", bots("ismcts", "random", seed=5), seed=42)
    assert [[d.index for d in s] for s in a.replay.steps] == [[d.index for d in s] for s in b.replay.steps]
    assert a.ranking == b.ranking


@pytest.mark.parametrize("bad", [-1, 3, 10**12, "1", None])
def test_an_illegal_index_forfeits_with_a_typed_reason(bad):
    result = play_match("sticks", [Fixed(bad), make_bot("random", GAME, 1)], seed=1)
    assert result.termination == Termination.ILLEGAL_MOVE
    assert result.forfeit_seat == 0
    assert result.ranking == ((1,), (0,))
    assert result.seats[0].faults == {Termination.ILLEGAL_MOVE: 1}


def test_a_crashing_bot_forfeits_and_the_referee_survives():
    result = play_match("sticks", [make_bot("random", GAME, 1), Raises(RuntimeError("boom"))], seed=2)
    assert result.termination == Termination.CRASH
    assert result.ranking == ((0,), (1,))


def test_a_disconnected_bot_forfeits_as_disconnection():
    result = play_match("sticks", [Raises(SeatDisconnected()), make_bot("random", GAME, 1)], seed=2)
    assert result.termination == Termination.DISCONNECTION
    assert result.reason == "seat 0 disconnection"


def fake_clock(step: float):
    ticks = itertools.count()
    return lambda: next(ticks) * step


def test_a_move_over_the_limit_is_a_timeout():
    # Each clock reading advances 0.3 s, so every move "takes" 0.3 s against a 0.2 s limit.
    result = play_match("sticks", bots("random", "random"), seed=1, time_control=TimeControl(move_s=0.2),
                        clock=fake_clock(0.3))
    assert result.termination == Termination.TIMEOUT
    assert result.forfeit_seat == 0


def test_the_bank_absorbs_overruns_until_it_is_spent():
    # 0.3 s moves against 0.2 s + a 0.25 s bank: seat 0 overruns by 0.1 on each move, so its
    # third move finds only 0.05 s left in the bank and times out.
    tc = TimeControl(move_s=0.2, bank_s=0.25)
    result = play_match("sticks", [Fixed(0), Fixed(0)], seed=1, config={"pile": 30}, time_control=tc,
                        clock=fake_clock(0.3))
    assert result.termination == Termination.TIMEOUT
    assert result.forfeit_seat == 0
    assert result.seats[0].decisions == 3


def test_the_increment_refills_the_bank():
    tc = TimeControl(move_s=0.2, bank_s=0.25, increment_s=0.1)
    result = play_match("sticks", [Fixed(0), Fixed(0)], seed=1, config={"pile": 30}, time_control=tc,
                        clock=fake_clock(0.3))
    assert result.termination == Termination.NORMAL


def test_replaying_a_forfeit_reproduces_the_forfeit():
    original = play_match("sticks", [make_bot("random", GAME, 1), Fixed(7)], seed=9)
    again = replay_match(original.replay)
    assert (again.termination, again.ranking, again.forfeit_seat) == (Termination.ILLEGAL_MOVE, ((0,), (1,)), 1)


def test_three_seats_share_the_place_above_a_forfeit():
    result = play_match("sticks", [Fixed(0), Fixed(99), Fixed(0)], seed=1, players=3)
    assert result.ranking == ((0, 2), (1,))
    assert result.points(0) == result.points(2) == 0.75 and result.points(1) == 0.0


def test_every_decision_is_reported_as_it_is_made():
    seen = []
    result = play_match("sticks", [make_bot("random", GAME, 1), Fixed(9)], seed=4,
                        on_decision=lambda game, d: seen.append((game, d.seat, d.fault)))
    logged = [(d.seat, d.fault) for step in result.replay.steps for d in step]
    assert [(s, f) for _, s, f in seen] == logged
    assert seen[-1] == ("sticks", 1, Termination.ILLEGAL_MOVE) and {g for g, _, _ in seen} == {"sticks"}


class Rendezvous:
    """A network-like seat: at a simultaneous step it answers only once every other seat of the
    step has been asked too (Maître Ninja's parries, laid one by one, are asked alone)."""

    networked = True

    def __init__(self, barrier, seed: int) -> None:
        self.barrier = barrier
        self.bot = make_bot("random", get_game("maitre-ninja"), seed)

    def act(self, request: DecisionRequest) -> int:
        if len(request._state.to_act()) > 1:
            self.barrier.wait()  # raises (a crash) if the other seat is not asked meanwhile
        return self.bot.act(request)


def test_network_seats_of_a_simultaneous_step_are_asked_at_once():
    import threading

    barrier = threading.Barrier(2, timeout=10)
    result = play_match("maitre-ninja", [Rendezvous(barrier, 1), Rendezvous(barrier, 2)], seed=3)
    assert result.termination in (Termination.NORMAL, "adjudication")
    together = [step for step in result.replay.steps if len(step) == 2]
    assert together and all(d.fault is None for step in together for d in step)  # asked at once, none timed out
    assert replay_match(result.replay).ranking == result.ranking


def test_a_replay_shows_the_same_steps_as_the_match():
    live: list = []
    again: list = []
    original = play_match("sticks", bots("random", "greedy", seed=4), seed=4,
                          on_step=lambda state, joint: live.append((state.pile, [(s, a.label) for s, a in joint])))
    replay_match(original.replay, on_step=lambda state, joint: again.append((state.pile, [(s, a.label)
                                                                                          for s, a in joint])))
    assert again == live and live
