"""Standings: W/D/L, points, and a rating whose interval narrows with more games."""

from __future__ import annotations

import math

from tournament.standings import SeatResult, compute_standings


def duel(a: str, b: str, result: float) -> list[SeatResult]:
    if result == 0.5:
        return [SeatResult(a, 0, 2, 0.5), SeatResult(b, 0, 2, 0.5)]
    win, lose = (a, b) if result == 1 else (b, a)
    return [SeatResult(win, 0, 1, 1.0), SeatResult(lose, 1, 1, 0.0)]


def test_wins_draws_losses_and_order():
    matches = [duel("x", "y", 1), duel("x", "y", 0.5), duel("y", "z", 1), duel("x", "z", 0)]
    table = {s.alias: s for s in compute_standings(["x", "y", "z"], matches)}
    assert (table["x"].wins, table["x"].draws, table["x"].losses, table["x"].points) == (1, 1, 1, 1.5)
    assert (table["y"].wins, table["y"].draws, table["y"].losses) == (1, 1, 1)
    assert [s.alias for s in compute_standings(["x", "y", "z"], matches)][0] in {"x", "y"}


def test_rating_reflects_score_and_the_interval_narrows_with_games():
    short = compute_standings(["a", "b"], [duel("a", "b", 1) for _ in range(3)] + [duel("a", "b", 0)])
    long = compute_standings(["a", "b"], [duel("a", "b", 1) for _ in range(300)] + [duel("a", "b", 0)] * 100)
    a_short = next(s for s in short if s.alias == "a")
    a_long = next(s for s in long if s.alias == "a")
    assert a_short.rating > 1500 and a_long.rating > 1500
    # 75% expected score is about +191 Elo.
    assert math.isclose(a_long.rating - 1500, 400 * math.log10(3), abs_tol=1)
    assert a_long.low < a_long.rating < a_long.high
    assert (a_long.high - a_long.low) < (a_short.high - a_short.low)


def test_a_perfect_record_has_a_finite_rating():
    table = compute_standings(["a", "b"], [duel("a", "b", 1) for _ in range(10)])
    assert all(math.isfinite(s.rating) and math.isfinite(s.low) and math.isfinite(s.high) for s in table)
    assert table[0].alias == "a" and table[0].rating > 1800


def test_likelihood_of_superiority_over_the_next_entrant():
    matches = [duel("a", "b", 1)] * 9 + [duel("a", "b", 0)] + [duel("b", "c", 0.5)] * 4
    table = compute_standings(["a", "b", "c"], matches)
    assert [s.alias for s in table] == ["a", "b", "c"]
    assert table[0].los_next is not None and table[0].los_next > 0.99
    assert table[1].los_next is None  # b and c only drew: no decisive game to judge by
    assert table[2].los_next is None  # nobody below
