"""The Arena: every game, every connected bot, every match of one server.

Matches run the ordinary referee's steps: on the event loop when a connected bot (a
RemoteSeat) plays, in a worker thread otherwise. Every fault of a bot (timeout, illegal
index, disconnection, crash) ends only that bot's match, with the referee's typed reason,
and is reported to the bot; the server never stops for it. The gRPC methods over it are
in servicer.py, the server around them in server.py.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hmac
import logging
import threading
import time
import uuid
from collections import OrderedDict
from collections.abc import Callable, Mapping, Sequence
from typing import Any, cast

import grpc

from tourney.engine.bots import make_bot
from tourney.engine.core import Action, Game, Seat, State, TourneyError, get_game
from tourney.engine.core.printable import shown
from tourney.engine.referee import MatchResult, TimeControl, asks_together, drive, new_match, referee_steps
from tourney.engine.server.admission import Admission, AdmissionLimits
from tourney.engine.server.auth_failures import FailedAuthLimit
from tourney.engine.server.codecs import codec_for, dumps
from tourney.engine.server.config import ArenaConfig
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.live import LiveMatch
from tourney.engine.server.match_loop import LoopMatch
from tourney.engine.server.metrics import MatchMetrics
from tourney.engine.server.realtime import no_realtime, play_realtime, supports_realtime
from tourney.engine.server.records import ended_messages, public_record
from tourney.engine.server.results import record_of, void_record
from tourney.engine.server.sessions import BotSession, QueuedBytes, RemoteSeat
from tourney.engine.server.tokens import token_hash

logger = logging.getLogger(__name__)
REMOTE_PREFIX = "remote:"
# Public records (GetMatch without the admin token) made at once, and kept made: each replays its
# match (up to 0.3 s of CPU and 0.2 MB for a long Tiny Ninjas champion match).
PUBLIC_BUILDS = 2
PUBLIC_KEPT = 32


class ArenaError(Exception):
    """A request the arena refuses, with the gRPC status to answer."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code


