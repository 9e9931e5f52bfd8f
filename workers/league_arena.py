"""League rounds played on a running arena (`tourney serve --leagues`), where remote bots are connected.

The arena plays each match through its ordinary RunMatch path (remote seats are the bots'
sessions, other seats built-in bots), and its record comes back as the referee's MatchResult
(engine/server/results.py) and is stored like any match (runner.match_record) in its
division's tournament, so the arena's own store (`serve --db`) is skipped for it (one row
per match). A remote bot with no session for the
game is offline and forfeits (see tournament/league/forfeits.py); one that leaves mid-round forfeits
the matches it could not start. A `cmd:` member is started here for each of its matches,
with a one-match name and token, and connects to this arena like any bot.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import logging
import re
import secrets
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc

from tourney.engine.core import TourneyError
from tourney.engine.server.arena import REMOTE_PREFIX, Arena, ArenaError
from tourney.engine.server.client import rpc_detail
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.launcher import BotProcess, is_command
from tourney.engine.server.remote import RUN_MATCH
from tourney.engine.server.results import result_of
from tourney.engine.server.tokens import token_hash
from tourney.tournament.league.forfeits import forfeit
from tourney.tournament.league.members import REMOTE
from tourney.tournament.league.rounds import RoundHook, RoundReport, RoundStopped, run_due
from tourney.tournament.league.schedule import DEFAULT_CATCH_UP, DEFAULT_LEASE_S, Clock, utc_now
from tourney.tournament.pairing import Pairing
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.records import Played, match_record
from tourney.workers.executor import Feed
from tourney.workers.threads import POLL_S, play_on_threads

SEAT_WAIT_S = 30.0  # a connected bot busy with other matches gets this long to free a slot
PROGRAM_LOGS = Path("bot-logs")  # where `cmd:` members' output goes, one file per launch

log = logging.getLogger("tourney.league")


class ArenaExecutor:
    """Plays a round's pairings on `arena` (whose event loop is `loop`), a few at a time.

    address: where this arena listens (host:port reachable from here), for `cmd:` members'
    programs to connect to. Setting `stop` makes a running round hand back what finished and
    stop waiting for the rest.
    """

    def __init__(self, arena: Arena, loop: asyncio.AbstractEventLoop, workers: int = 8, address: str | None = None,
                 stop: threading.Event | None = None) -> None:
        self.arena = arena
        self.loop = loop
        self.workers = workers
        self.address = address
        self.stop = stop or threading.Event()
        self._tokens_lock = threading.Lock()

    def online(self, spec: str) -> bool:
        """Built-in bots and programs are always there; remote:NAME needs a connected session."""
        if not spec.startswith(REMOTE):
            return True
        return bool(self.arena.connected(spec[len(REMOTE):]))

    def presence_for(self, game_id: str) -> Callable[[str], bool]:
        def present(spec: str) -> bool:
            if not spec.startswith(REMOTE):
                return True
            return any(s.plays(game_id) for s in self.arena.connected(spec[len(REMOTE):]))
        return present

    def _admit(self, name: str, token: str) -> None:
        """Let one launched program in under `name` (the arena's token table gets a one-match entry)."""
        with self._tokens_lock:
            tokens = self.arena.config.tokens
            if not isinstance(tokens, dict):
                tokens = dict(tokens)
                self.arena.config.tokens = tokens
            tokens[name] = token_hash(token)

    def _revoke(self, name: str) -> None:
        with self._tokens_lock:
            tokens = self.arena.config.tokens
            if isinstance(tokens, dict):
                tokens.pop(name, None)

    def _launch(self, stack: contextlib.ExitStack, spec: str, alias: str) -> tuple[str, BotProcess]:
        """Start a `cmd:` member's program for one match; returns the name it connects under, and it."""
        if self.address is None:
            raise ArenaError(grpc.StatusCode.FAILED_PRECONDITION,
                             "this arena's address is unknown: cmd: bots cannot join")
        name = f"{re.sub(r'[^A-Za-z0-9_.-]', '_', alias)[:40]}-{secrets.token_hex(4)}"
        token = secrets.token_urlsafe(18)
        self._admit(name, token)
        stack.callback(self._revoke, name)
        return name, stack.enter_context(BotProcess(spec, name, self.address, token, PROGRAM_LOGS))

    def _play(self, plan: TournamentPlan, pairing: Pairing) -> Played:
        seed = plan.seed_of(pairing)
        started = self.loop.time()
        with contextlib.ExitStack() as stack:
            specs: list[str] = []
            programs: dict[int, BotProcess | None] = {}  # entrant -> its running program (None: it did not start)
            try:
                for e in pairing.seats:
                    spec = plan.entrants[e].spec
                    if spec.startswith(REMOTE):
                        specs.append(REMOTE_PREFIX + spec[len(REMOTE):])
                    elif is_command(spec):
                        programs[e] = None
                        name, programs[e] = self._launch(stack, spec, plan.entrants[e].alias)
                        specs.append(REMOTE_PREFIX + name)
                    else:
                        specs.append(spec)
                future = asyncio.run_coroutine_threadsafe(
                    self.arena.run_match(plan.game, specs, seed, plan.config, plan.move_ms or 0, SEAT_WAIT_S,
                                         store=False), self.loop)
                record = self._wait(future)
            except (ArenaError, TourneyError):
                # A remote bot left (or stayed busy), or a program did not start or connect: it forfeits.
                present = self.presence_for(plan.game)

                def there(e: int) -> bool:
                    if e in programs:  # a program is there while it runs (connecting takes a moment)
                        program = programs[e]
                        return program is not None and program.alive()
                    return present(plan.entrants[e].spec)

                return forfeit(plan, pairing, {e: there(e) for e in pairing.seats})
        return pairing, match_record(plan.aliases_of(pairing), result_of(record)), self.loop.time() - started

    def _wait(self, future: concurrent.futures.Future[pb.MatchRecord]) -> pb.MatchRecord:
        """The match's record; when the round is stopped, stop waiting for it (the arena may be shutting
        down, and a pool thread blocked on it would keep the process from exiting). The match itself
        is not cancelled: it ends on the arena as usual, its bots told, and is replayed with the round."""
        while True:
            try:
                return future.result(timeout=POLL_S)
            except concurrent.futures.TimeoutError:
                if self.stop.is_set():
                    raise RoundStopped from None

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing], more: Feed | None = None
            ) -> Iterator[list[Played]]:
        # Stopped: matches not started are dropped; the round is replayed by whoever takes it over.
        return play_on_threads(lambda p: self._play(plan, p), pairings, self.workers, "league", self.stop, more)

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
        self._closing = threading.Event()  # set by close(): calls still waiting are cancelled

    def _play(self, plan: TournamentPlan, pairing: Pairing) -> Played:
        import time

        specs = [plan.entrants[i].spec for i in pairing.seats]
        if any(is_command(spec) for spec in specs) and not any(spec.startswith(REMOTE) for spec in specs):
            # Programs against built-in bots: played here, as a Ray worker would (a private loopback arena).
            from tourney.tournament.runner import play_pairing

            started = time.perf_counter()
            record = match_record(plan.aliases_of(pairing), play_pairing(plan, pairing))
            return pairing, record, time.perf_counter() - started
        with contextlib.ExitStack() as stack:
            return self._play_remote(plan, pairing, stack)

    def _play_remote(self, plan: TournamentPlan, pairing: Pairing, stack: contextlib.ExitStack) -> Played:
        """RunMatch on the arena; a `cmd:` seat meeting a remote bot is started here and connects to the
        arena without a token (the arena must allow anonymous bots for that)."""
        import time

        seed = plan.seed_of(pairing)
        specs = []
        for i in pairing.seats:
            spec = plan.entrants[i].spec
            if is_command(spec):
                name = f"{re.sub(r'[^A-Za-z0-9_.-]', '_', plan.entrants[i].alias)[:40]}-{secrets.token_hex(4)}"
                stack.enter_context(BotProcess(spec, name, self.address, "", PROGRAM_LOGS))
                spec = REMOTE + name
            specs.append(spec)
        request = pb.RunMatchRequest(admin_token=self.admin_token, game=plan.game, seats=specs, seed=seed,
                                     config_json=json.dumps(plan.config), move_ms=plan.move_ms or 0,
                                     wait_s=self.wait_s)
        started = time.perf_counter()
        with grpc.insecure_channel(self.address) as channel:
            call = channel.unary_unary(RUN_MATCH,
                                       request_serializer=pb.RunMatchRequest.SerializeToString,
                                       response_deserializer=pb.MatchRecord.FromString)
            pending = call.future(request, timeout=3600)
            try:
                record = _wait_call(pending, self._closing)
            except grpc.RpcError as exc:
                code = exc.code() if isinstance(exc, grpc.Call) else None
                detail = rpc_detail(exc)
                missing = _NOT_CONNECTED.search(detail)
                if code == grpc.StatusCode.FAILED_PRECONDITION and missing:
                    away = REMOTE + missing.group(1)
                    return forfeit(plan, pairing, {e: plan.entrants[e].spec != away for e in pairing.seats})
                raise ArenaUnreachable(f"the arena at {self.address} did not play a league match ({detail}): "
                                       "check --arena and --admin-token.") from None
        return pairing, match_record(plan.aliases_of(pairing), result_of(record)), time.perf_counter() - started

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing], more: Feed | None = None
            ) -> Iterator[list[Played]]:
        return play_on_threads(lambda p: self._play(plan, p), pairings, self.workers, "league-remote", more=more)

    def close(self) -> None:
        """Cancel the RunMatch calls still waiting, so their threads end and the process can exit."""
        self._closing.set()


