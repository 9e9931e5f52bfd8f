"""Standings: W/D/L, points, and a rating whose interval narrows with more games."""

from __future__ import annotations

import math

import pytest

from tourney.tournament.rating.standings import MatchLog, StandingSeat, compute_standings


def duel(a: str, b: str, result: float) -> list[StandingSeat]:
    if result == 0.5:
        return [StandingSeat(a, 0, 2, 0.5), StandingSeat(b, 0, 2, 0.5)]
    win, lose = (a, b) if result == 1 else (b, a)
    return [StandingSeat(win, 0, 1, 1.0), StandingSeat(lose, 1, 1, 0.0)]


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


def test_a_perfect_record_has_a_finite_rating_and_an_open_interval():
    table = compute_standings(["a", "b"], [duel("a", "b", 1) for _ in range(10)])
    assert all(math.isfinite(s.rating) for s in table)
    assert table[0].alias == "a" and table[0].rating > 1800
    # No number of wins bounds how much stronger a bot may be: the top of the interval is open.
    assert table[0].high == math.inf and math.isfinite(table[0].low) and table[1].low == -math.inf


def wilson_by_hand(wins: float, n: int) -> tuple[float, float]:
    """The Wilson score interval written out from its textbook formula, independent of the code under test."""
    z = 1.959964
    p = wins / n
    root = z * math.sqrt(p * (1 - p) / n + z * z / (4 * n * n))
    return (p + z * z / (2 * n) - root) / (1 + z * z / n), (p + z * z / (2 * n) + root) / (1 + z * z / n)


def to_elo(p: float) -> float:
    return math.inf if p >= 1 else -math.inf if p <= 0 else 1500 + 400 * math.log10(p / (1 - p))


def test_five_wins_out_of_five_is_not_falsely_precise():
    table = {s.alias: s for s in compute_standings(["a", "b"], [duel("a", "b", 1) for _ in range(5)])}
    a = table["a"]
    assert round(a.rating - 1500, 1) == 381.7  # half a game off 100%: 4.5 of 5
    low, high = wilson_by_hand(5, 5)
    assert math.isclose(a.low, to_elo(low), abs_tol=0.01) and a.high == math.inf
    assert a.low < 1500 + 100 < a.rating  # five games say "better", not "exactly +382"


def test_one_win_one_draw_has_an_upper_bound_above_its_estimate():
    table = {s.alias: s for s in compute_standings(["a", "b"], [duel("a", "b", 1), duel("a", "b", 0.5)])}
    a = table["a"]
    assert (a.wins, a.draws, a.losses) == (1, 1, 0)
    low, high = wilson_by_hand(1.5, 2)
    assert math.isclose(a.low, to_elo(low), abs_tol=0.01) and math.isclose(a.high, to_elo(high), abs_tol=0.01)
    assert a.low < a.rating < a.high and a.high - a.rating > 200


def test_a_bye_is_points_but_never_a_game_for_the_rating():
    # The regression: 4 losses and a 2-point bye were rated 1500 with score 50% (bye points over games).
    matches = [duel("w", "r", 1) for _ in range(4)] + [[StandingSeat("r", 0, 1, 2.0, bye=True)]]
    table = {s.alias: s for s in compute_standings(["w", "r"], matches)}
    r = table["r"]
    assert (r.games, r.wins, r.draws, r.losses, r.byes, r.points) == (4, 0, 0, 4, 1, 2.0)
    assert r.score_pct == 0.0
    assert round(r.rating) == 1162  # half a game off 0% over the 4 games: 400*log10(0.125/0.875)
    assert r.low == -math.inf and math.isclose(r.high, to_elo(wilson_by_hand(0, 4)[1]), abs_tol=0.01)
    # The same record without the bye rates the same: the bye changed the points, not the rating.
    without = {s.alias: s for s in compute_standings(["w", "r"], matches[:4])}["r"]
    assert (without.rating, without.low, without.high, without.score_pct) == (r.rating, r.low, r.high, r.score_pct)
    assert without.points == 0.0


def test_a_bye_counts_in_buchholz_and_sonneborn_berger_as_a_game_against_oneself():
    matches = [duel("a", "b", 1), duel("c", "a", 0.5), [StandingSeat("b", 0, 1, 1.0, bye=True)]]
    table = {s.alias: s for s in compute_standings(["a", "b", "c"], matches)}
    assert [table[x].points for x in "abc"] == [1.5, 1.0, 0.5]
    # b met a (1.5) and had a bye worth its own final 1.0; it took 0 from a and 1 point from the bye.
    assert table["b"].buchholz == 1.5 + 1.0
    assert table["b"].sonneborn_berger == 0 * 1.5 + 1.0 * 1.0
    assert table["a"].buchholz == 1.0 + 0.5 and table["a"].sonneborn_berger == 1 * 1.0 + 0.5 * 0.5