class Arena:
    """Every game, every connected bot, every match of one server."""

    def __init__(self, config: ArenaConfig | None = None,
                 on_result: Callable[[str, Sequence[str], MatchResult, float], None] | None = None) -> None:
        """on_result(match_id, seat names, result, seconds) runs in a pool thread after
        each match (e.g. to store it); its errors are logged, never raised."""
        self.config = config or ArenaConfig()
        self.on_result = on_result
        self.metrics = MatchMetrics()
        self.metrics.connected_bots(lambda: float(len(self.connected())))
        config = self.config
        # Who may start a call, and who may try a token (the servicer asks both for every call).
        self.admission, self.auth_failures = self._new_call_limits()
        self._listener_limits: dict[str, tuple[Admission, FailedAuthLimit]] = {}
        self._lock = threading.Lock()
        # The bytes waiting for every bot stream, against one cap (each session counts its own in it).
        self.queued = QueuedBytes(config.max_queued_bytes_overall)
        self._sessions: dict[str, BotSession] = {}
        self._live: dict[str, LiveMatch] = {}
        self._finished: OrderedDict[str, LiveMatch] = OrderedDict()
        self._starting: set[str] = set()  # match ids whose seats are being claimed
        self._public: OrderedDict[str, pb.MatchRecord] = OrderedDict()  # the last public records made
        self._public_builds = asyncio.Semaphore(PUBLIC_BUILDS)
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.config.max_workers, thread_name_prefix="referee"
        )

    # ------------------------------------------------------------------ sessions

    def _new_call_limits(self) -> tuple[Admission, FailedAuthLimit]:
        config = self.config
        admission = Admission(AdmissionLimits(config.calls_per_connection, config.unauthenticated_calls,
                                              config.unauthenticated_per_s, config.unauthenticated_per_s_per_address))
        failures = FailedAuthLimit(config.auth_failures_per_address, config.auth_failures_per_address_per_s,
                                   config.auth_failures_overall, config.auth_failures_overall_per_s)
        return admission, failures

    def call_limits(self, listener: str | None = None) -> tuple[Admission, FailedAuthLimit]:
        """The admission and failed-token limits of the callers of `listener` (None: the arena's TCP listeners).

        A listener of its own (a hosted seat's Unix socket) has limits of its own, the arena-wide buckets
        too: the seats of a match acting together could otherwise spend the arena's new calls a second or
        its failed tokens (five seats of Ninja Arena spend the 50 at once) and keep an honest seat out.
        """
        if listener is None:
            return self.admission, self.auth_failures
        with self._lock:
            if listener not in self._listener_limits:
                self._listener_limits[listener] = self._new_call_limits()
            return self._listener_limits[listener]

    def authenticate(self, hello: pb.Hello) -> str | None:
        """None when the bot may connect, else the reason it may not (one sentence)."""
        if not hello.bot_name:
            return "Hello.bot_name is empty: give the bot a name."
        if self.config.allow_anonymous:
            return None
        expected = self.config.tokens.get(hello.bot_name)
        if expected is None or not hmac.compare_digest(expected, token_hash(hello.token)):
            return (f"unknown bot or wrong token for '{shown(hello.bot_name)}': create one with "
                    "`tourney bots add NAME`.")
        return None

    def add_session(self, session: BotSession) -> None:
        with self._lock:
            self._sessions[session.session_id] = session

    def remove_session(self, session: BotSession) -> None:
        with self._lock:
            self._sessions.pop(session.session_id, None)
        session.close()

    def connected(self, name: str | None = None) -> list[BotSession]:
        """Open sessions (of bot `name` only, when given)."""
        with self._lock:
            return [s for s in self._sessions.values() if not s.closed and (name is None or s.name == name)]

    def _claim(self, name: str, game_id: str) -> BotSession | None:
        with self._lock:
            for session in self._sessions.values():
                if session.name == name and not session.closed and session.plays(game_id) \
                        and session.active < session.capacity:
                    session.active += 1
                    return session
        return None

    def _release(self, session: BotSession) -> None:
        with self._lock:
            session.active = max(0, session.active - 1)

    async def _claim_wait(self, name: str, game_id: str, wait_s: float) -> BotSession:
        deadline = time.monotonic() + wait_s
        while True:
            session = self._claim(name, game_id)
            if session is not None:
                return session
            if time.monotonic() >= deadline:
                raise ArenaError(grpc.StatusCode.FAILED_PRECONDITION,
                                 f"no bot named '{shown(name)}' playing {shown(game_id)} has a free match slot: "
                                 "connect it first.")
            await asyncio.sleep(0.02)

    # ------------------------------------------------------------------ matches

    async def run_match(
        self,
        game_id: str,
        seat_specs: Sequence[str],
        seed: int,
        config: Mapping[str, Any] | None = None,
        move_ms: int = 0,
        wait_s: float = 0.0,
        match_id: str | None = None,
        realtime: bool = False,
        bot_seeds: Sequence[int] = (),
        store: bool = True,
    ) -> pb.MatchRecord:
        """Play one match between `seat_specs` and return its record (also kept for GetMatch).

        bot_seeds[i] seeds seat i's built-in bot; missing entries are derived from `seed`.
        store=False skips on_result: the caller stores the match itself (a league round records
        it in its tournament, so it is stored once).
        """
        try:
            game = get_game(game_id)
        except TourneyError as exc:
            raise ArenaError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        n = len(seat_specs)
        if not game.min_players <= n <= game.max_players:
            raise ArenaError(grpc.StatusCode.INVALID_ARGUMENT,
                             f"{game_id} is for {game.min_players}-{game.max_players} players, not {n}: "
                             "give that many seats.")
        if realtime:
            if not supports_realtime(game_id):
                raise ArenaError(grpc.StatusCode.INVALID_ARGUMENT, no_realtime(game_id))
            if "realtime" in game.modes and "mode" not in (config or {}):
                config = {**(config or {}), "mode": "realtime"}
        if match_id is not None and (self.find_live(match_id) is not None or match_id in self._starting):
            raise ArenaError(grpc.StatusCode.ALREADY_EXISTS, f"match '{match_id}' exists already: pick a new id.")
        match_id = match_id or uuid.uuid4().hex[:16]
        # Taken from here on, while its seats are claimed: a retried RunMatch never plays it twice.
        self._starting.add(match_id)
        try:
            return await self._run_match(game, game_id, seat_specs, seed, config, move_ms, wait_s, match_id,
                                         realtime, bot_seeds, store)
        finally:
            self._starting.discard(match_id)

    async def _run_match(self, game: Game, game_id: str, seat_specs: Sequence[str], seed: int,
                         config: Mapping[str, Any] | None, move_ms: int, wait_s: float, match_id: str,
                         realtime: bool, bot_seeds: Sequence[int], store: bool) -> pb.MatchRecord:
        n = len(seat_specs)
        move_ms = move_ms or self.config.default_move_ms
        wait = wait_s or self.config.seat_wait_s
        codec = codec_for(game_id)
        loop = asyncio.get_running_loop()
        claimed: list[tuple[int, BotSession]] = []
        seats: list[Seat | RemoteSeat] = []
        names: list[str] = []
        try:
            for i, spec in enumerate(seat_specs):
                remote = self._remote_name(spec)
                if remote is not None:
                    session = await self._claim_wait(remote, game_id, wait)
                    claimed.append((i, session))
                    seats.append(RemoteSeat(session, match_id, codec, move_ms / 1000.0))
                    names.append(remote)
                else:
                    seats.append(make_bot(spec, game, bot_seeds[i] if i < len(bot_seeds) else seed * 1009 + i))
                    names.append(spec)
            _, first, replay = new_match(game_id, seed, config, n)
        except TourneyError as exc:
            for _, session in claimed:
                self._release(session)
            raise ArenaError(grpc.StatusCode.INVALID_ARGUMENT, str(exc)) from None
        except BaseException:
            for _, session in claimed:
                self._release(session)
            raise

        live = LiveMatch(match_id, seat_names=list(names))
        self._live[match_id] = live
        # With a connected bot the referee runs on this loop (see match_loop), and so does a
        # real-time match (see realtime); a match of built-in bots only runs in a pool thread
        # and hands its events over.
        on_loop = realtime or bool(claimed)
        if on_loop:  # nothing moves before the loop's next step: rendered only if watched by then
            live.advance(0, lambda: dumps(first.public_view()))
        else:
            live.publish(live.event(0, dumps(first.public_view())))
        config_json = dumps(dict(config)) if config else "{}"  # what dumps({}) writes
        for seat, session in claimed:
            # No seed while the match runs: it decides every hidden card and future roll, so a bot
            # holding it could rebuild the opponents' hands (it is in the record at the end).
            session.announce(pb.MatchStarted(
                match_id=match_id, game=game_id, seat=seat, players=n, seat_names=names, seed=0,
                config_json=config_json, move_ms=move_ms, realtime=realtime,
            ))
        steps = [0]

        def on_step(state: State, _joint: list[tuple[int, Action]]) -> None:
            # Only the public view leaves the referee, never an action label (a label can name a
            # hidden card).
            steps[0] += 1
            if on_loop:
                # The match plays on `state` in place and on this loop: rendered later, it is still
                # the view of this step (nothing moves until the next one).
                live.advance(steps[0], lambda: dumps(state.public_view()))
            else:
                event = live.event(steps[0], dumps(state.public_view()))
                loop.call_soon_threadsafe(live.publish, event)

        started = time.perf_counter()
        self.metrics.started(game_id)
        try:
            if realtime:
                result = await play_realtime(game, seats, seed, config, self._pool, lambda state: on_step(state, []))
            else:
                referee = referee_steps(game, first, replay, asks_together(seats),
                                        TimeControl(move_s=move_ms / 1000.0), on_step, self.metrics.decision)
                if on_loop:
                    result = await LoopMatch(referee, seats, self._pool).play()
                else:
                    in_process = cast(list[Seat], seats)  # no RemoteSeat: nothing was claimed
                    result = await loop.run_in_executor(self._pool, drive, referee, in_process)
            # Real-time matches have no per-decision hook: their decisions are counted from the result.
            self.metrics.finished(game_id, result, time.perf_counter() - started, live=not realtime)
            if self.on_result is not None and store:
                await loop.run_in_executor(self._pool, self._store, match_id, names, result,
                                           time.perf_counter() - started)
            record = record_of(match_id, names, result)
        except Exception as exc:  # a game bug: the match is void, the arena goes on
            self.metrics.finished(game_id, None, time.perf_counter() - started)
            record = void_record(match_id, game_id, names, seed, f"aborted: {type(exc).__name__}: {exc}"[:500])
        finally:
            for _, session in claimed:
                self._release(session)
        # The record is kept (GetMatch, Watch) before any bot hears the match is over.
        self._finish(live, record)
        for (_, session), ended in zip(claimed, ended_messages(record, [seat for seat, _ in claimed]), strict=True):
            session.end(ended)
        return record

    def _store(self, match_id: str, names: Sequence[str], result: MatchResult, seconds: float) -> None:
        """Hand a finished match to on_result; storage trouble must not lose the match for the bots."""
        assert self.on_result is not None
        try:
            self.on_result(match_id, names, result, seconds)
        except Exception:
            logger.exception("match %s: storing its result failed", shown(match_id))

    @staticmethod
    def _remote_name(spec: str) -> str | None:
        if spec.startswith(REMOTE_PREFIX):
            return spec[len(REMOTE_PREFIX):]
        return None

    def resolve_specs(self, specs: Sequence[str]) -> list[str]:
        """A bare name of a connected bot means that bot; everything else stays a built-in spec."""
        out = []
        for spec in specs:
            if not spec.startswith(REMOTE_PREFIX) and ":" not in spec and self.connected(spec):
                out.append(REMOTE_PREFIX + spec)
            else:
                out.append(spec)
        return out

    def _finish(self, live: LiveMatch, record: pb.MatchRecord) -> None:
        # Watchers see the record without seed or replay (they saw every public view already);
        # an organiser's watch swaps the full record in (see ArenaServicer.Watch).
        live.finish(record)
        self._live.pop(live.match_id, None)
        self._finished[live.match_id] = live
        while len(self._finished) > self.config.max_finished:
            self._finished.popitem(last=False)

    def get_match(self, match_id: str) -> pb.MatchRecord | None:
        """The full record of a finished match still kept (seed and replay), else None."""
        live = self._finished.get(match_id)
        return None if live is None else live.record

    def live_match_ids(self) -> list[str]:
        """The ids of the matches being played now (for a spectator's index, e.g. the web app's live page)."""
        return list(self._live)

    async def get_public_match(self, match_id: str) -> pb.MatchRecord | None:
        """The record of a finished match as anyone may see it (see `public_record`), else None.

        Made in a pool thread (it replays the match), PUBLIC_BUILDS at a time so that askers cannot
        take the referee's threads; the last PUBLIC_KEPT are kept, not one per finished match, so
        asking for every kept match costs a bounded amount of memory.
        """
        live = self._finished.get(match_id)
        if live is None or live.record is None:
            return None
        async with self._public_builds:
            public = self._public.get(match_id)
            if public is None:
                latest = live.latest()
                view = latest.public_view_json if latest is not None else ""
                public = await asyncio.get_running_loop().run_in_executor(
                    self._pool, public_record, live.record, view)
            self._public[match_id] = public
            self._public.move_to_end(match_id)
            while len(self._public) > PUBLIC_KEPT:
                self._public.popitem(last=False)
        return public

    def is_admin(self, token: str) -> bool:
        """True when `token` is the admin token, or when the arena has none (local play)."""
        admin = self.config.admin_token
        return admin is None or hmac.compare_digest(admin.encode(), token.encode())

    def find_live(self, match_id: str) -> LiveMatch | None:
        """A match being played or kept after its end."""
        return self._live.get(match_id) or self._finished.get(match_id)

    def shutdown(self) -> None:
        """Disconnect every bot (their matches end) and stop the referee threads."""
        for session in self.connected():
            self.remove_session(session)
        self._pool.shutdown(wait=False, cancel_futures=True)
