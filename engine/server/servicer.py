"""The RPCs of tourney.v1.Arena over one `Arena`: ListGames, GetMatch, RunMatch, RunMatches, Watch, Play.

The servicer checks what a client sends (Hello, rate limits, admin token) and moves
messages; what a match is and how it is played belongs to `Arena`.
"""

from __future__ import annotations

import asyncio
import functools
import json
import uuid
from collections.abc import AsyncIterator
from typing import Any, NoReturn

import grpc
from google.protobuf.message import DecodeError

from tourney.engine.bots import bot_names
from tourney.engine.core import available_games
from tourney.engine.core.addresses import grpc_peer_address
from tourney.engine.core.printable import shown
from tourney.engine.server.admission import Ticket
from tourney.engine.server.arena import Arena, ArenaError
from tourney.engine.server.generated import arena_pb2 as pb
from tourney.engine.server.limits import hello_problem
from tourney.engine.server.live import MAX_WATCH_QUEUE, MAX_WATCH_QUEUE_BYTES, LiveMatch, WatcherQueue
from tourney.engine.server.rate_limit import HelloLimiter
from tourney.engine.server.realtime import supports_realtime
from tourney.engine.server.sessions import BotSession, error_message

SERVER_VERSION = "tourney-arena/1"
# A call refused by admission control is answered after REFUSAL_PAUSE_S, MAX_SLOWED_REFUSALS at a
# time (more are answered at once): a flood then waits on its own streams rather than on the CPU.
# With ArenaConfig.streams_per_connection streams a connection, a flood's refused calls come at most
# streams / REFUSAL_PAUSE_S a second per connection: 2 s rather than 1 s halved what the bursts of
# bench/reliability.py cost an arena (Hellos: 1.6 to 0.85 CPU s in 15 s; ListGames: 0.75 to 0.39).
REFUSAL_PAUSE_S = 2.0
MAX_SLOWED_REFUSALS = 1024
# Matches one RunMatches stream may have in flight: the next request is read once one of them ends.
RUN_MATCHES_IN_FLIGHT = 256
Ended = asyncio.Queue[pb.MatchRecord | ArenaError | None]  # a RunMatches stream's records, refusal, or its end


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


