"""The Arena servicer: bot sessions, matches between connected and built-in bots, spectators.

Matches run the ordinary referee's steps: on the event loop when a connected bot (a
RemoteSeat) plays, in a worker thread otherwise. Every fault of a bot (timeout, illegal
index, disconnection, crash) ends only that bot's match, with the referee's typed reason,
and is reported to the bot; the server never stops for it.
"""

from __future__ import annotations

import asyncio
import concurrent.futures
import hashlib
import hmac
import json
import logging
import threading
import time
import traceback
import uuid
from collections import OrderedDict
from collections.abc import AsyncIterator, Callable, Mapping, Sequence
from dataclasses import dataclass, field
from typing import Any, cast

import grpc
from google.protobuf.message import DecodeError

from engine.bots import bot_names, make_bot
from engine.core import (
    Action,
    ReplayMismatch,
    Seat,
    State,
    Termination,
    TourneyError,
    available_games,
    get_game,
)
from engine.public_replay import public_frames
from engine.referee import MatchResult, Replay, TimeControl, asks_together, drive, new_match, referee_steps
from engine.server.codecs import codec_for, dumps
from engine.server.generated import arena_pb2 as pb
from engine.server.limits import hello_problem
from engine.server.match_loop import LoopMatch
from engine.server.metrics import MatchMetrics, MetricsInterceptor, arena_methods
from engine.server.realtime import play_realtime, supports_realtime
from engine.server.results import record_of, seat_points
from engine.server.sessions import BotSession, RemoteSeat, error_message, shown

logger = logging.getLogger(__name__)
SERVER_VERSION = "tourney-arena/1"
REMOTE_PREFIX = "remote:"
MAX_WATCH_QUEUE = 1024  # events waiting for one watcher who does not read before it is cut off


def token_hash(token: str) -> str:
    """How bot tokens are stored: their SHA-256, hex."""
    return hashlib.sha256(token.encode()).hexdigest()


@dataclass
class ArenaConfig:
    """What an arena allows and how long it waits.

    tokens: bot name -> SHA-256 of its token (see `token_hash`). With allow_anonymous any
    name may connect with any token. admin_token None leaves RunMatch open (local play), and
    then full replays too; with an admin token, GetMatch and Watch give full replays only to
    whoever sends it.
    """

    admin_token: str | None = None
    allow_anonymous: bool = False
    tokens: Mapping[str, str] = field(default_factory=dict)
    default_move_ms: int = 10_000
    seat_wait_s: float = 10.0
    max_finished: int = 1000
    max_workers: int = 256
    # Hello is rate-limited per connection (token bucket): a client may open hello_burst sessions
    # at once, then hello_per_s a second; more are refused with RESOURCE_EXHAUSTED. This bounds
    # both token guessing and session floods from one connection.
    hello_burst: int = 32
    hello_per_s: float = 4.0
    # A stream must say Hello this soon after it opens, and the arena holds at most
    # max_sessions bot sessions at once: idle or surplus streams cannot pile up.
    hello_timeout_s: float = 10.0
    max_sessions: int = 10_000
    # Per stream: messages waiting for a bot that does not read (past either cap it is cut off,
    # `slow_reader`), and the match slots a Hello may ask for.
    max_queued_messages: int = 4096
    max_queued_bytes: int = 32 * 1024 * 1024
    max_matches_per_session: int = 256
    # Messages a stream may send that the arena can only answer with an ErrorReport (malformed,
    # a second Hello, a reply to no pending request): bad_message_burst at once, then
    # bad_messages_per_s; past that it is cut off (`rate_limited`). A flood costs little that way.
    bad_message_burst: int = 64
    bad_messages_per_s: float = 8.0
    # The largest message any client may send (a reply or a Hello needs well under 1 KB; an
    # organiser's RunMatch with its config fits too). gRPC cuts a stream that sends more.
    max_receive_bytes: int = 64 * 1024


class ArenaError(Exception):
    """A request the arena refuses, with the gRPC status to answer."""

    def __init__(self, code: grpc.StatusCode, message: str) -> None:
        super().__init__(message)
        self.code = code


