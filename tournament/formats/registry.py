"""Formats: which pairings a round holds, as a pure function of the plan and the results so far.

`next_round(spec, n, history, r)` returns round r's pairings, or None when the tournament is
over; each format is an entry of the FORMATS registry (how it plans a round, how many matches
it plays), so adding one is adding an entry. Pairings, played games and the expansion of a
table into games live in tournament/formats/pairing.py.

Numbers (the match's place in the tournament) and seed offsets depend only on the format,
the round and the stored results of earlier rounds, so a resumed tournament plans exactly
the rounds the interrupted one would have, and skips what is already stored.

- round-robin: all rounds at once (Berger tables, or pods for 3-6 players).
- gauntlet: the challenger (first entrant) against every other, all at once.
- swiss: one round at a time from the standings after the previous rounds (FIDE Dutch,
  tournament/formats/dutch.py, at every size; pods for 3-6 players).
- SPRT runs (gauntlet with --sprt): batches of duplicate pairs until the test decides.
- solo: each entrant alone against the game itself (Tiny Ninjas' Solo AI), every entrant on
  the same seeds, so all face the same decks and the same AI dice.
"""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from dataclasses import dataclass

from tourney.tournament.formats import swiss
from tourney.tournament.formats.dutch import DutchUnavailable, dutch_round
from tourney.tournament.formats.gauntlet import gauntlet
from tourney.tournament.formats.pairing import Pairing, PlayedGame, encounters, seeds_used
from tourney.tournament.formats.pods import pod_count_rounds, pod_schedule
from tourney.tournament.formats.round_robin import round_robin
from tourney.tournament.rating.sprt import SprtState, pentanomial, sprt

SPRT_PAIRS_PER_ROUND = 8  # duplicate pairs per opponent between two looks at the test
SPRT_MAX_ROUNDS = 500
# One run holds at most this many matches: its schedule is planned up front (about 150 bytes and
# 2 us a match), so ten million is a run of over an hour that still fits in memory, while a typo of
# --games-per-pair 10**20 is refused at once instead of planning forever.
MAX_MATCHES = 10_000_000


@dataclass(frozen=True)
class FormatSpec:
    """The settings that decide the schedule."""

    format: str = "round-robin"
    players: int = 2
    games_per_pair: int = 2
    cycles: int = 1
    rounds: int | None = None
    challenger: int = 0
    sprt: tuple[float, float, float, float] | None = None  # elo0, elo1, alpha, beta
    seed: int = 1
    sprt_elo: str = "logistic"  # the scale of elo0, elo1


def default_swiss_rounds(n: int) -> int:
    """ceil(log2 n) + 1 rounds: enough to separate a clear winner."""
    return max(1, (n - 1).bit_length() + 1)


def swiss_stride(spec: FormatSpec, n: int) -> int:
    """Numbers (and seed offsets) reserved per Swiss round, so a round's numbers never depend on the last."""
    return (n + 1) * spec.games_per_pair


def sprt_stride(n: int) -> int:
    """Numbers reserved per round of an SPRT run: its batch of duplicate pairs against every opponent."""
    return (n - 1) * 2 * SPRT_PAIRS_PER_ROUND


@dataclass(frozen=True)
class Format:
    """How a format plans: round r's pairings from the games of earlier rounds (None: it is over), how
    many matches the whole tournament plays (an upper bound when a test decides when to stop), and a
    bound on that count by arithmetic alone (`most`: checked against MAX_MATCHES before planning)."""

    plan_round: Callable[[FormatSpec, int, Sequence[PlayedGame], int], list[Pairing] | None]
    total: Callable[[FormatSpec, int], int]
    most: Callable[[FormatSpec, int], int]


def up_front(schedule: Callable[[FormatSpec, int], list[Pairing]], most: Callable[[FormatSpec, int], int]) -> Format:
    """A format whose whole schedule is known at the start: all of it is round 0 of the driver."""
    return Format(lambda spec, n, _earlier, r: schedule(spec, n) if r == 0 else None,
                  lambda spec, n: len(schedule(spec, n)), most)


