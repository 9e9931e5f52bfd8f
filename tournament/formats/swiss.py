"""Swiss pairing for two-player games, and the multiplayer Swiss pods.

`swiss_round` pairs by the FIDE Dutch rules (tournament.formats.dutch) at every field size. Only
when no pairing satisfies the absolute criteria at all (more rounds than the field allows)
does it fall back to the relaxed pairer here: score groups, top half against bottom half,
and rematches allowed, fewest first. The pairing is a pure function of its inputs: the
same history gives the same round.
"""

from __future__ import annotations

import itertools
from collections.abc import Sequence
from dataclasses import dataclass, field

from tourney.tournament.formats.dutch import DutchUnavailable, dutch_round
from tourney.tournament.formats.pairing import PlayedGame


@dataclass
class PlayerState:
    """What the pairer knows about one player after the games so far."""

    index: int
    score: float = 0.0
    opponents: set[int] = field(default_factory=set)
    seat_balance: int = 0  # seat-0 games minus seat-1 games
    last_seat: int | None = None
    byes: int = 0


def player_states(n: int, history: Sequence[PlayedGame]) -> list[PlayerState]:
    """Scores, opponents, seat balance and byes from the games so far."""
    states = [PlayerState(i) for i in range(n)]
    for g in history:
        if len(g.seats) == 1:
            s = states[g.seats[0]]
            s.byes += 1
            s.score += g.points[0]
            continue
        a, b = g.seats
        states[a].score += g.points[0]
        states[b].score += g.points[1]
        states[a].opponents.add(b)
        states[b].opponents.add(a)
        states[a].seat_balance += 1
        states[b].seat_balance -= 1
        states[a].last_seat, states[b].last_seat = 0, 1
    return states


MAX_TAIL = 32  # pairs re-paired by backtracking when the greedy pass leaves players over


def rounds_of(history: Sequence[PlayedGame]) -> list[list[PlayedGame]]:
    """Split a flat history into rounds: a round ends where a player turns up in a second, different pairing
    (the several games of one pairing stay together)."""
    rounds: list[list[PlayedGame]] = []
    current: list[PlayedGame] = []
    table_of: dict[int, frozenset[int]] = {}
    for g in history:
        table = frozenset(g.seats)
        if any(table_of.get(p, table) != table for p in g.seats):
            rounds.append(current)
            current, table_of = [], {}
        current.append(g)
        table_of.update(dict.fromkeys(g.seats, table))
    if current:
        rounds.append(current)
    return rounds


def swiss_round(n: int, history: Sequence[PlayedGame], total_rounds: int | None = None
                ) -> tuple[list[tuple[int, int]], int | None]:
    """Pair the next round of an n-player Swiss by the FIDE Dutch rules: (white/seat-0, seat-1) pairs and the bye.

    Entrants are numbered by starting rank (0 = top seed). `total_rounds`, when known, lets the
    last round treat topscorers as the rules do.
    """
    if n < 2:
        raise ValueError("a Swiss round needs at least two players")
    try:
        return dutch_round(n, rounds_of(history), total_rounds)
    except DutchUnavailable:
        return relaxed_round(n, history)


def relaxed_round(n: int, history: Sequence[PlayedGame]) -> tuple[list[tuple[int, int]], int | None]:
    """A round when every legal pairing is exhausted: rematches allowed, as few as the search finds."""
    states = player_states(n, history)
    order = sorted(range(n), key=lambda i: (-states[i].score, i))
    if n % 2 == 0:
        return [_seat(a, b, states) for a, b in _pair(order, states)], None
    # The bye goes to the lowest-ranked player with the fewest byes, unless the others could
    # then only be paired with a rematch: then to the next one up, and so on.
    fewest = min(s.byes for s in states)
    candidates = [i for i in reversed(order) if states[i].byes == fewest]
    first: tuple[list[tuple[int, int]], int] | None = None
    for bye in candidates:
        pairs = _pair([i for i in order if i != bye], states)
        if first is None:
            first = (pairs, bye)
        if not any(b in states[a].opponents for a, b in pairs):
            return [_seat(a, b, states) for a, b in pairs], bye
    assert first is not None
    return [_seat(a, b, states) for a, b in first[0]], first[1]


def _pair(order: list[int], states: list[PlayerState]) -> list[tuple[int, int]]:
    pairs: list[tuple[int, int]] = []
    floaters: list[int] = []
    i = 0
    while i < len(order):
        j = i
        score = states[order[i]].score
        while j < len(order) and states[order[j]].score == score:
            j += 1
        group = floaters + order[i:j]
        got, floaters = _pair_group(group, states)
        pairs.extend(got)
        i = j
    if not floaters:
        return pairs
    # The tail could not be paired: re-pair a growing tail with a backtracking search.
    tail = 1
    while tail < min(len(pairs), MAX_TAIL):
        tail = min(len(pairs), MAX_TAIL, tail * 2)
        kept = pairs[: len(pairs) - tail]
        loose = sorted({p for pair in pairs[len(pairs) - tail:] for p in pair} | set(floaters),
                       key=lambda x: (-states[x].score, x))
        found = _backtrack(loose, states, allow_rematch=False, seats_must_fit=True)
        if found is None:
            found = _backtrack(loose, states, allow_rematch=False)
        if found is not None:
            return kept + found
    if len(order) <= MAX_TAIL * 2:
        found = _backtrack(order, states, allow_rematch=False)
        if found is not None:
            return found
    return _fewest_repeats(order, states)


