"""Reliability under load: faulty, hostile and well-behaved bots together on one arena, then tables.

    python bench/reliability.py [--streams 200] [--seconds 60] [--faulty-pairs 20] [--fault-move-ms 500]
                                [--hostile-streams 20] [--hostile-seconds 20] [--repeat 1] [--cases LIST]
                                [--skip-soak] [--skip-hostile]

The arena runs in its own process (its RSS is sampled); the bots are scripted gRPC streams in
this one. Pairs of bots play Tiny Ninjas match after match.

Soak: in `--faulty-pairs` of the pairs one bot misbehaves (never replies, answers out of range,
sends garbage, drops its stream mid-match and reconnects, or answers after the deadline), at a
short time limit; the others play at the arena's default time control. The table shows the
faults injected, the matches they affected (and how many ended with the expected typed reason),
results lost (must be 0: every RunMatch record reached the arena's storage) and the time losses
of well-behaved bots at this load.

Hostile: `--hostile-streams` well-behaved bots play for `--hostile-seconds` on a fresh arena,
first unattacked, then while attackers in other processes (started from this file with
`--attack KIND`) run: a bot that never reads and floods 32 KB replies to unknown matches, four
streams sending a 60 MB Hello.bot_name again and again, and 60 MB replies. Goals: the arena's
peak RSS under 300 MB, the well-behaved bots keep at least 90% of their unattacked decisions/s,
and none of them times out. "attacked arena CPU s" is what the attacked arena spent (in the
control rows: what the attackers' target spent), "attackers CPU s" what the attacking processes
spent on this same machine; with 2 cores the latter alone slows the well-behaved bots.

"pre_hello" (redteam8): four raw HTTP/2 connections sending empty messages on Play streams before any
Hello, as fast as flow control lets them (the arena used to answer each; now a stream is cut at the
bad-message burst).

The siege cases (issue 27) run against an arena with an admin token, so admission control applies
to everyone but the organiser's RunMatch: bursts of 3,000 ListGames and of 3,200 valid Hellos,
raw HTTP/2 GetMatch calls of a long match that never grant flow-control window, 3,000 idle TCP
connections against an arena whose open-file limit is 1,024, and wrong admin tokens from 20
connections. The good bots' RunMatch calls are asked as `tourney run --arena` asks them: "RunMatch
retried" counts the calls cut (gRPC cancels calls under a burst of new ones) or refused and asked
again under the same match id; "RunMatch lost" those that failed even so; "finished" says none did.
"""

from __future__ import annotations

import argparse
import asyncio
import contextlib
import itertools
import os
import resource
import socket
import subprocess
import sys
import tempfile
import threading
import time
from collections.abc import Iterator
from pathlib import Path

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from tests.soak.arena_process import ADMIN_ENV  # noqa: E402
from tests.soak.soaklib import SoakReport, _soak, soak, table  # noqa: E402
from tourney.engine.server.generated import arena_pb2 as pb  # noqa: E402

PLAY = "/tourney.v1.Arena/Play"
LIST_GAMES = "/tourney.v1.Arena/ListGames"
RUN_MATCH = "/tourney.v1.Arena/RunMatch"
GET_MATCH = "/tourney.v1.Arena/GetMatch"
ATTACKS = ("flood", "big_hello", "huge_reply", "list_burst", "hello_burst", "window_zero", "idle", "guess",
           "pre_hello")
ATTACK_NAMES = {"flood": "non-reading flood of 32 KB replies", "big_hello": "4 streams x 60 MB Hello.bot_name",
                "huge_reply": "60 MB replies", "list_burst": "bursts of 3,000 ListGames",
                "hello_burst": "bursts of 3,200 valid Hellos",
                "window_zero": "30 conns x 50 GetMatch, window 0",
                "idle": "3,000 idle TCP conns, arena at 1,024 files", "guess": "token guessing, 20 connections",
                "pre_hello": "4 conns of empty messages before Hello"}
# The organiser's token on the measured arenas: admission control applies to every other caller.
ADMIN = "bench-reliability-admin-token"
LONG_MATCH = "long"  # a long Tiny Ninjas champion match every arena keeps, for GetMatch floods
RSS_GOAL_MB, SPEED_GOAL = 300, 0.90


# ---------------------------------------------------------------- attackers (child processes)

