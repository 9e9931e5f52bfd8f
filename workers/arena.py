"""The arena executor (`tourney run --arena HOST:PORT`): a tournament whose matches a running arena plays.

Each pairing becomes one RunMatch call; seats are built-in bot specs (the arena hosts them)
or `remote:NAME` for bots connected to that arena. Results come back as the referee's
MatchResult and are stored exactly like matches played on Ray workers.

The tournament remembers the arena's address (tournament/arena_tournament.py), so a plain
`tourney resume` finishes it on the same arena after the arena or this process died: only
matches whose results are stored count, so none is lost and none is played twice.
"""

from __future__ import annotations

import logging
import time
import uuid
from collections.abc import Callable, Iterator, Sequence
from typing import Any

import grpc

from tourney.engine.core.environment import ADMIN_TOKEN_ENV, BOT_NAME_ENV
from tourney.engine.referee import MatchResult
from tourney.engine.server import (
    REMOTE_PREFIX,
    RUN_MATCH,
    ArenaUnavailable,
    finished_match,
    pb,
    rpc_detail,
    run_remote_match,
)
from tourney.workers.executor import ArenaPlan, Feed, Played
from tourney.workers.realtime import wants_realtime
from tourney.workers.threads import play_on_threads

logger = logging.getLogger(__name__)


class RemoteArenaExecutor:
    """Plays pairings on the arena at `address`, `workers` matches at a time."""

    def __init__(self, address: str, admin_token: str = "", workers: int = 4) -> None:
        self.address = address
        self.admin_token = admin_token
        self.workers = workers
        check_arena(address, admin_token)

    def _play(self, plan: ArenaPlan, pairing: Any) -> Played[Any, Any]:
        started = time.perf_counter()
        table = plan.table(pairing)
        # The arena's built-in bots get the seeds workers would give them: same match, same result.
        try:
            result = play_once(lambda match_id: run_remote_match(
                self.address, plan.game, table.specs, table.seed, plan.config, plan.move_ms, self.admin_token,
                realtime=wants_realtime(plan.game, plan.config), bot_seeds=table.bot_seeds, match_id=match_id),
                lambda match_id: finished_match(self.address, self.admin_token, match_id))
        except ArenaUnavailable as exc:
            raise ArenaUnavailable(f"{str(exc).rstrip('.')}: the results so far are stored; once the arena and its "
                                   "bots are back, `tourney resume` finishes the tournament there.") from None
        return plan.record(pairing, result, time.perf_counter() - started)

    def check_bots(self, game: str, min_players: int, specs: Sequence[str]) -> None:
        """Fail with one sentence, before any tournament is stored, when a remote:NAME entrant is
        not connected to the arena for `game` (see check_connected)."""
        for spec in dict.fromkeys(s for s in specs if s.startswith(REMOTE_PREFIX)):
            check_connected(self.address, self.admin_token, game, min_players, spec)

    def run(self, plan: ArenaPlan, pairings: Sequence[Any], more: Feed | None = None
            ) -> Iterator[list[Played[Any, Any]]]:
        return play_on_threads(lambda p: self._play(plan, p), pairings, self.workers, "arena-run", more=more)

    def close(self) -> None:
        pass


# RunMatch answers worth asking again: the call was cut (CANCELLED) or refused for load
# (RESOURCE_EXHAUSTED, UNAVAILABLE) before or while the arena played it.
RETRIED = (grpc.StatusCode.CANCELLED, grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.UNAVAILABLE)
RUN_ATTEMPTS = 6