def _wait_call(pending: Any, closing: threading.Event) -> pb.MatchRecord:
    """The RunMatch result, polled so that closing the executor cancels a call still in flight."""
    while True:
        try:
            result: pb.MatchRecord = pending.result(timeout=POLL_S)
            return result
        except grpc.FutureTimeoutError:
            if closing.is_set():
                pending.cancel()
                raise RoundStopped from None


class ArenaUnreachable(TourneyError):
    """The arena named by --arena refused or could not be reached."""


class LeagueLoop:
    """`tourney serve --leagues`: a thread that plays due league rounds on this arena every `interval_s`.

    The arena is the one scheduler of a deployment: remote bots connect here. Each slot it
    handles is reported to `on_round` (by default a log line); stop() ends the round in play
    and gives its claim back.
    """

    def __init__(self, arena: Arena, loop: asyncio.AbstractEventLoop, db: str, interval_s: float = 30.0,
                 clock: Clock = utc_now, address: str | None = None, lease_s: float = DEFAULT_LEASE_S,
                 catch_up: int | None = DEFAULT_CATCH_UP, on_round: RoundHook | None = None) -> None:
        self.engine = open_store(db)
        self.clock = clock
        self._stop = threading.Event()
        self.executor = ArenaExecutor(arena, loop, address=address, stop=self._stop)
        self.interval_s = interval_s
        self.lease_s = lease_s
        self.catch_up = catch_up
        self.on_round = on_round or _log_round
        self._thread = threading.Thread(target=self._run, name="leagues", daemon=True)

    def start(self) -> LeagueLoop:
        self._thread.start()
        return self

    def tick(self) -> int:
        """Play what is due now; returns the number of slots handled."""
        # Not metered here: the arena counts these matches live, like any other it plays.
        rounds = run_due(self.engine, clock=self.clock, executor=self.executor, presence=self.executor.online,
                         lease_s=self.lease_s, catch_up=self.catch_up, on_round=self.on_round, stop=self._stop)
        return len(rounds)

    def _run(self) -> None:
        while not self._stop.is_set():
            try:
                self.tick()
            except Exception:  # a league's trouble must not stop the arena
                log.exception("a league round failed; trying again at the next tick")
            self._stop.wait(self.interval_s)

    def stop(self, timeout_s: float = 30.0) -> None:
        self._stop.set()
        self._thread.join(timeout_s)


def _log_round(report: RoundReport) -> None:
    log.info("%s", report.line())