class ArenaServicer:
    """The gRPC methods of service tourney.v1.Arena over one Arena."""

    def __init__(self, arena: Arena, listener: str | None = None) -> None:
        self.arena = arena
        # Who a caller is, for every per-connection and per-address limit: its gRPC peer, or on a Unix
        # socket of its own (`listener`, one per hosted seat) that socket. gRPC names every Unix peer
        # "unix:", so callers on a shared socket would share their limits: one seat's wrong tokens or
        # silent streams would then lock its opponent out of their match.
        self.listener = listener
        self.hellos = HelloLimiter(arena.config.hello_burst, arena.config.hello_per_s)
        self.admission, self.auth_failures = arena.call_limits(listener)
        self._slowed = 0  # refused calls pausing before their answer
        self._sessions_from: dict[str, int] = {}  # address -> bot sessions open from it

    def _peer(self, context: grpc.aio.ServicerContext[Any, Any]) -> str:
        """The caller as the limits count it: its listener's own name, else its gRPC peer."""
        return self.listener or context.peer()

    async def _admit(self, context: grpc.aio.ServicerContext[Any, Any]) -> Ticket:
        """Admit a call that is not the organiser's, or end it with RESOURCE_EXHAUSTED (see admission.py)."""
        ticket = self.admission.enter(self._peer(context))
        if isinstance(ticket, str):
            await self._refuse(context, ticket)
        # Its place is freed when the call is over, not when the handler returns: an answer still
        # waiting for a client that grants no flow-control window holds memory until then.
        context.add_done_callback(lambda _context: ticket.leave())
        return ticket

    async def _refuse(self, context: grpc.aio.ServicerContext[Any, Any], sentence: str) -> NoReturn:
        """End a call with RESOURCE_EXHAUSTED and `sentence`, after a pause: a flooding client waits
        instead of asking again at once, and its waiting call (one of its connection's few streams)
        costs no CPU. At most MAX_SLOWED_REFUSALS pause at once; past that they are answered at once."""
        if self._slowed < MAX_SLOWED_REFUSALS:
            self._slowed += 1
            try:
                await asyncio.sleep(REFUSAL_PAUSE_S)
            finally:
                self._slowed -= 1
        await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, sentence)
        raise AssertionError("unreachable: abort raises")

    async def _is_admin(self, token: str, context: grpc.aio.ServicerContext[Any, Any]) -> bool:
        """Whether `token` is the admin token; a wrong one (an empty one asks for nothing) counts as a
        failed authentication, and past the limit the call is ended with RESOURCE_EXHAUSTED."""
        if self.arena.is_admin(token):
            return True
        if token:
            refused = self.auth_failures.refused(self._peer(context))
            if refused is not None:
                await self._refuse(context, refused)
            self.auth_failures.failed(self._peer(context))
        return False

    async def ListGames(self, request: pb.ListGamesRequest, context: grpc.aio.ServicerContext[Any, Any]
                        ) -> pb.ListGamesResponse:
        await self._admit(context)
        return list_games(self.arena)

    async def GetMatch(self, request: pb.GetMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
                       ) -> pb.MatchRecord:
        # Only the organiser gets the seed and the decisions: from them every hidden card follows.
        if await self._is_admin(request.admin_token, context):
            record = self.arena.get_match(request.match_id)
        else:
            await self._admit(context)
            record = await self.arena.get_public_match(request.match_id)
        if record is None:
            await context.abort(grpc.StatusCode.NOT_FOUND,
                                f"no finished match '{shown(request.match_id)}' is kept here: check the id.")
        assert record is not None
        return record

    async def RunMatch(self, request: pb.RunMatchRequest, context: grpc.aio.ServicerContext[Any, Any]
                       ) -> pb.MatchRecord:
        # Never admission-counted: the organiser's match must get through any flood of other calls.
        if not await self._is_admin(request.admin_token, context):
            await self._admit(context)  # anyone else's RunMatch is one more unauthenticated call
            await context.abort(grpc.StatusCode.PERMISSION_DENIED, "wrong admin token: pass the arena's --admin-token.")
        try:
            return await asyncio.shield(self._start(request))
        except ArenaError as exc:
            await context.abort(exc.code, str(exc))
            raise  # unreachable: abort raises

    def _start(self, request: pb.RunMatchRequest) -> asyncio.Future[pb.MatchRecord]:
        """Start the match `request` asks for, in its own task: a caller who hangs up does not abort it
        half-way (its bots still get MatchEnded, and GetMatch still finds it). ArenaError for a bad config."""
        try:
            config = json.loads(request.config_json) if request.config_json else None
        except (ValueError, RecursionError):  # RecursionError: nested deeper than the parser goes (a small message)
            config = "bad"
        if config is not None and not isinstance(config, dict):
            raise ArenaError(grpc.StatusCode.INVALID_ARGUMENT, "config_json is not a JSON object: send e.g. {}.")
        return asyncio.ensure_future(self.arena.run_match(
            request.game, self.arena.resolve_specs(list(request.seats)), request.seed, config,
            request.move_ms, float(request.wait_s), request.match_id or None, request.realtime,
            list(request.bot_seeds),
        ))

    async def RunMatches(self, request_iterator: AsyncIterator[pb.RunMatchRequest],
                         context: grpc.aio.ServicerContext[Any, Any]) -> None:
        """RunMatch for many matches on one stream: each starts as its request is read, each record is
        written when its match ends; a request RunMatch would refuse ends the stream with its status."""
        first = await self._first_request(context)
        if first is None:
            return
        # Records to write, or why the stream ends; None once every request was read and its match ended.
        ended: Ended = asyncio.Queue()
        room = asyncio.Semaphore(RUN_MATCHES_IN_FLIGHT)
        reader = asyncio.ensure_future(self._start_each(first, context, room, ended))
        try:
            while (item := await ended.get()) is not None:
                if isinstance(item, ArenaError):
                    await context.abort(item.code, str(item))
                await context.write(item)
                room.release()
        finally:
            reader.cancel()

    async def _first_request(self, context: grpc.aio.ServicerContext[Any, Any]) -> pb.RunMatchRequest | None:
        """A RunMatches stream's first request once it carries the admin token (None: the stream ended first).

        Until its token is read a stream is an unauthenticated call like any other: admitted, and given
        hello_timeout_s to send it, so streams that never send cannot pile up uncounted. The organiser is
        never counted: its token frees the place at once, and a stream admission refuses still has its
        first request read during the refusal's pause, so a flood does not keep the organiser out."""
        ticket = self.admission.enter(self._peer(context))
        refusal = ticket if isinstance(ticket, str) else None
        if isinstance(ticket, Ticket):
            context.add_done_callback(functools.partial(_leave, ticket))
        elif self._slowed >= MAX_SLOWED_REFUSALS:
            await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, ticket)
        wait_s = REFUSAL_PAUSE_S if refusal else self.arena.config.hello_timeout_s
        self._slowed += bool(refusal)
        try:
            read = await asyncio.wait_for(context.read(), wait_s)
        except TimeoutError:
            read = None
        finally:
            self._slowed -= bool(refusal)
        if read is grpc.aio.EOF:
            return None
        first: pb.RunMatchRequest | None = read
        if first is not None and self.arena.is_admin(first.admin_token):
            if isinstance(ticket, Ticket):
                ticket.leave()
            return first
        if refusal is not None:  # paused like any refusal, however soon its request came
            await self._refuse(context, refusal)
        if first is None:
            await context.abort(grpc.StatusCode.DEADLINE_EXCEEDED,
                                f"no request within {self.arena.config.hello_timeout_s:g} s of opening the stream: "
                                "send the first RunMatchRequest at once.")
        assert first is not None
        await self._is_admin(first.admin_token, context)  # counts a wrong token as a failed authentication
        await context.abort(grpc.StatusCode.PERMISSION_DENIED, "wrong admin token: pass the arena's --admin-token.")
        raise AssertionError("unreachable: abort raises")

    async def _start_each(self, request: pb.RunMatchRequest, context: grpc.aio.ServicerContext[Any, Any],
                          room: asyncio.Semaphore, ended: Ended) -> None:
        """Start the match of `request` and of every request after it while `room` has a place; each
        match's record (or refusal) goes to `ended`, and None once the stream's side is over and they ended."""
        playing: set[asyncio.Future[pb.MatchRecord]] = set()
        try:
            while True:
                if not self.arena.is_admin(request.admin_token):
                    ended.put_nowait(ArenaError(grpc.StatusCode.PERMISSION_DENIED, "wrong admin token on a request: "
                                                "pass the arena's --admin-token with every request."))
                    return
                await room.acquire()
                try:
                    match = self._start(request)
                except ArenaError as exc:
                    ended.put_nowait(exc)
                    return
                playing.add(match)
                match.add_done_callback(functools.partial(_match_ended, playing, ended))
                read = await context.read()
                if read is grpc.aio.EOF:
                    break
                request = read
            if playing:
                await asyncio.wait(set(playing))
        except (Exception, asyncio.CancelledError):  # the stream was cut: nobody reads what would be written
            pass
        ended.put_nowait(None)

    async def Watch(self, request: pb.WatchRequest, context: grpc.aio.ServicerContext[Any, Any]
                    ) -> AsyncIterator[pb.MatchEvent]:
        admin = await self._is_admin(request.admin_token, context)
        if not admin:
            await self._admit(context)
        live = self.arena.find_live(request.match_id)
        if live is None:
            await context.abort(grpc.StatusCode.NOT_FOUND, f"no match '{shown(request.match_id)}': check the id.")
            return
        latest = live.latest()
        backlog = [] if latest is None else [latest]
        queue = WatcherQueue()
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
                                        f"this watcher fell {MAX_WATCH_QUEUE} events or {MAX_WATCH_QUEUE_BYTES >> 20} "
                                        "MiB behind: watch again to resume from the latest events.")
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
        counted = ""  # the address this session is counted against, once it is
        ticket = await self._admit(context)
        # One bucket for the stream's whole life: what it sends before its Hello is as useless as a stray
        # reply after it, and was answered without limit (an empty message, 5 bytes, one ErrorReport each).
        bad = HelloLimiter(self.arena.config.bad_message_burst, self.arena.config.bad_messages_per_s)
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
                    if not bad.allow(""):
                        flood = self._useless_flood()
                        await context.write(error_message("rate_limited", flood))
                        await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, f"rate_limited: {flood}")
                        return
                    await context.write(error_message("malformed" if first is None else "bad_hello",
                                                      "the first message of a session must be Hello."))
                    continue
                hello = first.hello
                problem = hello_problem(hello)
                if problem is not None:
                    await context.write(error_message("bad_hello", problem))
                    await context.abort(grpc.StatusCode.INVALID_ARGUMENT, problem)
                    return
                if not self.hellos.allow(self._peer(context)):
                    limit = (f"too many Hello messages on this connection (at most {self.arena.config.hello_burst} "
                             f"at once, then {self.arena.config.hello_per_s:g} a second): slow down.")
                    await context.write(error_message("rate_limited", limit))
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, limit)
                    return
                # A Hello without a token guesses nothing: an address locked out for wrong tokens
                # still joins an arena that admits anonymous bots.
                locked = self.auth_failures.refused(self._peer(context)) if hello.token else None
                if locked is not None:
                    await context.write(error_message("rate_limited", locked))
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, locked)
                    return
                refused = self.arena.authenticate(hello)
                if refused is None and len(self.arena.connected()) >= self.arena.config.max_sessions:
                    full = (f"the arena is full ({self.arena.config.max_sessions} bot sessions): "
                            "try again later.")
                    await context.write(error_message("arena_full", full))
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, full)
                    return
                address = grpc_peer_address(self._peer(context))
                crowded = self._sessions_from.get(address, 0) >= self.arena.config.max_sessions_per_address
                if refused is None and crowded:
                    full = (f"{self.arena.config.max_sessions_per_address} bot sessions are open from this address "
                            "already: close one, or play more matches on each (Hello.max_concurrent_matches).")
                    await context.write(error_message("arena_full", full))
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, full)
                    return
                if refused is not None:
                    if hello.token:  # a Hello without one guessed nothing: it spends no try (see `locked`)
                        self.auth_failures.failed(self._peer(context))
                    await context.write(error_message("unauthenticated", refused))
                    await context.abort(grpc.StatusCode.UNAUTHENTICATED, refused)
                    return
                known = {g.id for g in available_games()}
                wanted = list(hello.games)
                unknown = [g for g in wanted if g not in known]
                config = self.arena.config
                slots = min(hello.max_concurrent_matches or 1, config.max_matches_per_session)
                session = BotSession(uuid.uuid4().hex[:12], hello.bot_name, [g for g in wanted if g not in unknown],
                                     slots, loop, config.max_queued_messages, config.max_queued_bytes,
                                     hello.start_in_request, hello.view_delta, self.arena.queued,
                                     hello.json_view_only)
                if unknown:
                    await context.write(error_message(
                        "unknown_game", f"games {shown(', '.join(unknown))} are not hosted here: see ListGames."))
            self.arena.add_session(session)
            counted = grpc_peer_address(self._peer(context))
            self._sessions_from[counted] = self._sessions_from.get(counted, 0) + 1
            ticket.authenticated()
            await context.write(pb.ArenaMessage(welcome=pb.Welcome(
                session_id=session.session_id, bot_name=session.name, games=sorted(session.games or known),
                max_concurrent_matches=session.capacity, server_version=SERVER_VERSION,
            )).SerializeToString())
            reader = asyncio.ensure_future(self._read(session, context, bad))
            # The outbox writes from here on (see Outbox); it finishes when the session closes or a write
            # fails. A write stuck on a bot that does not read fails once the stream is cut: nothing to report.
            session.outbound.start(context.write)
            try:
                # The outbox waits on the bot (flow control) when it stops reading; `cut` fires when
                # its queue overflows, and the stream is ended without waiting for the write.
                await asyncio.wait((session.outbound.finished, session.cut), return_when=asyncio.FIRST_COMPLETED)
                if session.cut.done():
                    code, reason = session.cut.result()
                    await context.abort(grpc.StatusCode.RESOURCE_EXHAUSTED, f"{code}: {reason}")
            finally:
                reader.cancel()
                session.outbound.stop()
        finally:
            if session is not None:
                self.arena.remove_session(session)
            if counted:
                left = self._sessions_from.pop(counted) - 1
                if left:
                    self._sessions_from[counted] = left

    def _useless_flood(self) -> str:
        """Why a stream that sent too many messages the arena could not use is cut off."""
        config = self.arena.config
        return (f"more than {config.bad_message_burst} messages the arena could not use, faster than "
                f"{config.bad_messages_per_s:g} a second: answer only the requests you were sent.")

    async def _read(self, session: BotSession, context: grpc.aio.ServicerContext[Any, Any],
                    bad: HelloLimiter) -> None:
        """Route the bot's messages until its side of the stream ends, then close the session; `bad` is the
        stream's bucket of messages the arena cannot use (a Hello's misses already spent from it)."""
        try:
            # context.read, not the request iterator: one generator hop less per message.
            while (data := await context.read()) is not grpc.aio.EOF:
                message = _parse_bot_message(data)
                kind = None if message is None else message.WhichOneof("kind")
                if message is not None and kind == "reply" and session.resolve(message.reply):
                    continue  # the common case: an answer to a pending request
                if not bad.allow(""):
                    session.cut_off("rate_limited", self._useless_flood())
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


def _match_ended(playing: set[asyncio.Future[pb.MatchRecord]], ended: Ended,
                 match: asyncio.Future[pb.MatchRecord]) -> None:
    """A match of a RunMatches stream ended: its record, or why it was refused, goes to the stream's writer."""
    playing.discard(match)
    if match.cancelled():
        return
    problem = match.exception()
    if problem is None:
        ended.put_nowait(match.result())
    elif isinstance(problem, ArenaError):
        ended.put_nowait(problem)
    else:  # what RunMatch would answer as an internal error
        ended.put_nowait(ArenaError(grpc.StatusCode.INTERNAL, f"the match failed: {type(problem).__name__}"))


def _leave(ticket: Ticket, _context: object) -> None:
    """A call's done callback: its admission place is free again."""
    ticket.leave()


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
        "RunMatches": grpc.stream_stream_rpc_method_handler(
            servicer.RunMatches, request_deserializer=pb.RunMatchRequest.FromString,
            response_serializer=pb.MatchRecord.SerializeToString),
    }
    return grpc.method_handlers_generic_handler("tourney.v1.Arena", handlers)