def _attack_channel(address: str) -> grpc.Channel:
    return grpc.insecure_channel(address, options=[("grpc.max_send_message_length", 128 << 20),
                                                   ("grpc.max_receive_message_length", 128 << 20),
                                                   ("grpc.http2.bdp_probe", 0)])


def _hello(name: str) -> bytes:
    return pb.BotMessage(hello=pb.Hello(bot_name=name)).SerializeToString()


def _reply(match_id: str, request_id: int) -> bytes:
    return pb.BotMessage(reply=pb.ActionReply(match_id=match_id, request_id=request_id)).SerializeToString()


def _flood(address: str, until: float) -> None:
    """Streams that never read, each sending 32 KB replies to unknown matches; a new one every 2 s."""
    channel = _attack_channel(address)
    junk = _reply("j" * (32 * 1024), 1)

    def messages(name: str, stop: float) -> Iterator[bytes]:
        yield _hello(name)
        while time.monotonic() < stop:
            yield junk

    for i in itertools.count():
        if time.monotonic() >= until:
            break
        call = channel.stream_stream(PLAY, request_serializer=lambda b: b, response_deserializer=lambda b: b)(
            messages(f"flooder-{i}", min(until, time.monotonic() + 2.0)))
        time.sleep(max(0.0, min(2.0, until - time.monotonic())))
        call.cancel()
    channel.close()


def _big_hello(address: str, until: float) -> None:
    """Four threads, each sending a Hello with a 60 MB bot_name over and over."""
    channel = _attack_channel(address)
    hello = _hello("h" * (60 << 20))

    def one() -> None:
        while time.monotonic() < until:
            call = channel.stream_stream(PLAY, request_serializer=lambda b: b, response_deserializer=lambda b: b)(
                iter([hello]))
            with contextlib.suppress(grpc.RpcError):
                for _ in call:
                    pass

    threads = [threading.Thread(target=one) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()
    channel.close()


def _huge_reply(address: str, until: float) -> None:
    """A bot that says Hello, then sends a 60 MB reply; again on a new stream when it is cut."""
    channel = _attack_channel(address)
    huge = _reply("m" * (60 << 20), 1)
    for i in itertools.count():
        if time.monotonic() >= until:
            break
        call = channel.stream_stream(PLAY, request_serializer=lambda b: b, response_deserializer=lambda b: b)(
            iter([_hello(f"huge-{i}"), huge]))
        with contextlib.suppress(grpc.RpcError):
            for _ in call:
                pass
    channel.close()


def _own_connections(count: int, address: str) -> list[grpc.aio.Channel]:
    return [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)]) for _ in range(count)]


def _list_burst(address: str, until: float) -> None:
    """3,000 ListGames calls at once over 10 connections, again as soon as they are answered."""
    async def bursts() -> None:
        channels = _own_connections(10, address)
        calls = [c.unary_unary(LIST_GAMES, request_serializer=lambda b: b, response_deserializer=lambda b: b)
                 for c in channels]
        while time.monotonic() < until:
            await asyncio.gather(*(calls[i % 10](b"", timeout=10) for i in range(3000)), return_exceptions=True)
    asyncio.run(bursts())


def _hello_burst(address: str, until: float) -> None:
    """3,200 Play streams at once over 32 connections, each with a valid Hello, then dropped; again."""
    async def one(channel: grpc.aio.Channel, i: int) -> None:
        call = channel.stream_stream(PLAY, request_serializer=lambda b: b, response_deserializer=lambda b: b)()
        with contextlib.suppress(grpc.RpcError, asyncio.TimeoutError, asyncio.InvalidStateError):
            await call.write(_hello(f"burst-{i}"))
            await asyncio.wait_for(call.read(), 10)
        call.cancel()

    async def bursts() -> None:
        channels = _own_connections(32, address)
        while time.monotonic() < until:
            await asyncio.gather(*(one(channels[i % 32], i) for i in range(3200)), return_exceptions=True)
    asyncio.run(bursts())


def _window_zero(address: str, until: float) -> None:
    """30 raw HTTP/2 connections, each with 50 GetMatch calls of a long match and no window for any
    answer; every connection is opened again after 5 s."""
    from tests.security.raw_h2 import WindowZeroClient

    body = pb.GetMatchRequest(match_id=LONG_MATCH).SerializeToString()
    while time.monotonic() < until:
        clients = []
        for _ in range(30):
            with contextlib.suppress(OSError):
                clients.append(WindowZeroClient(address, GET_MATCH, body, 50))
        for client in clients:
            with contextlib.suppress(OSError):
                client.read_until(answered=50, timeout_s=5.0 / max(1, len(clients)))
        for client in clients:
            client.close()


