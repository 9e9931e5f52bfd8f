"""Decisions per second through the arena, beside a raw gRPC ping-pong baseline.

    PYTHONPATH=. .venv/bin/python bench/arena.py [--decisions 3000] [--rounds 3] [--game tiny-ninjas ...]
    PYTHONPATH=. .venv/bin/python bench/arena.py --profile tiny-ninjas   # where the arena's time goes
    PYTHONPATH=. .venv/bin/python bench/arena.py --count tiny-ninjas     # messages, bytes, threads per decision
    PYTHONPATH=. .venv/bin/python bench/arena.py --in-process tiny-ninjas  # the arena's own work, no gRPC

Both servers run in their own process (grpc.aio, default event loop), the clients in this one.
The arena plays a trivial registered game ("relay": two seats alternate, three legal
actions, a tiny observation) so the cost measured is the arena's own: referee, codec,
request framing, stream multiplexing. Each stream is one bot playing one match against
itself, so it has one request outstanding at a time, like a ping-pong.

Clients: "raw ping-pong" is the baseline: grpc.aio streams (one event loop) sending replies of
the ActionReply's size to a server that answers with messages of the arena's ActionRequest
size. "aio bot" is a minimal grpc.aio bot, the same kind of client as the baseline's. The two
"SDK" rows use the Python SDK (`BotClient`, answering from its thread pool, or inline on its
event loop). Then each real game (all four unless --game names some) match after match against
the raw ping-pong answering with one of that game's real requests, and against the same raw server
with a client that parses each request and answers as the aio bot does ("raw, bot parses": the two
clients then do the same work), with each server's CPU per decision read from /proc (what the arena
spends, whatever the load), and a last table of the four games' ratios against both.
The real games' organiser asks for each bot's matches on one RunMatches stream (`--unary-run-match`:
a RunMatch call a match, as before), and their aio bots set Hello.start_in_request, view_delta and
json_view_only, as the SDK does for a bot that reads only the observation dict (so the raw servers' payload,
one of the requests the arena sent, is a delta view without typed fields too; `--typed-views`: with them).
Prints tables; no assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import os
import random
import statistics
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import AsyncIterator, Callable, Iterator, Mapping, Sequence
from dataclasses import dataclass
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tourney.engine.core import Action, Chance, Game, Inject, Observation, Outcome, State, register  # noqa: E402


@dataclass(frozen=True, slots=True)
class Pass(Action):
    n: int

    @property
    def label(self) -> str:
        return f"pass {self.n}"


PASSES = (Pass(1), Pass(2), Pass(3))


class RelayState(State):
    def __init__(self, game: Game, turns: int) -> None:
        self.game = game
        self.num_players = 2
        self.turns = turns
        self.t = 0
        self.total = [0, 0]

    def to_act(self) -> Sequence[int]:
        return [] if self.t >= self.turns else [self.t % 2]

    def legal_actions(self, seat: int) -> Sequence[Action]:
        return PASSES

    def apply(self, actions: Mapping[int, Action]) -> None:
        for seat, action in actions.items():
            assert isinstance(action, Pass)
            self.total[seat] += action.n
        self.t += 1

    def observe(self, seat: int) -> Observation:
        return {"seat": seat, "turn": self.t, "total": list(self.total)}

    def public_view(self) -> Observation:
        return {"turn": self.t, "total": list(self.total)}

    def is_over(self) -> bool:
        return self.t >= self.turns

    def outcome(self) -> Outcome:
        a, b = self.total
        ranking = ((0, 1),) if a == b else (((0,), (1,)) if a > b else ((1,), (0,)))
        return Outcome(ranking, (float(a), float(b)), "turns")

    def clone(self) -> RelayState:
        twin = RelayState(self.game, self.turns)
        twin.t, twin.total = self.t, list(self.total)
        return twin

    def determinize(self, seat: int, rng: random.Random) -> RelayState:
        return self.clone()


class Relay(Game):
    id = "relay"
    name = "Relay (benchmark game)"
    min_players = 2
    max_players = 2

    def new_state(self, seed: int, players: int | None = None, config: Mapping[str, Any] | None = None,
                  inject: Inject | None = None) -> RelayState:
        Chance(seed, inject)
        return RelayState(self, int((config or {}).get("turns", 1000)))


register(Relay())

RAW_METHOD = "/bench.Raw/PingPong"
RAW_UNARY = "/bench.Raw/Once"
REAL_GAMES = ("tiny-ninjas", "maitre-ninja", "ninja-versus-ninja", "ninja-arena")
UNARY_RUN_MATCH = "--unary-run-match" in sys.argv  # the organiser asks with RunMatch, a call per match
# The bots ask for the typed observation fields too (without Hello.json_view_only), as before it existed.
TYPED_VIEWS = "--typed-views" in sys.argv


# ---------------------------------------------------------------- servers (child processes)

async def _serve_raw(size: int, payload_file: str | None = None) -> None:
    """The baseline server: answers every message with `size` bytes, or with the bytes of `payload_file`
    (a real game's ActionRequest as the arena sent it, so a client can parse it as a bot does)."""
    payload = Path(payload_file).read_bytes() if payload_file else b"x" * size

    async def ping_pong(requests: AsyncIterator[bytes], context: Any) -> AsyncIterator[bytes]:
        yield payload
        async for _ in requests:
            yield payload

    async def once(request: bytes, context: Any) -> bytes:
        return b"x" * min(int(request or b"0"), 1 << 20)  # a unary answer of the size asked for

    server = grpc.aio.server()
    handler = grpc.method_handlers_generic_handler("bench.Raw", {
        "PingPong": grpc.stream_stream_rpc_method_handler(ping_pong),
        "Once": grpc.unary_unary_rpc_method_handler(once),
    })
    server.add_generic_rpc_handlers((handler,))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(port, flush=True)
    await server.wait_for_termination()


async def _serve_arena() -> None:
    from tourney.engine.server.arena import Arena
    from tourney.engine.server.config import ArenaConfig
    from tourney.engine.server.server import start_server

    server, port = await start_server(Arena(ArenaConfig(allow_anonymous=True, default_move_ms=30_000)),
                                      "127.0.0.1", 0)
    print(port, flush=True)
    await server.wait_for_termination()


def _spawn(mode: str, *args: str) -> tuple[subprocess.Popen[str], str]:
    proc = subprocess.Popen([sys.executable, __file__, mode, *args], stdout=subprocess.PIPE, text=True,
                            cwd=ROOT)
    assert proc.stdout is not None
    return proc, f"127.0.0.1:{proc.stdout.readline().strip()}"


@contextlib.contextmanager
def _served(mode: str, *args: str) -> Iterator[tuple[subprocess.Popen[str], str]]:
    """A server process (see _spawn) and its address, stopped at the end even when a row fails."""
    proc, address = _spawn(mode, *args)
    try:
        yield proc, address
    finally:
        proc.terminate()
        proc.wait(30)


# ---------------------------------------------------------------- clients (this process)

def spin(us: float) -> None:
    """Spend `us` microseconds of this thread's CPU (a stand-in for work done per message)."""
    end = time.thread_time() + us / 1e6
    while time.thread_time() < end:
        pass


def raw_round_trips(address: str, streams: int, per_stream: int, reply_size: int, parse: bool = False,
                    client_us: float = 0.0) -> float:
    """Round trips per second over `streams` concurrent grpc.aio ping-pong streams (one event loop).

    client_us: CPU the client spends on each message it reads before answering (a stand-in for a
    bot's own work; bench/arena_patterns.py).

    parse: the client does with each message what the aio bot of `game_decisions_aio` does (the server
    must send a real ArenaMessage): parse it, read the request's ids, answer with a serialized
    ActionReply. The client's own work is then the bot's, and only the server differs.
    """
    from tourney.engine.server.generated import arena_pb2 as pb

    reply = b"y" * reply_size

    async def one(channel: grpc.aio.Channel) -> None:
        if parse:
            call = channel.stream_stream(RAW_METHOD, request_serializer=pb.BotMessage.SerializeToString,
                                         response_deserializer=lambda data: (data, pb.ArenaMessage.FromString(data)))()
        else:
            call = channel.stream_stream(RAW_METHOD)()
        for _ in range(per_stream):
            got = await call.read()
            if client_us:
                spin(client_us)
            if parse:
                message = got[1]
                if message.WhichOneof("kind") == "action_request":
                    request = message.action_request
                    request.HasField("started")
                    await call.write(pb.BotMessage(reply=pb.ActionReply(
                        match_id=request.match_id, request_id=request.request_id, action_index=0)))
                    continue
            await call.write(reply)
        await call.done_writing()

    async def run() -> float:
        async with grpc.aio.insecure_channel(address) as channel:
            started = time.perf_counter()
            await asyncio.gather(*(one(channel) for _ in range(streams)))
            return streams * per_stream / (time.perf_counter() - started)

    return asyncio.run(run())


def raw_unary_calls(address: str, concurrent: int, per_task: int, answer_size: int) -> None:
    """`concurrent` tasks making `per_task` unary calls each, answered with `answer_size` bytes (one event loop)."""
    async def run() -> None:
        async with grpc.aio.insecure_channel(address) as channel:
            call = channel.unary_unary(RAW_UNARY)

            async def one() -> None:
                for _ in range(per_task):
                    await call(str(answer_size).encode())

            await asyncio.gather(*(one() for _ in range(concurrent)))

    asyncio.run(run())


def arena_decisions(address: str, streams: int, per_stream: int, inline: bool) -> tuple[float, float]:
    """Decisions per second with `streams` bots, each playing one match against itself."""
    from tourney.engine.server.client import BotClient, RandomBot
    from tourney.engine.server.generated import arena_pb2 as pb

    sizes: list[int] = []

    class Measuring(RandomBot):
        def act(self, observation: dict[str, Any], legal_actions: Sequence[pb.ActionRequest],
                request: pb.ActionRequest) -> int | None:
            if len(sizes) < 200:
                sizes.append(pb.ArenaMessage(action_request=request).ByteSize())
            return super().act(observation, legal_actions, request)  # type: ignore[arg-type]

    clients = [BotClient(address, Measuring(seed=i), name=f"b{i}", max_concurrent_matches=2,
                         inline=inline) for i in range(streams)]
    def play(client: BotClient) -> None:
        with contextlib.suppress(grpc.RpcError):  # the arena process is stopped at the end
            client.run()

    threads = [threading.Thread(target=play, args=(c,), daemon=True) for c in clients]
    for t in threads:
        t.start()
    for c in clients:
        assert c.connected.wait(30)
    with grpc.insecure_channel(address) as channel:
        run = channel.unary_unary("/tourney.v1.Arena/RunMatch", request_serializer=pb.RunMatchRequest.SerializeToString,
                                  response_deserializer=pb.MatchRecord.FromString)
        records: list[Any] = []

        def one(i: int) -> None:
            records.append(run(pb.RunMatchRequest(game="relay", seats=[f"remote:b{i}", f"remote:b{i}"], seed=i,
                                                  config_json=f'{{"turns": {per_stream}}}'), timeout=600))

        started = time.perf_counter()
        runners = [threading.Thread(target=one, args=(i,)) for i in range(streams)]
        for t in runners:
            t.start()
        for t in runners:
            t.join(600)
        elapsed = time.perf_counter() - started
    for c in clients:
        c.stop()
    assert len(records) == streams and all(r.termination == "normal" for r in records), records
    return streams * per_stream / elapsed, sum(sizes) / max(1, len(sizes))


def arena_decisions_aio(address: str, streams: int, per_stream: int) -> float:
    """Decisions per second with `streams` minimal grpc.aio bots in one event loop (like the raw client).

    Each bot plays one relay match of per_stream turns against itself.
    """
    return game_decisions_aio(address, "relay", streams, per_stream, f'{{"turns": {per_stream}}}')[0]


def game_decisions_aio(address: str, game: str, streams: int, per_stream: int, config_json: str = "",
                       tally: dict[str, list[int]] | None = None,
                       samples: list[bytes] | None = None) -> tuple[float, float, int]:
    """Decisions per second, the mean ActionRequest size, and the decisions made, playing `game`
    match after match (the last match of a stream plays on past per_stream to its end).

    Each of `streams` aio bots plays both seats of one match at a time (always the first legal
    action) until it has answered per_stream requests, so the cost of starting, ending and
    recording matches is included. With `tally`, every message each way is counted in it by
    direction and kind: [messages, bytes]; `samples` gets the first 200 ActionRequests as sent.
    """
    from tourney.engine.server.generated import arena_pb2 as pb

    sizes: list[int] = []

    async def bot(channel: grpc.aio.Channel, name: str, welcomed: asyncio.Event, answered: list[int]) -> None:
        call = channel.stream_stream("/tourney.v1.Arena/Play", request_serializer=pb.BotMessage.SerializeToString,
                                     response_deserializer=lambda data: (data, pb.ArenaMessage.FromString(data)))()
        # start_in_request, view_delta and json_view_only, as the Python SDK sets them for a bot that reads
        # only the observation dict (RandomBot): each MatchStarted comes inside the seat's first request,
        # each request's view holds only the events added since the seat's last, and no typed fields.
        await call.write(pb.BotMessage(hello=pb.Hello(bot_name=name, games=[game], max_concurrent_matches=2,
                                                      start_in_request=True, view_delta=True,
                                                      json_view_only=not TYPED_VIEWS)))
        while (got := await call.read()) is not grpc.aio.EOF:
            data, message = got
            size = len(data)
            kind = message.WhichOneof("kind")
            if tally is not None:
                _tally(tally, f"arena -> bot {kind}", size)
            if kind == "welcome":
                welcomed.set()
            elif kind == "action_request":
                request = message.action_request
                if tally is not None and request.HasField("started"):
                    _tally(tally, "arena -> bot (MatchStarted in a request)", request.started.ByteSize())
                answered[0] += 1
                if len(sizes) < 2000:
                    sizes.append(size)
                if samples is not None and len(samples) < 200:
                    samples.append(data)
                reply = pb.BotMessage(reply=pb.ActionReply(
                    match_id=request.match_id, request_id=request.request_id, action_index=0))
                if tally is not None:
                    _tally(tally, "bot -> arena reply", reply.ByteSize())
                await call.write(reply)

    async def run() -> tuple[float, int]:
        # The bots share one connection, as the raw ping-pong's streams do; the organiser's RunMatch
        # calls go over a second one: the bots' listener caps streams per connection (16), and eight
        # Play streams plus eight RunMatch calls, each replaced as it ends, would brush that cap. (Its
        # own subchannel pool, or gRPC would share the bots' connection between the two channels.)
        own_connection = [("grpc.use_local_subchannel_pool", 1)]
        async with grpc.aio.insecure_channel(address) as channel, \
                grpc.aio.insecure_channel(address, options=own_connection) as organiser:
            flags = [asyncio.Event() for _ in range(streams)]
            answered = [[0] for _ in range(streams)]
            bots = [asyncio.ensure_future(bot(channel, f"{game}-{i}", flags[i], answered[i])) for i in range(streams)]
            await asyncio.wait_for(asyncio.gather(*(f.wait() for f in flags)), 30)
            # One RunMatches stream per bot (a match at a time), as an organiser with many short matches
            # would use it; --unary-run-match asks with a RunMatch call per match instead.
            run_match = organiser.unary_unary("/tourney.v1.Arena/RunMatch",
                                              request_serializer=pb.RunMatchRequest.SerializeToString,
                                              response_deserializer=pb.MatchRecord.FromString)
            run_matches = organiser.stream_stream("/tourney.v1.Arena/RunMatches",
                                                  request_serializer=pb.RunMatchRequest.SerializeToString,
                                                  response_deserializer=pb.MatchRecord.FromString)

            async def matches(i: int) -> None:
                seed = i * 100_000
                stream = None if UNARY_RUN_MATCH else run_matches()
                while answered[i][0] < per_stream:
                    seed += 1
                    ask = pb.RunMatchRequest(game=game, seats=[f"remote:{game}-{i}"] * 2, seed=seed,
                                             config_json=config_json)
                    if stream is None:
                        record = await run_match(ask)
                    else:
                        await stream.write(ask)
                        record = await stream.read()
                    if tally is not None:
                        _tally(tally, "organiser -> arena RunMatch", ask.ByteSize())
                        _tally(tally, "arena -> organiser MatchRecord", record.ByteSize())
                    assert record.termination in ("normal", "adjudication"), record.reason
                if stream is not None:
                    await stream.done_writing()

            started = time.perf_counter()
            await asyncio.gather(*(matches(i) for i in range(streams)))
            elapsed = time.perf_counter() - started
            for b in bots:
                b.cancel()
            done = sum(a[0] for a in answered)
            return done / elapsed, done

    rate, done = asyncio.run(run())
    return rate, sum(sizes) / max(1, len(sizes)), done


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--decisions", type=int, default=3000, help="decisions (round trips) per stream")
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each row; the median is shown")
    parser.add_argument("--game", action="append", default=None,
                        help="also measure this real game match after match (repeatable; default: all four; "
                             "'' skips them)")
    parser.add_argument("--profile", metavar="GAME", default=None,
                        help="instead, profile the arena's process (cProfile) while 8 bots play GAME match after "
                             "match, and print where its time goes")
    parser.add_argument("--unary-run-match", action="store_true",
                        help="the organiser asks for each real game's match with a RunMatch call, not on a RunMatches "
                             "stream")
    parser.add_argument("--typed-views", action="store_true",
                        help="the bots ask for the typed observation fields too (no Hello.json_view_only)")
    parser.add_argument("--in-process", metavar="GAME", default=None,
                        help="instead, the arena's own CPU per decision of GAME with no gRPC: its matches driven in "
                             "this process, each request answered at once by parsing it as a bot would")
    parser.add_argument("--count", metavar="GAME", default=None,
                        help="instead, count per decision what the arena does while 8 bots play GAME match after "
                             "match: messages and bytes each way, and each of its threads' CPU and context switches")
    args = parser.parse_args()
    if args.count is not None:
        count_arena(args.count, 8 * args.decisions // 4)
        return
    if args.in_process is not None:
        for _ in range(args.rounds):
            print(f"{args.in_process}: {in_process_us(args.in_process, 8 * args.decisions // 4):.1f} µs of CPU a "
                  "decision in process (no gRPC; the bot's parse of each request included)")
        return
    if args.profile is not None:
        profile_arena(args.profile, 8 * args.decisions // 4)
        return
    with _served("--serve-arena") as (_, arena_address):
        _, size = arena_decisions(arena_address, 1, 100, True)  # warm-up, and the request size
        with _served("--serve-raw", str(int(size))) as (_, raw_address):
            reply_size = 12  # an ActionReply with a short match id
            plan = [(1, args.decisions), (8, max(50, args.decisions // 4))]
            clients: dict[str, Callable[[int, int], float]] = {
                "raw ping-pong": lambda n, per: raw_round_trips(raw_address, n, per, reply_size),
                "aio bot": lambda n, per: arena_decisions_aio(arena_address, n, per),
                "SDK pool": lambda n, per: arena_decisions(arena_address, n, per, False)[0],
                "SDK inline": lambda n, per: arena_decisions(arena_address, n, per, True)[0],
            }
            rates = _measure(plan, clients, args.rounds)
    print(f"ActionRequest ~{size:.0f} bytes (the raw ping-pong sends the same); relay game; "
          f"median of {args.rounds} rounds")
    _print_rows(plan, list(clients), rates)
    games = [g for g in args.game if g] if args.game is not None else list(REAL_GAMES)
    ratios = {}
    for game in games:
        print()
        ratios[game] = real_game(game, args.decisions, args.rounds)
    if ratios:
        print(f"\n8 streams, arena / raw gRPC (goal >= 0.7), and / raw gRPC whose client parses as the bot does; "
              f"load average {os.getloadavg()[0]:.2f}")
        print(f"{'game':>20} {'decisions/s':>12} {'server CPU':>11} {'decisions/s, parsed':>20} "
              f"{'server CPU, parsed':>19}")
        for game, (rate_ratio, cpu_ratio, parsed_rate, parsed_cpu) in ratios.items():
            print(f"{game:>20} {rate_ratio:>11.0%} {cpu_ratio:>10.0%} {parsed_rate:>19.0%} {parsed_cpu:>18.0%}")


def real_game(game: str, decisions: int, rounds: int) -> tuple[float, float, float, float]:
    """The same comparison with a real game: its observations, legal lists and match turnover.

    The raw server answers with one of the game's real ActionRequests as the arena sent it (the one
    nearest the mean size). Its rows: "raw ping-pong" (the client reads the bytes and answers, the
    goal's reference), "raw, bot parses" (the client parses each message and answers as the aio bot
    does, so the two clients do the same work) and the arena with the aio bot.
    Returns, for the 8-stream rows, the arena's decisions/s over each raw row's round trips/s and
    each raw server's CPU per round trip over the arena's CPU per decision (1.0: the arena costs
    what gRPC alone does).
    """
    with _served("--serve-arena") as (arena, arena_address), tempfile.TemporaryDirectory() as folder:
        samples: list[bytes] = []
        _, size, _ = game_decisions_aio(arena_address, game, 1, 200, samples=samples)  # warm-up, request size
        payload = min(samples, key=lambda data: abs(len(data) - size))
        payload_file = os.path.join(folder, "request.bin")
        Path(payload_file).write_bytes(payload)
        with _served("--serve-raw", str(len(payload)), payload_file) as (raw, raw_address), \
                _served("--serve-raw", str(len(payload)), payload_file) as (parsed, parsed_address):
            plan = [(1, decisions), (8, max(50, decisions // 4))]
            clients: dict[str, Callable[[int, int], float | tuple[float, int]]] = {
                "raw ping-pong": lambda n, per: raw_round_trips(raw_address, n, per, 12),
                "raw, bot parses": lambda n, per: raw_round_trips(parsed_address, n, per, 12, parse=True),
                "aio bot": lambda n, per: _rate_and_count(game_decisions_aio(arena_address, game, n, per)),
            }
            servers = {"raw ping-pong": raw.pid, "raw, bot parses": parsed.pid, "aio bot": arena.pid}
            cpu: dict[tuple[int, str], list[float]] = {}
            rates = _measure(plan, clients, rounds, servers, cpu)
    print(f"ActionRequest ~{size:.0f} bytes (the raw servers send one of {len(payload)}); {game}, match after match; "
          f"median of {rounds} rounds; server CPU per decision from /proc")
    _print_rows(plan, list(clients), rates, cpu)
    streams = plan[-1][0]

    def ratios(reference: str) -> tuple[float, float]:
        rate = statistics.median(rates[(streams, "aio bot")]) / statistics.median(rates[(streams, reference)])
        return rate, statistics.median(cpu[(streams, reference)]) / statistics.median(cpu[(streams, "aio bot")])

    return ratios("raw ping-pong") + ratios("raw, bot parses")


def profile_arena(game: str, decisions: int, shown: int = 30) -> None:
    """Play `decisions` decisions of `game` (8 aio bots) against an arena whose process profiles itself
    from after a warm-up to its end; print its functions by their own time.

    The profiler slows Python code several times, not gRPC's compiled core: read the shares of the
    Python functions among themselves, and the CPU per decision from the unprofiled rows.
    """
    import pstats
    import signal

    with tempfile.TemporaryDirectory() as folder:
        stats = os.path.join(folder, "arena.prof")
        proc = subprocess.Popen([sys.executable, __file__, "--serve-arena-profiled", stats], stdout=subprocess.PIPE,
                                text=True, cwd=ROOT)
        assert proc.stdout is not None
        address = f"127.0.0.1:{proc.stdout.readline().strip()}"
        try:
            game_decisions_aio(address, game, 8, 100)  # warm-up: imports, first matches
            proc.send_signal(signal.SIGUSR1)
            rate, _, done = game_decisions_aio(address, game, 8, max(1, decisions // 8))
        finally:
            proc.terminate()
            proc.wait(30)
        print(f"{game}: {done} decisions at {rate:.0f}/s while profiled; the arena's functions by own time "
              f"(ncalls / {done} = calls per decision)")
        profile = pstats.Stats(stats)
        profile.sort_stats("tottime").print_stats(shown)
        # The event loop's own work per decision: each loop turn, future and task is Python code to run.
        loop_work = {"_run_once": "loop turns", "create_future": "futures created", "create_task": "tasks created",
                     "call_soon": "callbacks scheduled", "<method 'run' of '_contextvars.Context' objects>":
                     "callbacks run"}
        counted = {loop_work[name]: calls for (_, _, name), (_, calls, *_rest) in profile.stats.items()  # type: ignore[attr-defined]
                   if name in loop_work}
        print("per decision: " + ", ".join(f"{what} {counted.get(what, 0) / done:.2f}" for what in loop_work.values()))


def in_process_us(game: str, decisions: int) -> float:
    """CPU µs a decision of the arena's own work on `game`: `Arena.run_match` between two seats of one
    session whose outbox hands each ActionRequest to a bot in this process (parsed, first action
    answered at once), match after match, after a warm-up of 300 decisions. No gRPC: the referee, the
    game, the codec, the framing, the session and each match's turnover are what is timed."""
    from tourney.engine.server.arena import Arena
    from tourney.engine.server.config import ArenaConfig
    from tourney.engine.server.generated import arena_pb2 as pb
    from tourney.engine.server.sessions import BotSession

    async def run() -> float:
        arena = Arena(ArenaConfig(allow_anonymous=True, default_move_ms=30_000))
        session = BotSession("in-process", "bot", [game], 8, asyncio.get_running_loop(), start_in_request=True,
                             view_delta=True, json_view_only=not TYPED_VIEWS)
        arena.add_session(session)
        asked: list[pb.ActionRequest] = []

        def delivered(item: bytes | None) -> None:
            message = pb.ArenaMessage.FromString(item) if item is not None else None
            if message is not None and message.WhichOneof("kind") == "action_request":
                asked.append(message.action_request)

        session.outbound.put = delivered  # type: ignore[method-assign]
        done, seed, started, counted_from = 0, 0, 0.0, -1
        while done - max(0, counted_from) < decisions:
            if counted_from < 0 and done >= 300:
                started, counted_from = time.process_time(), done
            seed += 1
            match = asyncio.ensure_future(arena.run_match(game, ["remote:bot", "remote:bot"], seed))
            while not match.done():
                await asyncio.sleep(0)  # the match starts, or goes on from the answers below
                while asked:
                    request = asked.pop()
                    done += 1
                    session.resolve(pb.ActionReply(match_id=request.match_id, request_id=request.request_id))
            match.result()
        arena.shutdown()
        return 1e6 * (time.process_time() - started) / (done - counted_from)

    return asyncio.run(run())


def count_arena(game: str, decisions: int) -> None:
    """Per decision of `game` (8 aio bots, match after match): the messages and bytes each way, and the
    CPU and context switches of each thread of the arena's process (from /proc), beside the raw server's
    per round trip with the same payload. Unprofiled, so the CPU is what the arena really spends."""
    tally: dict[str, list[int]] = {}
    with _served("--serve-arena") as (arena, arena_address):
        game_decisions_aio(arena_address, game, 8, 100)  # warm-up: imports, first matches
        before, client = _threads(arena.pid), time.process_time()
        _, size, done = game_decisions_aio(arena_address, game, 8, max(1, decisions // 8), tally=tally)
        arena_threads, arena_client = _thread_deltas(before, _threads(arena.pid)), time.process_time() - client
    matches = tally.get("organiser -> arena RunMatch", [0, 0])[0]
    record_size = tally.get("arena -> organiser MatchRecord", [0, 0])[1] // max(1, matches)
    with _served("--serve-raw", str(int(size))) as (raw, raw_address):
        raw_round_trips(raw_address, 8, 100, 12)
        before, client = _threads(raw.pid), time.process_time()
        per = max(1, decisions // 8)
        raw_round_trips(raw_address, 8, per, 12)
        raw_threads, raw_client = _thread_deltas(before, _threads(raw.pid)), time.process_time() - client
        calls = 8 * max(1, matches // 8)
        unary_cpu = _cpu_s(raw.pid)
        raw_unary_calls(raw_address, 8, calls // 8, record_size)
        unary_cpu = _cpu_s(raw.pid) - unary_cpu
    print(f"{game}: {done} decisions, 8 streams; per decision (the raw server: per round trip of {size:.0f} bytes)")
    print(f"client (this process) CPU: {1e6 * arena_client / done:.1f} µs a decision, raw ping-pong "
          f"{1e6 * raw_client / (8 * per):.1f} µs a round trip")
    print(f"a match every {done / max(1, matches):.1f} decisions; a bare grpc.aio unary call answered with "
          f"{record_size} bytes (a RunMatch's record) costs the raw server {1e6 * unary_cpu / calls:.0f} µs of CPU")
    print(f"{'messages':>36} {'per decision':>13} {'bytes each':>11}")
    for key, (n, total) in sorted(tally.items()):
        print(f"{key:>36} {n / done:>13.3f} {total / max(1, n):>11.0f}")
    for name, threads, count in (("arena", arena_threads, done), ("raw server", raw_threads, 8 * per)):
        print(f"{name} threads: {'CPU µs':>8} {'voluntary':>10} {'preempted':>10} (context switches)")
        for thread, (cpu_s, voluntary, preempted) in sorted(threads.items(), key=lambda kv: -kv[1][0]):
            if cpu_s or voluntary or preempted:
                print(f"{thread:>20} {1e6 * cpu_s / count:>8.1f} {voluntary / count:>10.2f} {preempted / count:>10.2f}")


def _threads(pid: int) -> dict[str, tuple[float, int, int]]:
    """Each thread of process `pid` ("name/tid"): CPU seconds so far, voluntary and involuntary context switches."""
    out = {}
    tick = os.sysconf("SC_CLK_TCK")
    for task in Path(f"/proc/{pid}/task").iterdir():
        with contextlib.suppress(OSError):  # a thread that ended meanwhile
            fields = (task / "stat").read_text().rsplit(")", 1)[1].split()
            status = dict(line.split(":", 1) for line in (task / "status").read_text().splitlines() if ":" in line)
            name = f"{(task / 'comm').read_text().strip()}/{task.name}"
            out[name] = ((int(fields[11]) + int(fields[12])) / tick, int(status["voluntary_ctxt_switches"]),
                         int(status["nonvoluntary_ctxt_switches"]))
    return out


def _thread_deltas(before: Mapping[str, tuple[float, int, int]],
                   after: Mapping[str, tuple[float, int, int]]) -> dict[str, tuple[float, int, int]]:
    """What each thread used between two `_threads` readings (a thread born meanwhile counts from zero)."""
    zero = (0.0, 0, 0)
    return {name: (now[0] - before.get(name, zero)[0], now[1] - before.get(name, zero)[1],
                   now[2] - before.get(name, zero)[2]) for name, now in after.items()}


def _tally(tally: dict[str, list[int]], key: str, size: int) -> None:
    entry = tally.setdefault(key, [0, 0])
    entry[0] += 1
    entry[1] += size


def _serve_arena_profiled(stats: str) -> None:
    """The arena server, profiling from SIGUSR1 until SIGTERM, when it writes the stats to `stats`."""
    import cProfile
    import signal

    profiler = cProfile.Profile()

    def stop(*_: object) -> None:
        profiler.disable()
        profiler.dump_stats(stats)
        os._exit(0)

    signal.signal(signal.SIGUSR1, lambda *_: profiler.enable())
    signal.signal(signal.SIGTERM, stop)
    asyncio.run(_serve_arena())


def _rate_and_count(measured: tuple[float, float, int]) -> tuple[float, int]:
    rate, _, done = measured
    return rate, done


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) process `pid` has used so far (Linux /proc)."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _measure(plan: Sequence[tuple[int, int]], clients: Mapping[str, Callable[[int, int], float | tuple[float, int]]],
             rounds: int, servers: Mapping[str, int] | None = None,
             cpu: dict[tuple[int, str], list[float]] | None = None) -> dict[tuple[int, str], list[float]]:
    """Rates per (streams, client) over `rounds` rounds; with `servers` (client -> server pid), each
    row's server CPU seconds per decision go into `cpu`. A client returns its rate, or its rate
    and the decisions it made when that is not streams x per.

    The machine may be shared and its speed drifts: every row is measured in each round, one
    after another, and the table shows medians, so drift hits all rows alike.
    """
    rates: dict[tuple[int, str], list[float]] = {}
    for _ in range(rounds):
        for streams, per in plan:
            for mode, measure in clients.items():
                pid = (servers or {}).get(mode)
                before = _cpu_s(pid) if pid is not None else 0.0
                got = measure(streams, per)
                rate, done = got if isinstance(got, tuple) else (got, streams * per)
                rates.setdefault((streams, mode), []).append(rate)
                if pid is not None and cpu is not None:
                    cpu.setdefault((streams, mode), []).append((_cpu_s(pid) - before) / done)
    return rates


def _print_rows(plan: Sequence[tuple[int, int]], modes: Sequence[str],
                rates: Mapping[tuple[int, str], Sequence[float]],
                cpu: Mapping[tuple[int, str], Sequence[float]] | None = None) -> None:
    cpu = cpu or {}
    print(f"{'streams':>7} {'decisions':>9} {'client':>13} {'per second':>11} {'of raw':>7}"
          + (f" {'server CPU µs':>14} {'raw CPU / this':>15}" if cpu else ""))
    for streams, per in plan:
        raw_rate = statistics.median(rates[(streams, "raw ping-pong")])
        for mode in modes:
            rate = statistics.median(rates[(streams, mode)])
            line = f"{streams:>7} {streams * per:>9} {mode:>13} {rate:>11.0f} {rate / raw_rate:>6.0%}"
            if (streams, mode) in cpu:
                used = statistics.median(cpu[(streams, mode)])
                raw_used = statistics.median(cpu[(streams, "raw ping-pong")])
                line += f" {1e6 * used:>14.1f} {raw_used / used:>14.0%}"
            print(line)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--serve-raw":
        asyncio.run(_serve_raw(int(sys.argv[2]), sys.argv[3] if len(sys.argv) > 3 else None))
    elif len(sys.argv) > 1 and sys.argv[1] == "--serve-arena":
        asyncio.run(_serve_arena())
    elif len(sys.argv) > 1 and sys.argv[1] == "--serve-arena-profiled":
        _serve_arena_profiled(sys.argv[2])
    else:
        main()
