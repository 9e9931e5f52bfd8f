"""The matchmaking rule on its own: newcomers first, the most overdue next, close ratings, a bounded wait."""

from __future__ import annotations

import random

from tourney.tournament.ladder.scheduler import Scheduler

SIGMA0 = 25 / 3


def steady(scheduler: Scheduler, matches: int, rng: random.Random) -> list[tuple[str, ...]]:
    """Schedule `matches`, each finished at once with a small move of both ratings."""
    played = []
    for _ in range(matches):
        seats = scheduler.next_match()
        assert seats is not None
        played.append(seats)
        for alias in seats:
            bot = scheduler.bots[alias]
            scheduler.finished(alias, bot.mu + rng.uniform(-0.5, 0.5), max(1.0, bot.sigma * 0.98))
    return played


def test_newcomers_are_chosen_before_every_waiting_rated_bot() -> None:
    s = Scheduler(2, SIGMA0)
    for i in range(40):
        s.add(f"old{i}", 25 + i * 0.1, 3.0, matches=10)
    s.add("new1", 25, SIGMA0, matches=0)
    s.add("new2", 25, SIGMA0, matches=0)
    first, second = s.next_match(), s.next_match()
    assert first is not None and second is not None
    assert first[0] == "new1" and "new2" in first + second


def test_the_anchor_meets_the_idle_bots_closest_in_rating() -> None:
    rng = random.Random(3)
    s = Scheduler(2, SIGMA0)
    for i in range(100):
        s.add(f"b{i}", rng.uniform(0, 100), 3.0, matches=5)
    for _ in range(40):
        idle = [a for a, b in s.bots.items() if not b.busy]
        seats = s.next_match()
        assert seats is not None
        anchor, opponent = (s.bots[a] for a in seats)
        nearest = sorted(abs(s.bots[a].mu - anchor.mu) for a in idle if a != anchor.alias)
        assert abs(opponent.mu - anchor.mu) <= nearest[1]  # one of the two idle bots closest to it


def test_uncertain_bots_play_more_often_and_nobody_waits_past_the_quota() -> None:
    rng = random.Random(5)
    s = Scheduler(2, SIGMA0)
    n = 400
    for i in range(n):
        s.add(f"b{i}", rng.gauss(25, 3), SIGMA0 if i < 40 else 2.0, matches=5)
    played = steady(s, 20 * n, rng)
    counts = {f"b{i}": 0 for i in range(n)}
    for seats in played[:2 * n]:  # the first few rounds, while the uncertain ones are still uncertain
        for alias in seats:
            counts[alias] += 1
    uncertain = sum(counts[f"b{i}"] for i in range(40)) / 40
    settled = sum(counts[f"b{i}"] for i in range(40, n)) / (n - 40)
    assert uncertain > settled * 1.2
    round_ = n / 2
    assert s.longest_wait_ticks <= 2 * round_  # the quota: well under two rounds of matches
    assert min(counts.values()) >= 1


def test_too_few_idle_bots_means_no_match_and_the_busy_are_left_alone() -> None:
    s = Scheduler(3, SIGMA0)
    for name in ("a", "b", "c"):
        s.add(name, 25, SIGMA0, matches=0)
    s.add("d", 25, SIGMA0, matches=0, busy=True)  # in a match left scheduled by a stopped run
    seats = s.next_match()
    assert seats is not None and sorted(seats) == ["a", "b", "c"]
    assert s.next_match() is None
    s.finished("d", 26, 7)
    assert s.next_match() is None  # one idle bot of three needed
    assert s.bots["d"].matches == 1


def test_cost_per_match_does_not_depend_on_scanning_every_bot() -> None:
    """Stale heap entries are dropped as they surface: the heap stays within a few times the bots."""
    rng = random.Random(9)
    s = Scheduler(2, SIGMA0)
    for i in range(200):
        s.add(f"b{i}", rng.gauss(25, 3), 4.0, matches=3)
    steady(s, 20_000, rng)
    assert len(s._heap) <= 4 * 200 + 2 and len(s._idle_order) <= 4 * 200 + 2


def test_matches_ending_one_at_a_time_do_not_lock_a_small_ladder_into_fixed_pairs() -> None:
    """Four bots, two matches in flight, results arriving one at a time (as on Ray): the two bots of the
    match just rated wait for the other result rather than meeting again at once, so every pair meets."""
    rng = random.Random(11)
    s = Scheduler(2, SIGMA0)
    for name in ("a", "b", "c", "d"):
        s.add(name, 25.0, 3.0, matches=5)
    in_flight = [s.next_match(), s.next_match()]
    assert None not in in_flight and s.next_match() is None
    met: set[frozenset[str]] = set()
    for _ in range(200):
        seats = in_flight.pop(0)
        assert seats is not None
        met.add(frozenset(seats))
        for alias in seats:
            s.finished(alias, s.bots[alias].mu + rng.uniform(-0.5, 0.5), 3.0)
        while (fresh := s.next_match()) is not None:
            in_flight.append(fresh)
        assert in_flight, "with nothing in flight a match is always made"
    assert len(met) == 6  # every one of the four bots' six pairs met


def test_with_nothing_in_flight_the_same_bots_meet_again() -> None:
    """Rule 5 only ever waits on a result to come: two bots alone on a ladder play each other on and on."""
    s = Scheduler(2, SIGMA0)
    s.add("a", 25, 3.0, matches=5)
    s.add("b", 25, 3.0, matches=5)
    for _ in range(3):
        seats = s.next_match()
        assert seats is not None and sorted(seats) == ["a", "b"]
        for alias in seats:
            s.finished(alias, 25, 3.0)