def _idle(address: str, until: float) -> None:
    """3,000 TCP connections that never speak, opened again as the arena closes them."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    host, port = address.rsplit(":", 1)
    held: list[socket.socket] = []
    while time.monotonic() < until:
        while len(held) < 3000 and time.monotonic() < until:
            try:
                held.append(socket.create_connection((host, int(port)), timeout=2.0))
            except OSError:
                break
        time.sleep(0.5)
        alive = []
        for sock in held:  # a closed connection reads as b"" at once
            sock.setblocking(False)
            try:
                gone = sock.recv(1) == b""
            except BlockingIOError:
                gone = False
            except OSError:
                gone = True
            if gone:
                sock.close()
            else:
                alive.append(sock)
        held = alive
    for sock in held:
        sock.close()


def _guess(address: str, until: float) -> None:
    """20 connections sending RunMatch with wrong admin tokens as fast as they are answered."""
    async def guesser(channel: grpc.aio.Channel, k: int) -> None:
        call = channel.unary_unary(RUN_MATCH, request_serializer=pb.RunMatchRequest.SerializeToString,
                                   response_deserializer=lambda b: b)
        for i in itertools.count():
            if time.monotonic() >= until:
                return
            with contextlib.suppress(grpc.RpcError):
                await call(pb.RunMatchRequest(admin_token=f"guess-{k}-{i}"), timeout=10)

    async def all_guessers() -> None:
        channels = _own_connections(20, address)
        await asyncio.gather(*(guesser(c, k) for k, c in enumerate(channels)))
    asyncio.run(all_guessers())


def _pre_hello(address: str, until: float) -> None:
    """Four raw HTTP/2 connections, each a Play stream at a time that sends empty messages (5 bytes each) as
    fast as flow control lets it and never a Hello, reading and dropping the answers; a new stream when one
    is ended."""
    import h2.config
    import h2.connection
    import h2.events
    import h2.exceptions
    import h2.settings

    empty = b"\x00" * 5 * 3000

    def one() -> None:
        host, port = address.rsplit(":", 1)
        with socket.create_connection((host, int(port)), timeout=5.0) as sock:
            conn = h2.connection.H2Connection(h2.config.H2Configuration(client_side=True, header_encoding="utf-8"))
            conn.initiate_connection()
            conn.update_settings({h2.settings.SettingCodes.INITIAL_WINDOW_SIZE: (1 << 31) - 1})
            conn.increment_flow_control_window((1 << 31) - 1 - 65535)
            stream = None
            sock.settimeout(0.05)
            while time.monotonic() < until:
                if stream is None:
                    stream = conn.get_next_available_stream_id()
                    conn.send_headers(stream, [(":method", "POST"), (":scheme", "http"), (":path", PLAY),
                                               (":authority", address), ("content-type", "application/grpc"),
                                               ("te", "trailers")])
                if conn.local_flow_control_window(stream) >= len(empty):
                    conn.send_data(stream, empty)
                sock.sendall(conn.data_to_send())
                try:
                    data = sock.recv(1 << 20)
                except TimeoutError:
                    continue
                if not data:
                    return
                for event in conn.receive_data(data):
                    if isinstance(event, h2.events.DataReceived):
                        conn.acknowledge_received_data(event.flow_controlled_length, event.stream_id)
                    elif isinstance(event, h2.events.StreamReset | h2.events.StreamEnded) and event.stream_id == stream:
                        stream = None

    def connections() -> None:
        while time.monotonic() < until:  # a connection the arena closed (or h2 refused) is opened again
            with contextlib.suppress(OSError, h2.exceptions.H2Error):
                one()

    threads = [threading.Thread(target=connections) for _ in range(4)]
    for thread in threads:
        thread.start()
    for thread in threads:
        thread.join()


def attack(kind: str, address: str, seconds: float) -> None:
    """Run one attacker for `seconds` (the body of a `--attack KIND` child process)."""
    {"flood": _flood, "big_hello": _big_hello, "huge_reply": _huge_reply, "list_burst": _list_burst,
     "hello_burst": _hello_burst, "window_zero": _window_zero, "idle": _idle,
     "guess": _guess, "pre_hello": _pre_hello}[kind](address, time.monotonic() + seconds)


# ---------------------------------------------------------------- one measured phase

def _peak_rss_mb(pid: int) -> float:
    """The process's peak resident memory so far (VmHWM), in MB."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1]) / 1024
    return 0.0


