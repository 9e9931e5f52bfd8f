"""League rounds played on a running arena (`tourney serve --leagues`), where remote bots are connected.

The arena plays each match through its ordinary RunMatch path (remote seats are the bots'
sessions, other seats built-in bots), and the record comes back as the tournament store's
MatchRecord. A remote bot with no session for the game is offline and forfeits (see
tournament/league.py); one that leaves mid-round forfeits the matches it could not start.
"""

from __future__ import annotations

import asyncio
import json
import re
import threading
import traceback
from collections.abc import Callable, Iterator, Sequence
from typing import Any

from engine.core import Outcome, TourneyError
from engine.server.arena import ABORTED, REMOTE_PREFIX, Arena, ArenaError
from engine.server.client import rpc_detail
from engine.server.generated import arena_pb2 as pb
from tournament.league import REMOTE, Clock, forfeit, run_due, utc_now
from tournament.round_robin import Pairing
from tournament.runner import MatchRecord, Played, SeatRecord, TournamentPlan, pack_replay
from tournament.store import dumps, open_store

SEAT_WAIT_S = 30.0  # a connected bot busy with other matches gets this long to free a slot


def record_from_arena(plan: TournamentPlan, pairing: Pairing, record: pb.MatchRecord) -> MatchRecord:
    """The store's form of an arena match record: tiers from ranks, points, clocks and faults from the replay."""
    n = len(pairing.seats)
    aliases = [plan.entrants[e].alias for e in pairing.seats]
    replay: dict[str, Any] = json.loads(record.replay_json) if record.replay_json else {}
    decisions = [0] * n
    think = [0.0] * n
    faults: list[dict[str, int]] = [{} for _ in range(n)]
    for step in replay.get("steps", []):
        for seat, _index, ms, fault in step:
            decisions[seat] += 1
            think[seat] += float(ms) / 1000.0
            if fault:
                faults[seat][fault] = faults[seat].get(fault, 0) + 1
    ranks = list(record.ranks)
    if record.termination == ABORTED or len(ranks) != n:  # void: nobody scores
        seats = tuple(SeatRecord(aliases[i], 0, n, 0.0, 0.0, decisions[i], think[i], dumps(faults[i]))
                      for i in range(n))
    else:
        levels = sorted(set(ranks))
        ranking = tuple(tuple(i for i in range(n) if ranks[i] == level) for level in levels)
        outcome = Outcome(ranking, tuple(record.scores), record.reason)
        seats = tuple(SeatRecord(aliases[i], levels.index(ranks[i]), ranks.count(ranks[i]), outcome.points(i),
                                 float(record.scores[i]) if i < len(record.scores) else 0.0, decisions[i], think[i],
                                 dumps(faults[i])) for i in range(n))
    return MatchRecord(record.seed, n, record.termination, record.reason, len(replay.get("steps", [])),
                       pack_replay(replay) if replay else "", dumps({"arena_match_id": record.match_id}), seats)


class ArenaExecutor:
    """Plays a round's pairings on `arena` (whose event loop is `loop`), a few at a time."""

    def __init__(self, arena: Arena, loop: asyncio.AbstractEventLoop, workers: int = 8) -> None:
        self.arena = arena
        self.loop = loop
        self.workers = workers

    def online(self, spec: str) -> bool:
        """Built-in bots are always there; remote:NAME needs a connected session."""
        if not spec.startswith(REMOTE):
            return True
        return bool(self.arena.connected(spec[len(REMOTE):]))

    def presence_for(self, game_id: str) -> Callable[[str], bool]:
        def present(spec: str) -> bool:
            if not spec.startswith(REMOTE):
                return True
            return any(s.plays(game_id) for s in self.arena.connected(spec[len(REMOTE):]))
        return present

    def _play(self, plan: TournamentPlan, pairing: Pairing) -> Played:
        seed = plan.match_seed(pairing.seed_offset)
        specs = [REMOTE_PREFIX + e.spec[len(REMOTE):] if e.spec.startswith(REMOTE) else e.spec
                 for e in (plan.entrants[i] for i in pairing.seats)]
        started = self.loop.time()
        future = asyncio.run_coroutine_threadsafe(
            self.arena.run_match(plan.game, specs, seed, plan.config, plan.move_ms or 0, SEAT_WAIT_S), self.loop)
        try:
            record = future.result()
        except ArenaError:
            # A remote bot left (or stayed busy) before the match could start: it forfeits.
            present = self.presence_for(plan.game)
            return forfeit(plan, pairing, {e: present(plan.entrants[e].spec) for e in pairing.seats})
        return pairing, record_from_arena(plan, pairing, record), self.loop.time() - started

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing]) -> Iterator[list[Played]]:
        from concurrent.futures import ThreadPoolExecutor, as_completed

        if not pairings:
            return
        with ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="league") as pool:
            futures = [pool.submit(self._play, plan, p) for p in pairings]
            for done in as_completed(futures):
                yield [done.result()]

    def close(self) -> None:
        pass


