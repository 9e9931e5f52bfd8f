"""Expectimax against greedy in a small seeded sample of duplicate pairs (a smoke test: the
ladder bench measures the real figure), and a timed search that a busy clock cuts short
part-way through a depth still uses the moves it finished."""

from __future__ import annotations

from tests.engine.test_search_budget import FakeClock, first_request
from tourney.engine.bots import make_bot
from tourney.engine.core import get_game
from tourney.engine.games.ninja_versus_ninja.bots import ExpectimaxBot
from tourney.engine.referee import play_match

GAME = get_game("ninja-versus-ninja")


def test_expectimax_beats_greedy_over_seeded_duplicate_pairs() -> None:
    # Fixed depth: the sample is the same every run. Each seed is played twice, seats swapped,
    # with whoever sits in seat 0 moving first, so dice and tempo luck cancel.
    pairs, points = 4, 0.0
    for k in range(pairs):
        for seat in (0, 1):
            bots = [make_bot("expectimax:depth=3:beam=2", GAME, 2 * k + 1), make_bot("greedy", GAME, 2 * k + 2)]
            seats = bots if seat == 0 else bots[::-1]
            result = play_match("ninja-versus-ninja", seats, 1000 + k, config={"first_player": 0})
            points += result.points(seat)
    assert points / (2 * pairs) >= 0.65, points


def test_a_depth_cut_short_keeps_the_moves_it_finished() -> None:
    request = first_request(GAME)
    state = request.determinize(ExpectimaxBot(seed=4).rng)
    static = ExpectimaxBot(seed=4).move_values(state, request.seat, 1)
    deep = ExpectimaxBot(seed=4).move_values(state, request.seat, 2)
    ranked = sorted(range(len(static)), key=lambda i: static[i], reverse=True)
    assert len(ranked) >= 3
    # Depth 2 reads the clock once per roll (7 a move): 20 readings of 1 ms finish the two moves
    # best by the static evaluation and stop inside the third.
    timed = ExpectimaxBot(seed=4, ms=20, clock=FakeClock(step=0.001))
    assert timed.act(request) == max(ranked[:2], key=lambda i: deep[i])