def round_robin_most(spec: FormatSpec, n: int) -> int:
    """Every pair's games each cycle; pods: every round's full tables (pods.py plans at most four times
    the rounds every pair needs to meet when --rounds is not given), each table playing a game per seat."""
    if spec.players == 2:
        return n * (n - 1) // 2 * spec.games_per_pair * spec.cycles
    k = spec.players
    rounds = spec.rounds if spec.rounds is not None else 4 * pod_count_rounds(n, k)
    return rounds * spec.cycles * (n // k) * k


def round_robin_schedule(spec: FormatSpec, n: int) -> list[Pairing]:
    """Berger tables for two players, pods for more."""
    if spec.players == 2:
        return round_robin(n, spec.games_per_pair, spec.cycles)
    return pod_schedule(n, spec.players, rounds=spec.rounds, cycles=spec.cycles, seed=spec.seed)


def gauntlet_schedule(spec: FormatSpec, n: int) -> list[Pairing]:
    """The challenger against every other entrant."""
    return gauntlet(n, spec.challenger, spec.games_per_pair, spec.cycles)


def solo_schedule(n: int, games: int) -> list[Pairing]:
    """Every entrant plays `games` matches alone; game k has the same seed for everyone."""
    return [Pairing(k * n + e, 0, (e,), k) for k in range(games) for e in range(n)]


def swiss_round(spec: FormatSpec, n: int, earlier: Sequence[PlayedGame], r: int) -> list[Pairing] | None:
    """The next Swiss round until the set number of rounds is played."""
    if r >= (spec.rounds or default_swiss_rounds(n)):
        return None
    return swiss_pairings(spec, n, earlier, r)


def swiss_total(spec: FormatSpec, n: int) -> int:
    """Every Swiss round seats everyone it can (n // players tables), each table playing games_per_pair games."""
    return (spec.rounds or default_swiss_rounds(n)) * (n // spec.players) * spec.games_per_pair


def sprt_round(spec: FormatSpec, n: int, earlier: Sequence[PlayedGame], r: int) -> list[Pairing] | None:
    """Another batch of duplicate pairs against the field, until the test decides or the rounds run out."""
    if r >= (spec.rounds or SPRT_MAX_ROUNDS) or sprt_state(spec, earlier).verdict != "continue":
        return None
    first = r * sprt_stride(n)
    return gauntlet(n, spec.challenger, 2 * SPRT_PAIRS_PER_ROUND, 1, first_number=first, first_seed=first,
                    round_index=r)


def sprt_total(spec: FormatSpec, n: int) -> int:
    """Every batch the SPRT may play before its round cap."""
    return (spec.rounds or SPRT_MAX_ROUNDS) * sprt_stride(n)


SPRT = Format(sprt_round, sprt_total, sprt_total)
FORMATS: Mapping[str, Format] = {
    "round-robin": up_front(round_robin_schedule, round_robin_most),
    "swiss": Format(swiss_round, swiss_total, swiss_total),
    "gauntlet": up_front(gauntlet_schedule, lambda spec, n: (n - 1) * spec.games_per_pair * spec.cycles),
    "solo": up_front(lambda spec, n: solo_schedule(n, spec.games_per_pair * spec.cycles),
                     lambda spec, n: n * spec.games_per_pair * spec.cycles),
}


def format_of(spec: FormatSpec) -> Format:
    """The format a spec names (a gauntlet with --sprt runs as the SPRT's batches)."""
    return SPRT if spec.sprt is not None and spec.format == "gauntlet" else FORMATS[spec.format]


def total_estimate(spec: FormatSpec, n: int) -> int:
    """How many matches the tournament plays (an upper bound for SPRT runs)."""
    return format_of(spec).total(spec, n)


def matches_at_most(spec: FormatSpec, n: int) -> int:
    """A bound on the matches of `spec` over n entrants, by arithmetic alone (nothing is planned)."""
    return format_of(spec).most(spec, n)


def next_round(spec: FormatSpec, n: int, history: Sequence[PlayedGame], r: int) -> list[Pairing] | None:
    """Round r's pairings from the results of rounds before r; None once the tournament is over."""
    return format_of(spec).plan_round(spec, n, [g for g in history if g.round < r], r)


def swiss_pairings(spec: FormatSpec, n: int, earlier: Sequence[PlayedGame], r: int) -> list[Pairing]:
    """A Swiss round: each pair plays games_per_pair games (seats alternate, duplicate seeds); a bye is one entry."""
    if spec.players != 2:
        return swiss_pod_pairings(spec, n, earlier, r)
    by_round = [[g for g in earlier if g.round == k] for k in range(r)]
    try:
        pairs, bye = dutch_round(n, by_round, spec.rounds or default_swiss_rounds(n))
    except DutchUnavailable:  # no legal pairing left (more rounds than the field allows): rematches, fewest first
        pairs, bye = swiss.relaxed_round(n, earlier)
    first = r * swiss_stride(spec, n)
    out: list[Pairing] = []
    for i, (a, b) in enumerate(pairs):
        for seats, step in encounters((a, b), spec.games_per_pair):
            out.append(Pairing(first + len(out), r, seats, first + i * spec.games_per_pair + step))
    if bye is not None:
        out.append(Pairing(first + len(out), r, (bye,), -1))
    return out


def swiss_pod_pairings(spec: FormatSpec, n: int, earlier: Sequence[PlayedGame], r: int) -> list[Pairing]:
    """A Swiss round of a multiplayer game: pods by score, each playing games_per_pair games with seats
    rotated one place per game (k consecutive games share a seed); byes for who sits out."""
    k = spec.players
    pods, byes = swiss.swiss_pods(n, k, earlier)
    first = r * swiss_stride(spec, n)
    out: list[Pairing] = []
    seed = first
    for pod in pods:
        for seats, step in encounters(pod, spec.games_per_pair):
            out.append(Pairing(first + len(out), r, seats, seed + step))
        seed += seeds_used(k, spec.games_per_pair)
    for b in byes:
        out.append(Pairing(first + len(out), r, (b,), -1))
    return out


def sprt_state(spec: FormatSpec, history: Sequence[PlayedGame]) -> SprtState:
    """The SPRT on the challenger's complete duplicate pairs (both games stored) so far."""
    assert spec.sprt is not None
    elo0, elo1, alpha, beta = spec.sprt
    # A pair is two consecutive match numbers (an SPRT batch starts on an even one), not a shared
    # seed: a seat that remembers plays a pair on two deals (TournamentPlan.seed_of).
    by_pair: dict[tuple[int, int], list[float]] = {}
    for g in history:
        if spec.challenger not in g.seats or len(g.seats) != 2:
            continue
        opponent = next(s for s in g.seats if s != spec.challenger)
        by_pair.setdefault((g.number // 2, opponent), []).append(g.points[g.seats.index(spec.challenger)])
    pairs = [sum(v) for v in by_pair.values() if len(v) == 2]
    return sprt(pentanomial(pairs), elo0, elo1, alpha, beta, spec.sprt_elo)