@dataclass
class LiveMatch:
    """A match being played or kept after it ended: its latest public view, watchers, and record.

    Every event is a whole public view, so a watcher who joins late needs only the latest.
    While nobody watches, a step on the event loop is not even rendered: `advance` keeps a
    way to render it, used only if a watcher arrives before the next step (the state cannot
    change meanwhile, as the referee runs on the same loop).
    """

    match_id: str
    seat_names: list[str] = field(default_factory=list)  # public: every event names the players
    watchers: list[asyncio.Queue[pb.MatchEvent | None]] = field(default_factory=list)
    record: pb.MatchRecord | None = None  # the full record (seed, replay): for the organiser
    public: pb.MatchRecord | None = None  # the record as anyone may see it, made on first demand
    step: int = 0
    _latest: pb.MatchEvent | None = None
    _render: Callable[[], str] | None = None

    def publish(self, event: pb.MatchEvent) -> None:
        """Keep an event as the latest and pass it to every watcher (event-loop thread only)."""
        self._latest, self._render, self.step = event, None, event.step
        for queue in list(self.watchers):
            if queue.qsize() >= MAX_WATCH_QUEUE:
                # A spectator who stopped reading must not make the arena hold every event for it.
                self.watchers.remove(queue)
                queue.put_nowait(None)
            else:
                queue.put_nowait(event)

    def event(self, step: int, public_view_json: str) -> pb.MatchEvent:
        """An event of this match (any thread): its step, public view and seat names."""
        return pb.MatchEvent(match_id=self.match_id, step=step, public_view_json=public_view_json,
                             seat_names=self.seat_names)

    def advance(self, step: int, render: Callable[[], str]) -> None:
        """Step `step` was played (event-loop thread): published if watched, else rendered on demand."""
        if self.watchers:
            self.publish(self.event(step, render()))
        else:
            self._latest, self._render, self.step = None, render, step

    def latest(self) -> pb.MatchEvent | None:
        """The newest event (rendered now if it was deferred), None before the first."""
        if self._latest is None and self._render is not None:
            self._latest = self.event(self.step, self._render())
            self._render = None
        return self._latest


def without_replay(record: pb.MatchRecord) -> pb.MatchRecord:
    """The record with neither seed nor replay: what the last Watch event carries for anyone."""
    public = pb.MatchRecord()
    public.CopyFrom(record)
    public.seed = 0
    public.replay_json = ""
    public.full_replay = False
    return public


def public_record(record: pb.MatchRecord, final_view_json: str) -> pb.MatchRecord:
    """The record as anyone may see it: no seed, and the public replay instead of the full one.

    The public replay is `engine.public_replay.public_frames` of the full one; a real-time match
    (replayed from its arrival log, not from steps) shows its final public view only, and a match
    without a replay (aborted) none. A replay the game cannot play again (stored by an earlier
    version of it) has no frames and says why in `unavailable`; the result fields stay as played.
    """
    public = without_replay(record)
    if not record.replay_json:
        return public
    doc = json.loads(record.replay_json)
    unavailable = None
    if "realtime_log" in doc:
        frames = [json.loads(final_view_json)] if final_view_json else []
    else:
        try:
            frames = public_frames(Replay.from_dict(doc))
        except ReplayMismatch as exc:
            logger.warning("match %s: %s", shown(record.match_id), exc)
            frames, unavailable = [], str(exc)
        except Exception:  # a replay the game cannot play again: show no frames rather than fail
            logger.exception("match %s: no public replay", record.match_id)
            frames, unavailable = [], "this replay cannot be played again; its stored result is unchanged."
    replay: dict[str, Any] = {"game": record.game, "players": len(record.seat_names), "frames": frames}
    if unavailable is not None:
        replay["unavailable"] = unavailable
    public.replay_json = dumps(replay)
    return public