def _cpu_s(pid: int) -> float:
    """CPU seconds (user + system) the process has used so far."""
    fields = Path(f"/proc/{pid}/stat").read_text().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def _start_arena(tmp: str, env: dict[str, str], files: int | None = None) -> tuple[subprocess.Popen[str], str]:
    """An arena process (its open-file limit, soft and hard, at `files` when given) with a long match kept."""
    def limit_files() -> None:
        if files is not None:
            resource.setrlimit(resource.RLIMIT_NOFILE, (files, files))

    arena = subprocess.Popen([sys.executable, "-m", "tests.soak.arena_process", str(Path(tmp) / "stored.txt")],
                             cwd=ROOT, env=env, stdout=subprocess.PIPE, text=True, preexec_fn=limit_files)
    assert arena.stdout is not None
    address = f"127.0.0.1:{int(arena.stdout.readline())}"
    with grpc.insecure_channel(address) as channel:
        channel.unary_unary(RUN_MATCH, request_serializer=pb.RunMatchRequest.SerializeToString,
                            response_deserializer=lambda b: b)(
            pb.RunMatchRequest(admin_token=ADMIN, game="tiny-ninjas", seats=["greedy", "greedy"], seed=7,
                               config_json='{"mode": "champion"}', match_id=LONG_MATCH), timeout=120)
    return arena, address


def phase(streams: int, seconds: float, attacks: tuple[str, ...], elsewhere: bool = False
          ) -> tuple[SoakReport, float, float, float]:
    """Well-behaved bots on a fresh arena for `seconds` while `attacks` run: their report, the attacked
    arena's peak MB, the CPU seconds the attacked arena used, and the attackers' CPU seconds.

    elsewhere: the attackers hit a second arena process instead, so only their cost to this
    machine's CPUs (they run here too) touches the well-behaved bots: the control for the rest.
    """
    report = SoakReport(streams, seconds)
    with tempfile.TemporaryDirectory(prefix="tourney-hostile-") as tmp:
        env = {**os.environ, "PYTHONPATH": str(ROOT), ADMIN_ENV: ADMIN}
        os.environ[ADMIN_ENV] = ADMIN  # the good bots' RunMatch (in this process) is the organiser's
        files = 1024 if "idle" in attacks else None  # the common file limit the idle attack is about
        arenas = [_start_arena(tmp, env, files)]
        if elsewhere:
            arenas.append(_start_arena(tmp, env, files))
        arena, address = arenas[0]
        target = arenas[-1][1]
        attackers: list[subprocess.Popen[bytes]] = []
        try:
            attackers = [subprocess.Popen([sys.executable, __file__, "--attack", kind, "--address", target,
                                           "--seconds", str(seconds + 5)], cwd=ROOT, env=env,
                                          stderr=subprocess.DEVNULL) for kind in attacks]
            cpu_before = _cpu_s(arenas[-1][0].pid)
            asyncio.run(_soak(address, streams, seconds, 0, 500, arena.pid, report))
            peak = _peak_rss_mb(arenas[-1][0].pid)
            arena_cpu = _cpu_s(arenas[-1][0].pid) - cpu_before
            attackers_cpu = sum(_cpu_s(a.pid) for a in attackers)
        finally:
            for attacker in attackers:
                attacker.kill()
                attacker.wait(30)
            for process, _ in arenas:
                process.terminate()
                process.wait(30)
    return report, peak, arena_cpu, attackers_cpu