def _fewest_repeats(order: list[int], states: list[PlayerState]) -> list[tuple[int, int]]:
    """Greedy last resort when no rematch-free round exists: new opponents first, then close scores."""
    rest = list(order)
    pairs = []
    while rest:
        a = rest.pop(0)
        b = min(rest, key=lambda x: (x in states[a].opponents, abs(states[a].score - states[x].score)))
        rest.remove(b)
        pairs.append((a, b))
    return pairs


def _pair_group(group: list[int], states: list[PlayerState]) -> tuple[list[tuple[int, int]], list[int]]:
    """Top half against bottom half, the nearest non-rematch partner when the natural one was met."""
    half = len(group) // 2
    top, bottom = group[:half], group[half:]
    pairs = []
    unpaired_top = []
    free = list(bottom)
    for a in top:
        b = _partner(a, free, states)
        if b is None:
            unpaired_top.append(a)
        else:
            free.remove(b)
            pairs.append((a, b))
    rest = unpaired_top + free
    # Pair what is left among itself before floating it down (heterogeneous pairs).
    left: list[int] = []
    while rest:
        a = rest.pop(0)
        b = _partner(a, rest, states)
        if b is None:
            left.append(a)
        else:
            rest.remove(b)
            pairs.append((a, b))
    return pairs, left


def _partner(a: int, candidates: list[int], states: list[PlayerState]) -> int | None:
    """The first candidate `a` has not met whose seat history fits (nobody pushed past ±2); else None (a floats)."""
    return next((x for x in candidates if x not in states[a].opponents and _seats_fit(states[a], states[x])), None)


def _seats_fit(a: PlayerState, b: PlayerState) -> bool:
    """Both due the same seat with a difference of 2 already: one of them would reach 3."""
    return not ((a.seat_balance >= 2 and b.seat_balance >= 2) or (a.seat_balance <= -2 and b.seat_balance <= -2))


def _backtrack(players: list[int], states: list[PlayerState], allow_rematch: bool, seats_must_fit: bool = False,
               budget: int = 50_000) -> list[tuple[int, int]] | None:
    """Pair `players` (score order) exhaustively, preferring close scores; None if impossible."""
    steps = 0

    def cost(a: int, b: int) -> tuple[int, float]:
        repeat = 1 if b in states[a].opponents else 0
        return repeat, abs(states[a].score - states[b].score)

    def go(rest: list[int]) -> list[tuple[int, int]] | None:
        nonlocal steps
        if not rest:
            return []
        steps += 1
        if steps > budget:
            return None
        a, others = rest[0], rest[1:]
        candidates = [b for b in others if (allow_rematch or b not in states[a].opponents)
                      and (not seats_must_fit or _seats_fit(states[a], states[b]))]
        candidates.sort(key=lambda b: cost(a, b))
        for b in candidates:
            sub = go([x for x in others if x != b])
            if sub is not None:
                return [(a, b), *sub]
        return None

    return go(list(players))


def _seat(a: int, b: int, states: list[PlayerState]) -> tuple[int, int]:
    """Seat 0 to whoever has had it less; on a tie, to whoever did not have it last; else the higher rank."""
    sa, sb = states[a], states[b]
    if sa.seat_balance != sb.seat_balance:
        return (a, b) if sa.seat_balance < sb.seat_balance else (b, a)
    if sa.last_seat != sb.last_seat:
        if sa.last_seat == 0 or sb.last_seat == 1:
            return (b, a)
        return (a, b)
    return (a, b) if (a < b) == (len(sa.opponents) % 2 == 0) else (b, a)


WINDOW = 2  # multiplayer Swiss: how many pods' worth of players (in rank order) a pod may draw from