class Arena:
    """Every game, every connected bot, every match of one server."""

    def __init__(self, config: ArenaConfig | None = None,
                 on_result: Callable[[str, Sequence[str], MatchResult, float], None] | None = None) -> None:
        """on_result(match_id, seat names, result, seconds) runs in a pool thread after
        each match (e.g. to store it); its errors are printed, never raised."""
        self.config = config or ArenaConfig()
        self.on_result = on_result
        self.metrics = MatchMetrics()
        self.metrics.connected_bots(lambda: float(len(self.connected())))
        self._lock = threading.Lock()
        self._sessions: dict[str, BotSession] = {}
        self._live: dict[str, LiveMatch] = {}
        self._finished: OrderedDict[str, LiveMatch] = OrderedDict()
        self._pool = concurrent.futures.ThreadPoolExecutor(
            max_workers=self.config.max_workers, thread_name_prefix="referee"
        )

    # ------------------------------------------------------------------ sessions

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
                raise ArenaError(grpc.StatusCode.INVALID_ARGUMENT,
                                 f"{game_id} has no real-time mode: drop realtime or pick ninja-arena.")
            if "realtime" in game.modes and "mode" not in (config or {}):
                config = {**(config or {}), "mode": "realtime"}
        if match_id is not None and self.find_live(match_id) is not None:
            raise ArenaError(grpc.StatusCode.ALREADY_EXISTS, f"match '{match_id}' exists already: pick a new id.")
        match_id = match_id or uuid.uuid4().hex[:16]
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
        live.publish(live.event(0, dumps(first.public_view())))
        config_json = dumps(dict(config or {}))
        for seat, session in claimed:
            # No seed while the match runs: it decides every hidden card and future roll, so a bot
            # holding it could rebuild the opponents' hands (it is in the record at the end).
            session.send(pb.ArenaMessage(match_started=pb.MatchStarted(
                match_id=match_id, game=game_id, seat=seat, players=n, seat_names=names, seed=0,
                config_json=config_json, move_ms=move_ms, realtime=realtime,
            )))
        # With a connected bot the referee runs on this loop (see match_loop); a match of
        # built-in bots only, or a real-time one, runs in a pool thread and hands its events over.
        on_loop = not realtime and bool(claimed)

        steps = [0]

        def render() -> str:  # the referee plays on `first` in place: this is always the current view
            return dumps(first.public_view())

        def on_step(state: State, _joint: list[tuple[int, Action]]) -> None:
            # Only the public view leaves the referee, never an action label (a label can name a
            # hidden card).
            steps[0] += 1
            if on_loop:
                live.advance(steps[0], render)
            else:
                event = live.event(steps[0], dumps(state.public_view()))
                loop.call_soon_threadsafe(live.publish, event)

        started = time.perf_counter()
        self.metrics.started(game_id)
        try:
            if realtime:
                result = await loop.run_in_executor(
                    self._pool, play_realtime, game, seats, seed, config, lambda state: on_step(state, []))
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
            record = pb.MatchRecord(match_id=match_id, game=game_id, seat_names=names, seed=seed,
                                    termination=Termination.ABORTED,
                                    reason=f"aborted: {type(exc).__name__}: {exc}"[:500],
                                    forfeit_seat=-1, finished=True, full_replay=True)
        finally:
            for _, session in claimed:
                self._release(session)
        # The record is kept (GetMatch, Watch) before any bot hears the match is over.
        self._finish(live, record)
        for seat, session in claimed:
            session.send(pb.ArenaMessage(match_ended=self._ended(record, seat)))
        return record

    def _store(self, match_id: str, names: Sequence[str], result: MatchResult, seconds: float) -> None:
        """Hand a finished match to on_result; storage trouble must not lose the match for the bots."""
        assert self.on_result is not None
        try:
            self.on_result(match_id, names, result, seconds)
        except Exception:
            traceback.print_exc()

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

    @staticmethod
    def _ended(record: pb.MatchRecord, seat: int) -> pb.MatchEnded:
        return pb.MatchEnded(match_id=record.match_id, ranks=list(record.ranks), scores=list(record.scores),
                             reason=record.reason, seat=seat, termination=record.termination,
                             points=seat_points(record, seat), forfeit_seat=record.forfeit_seat)

    def _finish(self, live: LiveMatch, record: pb.MatchRecord) -> None:
        latest = live.latest()
        # Watchers see the record without seed or replay (they saw every public view already);
        # an organiser's watch swaps the full record in (see ArenaServicer.Watch).
        final = live.event(live.step + 1, latest.public_view_json if latest is not None else "")
        final.finished = True
        final.record.CopyFrom(without_replay(record))
        live.record = record
        live.publish(final)
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

        Made in a pool thread on first demand (it replays the match), then kept with the match.
        """
        live = self._finished.get(match_id)
        if live is None or live.record is None:
            return None
        if live.public is None:
            latest = live.latest()
            view = latest.public_view_json if latest is not None else ""
            live.public = await asyncio.get_running_loop().run_in_executor(
                self._pool, public_record, live.record, view)
        return live.public

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


def list_games(arena: Arena) -> pb.ListGamesResponse:
    """Every built game with its player counts, modes, time control and built-in bots."""
    out = pb.ListGamesResponse()
    move_ms = arena.config.default_move_ms
    for game in available_games():
        out.games.append(pb.GameInfo(
            id=game.id, name=game.name, min_players=game.min_players, max_players=game.max_players,
            modes=list(game.modes), default_move_ms=move_ms,
            time_controls=[f"move:{move_ms}ms"] + (["realtime"] if supports_realtime(game.id) else []),
            builtin_bots=bot_names(game),
        ))
    return out


class HelloLimiter:
    """A token bucket per connection (gRPC peer): `allow(peer)` spends one Hello if any is left."""

    def __init__(self, burst: int, per_s: float, clock: Callable[[], float] = time.monotonic,
                 max_peers: int = 10_000) -> None:
        self.burst = float(max(1, burst))
        self.per_s = max(0.0, per_s)
        self.clock = clock
        self.max_peers = max_peers
        self._buckets: OrderedDict[str, tuple[float, float]] = OrderedDict()  # peer -> (tokens, when)

    def allow(self, peer: str) -> bool:
        """True when `peer` may say Hello now (one token is spent)."""
        now = self.clock()
        tokens, when = self._buckets.pop(peer, (self.burst, now))
        tokens = min(self.burst, tokens + (now - when) * self.per_s)
        allowed = tokens >= 1.0
        self._buckets[peer] = (tokens - 1.0 if allowed else tokens, now)
        # Forget the oldest connections first; a forgotten peer starts again with a full bucket,
        # which is what a brand-new connection would get anyway.
        while len(self._buckets) > self.max_peers:
            self._buckets.popitem(last=False)
        return allowed


class ArenaServicer:
    """The gRPC methods of service tourney.v1.Arena over one Arena."""

    def __init__(self, arena: Arena) -> None:
        self.arena = arena
        self.hellos = HelloLimiter(arena.config.hello_burst, arena.config.hello_per_s)

    async def ListGames(self, request: pb.ListGamesRequest, context: grpc.aio.ServicerContext[Any, Any]
                        ) -> pb.ListGamesResponse:
        return list_games(self.arena)

    async def GetMatch(self, request: pb.GetMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
                       ) -> pb.MatchRecord:
        # Only the organiser gets the seed and the decisions: from them every hidden card follows.
        if self.arena.is_admin(request.admin_token):
            record = self.arena.get_match(request.match_id)
        else:
            record = await self.arena.get_public_match(request.match_id)
        if record is None:
            await context.abort(grpc.StatusCode.NOT_FOUND,
                                f"no finished match '{shown(request.match_id)}' is kept here: check the id.")
        assert record is not None
        return record

    async def RunMatch(self, request: pb.RunMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
                       ) -> pb.MatchRecord:
        if not self.arena.is_admin(request.admin_token):
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "wrong admin token: pass the arena's --admin-token.")
        try:
            config = json.loads(request.config_json) if request.config_json else None
        except ValueError:
            config = "bad"
        if config is not None and not isinstance(config, dict):
            await context.abort(grpc.StatusCode.INVALID_ARGUMENT, "config_json is not a JSON object: send e.g. {}.")
        try:
            # The match runs in its own task: a caller who hangs up does not abort it half-way
            # (its bots still get MatchEnded, and GetMatch still finds it).
            match = asyncio.ensure_future(self.arena.run_match(
                request.game, self.arena.resolve_specs(list(request.seats)), request.seed, config,
                request.move_ms, float(request.wait_s), request.match_id or None, request.realtime,
                list(request.bot_seeds),
            ))
            return await asyncio.shield(match)
        except ArenaError as exc:
            await context.abort(exc.code, str(exc))
            raise  # unreachable: abort raises

    async def Watch(self, request: pb.WatchRequest, context: grpc.aio.ServicerContext[Any, Any]
                    ) -> AsyncIterator[pb.MatchEvent]:
        live = self.arena.find_live(request.match_id)
        if live is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match '{shown(request.match_id)}': check the id.")
            return
        admin = self.arena.is_admin(request.admin_token)
        latest = live.latest()
        backlog = [] if latest is None else [latest]
        queue: asyncio.Queue[pb.MatchEvent | None] = asyncio.Queue()
        if live.record is None:
            live.watchers.append(queue)
        try:
            for event in backlog:
                yield self._for_watcher(event, live, admin)
                if event.finished:
                    return
            while True:
                next_event = await queue.get()
                if next_event is None:
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED,
                                        f"this watcher fell {MAX_WATCH_QUEUE} events behind: watch again to resume "
                                        "from the latest events.")
                    return
                yield self._for_watcher(next_event, live, admin)
                if next_event.finished:
                    return
        finally:
            if queue in live.watchers:
                live.watchers.remove(queue)

    @staticmethod
    def _for_watcher(event: pb.MatchEvent, live: LiveMatch, admin: bool) -> pb.MatchEvent:
        """The event as this watcher may see it: the organiser's last event carries the full record."""
        if not (admin and event.finished and live.record is not None):
            return event
        full = pb.MatchEvent()
        full.CopyFrom(event)
        full.record.CopyFrom(live.record)
        return full

    async def Play(self, request_iterator: AsyncIterator[bytes],
                   context: grpc.aio.ServicerContext[Any, Any]) -> None:
        """A bot session: the first message must be Hello; then replies, in any order.

        Written with context.write rather than as a generator: it sends one message per
        decision, and a generator would add a hop per message (here and in any interceptor).
        """
        loop = asyncio.get_running_loop()
        session: BotSession | None = None
        try:
            hello_by = loop.time() + self.arena.config.hello_timeout_s
            while session is None:
                try:
                    data = await asyncio.wait_for(context.read(), max(0.0, hello_by - loop.time()))
                except TimeoutError:
                    late = (f"no Hello within {self.arena.config.hello_timeout_s:g} s of opening the stream: "
                            "send Hello first.")
                    await context.write(error_message("hello_timeout", late))
                    await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED, late)
                    return
                if data is grpc.aio.EOF:
                    return
                first = _parse_bot_message(data)
                if first is None or first.WhichOneof("kind") != "hello":
                    await context.write(error_message("malformed" if first is None else "bad_hello",
                                                      "the first message of a session must be Hello."))
                    continue
                hello = first.hello
                problem = hello_problem(hello)
                if problem is not None:
                    await context.write(error_message("bad_hello", problem))
                    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, problem)
                    return
                if not self.hellos.allow(context.peer()):
                    limit = (f"too many Hello messages on this connection (at most {self.arena.config.hello_burst} "
                             f"at once, then {self.arena.config.hello_per_s:g} a second): slow down.")
                    await context.write(error_message("rate_limited", limit))
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, limit)
                    return
                refused = self.arena.authenticate(hello)
                if refused is None and len(self.arena.connected()) >= self.arena.config.max_sessions:
                    full = (f"the arena is full ({self.arena.config.max_sessions} bot sessions): "
                            "try again later.")
                    await context.write(error_message("arena_full", full))
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, full)
                    return
                if refused is not None:
                    await context.write(error_message("unauthenticated", refused))
                    await context.abort(grpc.StatusCode.UNAUTHENTICATED, refused)
                    return
                known = {g.id for g in available_games()}
                wanted = list(hello.games)
                unknown = [g for g in wanted if g not in known]
                config = self.arena.config
                slots = min(hello.max_concurrent_matches or 1, config.max_matches_per_session)
                session = BotSession(uuid.uuid4().hex[:12], hello.bot_name, [g for g in wanted if g not in unknown],
                                     slots, loop, config.max_queued_messages, config.max_queued_bytes)
                if unknown:
                    await context.write(error_message(
                        "unknown_game", f"games {shown(', '.join(unknown))} are not hosted here: see ListGames."))
            self.arena.add_session(session)
            await context.write(pb.ArenaMessage(welcome=pb.Welcome(
                session_id=session.session_id, bot_name=session.name, games=sorted(session.games or known),
                max_concurrent_matches=session.capacity, server_version=SERVER_VERSION,
            )).SerializeToString())
            reader = asyncio.ensure_future(self._read(session, context))
            writer = asyncio.ensure_future(self._write(session, context))
            # A write stuck on a bot that does not read fails once the stream is cut: nothing to report.
            writer.add_done_callback(lambda task: task.cancelled() or task.exception())
            try:
                # The writer waits on the bot (flow control) when it stops reading; `cut` fires when
                # its queue overflows, and the stream is ended without waiting for the writer.
                await asyncio.wait((writer, session.cut), return_when=asyncio.FIRST_COMPLETED)
                if session.cut.done():
                    code, reason = session.cut.result()
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, f"{code}: {reason}")
            finally:
                reader.cancel()
                writer.cancel()
        finally:
            if session is not None:
                self.arena.remove_session(session)

    @staticmethod
    async def _write(session: BotSession, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        """Write the session's queued messages until it closes."""
        while (message := await session.outbound.get()) is not None:
            await context.write(message)

    async def _read(self, session: BotSession, context: grpc.aio.ServicerContext[Any, Any]) -> None:
        """Route the bot's messages until its side of the stream ends, then close the session."""
        config = self.arena.config
        bad = HelloLimiter(config.bad_message_burst, config.bad_messages_per_s)  # one bucket: this stream
        try:
            # context.read, not the request iterator: one generator hop less per message.
            while (data := await context.read()) is not grpc.aio.EOF:
                message = _parse_bot_message(data)
                kind = None if message is None else message.WhichOneof("kind")
                if message is not None and kind == "reply" and session.resolve(message.reply):
                    continue  # the common case: an answer to a pending request
                if not bad.allow(""):
                    session.cut_off("rate_limited", f"more than {config.bad_message_burst} messages the arena could "
                                    f"not use, faster than {config.bad_messages_per_s:g} a second: answer only the "
                                    "requests you were sent.")
                    return
                if message is None or kind is None:
                    session.send(error_message("malformed", "a BotMessage must hold a Hello or an ActionReply."))
                elif kind == "hello":
                    session.send(error_message("bad_hello", "this session already said Hello."))
                else:
                    reply = message.reply
                    session.send(error_message(
                        "unknown_request",
                        f"no pending request {reply.request_id} in match '{shown(reply.match_id)}' for this bot "
                        "(late, answered already, withdrawn, or not yours).",
                        reply.match_id, reply.request_id,
                    ))
        except (asyncio.CancelledError, grpc.aio.AioRpcError):
            pass
        finally:
            session.close()


def _parse_bot_message(data: bytes) -> pb.BotMessage | None:
    """Parse a BotMessage; None for bytes that are not one (answered with an ErrorReport)."""
    try:
        message: pb.BotMessage = pb.BotMessage.FromString(data)
        return message
    except DecodeError:
        return None


def arena_handler(servicer: ArenaServicer) -> grpc.GenericRpcHandler:
    """The method handlers of tourney.v1.Arena; Play parses leniently so bad bytes get an ErrorReport."""
    handlers = {
        "ListGames": grpc.unary_unary_rpc_method_handler(
            servicer.ListGames, request_deserializer=pb.ListGamesRequest.FromString,
            response_serializer=pb.ListGamesResponse.SerializeToString),
        # Play moves bytes: it parses each BotMessage itself (leniently), and everything it
        # sends is serialized when queued (requests are framed by hand, see wire.py).
        "Play": grpc.stream_stream_rpc_method_handler(servicer.Play),
        "Watch": grpc.unary_stream_rpc_method_handler(
            servicer.Watch, request_deserializer=pb.WatchRequest.FromString,
            response_serializer=pb.MatchEvent.SerializeToString),
        "GetMatch": grpc.unary_unary_rpc_method_handler(
            servicer.GetMatch, request_deserializer=pb.GetMatchRequest.FromString,
            response_serializer=pb.MatchRecord.SerializeToString),
        "RunMatch": grpc.unary_unary_rpc_method_handler(
            servicer.RunMatch, request_deserializer=pb.RunMatchRequest.FromString,
            response_serializer=pb.MatchRecord.SerializeToString),
    }
    return grpc.method_handlers_generic_handler("tourney.v1.Arena", handlers)


# What the arena may send. Bots need none of it (no ActionRequest is over 64 KB, so gRPC's default
# 4 MiB receive limit plays every game); the public GetMatch record of a long match does: its
# replay is one public view per step (a 388-step Tiny Ninjas champion series: 10.6 MB, while the
# admin's full record of it, seed and decisions, is 7.5 KB).
MAX_MESSAGE_BYTES = 64 * 1024 * 1024


def server_options(max_receive_bytes: int) -> list[tuple[str, Any]]:
    """gRPC server options: what clients may send is capped at `max_receive_bytes`."""
    return [
        ("grpc.max_send_message_length", MAX_MESSAGE_BYTES),
        ("grpc.max_receive_message_length", max_receive_bytes),
        # No bandwidth probing of what clients send (they send small replies): with it gRPC widens a
        # stream's receive window to take a whole oversized message in before refusing it (four
        # 60 MB Hellos: +60 MB of peak memory); without it the window stays small.
        ("grpc.http2.bdp_probe", 0),
        ("grpc.keepalive_time_ms", 30_000),
        ("grpc.keepalive_permit_without_calls", 1),
        ("grpc.http2.min_ping_interval_without_data_ms", 10_000),
    ]


async def start_server(
    arena: Arena,
    host: str = "127.0.0.1",
    port: int = 50051,
    tls: tuple[bytes, bytes] | None = None,
) -> tuple[grpc.aio.Server, int]:
    """Start the arena on host:port (0 picks a free port); returns the server and its port.

    tls is (certificate chain PEM, private key PEM). The standard health service and
    server reflection are enabled when their packages are installed.
    """
    available_games()  # import every game now, not during the first bot's Hello
    server = grpc.aio.server(options=server_options(arena.config.max_receive_bytes),
                             interceptors=[MetricsInterceptor(arena_methods())])
    server.add_generic_rpc_handlers((arena_handler(ArenaServicer(arena)),))
    service_names = ["tourney.v1.Arena"]
    try:
        from grpc_health.v1 import health, health_pb2, health_pb2_grpc

        health_servicer = health.aio.HealthServicer()
        health_pb2_grpc.add_HealthServicer_to_server(health_servicer, server)
        await health_servicer.set("", health_pb2.HealthCheckResponse.SERVING)
        await health_servicer.set("tourney.v1.Arena", health_pb2.HealthCheckResponse.SERVING)
        service_names.append(health_pb2.DESCRIPTOR.services_by_name["Health"].full_name)
    except ImportError:
        pass
    try:
        from grpc_reflection.v1alpha import reflection

        service_names.append(reflection.SERVICE_NAME)
        reflection.enable_server_reflection(service_names, server)
    except ImportError:
        pass
    address = f"{host}:{port}"
    if tls is not None:
        credentials = grpc.ssl_server_credentials([(tls[1], tls[0])])
        bound = server.add_secure_port(address, credentials)
    else:
        bound = server.add_insecure_port(address)
    await server.start()
    return server, bound