def hostile_table(streams: int, seconds: float, kinds: tuple[str, ...] = ATTACKS, repeat: int = 1) -> str:
    """Every hostile case beside the unattacked baseline, as a plain text table.

    Each case has a control row: the same attackers against another arena, so the share of the
    slowdown that is only the attackers' own CPU on this machine shows; "vs control" is the good
    bots' decisions/s under attack over theirs in the control. With `repeat` above 1 each case is
    measured that many times (attacked, then control, in turn): its rows are the run with the median
    ratio, and "each run" lists every run's ratio, since other work on a shared machine moves a single one.
    """
    rows = [("case", "attacked arena peak RSS MB", "attacked arena CPU s", "attackers CPU s", "good decisions/s",
             "vs unattacked", "vs control", "each run", "good timeouts", "matches", "RunMatch retried",
             "RunMatch lost", "finished")]

    def row(name: str, report: SoakReport, peak: float, arena_cpu: float, attackers_cpu: float, baseline: float,
            control: float | None, runs: str = "") -> tuple[str, ...]:
        rate = report.decisions / seconds
        return (name, f"{peak:.0f}", f"{arena_cpu:.1f}", f"{attackers_cpu:.1f}", f"{rate:.0f}",
                f"{100 * rate / max(baseline, 1e-9):.0f}%",
                "" if control is None else f"{rate / max(control, 1e-9):.2f}", runs,
                f"{report.good_timeouts}", f"{report.matches}", f"{report.rpc_retries}", f"{report.rpc_failures}",
                "yes" if report.rpc_failures == 0 else "no")

    report, peak, arena_cpu, attackers_cpu = phase(streams, seconds, ())
    baseline = report.decisions / seconds
    rows.append(row("unattacked", report, peak, arena_cpu, attackers_cpu, baseline, None))
    cases = [(ATTACK_NAMES[kind], (kind,)) for kind in kinds]
    for name, attacks in cases:
        pairs = [(phase(streams, seconds, attacks), phase(streams, seconds, attacks, elsewhere=True))
                 for _ in range(repeat)]
        pairs.sort(key=lambda pair: pair[0][0].decisions / max(pair[1][0].decisions, 1))
        runs = " ".join(f"{a[0].decisions / max(c[0].decisions, 1):.2f}" for a, c in pairs) if repeat > 1 else ""
        attacked, control = pairs[len(pairs) // 2]
        control_rate = control[0].decisions / seconds
        rows.append(row(name, *attacked, baseline, control_rate, runs))
        rows.append(row("  control: same, at another arena", *control, baseline, None))
    widths = [max(len(r[i]) for r in rows) for i in range(len(rows[0]))]
    lines = ["  ".join(cell.ljust(w) for cell, w in zip(r, widths, strict=True)) for r in rows]
    lines.insert(1, "  ".join("-" * w for w in widths))
    goals = (f"goals: peak RSS <= {RSS_GOAL_MB} MB, >= {SPEED_GOAL:.2f} of the control's decisions/s, 0 timeouts, "
             f"0 RunMatch lost ({streams} well-behaved streams, {seconds:g} s per case)")
    load = "load average at the end: " + " ".join(f"{x:.2f}" for x in os.getloadavg())
    return "\n".join([*lines, goals, load])


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200, help="concurrent bot streams (two per pair)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--faulty-pairs", type=int, default=20, help="pairs with a misbehaving bot")
    parser.add_argument("--fault-move-ms", type=int, default=500, help="time limit of matches with a faulty bot")
    parser.add_argument("--hostile-streams", type=int, default=20, help="well-behaved streams in the hostile cases")
    parser.add_argument("--hostile-seconds", type=float, default=20.0, help="seconds of each hostile case")
    parser.add_argument("--repeat", type=int, default=1, help="runs of each hostile case (the median is shown)")
    parser.add_argument("--skip-soak", action="store_true", help="only the hostile cases")
    parser.add_argument("--skip-hostile", action="store_true", help="only the soak")
    parser.add_argument("--cases", default=",".join(ATTACKS), help=f"hostile cases, of {', '.join(ATTACKS)}")
    parser.add_argument("--attack", choices=ATTACKS, help=argparse.SUPPRESS)
    parser.add_argument("--address", help=argparse.SUPPRESS)
    args = parser.parse_args()
    if args.attack:
        attack(args.attack, args.address, args.seconds)
        return
    lost = 0
    if not args.skip_soak:
        report = soak(streams=args.streams, seconds=args.seconds, faulty_pairs=args.faulty_pairs,
                      fault_move_ms=args.fault_move_ms)
        print(table(report), flush=True)
        lost = report.lost
    if not args.skip_hostile:
        kinds = tuple(k for k in args.cases.split(",") if k)
        unknown = sorted(set(kinds) - set(ATTACKS))
        if unknown:
            parser.error(f"unknown --cases {', '.join(unknown)}: pick from {', '.join(ATTACKS)}")
        if args.repeat < 1:
            parser.error(f"--repeat must be at least 1, not {args.repeat}")
        print(hostile_table(args.hostile_streams, args.hostile_seconds, kinds, args.repeat), flush=True)
    if lost:
        sys.exit(1)


if __name__ == "__main__":
    main()