def swiss_pods(n: int, k: int, history: Sequence[PlayedGame]) -> tuple[list[tuple[int, ...]], list[int]]:
    """Pair a Swiss round of a k-player game: pods by score, repeat opponents minimised.

    Players are ranked by score (then starting rank); each pod takes the best-ranked free
    player and fills up from the next 2k in rank order, preferring players who have met fewer
    of those already seated; then repair_pods swaps players while that lowers the number of
    opponents met before. Pods thus stay near their score. When k does
    not divide n, the lowest-ranked players with the fewest byes sit out
    with a bye. Returns the pods (seat order: the player who has had the fewest first seats
    first) and the players on a bye.
    """
    if not 2 <= k <= n:
        raise ValueError(f"pods of {k} need at least {k} players")
    states = player_states_multi(n, history)
    order = sorted(range(n), key=lambda i: (-states[i].score, i))
    out = n % k
    byes: list[int] = []
    if out:
        fewest = sorted(order[::-1], key=lambda i: states[i].byes)  # stable: lowest rank first among equals
        byes = fewest[:out]
        order = [i for i in order if i not in byes]
    # Build pods top down: the best-ranked free player, then k-1 more from the next few in
    # rank order, each the first who has met the fewest of those already seated.
    pods: list[list[int]] = []
    free = list(order)
    while free:
        pod = [free.pop(0)]
        while len(pod) < k:
            window = free[:WINDOW * k]
            pick = min(window, key=lambda x: sum(1 for y in pod if y in states[x].opponents))
            free.remove(pick)
            pod.append(pick)
        pods.append(pod)

    repair_pods(pods, states)
    seated = [tuple(sorted(pod, key=lambda i: (states[i].seat_balance, i))) for pod in pods]
    return seated, sorted(byes)


REPAIR_REACH = 16  # pods on either side a repeated player may swap with (same score only)
EXACT_GROUP = 12  # a score group this small (3 pods of 4) is split exactly, by trying every split


def pod_repeats(pod: Sequence[int], states: Sequence[PlayerState]) -> int:
    """Pairs in the pod who have met before."""
    return sum(1 for i, a in enumerate(pod) for b in pod[i + 1:] if b in states[a].opponents)


def repair_pods(pods: list[list[int]], states: Sequence[PlayerState]) -> None:
    """Lower the repeats: swap players of equal score between pods up to REPAIR_REACH pods apart (which scores
    sit in which pod stays the same), and any two players of neighbouring pods (scores move one pod at most),
    while that lowers the repeats of both pods; a score group that fits in a few pods is split exactly.
    Bounded: every accepted swap lowers the total, so it stops."""
    _exact_small_groups(pods, states)
    improved = True
    while improved:
        improved = False
        for p, pod in enumerate(pods):
            if pod_repeats(pod, states) == 0:
                continue
            for reach in range(1, REPAIR_REACH + 1):
                for q in (p - reach, p + reach):
                    if 0 <= q < len(pods) and _improving_swap(pod, pods[q], states, same_score=reach > 1):
                        improved = True
                if pod_repeats(pod, states) == 0:
                    break


def _improving_swap(a_pod: list[int], b_pod: list[int], states: Sequence[PlayerState], same_score: bool) -> bool:
    """Make the first swap (of equal-score players, if asked) that lowers the repeats of the two pods; True if made."""
    before = pod_repeats(a_pod, states) + pod_repeats(b_pod, states)
    for x in range(len(a_pod)):
        for y in range(len(b_pod)):
            if same_score and states[a_pod[x]].score != states[b_pod[y]].score:
                continue
            a_pod[x], b_pod[y] = b_pod[y], a_pod[x]
            if pod_repeats(a_pod, states) + pod_repeats(b_pod, states) < before:
                return True
            a_pod[x], b_pod[y] = b_pod[y], a_pod[x]
    return False


def _exact_small_groups(pods: list[list[int]], states: Sequence[PlayerState]) -> None:
    """Pods made of one score group of at most EXACT_GROUP players: the split with the fewest repeats."""
    start = 0
    while start < len(pods):
        score = states[pods[start][0]].score
        end = start
        while end < len(pods) and all(states[x].score == score for x in pods[end]):
            end += 1
        group = [x for pod in pods[start:end] for x in pod]
        if end - start > 1 and len(group) <= EXACT_GROUP:
            best = min(_splits(group, len(pods[start])),
                       key=lambda split: sum(pod_repeats(q, states) for q in split))
            pods[start:end] = [list(q) for q in best]
        start = max(end, start + 1)


def _splits(players: list[int], k: int) -> list[list[list[int]]]:
    """Every way to cut `players` into pods of k (the first player always in the first pod: no duplicates)."""
    if not players:
        return [[]]
    first, rest = players[0], players[1:]
    out: list[list[list[int]]] = []
    for mates in itertools.combinations(rest, k - 1):
        left = [x for x in rest if x not in mates]
        out.extend([[first, *mates], *tail] for tail in _splits(left, k))
    return out


def player_states_multi(n: int, history: Sequence[PlayedGame]) -> list[PlayerState]:
    """Like player_states, for matches of any size: everyone at a table is an opponent; seat 0 counts as +1."""
    states = [PlayerState(i) for i in range(n)]
    for g in history:
        if len(g.seats) == 1:
            states[g.seats[0]].byes += 1
            states[g.seats[0]].score += g.points[0]
            continue
        for seat, who in enumerate(g.seats):
            s = states[who]
            s.score += g.points[seat]
            s.opponents.update(x for x in g.seats if x != who)
            s.seat_balance += 1 if seat == 0 else 0
    return states
