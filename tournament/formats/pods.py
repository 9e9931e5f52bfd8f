"""Pods for games of 3 to 6 players: rounds of tables in which every pair meets about equally often.

For k*k players in pods of a prime k (9 in pods of 3, 25 in pods of 5) the affine plane of
order k is used: k+1 rounds in which every pair meets exactly once. Otherwise a greedy
balancer: each round, the players with the fewest games so far sit down (all of them when
the field divides into pods), and a seeded local search splits them into pods that minimise
the sum of squared pair counts, so rare pairs are preferred; rounds are added until every
pair has met at least once. It often finds an exact design where one exists (9 in pods of
3); otherwise some pairs meet more often than others (tests check everyone meets everyone
and games per player differ by at most one).

Each pod plays `games` games with the seats rotated one place per game; `k` consecutive
games share a seed, so every seat plays the same deal once.
"""

from __future__ import annotations

import random
from collections import Counter
from itertools import combinations

from tourney.tournament.formats.pairing import Pairing, encounters, seeds_used

RESTARTS = 12


def pod_count_rounds(n: int, k: int) -> int:
    """Rounds needed for every pair to be able to meet once: ceil((n-1)/(k-1)) with full tables."""
    per_round = n // k
    if per_round == 0:
        return 1
    pairs_needed = n * (n - 1) // 2
    pairs_per_round = per_round * k * (k - 1) // 2
    return max(-(-(n - 1) // (k - 1)), -(-pairs_needed // pairs_per_round))


def affine_plane(k: int) -> list[list[tuple[int, ...]]] | None:
    """The affine plane of order k (k prime): k*k players in k+1 rounds of k pods of k, every
    pair together exactly once. Player (x, y) is x*k + y; round m < k holds the lines
    y = m*x + c, round k the lines x = c. None when k is not prime."""
    if k < 2 or any(k % d == 0 for d in range(2, int(k ** 0.5) + 1)):
        return None
    rounds = []
    for m in range(k):
        rounds.append(sorted(tuple(sorted(x * k + (m * x + c) % k for x in range(k))) for c in range(k)))
    rounds.append([tuple(c * k + y for y in range(k)) for c in range(k)])
    return rounds


def pod_rounds(n: int, k: int, rounds: int | None, seed: int = 0) -> list[list[tuple[int, ...]]]:
    """`rounds` rounds of disjoint pods of k players out of n (n >= k).

    With rounds None: as many rounds as it takes for every pair to have met at least once
    (never fewer than the lower bound, never more than four times it).
    """
    if not 2 <= k <= n:
        raise ValueError(f"pods of {k} need at least {k} entrants and k >= 2")
    design = affine_plane(k) if n == k * k else None
    if design is not None and (rounds is None or rounds % len(design) == 0):
        # A known resolvable design beats the greedy balancer: every pair exactly once a cycle.
        return design * ((rounds or len(design)) // len(design))
    rng = random.Random(seed)
    met: Counter[tuple[int, int]] = Counter()
    games = [0] * n
    out: list[list[tuple[int, ...]]] = []
    bound = pod_count_rounds(n, k)
    all_pairs = n * (n - 1) // 2
    while True:
        if rounds is not None and len(out) >= rounds:
            break
        if rounds is None and len(out) >= bound and (len(met) == all_pairs or len(out) >= 4 * bound):
            break
        seats = (n // k) * k
        order = sorted(range(n), key=lambda i: (games[i], rng.random()))
        playing = order[:seats]
        best: list[list[int]] | None = None
        best_cost = None
        for _ in range(RESTARTS):
            rng.shuffle(playing)
            pods = [playing[i:i + k] for i in range(0, seats, k)]
            cost = _improve(pods, met)
            if best_cost is None or cost < best_cost:
                best, best_cost = [list(p) for p in pods], cost
        assert best is not None
        round_pods = [tuple(sorted(p)) for p in best]
        for pod in round_pods:
            for a, b in combinations(pod, 2):
                met[(a, b)] += 1
            for p in pod:
                games[p] += 1
        out.append(sorted(round_pods))
    return out


def _pod_cost(pod: list[int], met: Counter[tuple[int, int]]) -> int:
    return sum((met[(min(a, b), max(a, b))] + 1) ** 2 for a, b in combinations(pod, 2))


def _improve(pods: list[list[int]], met: Counter[tuple[int, int]]) -> int:
    """Swap players between pods while that lowers the cost; return the final cost."""
    improved = True
    while improved:
        improved = False
        for i, j in combinations(range(len(pods)), 2):
            for x in range(len(pods[i])):
                for y in range(len(pods[j])):
                    before = _pod_cost(pods[i], met) + _pod_cost(pods[j], met)
                    pods[i][x], pods[j][y] = pods[j][y], pods[i][x]
                    if _pod_cost(pods[i], met) + _pod_cost(pods[j], met) < before:
                        improved = True
                    else:
                        pods[i][x], pods[j][y] = pods[j][y], pods[i][x]
    return sum(_pod_cost(p, met) for p in pods)


def pod_schedule(n: int, k: int, games_per_pod: int | None = None, rounds: int | None = None,
                 cycles: int = 1, seed: int = 0) -> list[Pairing]:
    """The full schedule: rounds of pods, each pod playing its games with rotated seats."""
    games = games_per_pod if games_per_pod is not None else k
    if games < 1 or cycles < 1:
        raise ValueError("games per pod and cycles must be at least 1")
    one_cycle = pod_rounds(n, k, rounds, seed)
    total_rounds = len(one_cycle) * cycles
    schedule: list[Pairing] = []
    seed_offset = 0
    for r, pods in enumerate(pod_rounds(n, k, total_rounds, seed) if cycles > 1 else one_cycle):
        for pod in pods:
            for seats, step in encounters(tuple(pod), games):
                schedule.append(Pairing(len(schedule), r, seats, seed_offset + step))
            seed_offset += seeds_used(k, games)
    return schedule