def play_once(run: Callable[[str], MatchResult], fetch: Callable[[str], MatchResult],
              attempts: int = RUN_ATTEMPTS, first_wait_s: float = 0.25) -> MatchResult:
    """Play one match under a fresh match id, asking again when the call was cut or refused for load.

    Safe because the arena plays a match id once: a retry of a match it started anyway is
    answered ALREADY_EXISTS, and then its result is fetched (`fetch`) instead of played again.
    Waits double between attempts (0.25 s, 0.5 s, ... 4 s by default).
    """
    match_id = uuid.uuid4().hex
    for attempt in range(attempts):
        try:
            return run(match_id)
        except ArenaUnavailable as exc:
            if exc.code == grpc.StatusCode.ALREADY_EXISTS and attempt > 0:
                return fetch(match_id)
            if exc.code not in RETRIED or attempt == attempts - 1:
                raise
            logger.warning("RunMatch %s was not answered (%s): asking again", match_id, exc)
        time.sleep(first_wait_s * 2 ** attempt)
    raise AssertionError("unreachable: the last attempt returns or raises")


REFUSALS = (grpc.StatusCode.PERMISSION_DENIED, grpc.StatusCode.UNAUTHENTICATED, grpc.StatusCode.UNAVAILABLE,
            grpc.StatusCode.DEADLINE_EXCEEDED)


def check_arena(address: str, admin_token: str, timeout_s: float = 10.0) -> None:
    """Fail with one sentence, before any tournament is stored, when the arena is unreachable or
    refuses the admin token.

    It asks for a match of no game: an arena that accepts the token answers that the request
    is invalid, one that does not says so first. Nothing is played.
    """
    with grpc.insecure_channel(address) as channel:
        call = channel.unary_unary(RUN_MATCH, request_serializer=pb.RunMatchRequest.SerializeToString,
                                   response_deserializer=pb.MatchRecord.FromString)
        try:
            call(pb.RunMatchRequest(admin_token=admin_token), timeout=timeout_s)
        except grpc.RpcError as exc:
            code = exc.code() if isinstance(exc, grpc.Call) else None
            if code in REFUSALS:
                hint = (f"pass the token `tourney serve` printed with --admin-token or {ADMIN_TOKEN_ENV}"
                        if code in REFUSALS[:2] else "start it with `tourney serve` or fix --arena")
                raise ArenaUnavailable(f"the arena at {address} cannot run this tournament "
                                       f"({rpc_detail(exc).rstrip('.')}): {hint}.") from None


# A built-in bot no arena has; its ':' keeps the arena from reading it as a connected bot's bare name.
NO_BOT = "not-a-bot:probe=1"


def check_connected(address: str, admin_token: str, game: str, min_players: int, spec: str,
                    wait_s: int = 0) -> None:
    """Fail with one sentence when the bot `spec` (remote:NAME) has no free match slot for `game`.

    It asks for a match of that bot against a bot no arena has. The arena claims a connected
    bot's slot (waiting its usual while for a bot still connecting), then refuses the unknown
    one as an invalid request and gives the slot back; a bot it cannot claim is refused first.
    The bot is never told of a match.
    """
    request = pb.RunMatchRequest(admin_token=admin_token, game=game, seats=[spec] + [NO_BOT] * (min_players - 1),
                                 wait_s=wait_s)  # 0: the arena's usual wait for a bot still connecting
    with grpc.insecure_channel(address) as channel:
        call = channel.unary_unary(RUN_MATCH, request_serializer=pb.RunMatchRequest.SerializeToString,
                                   response_deserializer=pb.MatchRecord.FromString)
        try:
            call(request, timeout=120.0)
        except grpc.RpcError as exc:
            code = exc.code() if isinstance(exc, grpc.Call) else None
            if code == grpc.StatusCode.FAILED_PRECONDITION:
                name = spec[len(REMOTE_PREFIX):]
                raise ArenaUnavailable(f"the arena at {address} cannot run this tournament "
                                       f"({rpc_detail(exc).rstrip('.')}): start the bot with {BOT_NAME_ENV}={name} "
                                       "and run this again (nothing was stored).") from None
            if code != grpc.StatusCode.INVALID_ARGUMENT:
                raise ArenaUnavailable(f"the arena at {address} did not answer ({rpc_detail(exc).rstrip('.')}): "
                                       "check that `tourney serve` runs there.") from None
