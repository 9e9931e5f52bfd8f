"""`tourney serve`, `tourney connect`, `tourney arena-match` and `tourney bots add`: the gRPC Arena.

Added to the root app by tournament/cli/main.py (`app.add_typer`).
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import secrets
import signal
import ssl
import threading
import time
from collections.abc import Callable, Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Annotated, Any, cast

import grpc
import typer

from tourney.engine.bots import make_bot
from tourney.engine.core import Action, ConfigError, DecisionRequest, Game, State, get_game
from tourney.engine.core.environment import ADMIN_TOKEN_ENV, ARENA_ENV, BOT_NAME_ENV, DB_ENV, TOKEN_ENV, TOKENS_ENV
from tourney.engine.core.ports import check_port
from tourney.engine.core.small_files import read_small
from tourney.engine.referee import MatchResult
from tourney.engine.server import (
    REMOTE_PREFIX,
    RUN_MATCH,
    Arena,
    ArenaConfig,
    Bot,
    BotClient,
    BotProcess,
    LocalArena,
    SessionRefused,
    add_bot,
    command_name,
    default_path,
    is_command,
    load_tokens,
    pb,
    result_of,
    rpc_detail,
    serve_metrics,
    start_admin_listener,
    start_server,
)
from tourney.tournament.cli.admin_token import check_admin_token
from tourney.tournament.cli.given_values import C_INT, UINT32, check_within
from tourney.tournament.cli.shared import (
    DEFAULT_GAME,
    MATCH_SEEDS,
    GameOpt,
    JsonOpt,
    check_move_ms,
    check_seed,
    err,
    guarded,
)
from tourney.tournament.entrants import split_bot_list
from tourney.tournament.responses import ArenaMatchDoc, played_match_doc

if TYPE_CHECKING:
    from tourney.tournament.cli.web import WebBeside

MAX_PEM = 1 << 20  # a certificate chain or key: a few kB; a megabyte holds hundreds

bots_app = typer.Typer(no_args_is_help=True, help="Bots allowed to connect to an arena, with their tokens (add).")
app = typer.Typer()  # serve, connect and arena-match, added to the root app (bots_app is the `bots` group)

ArenaOpt = Annotated[str, typer.Option("--arena", help="The arena's host:port.")]
TokensOpt = Annotated[Path | None, typer.Option("--tokens", help=f"Token file (default ${TOKENS_ENV} or "
                                                                  "~/.config/tourney/bots.json).")]


@app.command()
def serve(
    host: Annotated[str, typer.Option(help="Interface to listen on.")] = "127.0.0.1",
    port: Annotated[int, typer.Option(help="Port (0 picks a free one).")] = 50051,
    admin_token: Annotated[str | None, typer.Option(help=f"Token RunMatch requires (default ${ADMIN_TOKEN_ENV}, "
                                                         "else a new one is printed).")] = None,
    allow_anonymous: Annotated[bool, typer.Option("--allow-anonymous",
                                                  help="Let any bot connect without a token (local play).")] = False,
    tokens: TokensOpt = None,
    move_ms: Annotated[int, typer.Option("--move-ms", help="Default per-move limit in milliseconds.")] = 10_000,
    tls_cert: Annotated[Path | None, typer.Option(help="TLS certificate chain (PEM).")] = None,
    tls_key: Annotated[Path | None, typer.Option(help="TLS private key (PEM).")] = None,
    db: Annotated[str | None, typer.Option(envvar=DB_ENV, help="Store every finished match in this database "
                                                f"(URL or SQLite path; default ${DB_ENV}).")] = None,
    metrics_port: Annotated[int | None, typer.Option(help="Serve Prometheus metrics over HTTP on this port.")] = None,
    metrics_host: Annotated[str, typer.Option(help="Interface the metrics listen on (0.0.0.0: every "
                                                   "interface).")] = "127.0.0.1",
    leagues: Annotated[bool, typer.Option("--leagues", help="Also play due league rounds here, where remote "
                                                            "bots connect (needs --db).")] = False,
    web_port: Annotated[int | None, typer.Option(help="Also serve the web pages (`tourney web`) on this port, "
                                                      "reading --db (default tourney.db).")] = None,
    max_sessions: Annotated[int, typer.Option(help="Bot sessions held at once; more are refused "
                                                   "(arena_full).")] = ArenaConfig.max_sessions,
    max_sessions_per_address: Annotated[int, typer.Option(help="Bot sessions held at once from one address; "
                                                               "more are refused (arena_full).")
                                        ] = ArenaConfig.max_sessions_per_address,
    max_matches_per_session: Annotated[int, typer.Option(help="Match slots one stream may ask for in "
                                                              "Hello.")] = ArenaConfig.max_matches_per_session,
    max_queued_messages: Annotated[int, typer.Option(help="Messages waiting for one bot before it is cut off "
                                                          "(slow_reader).")] = ArenaConfig.max_queued_messages,
    max_queued_mb: Annotated[int, typer.Option("--max-queued-mb", help="Megabytes waiting for one bot before it is "
                                               "cut off (slow_reader).")] = ArenaConfig.max_queued_bytes >> 20,
    max_receive_kb: Annotated[int, typer.Option("--max-receive-kb", help="Largest message a client may send, in "
                                                "KB.")] = ArenaConfig.max_receive_bytes >> 10,
    bad_message_burst: Annotated[int, typer.Option(help="Unusable messages (malformed, unknown replies) one stream "
                                                        "may send at once before it is cut off (rate_limited).")
                                 ] = ArenaConfig.bad_message_burst,
    bad_messages_per_s: Annotated[float, typer.Option("--bad-messages-per-s", help="Unusable messages a second one "
                                                      "stream may send after its burst.")
                                  ] = ArenaConfig.bad_messages_per_s,
    calls_per_connection: Annotated[int, typer.Option(help="Calls one connection may have in flight (the "
                                                          "organiser's RunMatch aside); more are refused "
                                                          "(RESOURCE_EXHAUSTED).")] = ArenaConfig.calls_per_connection,
    streams_per_connection: Annotated[int, typer.Option(help="HTTP/2 streams one connection may have open at once; "
                                                            "gRPC clients wait for a free one, and further calls "
                                                            "that arrive anyway are reset unread (UNAVAILABLE).")
                                      ] = ArenaConfig.streams_per_connection,
    admin_port: Annotated[int | None, typer.Option(help="Also listen on 127.0.0.1:PORT for the organiser (`tourney "
                                                        "run --arena 127.0.0.1:PORT`): out of reach of the network, "
                                                        "and a tournament's RunMatch calls all run at once there "
                                                        "(0 picks a free port).")] = None,
    unauthenticated_calls: Annotated[int, typer.Option(help="Calls without a token (ListGames, public GetMatch and "
                                                           "Watch, a Play stream before its Hello is accepted) in "
                                                           "flight at once.")] = ArenaConfig.unauthenticated_calls,
    unauthenticated_per_s: Annotated[float, typer.Option("--unauthenticated-per-s", help="New calls without a token a "
                                                         "second, overall.")] = ArenaConfig.unauthenticated_per_s,
    unauthenticated_per_s_per_address: Annotated[float, typer.Option(
        "--unauthenticated-per-s-per-address", help="New calls without a token a second from one address.")
    ] = ArenaConfig.unauthenticated_per_s_per_address,
    auth_failures_per_address: Annotated[int, typer.Option(help="Wrong tokens one address may send at once; then "
                                                               "one a second (refused unread meanwhile).")
                                         ] = ArenaConfig.auth_failures_per_address,
    auth_failures_overall: Annotated[int, typer.Option(help="Wrong tokens the whole arena takes at once; then five "
                                                           "a second.")] = ArenaConfig.auth_failures_overall,
    max_connections: Annotated[int, typer.Option(help="Client connections at once (never within 256 of the "
                                                     "open-file limit, which is raised to its hard limit).")
                               ] = ArenaConfig.max_connections,
    idle_connection_s: Annotated[float, typer.Option("--idle-connection-s", help="Seconds a connection with no call "
                                                     "stays open.")] = ArenaConfig.idle_connection_s,
    league_lease: Annotated[float, typer.Option(help="With --leagues: seconds a round's claim lasts without "
                                                     "renewal.")] = 300.0,
    league_catch_up: Annotated[str, typer.Option(help="With --leagues: due rounds played after downtime (all, "
                                                      "latest or N).")] = "3",
) -> None:
    """Run the arena: bots connect over gRPC and play matches requested with RunMatch."""
    def body() -> None:
        for flag, named in (("--port", port), ("--admin-port", admin_port), ("--metrics-port", metrics_port),
                            ("--web-port", web_port)):
            if named is not None:  # before the admin token is printed: a bad port is the only line
                check_port(named, flag)
        check_move_ms(move_ms)
        if (tls_cert is None) != (tls_key is None):
            raise ConfigError("--tls-cert and --tls-key go together: give both or neither.")
        if leagues and not db:
            raise ConfigError("--leagues reads the leagues from the database: add --db.")
        limits = {"--max-sessions": max_sessions, "--max-sessions-per-address": max_sessions_per_address,
                  "--max-matches-per-session": max_matches_per_session,
                  "--max-queued-messages": max_queued_messages, "--max-queued-mb": max_queued_mb,
                  "--max-receive-kb": max_receive_kb, "--bad-message-burst": bad_message_burst,
                  "--calls-per-connection": calls_per_connection,
                  "--streams-per-connection": streams_per_connection, "--unauthenticated-calls": unauthenticated_calls,
                  "--auth-failures-per-address": auth_failures_per_address,
                  "--auth-failures-overall": auth_failures_overall, "--max-connections": max_connections}
        for flag, value in limits.items():
            if value < 1:
                raise ConfigError(f"{flag} must be at least 1, not {value}.")
        # gRPC takes these as C ints (a message's bytes, HTTP/2 streams, an idle connection's ms).
        check_within("--max-receive-kb", max_receive_kb, range(1, C_INT.stop >> 10))
        check_within("--streams-per-connection", streams_per_connection, range(1, C_INT.stop))
        rates = {"--bad-messages-per-s": bad_messages_per_s, "--unauthenticated-per-s": unauthenticated_per_s,
                 "--unauthenticated-per-s-per-address": unauthenticated_per_s_per_address,
                 "--idle-connection-s": idle_connection_s}
        for flag, rate in rates.items():
            if not rate > 0:
                raise ConfigError(f"{flag} must be above 0, not {rate:g}.")
        if not idle_connection_s * 1000 < C_INT.stop:
            raise ConfigError(f"--idle-connection-s must be under {C_INT.stop // 1000:,} seconds, not "
                              f"{idle_connection_s:g}.")
        if league_lease <= 0:
            raise ConfigError(f"--league-lease must be a positive number of seconds, not {league_lease}.")
        from tourney.tournament.league.schedule import parse_catch_up

        catch_up = parse_catch_up(league_catch_up)
        tls = None
        if tls_cert is not None and tls_key is not None:
            tls = (read_small(tls_cert, MAX_PEM, "--tls-cert"), read_small(tls_key, MAX_PEM, "--tls-key"))
            _check_pem(tls_cert, tls[0], b"CERTIFICATE", "--tls-cert", "certificate chain")
            _check_pem(tls_key, tls[1], b"PRIVATE KEY", "--tls-key", "private key")
            _check_pair(tls_cert, tls_key)
        known = load_tokens(tokens)  # before the admin token is printed: a bad token file is the only line
        admin = admin_token or os.environ.get(ADMIN_TOKEN_ENV)
        if admin:
            check_admin_token(admin)
        else:
            admin = secrets.token_urlsafe(18)
            err.print(f"admin token (for RunMatch / tourney arena-match): {admin}", highlight=False)
        config = ArenaConfig(admin_token=admin, allow_anonymous=allow_anonymous,
                             tokens=known, default_move_ms=move_ms, max_sessions=max_sessions,
                             max_sessions_per_address=max_sessions_per_address,
                             max_matches_per_session=max_matches_per_session,
                             max_queued_messages=max_queued_messages, max_queued_bytes=max_queued_mb << 20,
                             max_receive_bytes=max_receive_kb << 10, bad_message_burst=bad_message_burst,
                             bad_messages_per_s=bad_messages_per_s, calls_per_connection=calls_per_connection,
                             streams_per_connection=streams_per_connection,
                             unauthenticated_calls=unauthenticated_calls, unauthenticated_per_s=unauthenticated_per_s,
                             unauthenticated_per_s_per_address=unauthenticated_per_s_per_address,
                             auth_failures_per_address=auth_failures_per_address,
                             auth_failures_overall=auth_failures_overall, max_connections=max_connections,
                             idle_connection_s=idle_connection_s)
        if metrics_port is not None:
            bound = serve_metrics(metrics_port, metrics_host)
            err.print(f"metrics on http://{metrics_host}:{bound}/metrics", highlight=False)
        web = None
        if web_port is not None:
            from tourney.tournament.cli.web import WebBeside

            web = WebBeside(db or "tourney.db", host, web_port, admin)
        asyncio.run(_serve(Arena(config, on_result=store_writer(db) if db else None), host, port, tls,
                           leagues_db=db if leagues else None, web=web, league_lease=league_lease,
                           catch_up=catch_up, admin_port=admin_port))

    guarded(body)


def _check_pem(path: Path, pem: bytes, label: bytes, flag: str, what: str) -> None:
    """Refuse a file that holds no PEM block of `label`: gRPC would fail to listen, and the port be blamed."""
    if b"-----BEGIN " not in pem or label + b"-----" not in pem:
        raise ConfigError(f"{flag} {path} holds no PEM {what} (-----BEGIN ...{label.decode()}-----): give the "
                          "right file.")


def _check_pair(cert: Path, key: Path) -> None:
    """Refuse a key that is not the certificate's (gRPC would fail to listen, blaming the port). Only regular
    files are loaded by path: a pipe given twice would be read empty the second time, or wait for good."""
    if not (cert.is_file() and key.is_file()):
        return
    try:
        ssl.SSLContext(ssl.PROTOCOL_TLS_SERVER).load_cert_chain(cert, key)
    except ssl.SSLError as exc:
        raise ConfigError(f"--tls-key {key} does not go with --tls-cert {cert} ({exc.reason or exc}): give the key "
                          "made with that certificate.") from None


async def _serve(arena: Arena, host: str, port: int, tls: tuple[bytes, bytes] | None,
                 leagues_db: str | None = None, web: WebBeside | None = None, league_lease: float = 300.0,
                 catch_up: int | None = 3, admin_port: int | None = None) -> None:
    try:
        server, bound = await start_server(arena, host, port, tls)
    except RuntimeError as exc:
        # gRPC says only that binding failed: with TLS, a key that does not match its certificate fails so too.
        tls_too = "check that --tls-key is the key of --tls-cert, or " if tls is not None else ""
        raise ConfigError(f"cannot listen on {host}:{port} ({exc}): {tls_too}pick another --port.") from None
    if bound == 0:
        raise ConfigError(f"cannot listen on {host}:{port}: pick another --port.")
    print(f"arena listening on {host}:{bound}", flush=True)
    servers = [server]
    if admin_port is not None:
        busy = f"cannot listen on 127.0.0.1:{admin_port}: pick another --admin-port."
        try:
            admin_server, admin_bound = await start_admin_listener(arena, admin_port)
        except RuntimeError:
            await server.stop(None)
            raise ConfigError(busy) from None
        servers.append(admin_server)
        if admin_bound == 0:
            await asyncio.gather(*(s.stop(None) for s in servers))
            raise ConfigError(busy)
        print(f"organiser's listener on 127.0.0.1:{admin_bound}", flush=True)
    stop = asyncio.Event()
    loop = asyncio.get_running_loop()
    for sig in (signal.SIGINT, signal.SIGTERM):
        loop.add_signal_handler(sig, stop.set)
    league_loop = None
    if leagues_db is not None:
        from tourney.tournament.league.arena_loop import LeagueLoop

        # Programs of cmd: members connect back here; each round handled is one printed line.
        here = "127.0.0.1" if host in ("0.0.0.0", "::", "") else host
        league_loop = LeagueLoop(arena, loop, leagues_db, address=f"{here}:{bound}", lease_s=league_lease,
                                 catch_up=catch_up, on_round=lambda r: print(r.line(), flush=True)).start()
    stop_web = await web.start(arena, bound) if web is not None else None
    await stop.wait()
    if stop_web is not None:
        await stop_web()
    if league_loop is not None:
        await asyncio.to_thread(league_loop.stop)  # off the loop: its matches still need it to finish
    arena.shutdown()
    await asyncio.gather(*(s.stop(2.0) for s in servers))


def store_writer(db_url: str) -> Callable[[str, Sequence[str], MatchResult, float], None]:
    """A callback that stores each finished arena match (outside any tournament) in the store."""
    from tourney.tournament.store.database import open_store
    from tourney.tournament.store.writes import record_arena_match

    engine = open_store(db_url)

    def write(match_id: str, names: Sequence[str], result: MatchResult, seconds: float) -> None:
        record_arena_match(engine, match_id, names, result, seconds)

    return write


class _LabelAction(Action):
    """A legal action as a network bot knows it: its label and its game fields."""

    __slots__ = ("_label", "fields")

    def __init__(self, label: str, fields: dict[str, Any]) -> None:
        self._label = label
        self.fields = fields

    @property
    def label(self) -> str:
        return self._label


class BuiltinOverNetwork(Bot):
    """A built-in bot playing through the SDK: it decides from the observation and legal list only.

    Bots that search over `determinize` (greedy, ismcts) need the full state, which a network
    bot never has; they fail on their first decision.
    """

    typed_observation = False  # the built-in bots read the observation dict, not request.observation

    def __init__(self, spec: str, game: Game, seed: int) -> None:
        self.spec = spec
        self.game = game
        self.seed = seed
        self._lock = threading.Lock()
        self._bots: dict[tuple[str, int], Any] = {}

    def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.Action],
            request: pb.ActionRequest) -> int | None:
        from tourney.engine.server import action_dict

        with self._lock:
            key = (request.match_id, request.seat)
            bot = self._bots.get(key)
            if bot is None:
                bot = self._bots[key] = make_bot(self.spec, self.game, self.seed + len(self._bots))
        legal = [_LabelAction(a.label, action_dict(a)) for a in legal_actions]
        decision = DecisionRequest(self.game, request.seat, observation, legal, request.deadline_ms / 1000.0,
                                   cast(State, None))
        index: int = bot.act(decision)
        return index

    def on_match_ended(self, message: pb.MatchEnded) -> None:
        with self._lock:
            self._bots.pop((message.match_id, message.seat), None)


@app.command()
def connect(
    game: GameOpt = DEFAULT_GAME,
    bot: Annotated[str, typer.Option(help="Built-in bot that plays, e.g. random.")] = "random",
    address: Annotated[str, typer.Option("--arena", envvar=ARENA_ENV, help="The arena's host:port "
                                         f"(default ${ARENA_ENV}, else 127.0.0.1:50051).")] = "127.0.0.1:50051",
    name: Annotated[str | None, typer.Option(help="Name to connect as (default: the bot spec).")] = None,
    token: Annotated[str | None, typer.Option(help=f"Bot token (default ${TOKEN_ENV}).")] = None,
    matches: Annotated[int | None, typer.Option(help="Leave after this many matches (default: stay).")] = None,
    concurrency: Annotated[int, typer.Option(help="Matches played at once.")] = 4,
    seed: Annotated[int | None, typer.Option(help="Seed of the bot's choices.")] = None,
) -> None:
    """Connect a built-in bot to an arena over the network (through the Python SDK) and play."""
    def body() -> None:
        check_within("--concurrency", concurrency, range(1, UINT32.stop))  # Hello's uint32
        g = get_game(game)
        s = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
        make_bot(bot, g, s)  # an unknown bot fails here, before connecting
        client = BotClient(address, BuiltinOverNetwork(bot, g, s), name=name or os.environ.get(
            BOT_NAME_ENV, bot.split(":")[0]), token=token or os.environ.get(TOKEN_ENV, ""),
            games=[game], max_concurrent_matches=concurrency)
        try:
            client.run(max_matches=matches)
        except SessionRefused as exc:
            raise ConfigError(f"the arena refused the bot ({exc})") from None
        except grpc.RpcError as exc:
            if not client.connected.is_set():
                raise ConfigError(f"never reached an arena at {address} ({rpc_detail(exc).rstrip('.')}): start it "
                                  f"with `tourney serve`, or fix --arena (or ${ARENA_ENV}).") from None
            raise ConfigError(f"lost the arena at {address} ({rpc_detail(exc)}): check --arena and that the arena runs."
                              ) from None
        print(json.dumps({"matches": len(client.ended), "points": sum(e.points for e in client.ended),
                          "errors": [e.code for e in client.errors]}))

    guarded(body)


@app.command("arena-match")
def arena_match(
    bots: Annotated[str, typer.Option(help="Seats, comma-separated: remote:NAME, \"cmd:PROGRAM ARGS\" or a "
                                           "built-in bot.")],
    game: GameOpt = DEFAULT_GAME,
    address: Annotated[str | None, typer.Option("--arena", help="The arena's host:port (default: "
                                                "a private arena on a free loopback port).")] = None,
    seed: Annotated[int | None, typer.Option(help="Seed of the match.")] = None,
    move_ms: Annotated[int, typer.Option("--move-ms", help="Per-move limit (0: the arena's default).")] = 0,
    admin_token: Annotated[str | None, typer.Option(help=f"Admin token (default ${ADMIN_TOKEN_ENV}).")] = None,
    settings_json: Annotated[str, typer.Option("--config-json", help="Game configuration as JSON.")] = "",
    log_dir: Annotated[Path, typer.Option(help="Where bot programs' logs go (one file per bot).")] = Path("bot-logs"),
    realtime: Annotated[bool, typer.Option("--realtime", help="Real-time mode (Ninja Arena): actions apply as "
                                                              "they arrive.")] = False,
    as_json: JsonOpt = False,
) -> None:
    """Play one match through an arena (RunMatch) and print its result (--json: the whole record).

    A `cmd:` seat is a bot program: it is started with TOURNEY_ARENA, TOURNEY_TOKEN and
    TOURNEY_BOT_NAME set, plays, and is stopped when the match is over.
    """
    def body() -> None:
        check_seed(seed, MATCH_SEEDS)
        check_move_ms(move_ms, zero_allowed=True)
        s = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
        specs = [b.strip() for b in split_bot_list(bots) if b.strip()]  # a quoted comma stays in its program
        token = admin_token or os.environ.get(ADMIN_TOKEN_ENV, "")
        with contextlib.ExitStack() as stack:
            target = address
            if target is None:
                token = secrets.token_urlsafe(12)
                local = stack.enter_context(LocalArena(ArenaConfig(admin_token=token, allow_anonymous=True)))
                target = local.address
            seats = []
            for i, spec in enumerate(specs):
                if is_command(spec):
                    name = command_name(spec, i)
                    stack.enter_context(BotProcess(spec, name, target, os.environ.get(TOKEN_ENV, ""),
                                                   log_dir))
                    seats.append(REMOTE_PREFIX + name)
                else:
                    seats.append(spec)
            request = pb.RunMatchRequest(admin_token=token, game=game, seats=seats, seed=s, move_ms=move_ms,
                                         config_json=settings_json, wait_s=30, realtime=realtime)
            started = time.perf_counter()
            record = _run_remote(target, request)
        if not as_json:  # a person reads the result; the replay JSON is for programs (--json)
            places = sorted(range(len(record.seat_names)), key=lambda i: record.ranks[i])
            order = " > ".join(f"{record.seat_names[i]} (seat {i})" for i in places)
            print(f"{record.game} match {record.match_id}, seed {record.seed}: {order}; {record.reason}; "
                  f"scores {list(record.scores)}")
            return
        played = played_match_doc(list(record.seat_names), result_of(record), time.perf_counter() - started)
        print(ArenaMatchDoc(**played.model_dump(), match_id=record.match_id,
                            replay=json.loads(record.replay_json or "{}")).model_dump_json())

    guarded(body)


def _run_remote(address: str, request: pb.RunMatchRequest) -> pb.MatchRecord:
    with grpc.insecure_channel(address) as channel:
        run = channel.unary_unary(RUN_MATCH, request_serializer=pb.RunMatchRequest.
                                  SerializeToString, response_deserializer=pb.MatchRecord.FromString)
        try:
            return cast(pb.MatchRecord, run(request, timeout=3600))
        except grpc.RpcError as exc:
            if exc.code() == grpc.StatusCode.UNAVAILABLE:
                raise ConfigError(f"never reached an arena at {address} ({rpc_detail(exc).rstrip('.')}): start it "
                                  "with `tourney serve`, or fix --arena.") from None
            raise ConfigError(rpc_detail(exc)) from None


@bots_app.command("add")
def bots_add(name: Annotated[str, typer.Argument(help="The bot's name.")], tokens: TokensOpt = None) -> None:
    """Create a token for bot NAME (printed once; only its hash is stored)."""
    def body() -> None:
        token = add_bot(name, tokens)
        print(token)
        err.print(f"stored the hash of {name}'s token in {tokens or default_path()}", highlight=False)

    guarded(body)