def test_likelihood_of_superiority_over_the_next_entrant():
    matches = [duel("a", "b", 1)] * 9 + [duel("a", "b", 0)] + [duel("b", "c", 0.5)] * 4
    table = compute_standings(["a", "b", "c"], matches)
    assert [s.alias for s in table] == ["a", "b", "c"]
    assert table[0].los_next is not None and table[0].los_next > 0.99
    assert table[1].los_next is None  # b and c only drew: no decisive game to judge by
    assert table[2].los_next is None  # nobody below


def test_a_long_run_is_kept_as_its_few_distinct_matches_in_order():
    a_wins = (StandingSeat("a", 0, 1, 1.0), StandingSeat("b", 1, 1, 0.0))
    b_wins = (StandingSeat("b", 0, 1, 1.0), StandingSeat("a", 1, 1, 0.0))
    draw = (StandingSeat("a", 0, 2, 0.5), StandingSeat("b", 0, 2, 0.5))
    run = [a_wins, b_wins, draw, draw, a_wins] * 2000  # equal values, new objects each time
    run = [tuple(StandingSeat(*vars(r).values()) for r in m) for m in run]
    kept = MatchLog(iter(run))
    assert len(kept.distinct) == 3
    assert list(kept) == run
    # A generator of the same matches gives the same table as a list of them.
    assert compute_standings(["a", "b"], iter(run)) == compute_standings(["a", "b"], run)


def test_a_repeated_match_is_the_held_one_again_and_an_unheld_one_is_refused():
    a_wins = (StandingSeat("a", 0, 1, 1.0), StandingSeat("b", 1, 1, 0.0))
    draw = (StandingSeat("a", 0, 2, 0.5), StandingSeat("b", 0, 2, 0.5))
    log = MatchLog()
    first, second = log.add(a_wins), log.add(draw)
    assert (first, second, log.add(draw)) == (0, 1, 1)  # add says where a match is held
    log.repeat(first)
    log.repeat(second)
    assert list(log) == [a_wins, draw, draw, a_wins, draw]
    with pytest.raises(IndexError, match="holds 2 distinct"):
        log.repeat(2)
    assert len(log) == 5  # the refused repeat added nothing


def random_log(rng, aliases, matches, points=(0.0, 0.5, 1.0)) -> MatchLog:
    """Duels (and a few byes worth 2 points) among `aliases`, the winner's points drawn from `points`."""
    log = MatchLog()
    for _ in range(matches):
        if rng.random() < 0.05:
            log.add([StandingSeat(rng.choice(aliases), 0, 1, 2.0, bye=True)])
            continue
        a, b = rng.sample(aliases, 2)
        took = rng.choice(points)
        level = took == 0.5
        log.add([StandingSeat(a, 0, 2 if level else 1, took, rng.choice((0, 0, 1))),
                 StandingSeat(b, 0 if level else 1, 2 if level else 1, 1.0 - took if not level else took)])
    return log


@pytest.mark.parametrize("seed", range(5))
def test_standings_added_per_distinct_match_equal_the_match_by_match_sums_bit_for_bit(seed, monkeypatch):
    import random

    from tourney.tournament.rating import standings

    log = random_log(random.Random(seed), ["a", "b", "c", "d"], 3000)
    assert len(standings._weighted(log)) == len(log.distinct) < len(log)  # the counted way is the one taken
    counted = compute_standings(["a", "b", "c", "d"], log)
    monkeypatch.setattr(standings, "FRACTION_BITS", -1)  # no fraction is exact: match by match, in order
    assert len(standings._weighted(log)) == len(log)
    assert compute_standings(["a", "b", "c", "d"], log) == counted  # every float equal, not close


def test_points_in_thirds_are_added_match_by_match_in_order():
    import random

    from tourney.tournament.rating import standings

    log = random_log(random.Random(7), ["a", "b", "c"], 500, points=(1.0 / 3.0, 2.0 / 3.0))
    assert len(standings._weighted(log)) == len(log)  # a third is no whole number of 2**-k: order matters
