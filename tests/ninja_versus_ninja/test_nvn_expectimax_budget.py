"""Expectimax deepens until its time is spent, keeps the deepest finished answer, and with a
fixed depth never reads the clock."""

from __future__ import annotations

from tests.engine.test_search_budget import FakeClock, NoClock, first_request
from tourney.engine.core import DecisionRequest, get_game
from tourney.engine.games.ninja_versus_ninja.bots import MAX_DEPTH, ExpectimaxBot

GAME = get_game("ninja-versus-ninja")


def test_expectimax_given_20_ms_never_takes_40() -> None:
    clock = FakeClock(step=0.001)
    bot = ExpectimaxBot(seed=1, ms=20, clock=clock)
    start = clock.now
    request: DecisionRequest = first_request(GAME)
    assert 0 <= bot.act(request) < len(request.legal)
    assert clock.now - start < 0.040 and clock.reads >= 10


def test_expectimax_stops_inside_the_request_deadline() -> None:
    clock = FakeClock(step=0.001)
    bot = ExpectimaxBot(seed=1, depth=MAX_DEPTH, ms=5000, clock=clock)
    start = clock.now
    bot.act(first_request(GAME, deadline_s=0.03))
    assert clock.now - start < 0.03


def test_expectimax_with_a_fixed_depth_never_reads_the_clock_and_repeats_itself() -> None:
    request = first_request(GAME)
    picks = {ExpectimaxBot(seed=4, depth=2, clock=NoClock()).act(request) for _ in range(3)}
    assert len(picks) == 1


def test_an_exhausted_clock_still_answers_from_the_one_ply_search() -> None:
    # Every reading is a whole second: the budget is gone before depth 2 starts.
    clock = FakeClock(step=1.0)
    request = first_request(GAME)
    one_ply = ExpectimaxBot(seed=4, depth=1, clock=NoClock()).act(request)
    assert ExpectimaxBot(seed=4, ms=20, clock=clock).act(request) == one_ply


def test_a_count_of_iterations_stops_where_the_timed_search_stopped_without_reading_the_clock() -> None:
    # What the ladder's calibration relies on: a time budget's count, replayed, is that budget.
    request = first_request(GAME)
    timed = ExpectimaxBot(seed=4, ms=20, clock=FakeClock(step=0.001))
    pick = timed.act(request)
    assert timed.last_iterations > 10
    counted = ExpectimaxBot(seed=4, iterations=timed.last_iterations, clock=NoClock())
    assert counted.act(request) == pick and counted.last_iterations == timed.last_iterations
    fewer = ExpectimaxBot(seed=4, iterations=3, clock=NoClock())
    fewer.act(request)
    assert fewer.last_iterations == 3
