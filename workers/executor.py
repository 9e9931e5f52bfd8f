"""What every executor is: the one `Executor` protocol, the plan it plays, and the played-match type.

An executor (this process, Ray tasks, a running arena) plays scheduled pairings and hands each
finished chunk back as soon as it is done. Workers never look inside a pairing or a stored
record: the tournament layer makes them and writes them, which keeps the import arrows one way
(tournament -> workers -> engine).
"""

from __future__ import annotations

from collections.abc import Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from typing import Any, Protocol, TypeAlias, TypeVar

from tourney.engine.referee import MatchResult

PairingT = TypeVar("PairingT")
RecordT = TypeVar("RecordT")

# A finished match: (pairing, stored record, seconds it took). The tournament layer names the
# first two (tournament.store.records: Played[Pairing, StoredMatch]).
Played: TypeAlias = tuple[PairingT, RecordT, float]

# A source of further pairings for a run that keeps going (the ladder): called when the queue runs
# dry, it returns the next pairings, or none to let the run end once nothing is in flight.
Feed = Callable[[], Sequence[Any]]

# A bound on a chunk's size in matches (its records in memory, one task's reply, one transaction);
# time, not this, cuts chunks of real matches. At 64, a task of the shortest matches (0.4 ms each)
# lasted 25 ms and Ray's per-task cost (submission, scheduling, a reply to unpickle: ~4 ms of CPU
# in driver and raylet together) added 15-25% CPU to every match (issue 32).
MAX_CHUNK = 1024


@dataclass(frozen=True)
class Table:
    """One scheduled match as an arena plays it: each seat's bot spec and alias, the match's seed, and
    the seeds its built-in bots get (the ones a worker would give them: same match, same result)."""

    specs: list[str]
    aliases: list[str]
    seed: int
    bot_seeds: list[int]


class MatchPlan(Protocol):
    """A tournament plan as workers see it: a game id and a way to play one pairing (pure)."""

    @property
    def game(self) -> str: ...

    def play(self, pairing: Any) -> Played[Any, Any]: ...


class ArenaPlan(MatchPlan, Protocol):
    """A plan whose matches an arena plays: it says who sits at a pairing's table and stores the result."""

    @property
    def config(self) -> Mapping[str, Any]: ...

    @property
    def move_ms(self) -> int | None: ...

    def table(self, pairing: Any) -> Table: ...

    def record(self, pairing: Any, result: MatchResult, seconds: float) -> Played[Any, Any]: ...


class LeaguePlan(ArenaPlan, Protocol):
    """A plan whose seats may be offline (a league's remote bots): it records a match not played."""

    def offline(self, pairing: Any, present: Sequence[bool]) -> Played[Any, Any]: ...


class Executor(Protocol):
    """Plays pairings and yields them in chunks as they finish (in any order)."""

    @property
    def workers(self) -> int:
        """How many matches it plays at once (the cluster's CPUs once Ray is up)."""

    def run(self, plan: Any, pairings: Sequence[Any], more: Feed | None = None
            ) -> Iterator[list[Played[Any, Any]]]: ...

    def close(self) -> None: ...