_NOT_CONNECTED = re.compile(r"no bot named '([^']*)'")


class RemoteLeagueExecutor:
    """Plays a round's pairings on the arena at `address` through RunMatch (`run-due --arena`).

    Whether a remote bot is connected shows only when its match is asked for: the arena answers
    FAILED_PRECONDITION naming the bot, and that bot forfeits the match.
    """

    def __init__(self, address: str, admin_token: str = "", workers: int = 4, wait_s: int = 0) -> None:
        """wait_s: how long the arena waits for a busy remote bot's free slot (0: the arena's own default)."""
        self.address = address
        self.admin_token = admin_token
        self.workers = workers
        self.wait_s = wait_s

    def _play(self, plan: TournamentPlan, pairing: Pairing) -> Played:
        import time

        import grpc

        seed = plan.match_seed(pairing.seed_offset)
        specs = [plan.entrants[i].spec for i in pairing.seats]
        request = pb.RunMatchRequest(admin_token=self.admin_token, game=plan.game, seats=specs, seed=seed,
                                     config_json=json.dumps(plan.config), move_ms=plan.move_ms or 0,
                                     wait_s=self.wait_s)
        started = time.perf_counter()
        with grpc.insecure_channel(self.address) as channel:
            call = channel.unary_unary("/tourney.v1.Arena/RunMatch",
                                       request_serializer=pb.RunMatchRequest.SerializeToString,
                                       response_deserializer=pb.MatchRecord.FromString)
            try:
                record = call(request, timeout=3600)
            except grpc.RpcError as exc:
                code = exc.code() if isinstance(exc, grpc.Call) else None
                detail = rpc_detail(exc)
                missing = _NOT_CONNECTED.search(detail)
                if code == grpc.StatusCode.FAILED_PRECONDITION and missing:
                    away = REMOTE + missing.group(1)
                    return forfeit(plan, pairing, {e: plan.entrants[e].spec != away for e in pairing.seats})
                raise ArenaUnreachable(f"the arena at {self.address} did not play a league match ({detail}): "
                                       "check --arena and --admin-token.") from None
        return pairing, record_from_arena(plan, pairing, record), time.perf_counter() - started

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing]) -> Iterator[list[Played]]:
        from concurrent.futures import ThreadPoolExecutor, as_completed

        if not pairings:
            return
        with ThreadPoolExecutor(max_workers=self.workers, thread_name_prefix="league-remote") as pool:
            futures = [pool.submit(self._play, plan, p) for p in pairings]
            for done in as_completed(futures):
                yield [done.result()]

    def close(self) -> None:
        pass


class ArenaUnreachable(TourneyError):
    """The arena named by --arena refused or could not be reached."""


class LeagueLoop:
    """`tourney serve --leagues`: a thread that plays due league rounds on this arena every `interval_s`."""

    def __init__(self, arena: Arena, loop: asyncio.AbstractEventLoop, db: str, interval_s: float = 30.0,
                 clock: Clock = utc_now) -> None:
        self.engine = open_store(db)
        self.clock = clock
        self.executor = ArenaExecutor(arena, loop)
        self.interval_s = interval_s
        self._stop = threading.Event()
        self._thread = threading.Thread(target=self._run, name="leagues", daemon=True)

    def start(self) -> LeagueLoop:
        self._thread.start()
        return self

    def tick(self) -> int:
        """Play what is due now; returns the number of rounds played."""
        # Not metered here: the arena counts these matches live, like any other it plays.
        rounds = run_due(self.engine, clock=self.clock, executor=self.executor, presence=self.executor.online)
        return len(rounds)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.tick()
            except Exception:  # a league's trouble must not stop the arena
                traceback.print_exc()
            self._stop.wait(self.interval_s)

    def stop(self, timeout_s: float = 30.0) -> None:
        self._stop.set()
        self._thread.join(timeout_s)
