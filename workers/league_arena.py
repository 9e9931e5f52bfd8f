"""The league's arena executors: rounds played on a running arena, where remote bots are connected.

ArenaExecutor plays on the arena of this process (`tourney serve --leagues`,
tournament/league/arena_loop.py), RemoteLeagueExecutor on another one through RunMatch
(`league run-due --arena`).

The arena plays each match through its ordinary RunMatch path (remote seats are the bots'
sessions, other seats built-in bots), and its record comes back as the referee's MatchResult
(engine/server/results.py) and is stored like any match (runner.match_record) in its
division's tournament, so the arena's own store (`serve --db`) is skipped for it (one row
per match). A remote bot with no session for the
game is offline and forfeits (see tournament/league/forfeits.py); one that leaves mid-round forfeits
the matches it could not start. A `cmd:` member is started here for each of its matches,
with a one-match name and token, and connects to this arena like any bot. A `hosted:` member is
its bundle started in its sandbox for each match (no network), with a one-match name and token,
reaching this arena through a Unix socket of its own, as on a worker's private arena (programs.py).
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import contextlib
import json
import re
import secrets
import shutil
import tempfile
import threading
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path
from typing import Any

import grpc

from tourney.engine.core import TourneyError
from tourney.engine.server import (
    REMOTE_PREFIX,
    RUN_MATCH,
    Arena,
    ArenaError,
    ArenaUnavailable,
    BotProcess,
    is_command,
    pb,
    result_of,
    rpc_detail,
    start_unix_listener,
    token_hash,
)
from tourney.workers.executor import Feed, LeaguePlan, Played
from tourney.workers.program_specs import is_hosted, is_program
from tourney.workers.programs import PROGRAM_CONNECTIONS, SOCKET_NAME, HostedStart, Program
from tourney.workers.threads import POLL_S, RoundStopped, play_on_threads

SEAT_WAIT_S = 30.0  # a connected bot busy with other matches gets this long to free a slot
PROGRAM_LOGS = Path("bot-logs")  # where `cmd:` members' output goes, one file per launch



class ArenaExecutor:
    """Plays a round's pairings on `arena` (whose event loop is `loop`), a few at a time.

    address: where this arena listens (host:port reachable from here), for `cmd:` members'
    programs to connect to. Setting `stop` makes a running round hand back what finished and
    stop waiting for the rest.
    """

    def __init__(self, arena: Arena, loop: asyncio.AbstractEventLoop, workers: int = 8, address: str | None = None,
                 stop: threading.Event | None = None, hosted: HostedStart | None = None) -> None:
        """hosted: how hosted members' sandboxed programs are made (their store's; None: they cannot play here)."""
        self.arena = arena
        self.loop = loop
        self.workers = workers
        self.address = address
        self.stop = stop or threading.Event()
        self.hosted = hosted
        self._tokens_lock = threading.Lock()

    def online(self, spec: str) -> bool:
        """Built-in bots and programs are always there; remote:NAME needs a connected session."""
        if not spec.startswith(REMOTE_PREFIX):
            return True
        return bool(self.arena.connected(spec[len(REMOTE_PREFIX):]))

    def presence_for(self, game_id: str) -> Callable[[str], bool]:
        def present(spec: str) -> bool:
            if not spec.startswith(REMOTE_PREFIX):
                return True
            return any(s.plays(game_id) for s in self.arena.connected(spec[len(REMOTE_PREFIX):]))
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

    def _one_match_name(self, stack: contextlib.ExitStack, alias: str) -> tuple[str, str]:
        """A name and token one member's program connects under for one match, admitted until `stack` ends."""
        name = f"{re.sub(r'[^A-Za-z0-9_.-]', '_', alias)[:40]}-{secrets.token_hex(4)}"
        token = secrets.token_urlsafe(18)
        self._admit(name, token)
        stack.callback(self._revoke, name)
        return name, token

    def _launch(self, stack: contextlib.ExitStack, spec: str, alias: str) -> tuple[str, Program]:
        """Start a `cmd:` or `hosted:` member's program for one match; returns the name it connects under,
        and it."""
        if is_hosted(spec):
            return self._host(stack, spec, alias)
        if self.address is None:
            raise ArenaError(grpc.StatusCode.FAILED_PRECONDITION,
                             "this arena's address is unknown: cmd: bots cannot join")
        name, token = self._one_match_name(stack, alias)
        return name, stack.enter_context(BotProcess(spec, name, self.address, token, PROGRAM_LOGS))

    def _host(self, stack: contextlib.ExitStack, spec: str, alias: str) -> tuple[str, Program]:
        """Start a hosted member's bundle in its sandbox for one match, on a Unix socket of this arena's that
        only it reaches (the arena's limits count each socket's callers apart)."""
        if self.hosted is None:
            raise ArenaError(grpc.StatusCode.FAILED_PRECONDITION, "this arena has no store of hosted bots")
        name, token = self._one_match_name(stack, alias)
        folder = Path(tempfile.mkdtemp(prefix="tourney-league-"))  # short: a socket path has 107 bytes at most
        stack.callback(shutil.rmtree, folder, True)
        socket_path = folder / SOCKET_NAME
        # As many connections as on a worker's private arena: this socket is a listener of the arena every
        # remote bot plays on, and each connection held costs its process memory and an open file.
        listener = asyncio.run_coroutine_threadsafe(
            start_unix_listener(self.arena, str(socket_path), PROGRAM_CONNECTIONS), self.loop).result()
        stack.callback(lambda: asyncio.run_coroutine_threadsafe(listener.stop(1.0), self.loop).result())
        return name, stack.enter_context(self.hosted(spec, name, token, socket_path, PROGRAM_LOGS))

    def _play(self, plan: LeaguePlan, pairing: Any) -> Played[Any, Any]:
        table = plan.table(pairing)
        started = self.loop.time()
        with contextlib.ExitStack() as stack:
            specs: list[str] = []
            programs: dict[int, Program | None] = {}  # seat -> its running program (None: it did not start)
            try:
                for seat, (spec, alias) in enumerate(zip(table.specs, table.aliases, strict=True)):
                    if is_program(spec):
                        programs[seat] = None
                        name, programs[seat] = self._launch(stack, spec, alias)
                        specs.append(REMOTE_PREFIX + name)
                    else:
                        specs.append(spec)
                future = asyncio.run_coroutine_threadsafe(
                    self.arena.run_match(plan.game, specs, table.seed, plan.config, plan.move_ms or 0, SEAT_WAIT_S,
                                         store=False), self.loop)
                record = self._wait(future)
            except (ArenaError, TourneyError) as exc:
                # A remote bot left (or stayed busy), or a program did not start or connect: it forfeits.
                present = self.presence_for(plan.game)
                missing = _NOT_CONNECTED.search(str(exc))  # the bot whose free slot never came

                def there(seat: int) -> bool:
                    if missing and seat < len(specs) and specs[seat] == REMOTE_PREFIX + missing.group(1):
                        return False
                    if seat in programs:  # a program is there while it runs (connecting takes a moment)
                        program = programs[seat]
                        return program is not None and program.alive()
                    return present(table.specs[seat])

                seats_there = [there(seat) for seat in range(len(table.specs))]
                if all(seats_there):  # no seat's absence: a draw would be stored for a match never played
                    raise TourneyError(f"a league match of {plan.game} could not start, with every bot there "
                                       f"({str(exc)[:200]}); the round is tried again.") from None
                return plan.offline(pairing, seats_there)
        return plan.record(pairing, result_of(record), self.loop.time() - started)

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

    def run(self, plan: LeaguePlan, pairings: Sequence[Any], more: Feed | None = None
            ) -> Iterator[list[Played[Any, Any]]]:
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

    def _play(self, plan: LeaguePlan, pairing: Any) -> Played[Any, Any]:
        specs = plan.table(pairing).specs
        remote = any(spec.startswith(REMOTE_PREFIX) for spec in specs)
        if any(is_program(spec) for spec in specs) and not remote:
            # Programs (hosted ones sandboxed) against built-in bots: played here, as a Ray worker would (a
            # private loopback arena).
            return plan.play(pairing)
        if any(is_hosted(spec) for spec in specs):
            raise TourneyError("a hosted member cannot meet a remote bot through --arena: its sandbox has no network "
                               "and reaches only an arena on its own machine; run the league's rounds there with "
                               "`tourney serve --leagues`.")
        with contextlib.ExitStack() as stack:
            return self._play_remote(plan, pairing, stack)

    def _play_remote(self, plan: LeaguePlan, pairing: Any, stack: contextlib.ExitStack) -> Played[Any, Any]:
        """RunMatch on the arena; a `cmd:` seat meeting a remote bot is started here and connects to the
        arena without a token (the arena must allow anonymous bots for that)."""
        import time

        table = plan.table(pairing)
        specs = []
        for spec, alias in zip(table.specs, table.aliases, strict=True):
            if is_command(spec):
                name = f"{re.sub(r'[^A-Za-z0-9_.-]', '_', alias)[:40]}-{secrets.token_hex(4)}"
                stack.enter_context(BotProcess(spec, name, self.address, "", PROGRAM_LOGS))
                spec = REMOTE_PREFIX + name
            specs.append(spec)
        request = pb.RunMatchRequest(admin_token=self.admin_token, game=plan.game, seats=specs, seed=table.seed,
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
                    away = REMOTE_PREFIX + missing.group(1)
                    return plan.offline(pairing, [spec != away for spec in table.specs])
                raise ArenaUnavailable(f"the arena at {self.address} did not play a league match ({detail}): "
                                       "check --arena and --admin-token.", code) from None
        return plan.record(pairing, result_of(record), time.perf_counter() - started)

    def run(self, plan: LeaguePlan, pairings: Sequence[Any], more: Feed | None = None
            ) -> Iterator[list[Played[Any, Any]]]:
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
