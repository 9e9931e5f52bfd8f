"""Many scripted bot streams against an arena in its own process (the soak test and bench/reliability.py).

Bots are light asyncio gRPC streams in this process; the arena runs in a child process so its
memory can be measured. Each pair of bots plays match after match (RunMatch) until the time
is up. Faulty bots (silent, out of range, garbage, deserting, late) can be mixed in, each paired
with a good bot.
"""

from __future__ import annotations

import asyncio
import contextlib
import json
import os
import random
import subprocess
import sys
import tempfile
import time
from collections import Counter
from dataclasses import dataclass, field
from pathlib import Path

import grpc

from tourney.engine.server.generated import arena_pb2 as pb

ROOT = Path(__file__).resolve().parents[2]
PLAY = "/tourney.v1.Arena/Play"
RUN_MATCH = "/tourney.v1.Arena/RunMatch"
GET_MATCH = "/tourney.v1.Arena/GetMatch"
# RunMatch answers asked again, as workers.arena does.
RETRIED = (grpc.StatusCode.CANCELLED, grpc.StatusCode.RESOURCE_EXHAUSTED, grpc.StatusCode.UNAVAILABLE)
RUN_ATTEMPTS = 6
FAULTS = ("silent", "out_of_range", "garbage", "deserter", "late")
EXPECTED = {"silent": "timeout", "out_of_range": "illegal_move", "garbage": "timeout", "deserter": "disconnection",
            "late": "timeout"}


@dataclass
class SoakReport:
    """What a soak run measured."""

    streams: int
    seconds: float
    rss_start_kb: int = 0
    rss_end_kb: int = 0
    rss_samples_kb: list[int] = field(default_factory=list)
    matches: int = 0
    terminations: Counter[str] = field(default_factory=Counter)
    good_timeouts: int = 0
    decisions: int = 0
    latencies_ms: list[float] = field(default_factory=list)
    faults_injected: Counter[str] = field(default_factory=Counter)
    faulty_matches: Counter[str] = field(default_factory=Counter)
    faulty_right_reason: Counter[str] = field(default_factory=Counter)
    rpc_failures: int = 0
    rpc_retries: int = 0  # RunMatch calls cut or refused, then asked again
    rpc_failure_codes: Counter[str] = field(default_factory=Counter)  # RunMatch failures by status
    lost: int = 0
    ended_mismatch: int = 0

    def percentile(self, q: float) -> float:
        """The q-quantile (0..1) of decision latency in ms (0 when none)."""
        if not self.latencies_ms:
            return 0.0
        ordered = sorted(self.latencies_ms)
        return ordered[min(len(ordered) - 1, int(q * len(ordered)))]


def rss_kb(pid: int) -> int:
    """Resident memory of process `pid` in kB (Linux)."""
    for line in Path(f"/proc/{pid}/status").read_text().splitlines():
        if line.startswith("VmRSS:"):
            return int(line.split()[1])
    return 0


class ScriptedBot:
    """One bot stream: answers at once with a random legal index, or misbehaves as `fault` says."""

    def __init__(self, address: str, name: str, fault: str | None, seed: int) -> None:
        self.address = address
        self.name = name
        self.fault = fault
        self.rng = random.Random(seed)
        self.ended: list[str] = []
        self.welcomed = asyncio.Event()
        self.stopping = False
        self.injected = 0

    def _reply(self, request: pb.ActionRequest) -> bytes | None:
        n = len(request.legal_actions)
        if self.fault in ("silent", "late"):
            return None
        if self.fault == "garbage":
            return b"\xff\xfe\xfd"
        index = n if self.fault == "out_of_range" else self.rng.randrange(n)
        return pb.BotMessage(reply=pb.ActionReply(match_id=request.match_id, request_id=request.request_id,
                                                  action_index=index)).SerializeToString()

    async def run(self, channel: grpc.aio.Channel) -> None:
        """Play until stopped; a deserter drops its stream at its third request and reconnects."""
        while not self.stopping:
            call = channel.stream_stream(PLAY, request_serializer=lambda b: b,
                                         response_deserializer=pb.ArenaMessage.FromString)()
            await call.write(pb.BotMessage(hello=pb.Hello(bot_name=self.name, games=["tiny-ninjas"],
                                                          max_concurrent_matches=1)).SerializeToString())
            asked = 0
            try:
                async for message in call:
                    kind = message.WhichOneof("kind")
                    if kind == "welcome":
                        self.welcomed.set()
                    elif kind == "match_ended":
                        self.ended.append(message.match_ended.match_id)
                    elif kind == "action_request":
                        request = message.action_request
                        asked += 1
                        if self.fault == "deserter" and asked == 3:
                            self.injected += 1
                            call.cancel()
                            break
                        if self.fault == "late":
                            self.injected += 1
                            asyncio.get_running_loop().call_later(
                                request.deadline_ms / 1000.0 + 0.2, _late_write, call, request)
                            continue
                        data = self._reply(request)
                        if self.fault not in (None, "deserter"):
                            self.injected += 1
                        if data is not None:
                            await call.write(data)
                            if self.fault == "garbage":
                                continue
            except (grpc.aio.AioRpcError, asyncio.CancelledError):
                pass
            if self.stopping:
                return
            await asyncio.sleep(0.05)


def _late_write(call: grpc.aio.StreamStreamCall, request: pb.ActionRequest) -> None:
    data = pb.BotMessage(reply=pb.ActionReply(match_id=request.match_id, request_id=request.request_id,
                                              action_index=0)).SerializeToString()
    asyncio.ensure_future(_quiet_write(call, data))


async def _quiet_write(call: grpc.aio.StreamStreamCall, data: bytes) -> None:
    with contextlib.suppress(Exception):  # the stream may be gone by then: that is the point of being late
        await call.write(data)


async def _soak(address: str, streams: int, seconds: float, faulty_pairs: int, fault_move_ms: int,
                pid: int, report: SoakReport, organiser: str | None = None) -> None:
    """The bots connect to `address`; the organiser's RunMatch and GetMatch go to `organiser` (default: the same)."""
    channel = grpc.aio.insecure_channel(organiser or address,
                                        options=[("grpc.max_receive_message_length", 64 << 20)])
    pairs = streams // 2
    bots: list[ScriptedBot] = []
    for i in range(pairs):
        fault = FAULTS[i % len(FAULTS)] if i < faulty_pairs else None
        bots.append(ScriptedBot(address, f"soak-{i}-a", fault, 2 * i))
        bots.append(ScriptedBot(address, f"soak-{i}-b", None, 2 * i + 1))
    # A connection per bot, as separate bot programs have: the arena caps calls per connection.
    bot_channels = [grpc.aio.insecure_channel(address, options=[("grpc.use_local_subchannel_pool", 1)])
                    for _ in bots]
    tasks = [asyncio.ensure_future(b.run(c)) for b, c in zip(bots, bot_channels, strict=True)]
    await asyncio.wait_for(asyncio.gather(*(b.welcomed.wait() for b in bots)), 120)
    report.rss_start_kb = rss_kb(pid)
    run = channel.unary_unary(RUN_MATCH, request_serializer=pb.RunMatchRequest.SerializeToString,
                              response_deserializer=pb.MatchRecord.FromString)
    records: list[tuple[pb.MatchRecord, str | None, str, str]] = []
    end = time.monotonic() + seconds

    get = channel.unary_unary(GET_MATCH, request_serializer=pb.GetMatchRequest.SerializeToString,
                              response_deserializer=pb.MatchRecord.FromString)
    admin = os.environ.get("SOAK_ADMIN_TOKEN", "")

    async def fetch(match_id: str) -> pb.MatchRecord:
        """The record of a match the arena plays or played (NOT_FOUND: still playing)."""
        until = time.monotonic() + 600
        while True:
            try:
                record: pb.MatchRecord = await get(pb.GetMatchRequest(match_id=match_id, admin_token=admin),
                                                   timeout=60)
                return record
            except grpc.aio.AioRpcError as exc:
                if exc.code() != grpc.StatusCode.NOT_FOUND or time.monotonic() > until:
                    raise
            await asyncio.sleep(0.5)

    async def play_once(request: pb.RunMatchRequest) -> pb.MatchRecord:
        """RunMatch as `tourney run --arena` asks it (workers.arena.play_once): one match id,
        asked again when the call was cut or refused, the record fetched if it was played already."""
        for attempt in range(RUN_ATTEMPTS):
            try:
                record: pb.MatchRecord = await run(request, timeout=600)
                return record
            except grpc.aio.AioRpcError as exc:
                if exc.code() == grpc.StatusCode.ALREADY_EXISTS and attempt > 0:
                    return await fetch(request.match_id)
                if exc.code() not in RETRIED or attempt == RUN_ATTEMPTS - 1:
                    raise
                report.rpc_retries += 1
            await asyncio.sleep(0.25 * 2 ** attempt)
        raise AssertionError("unreachable: the last attempt returns or raises")

    async def drive(i: int) -> None:
        a, b = bots[2 * i], bots[2 * i + 1]
        seed = 1000 * i
        while time.monotonic() < end:
            seed += 1
            move_ms = fault_move_ms if a.fault else 0
            try:
                seats = [f"remote:{a.name}", f"remote:{b.name}"]
                record = await play_once(pb.RunMatchRequest(
                    game="tiny-ninjas", seats=seats, seed=seed, move_ms=move_ms, admin_token=admin, wait_s=30,
                    match_id=f"soak-{i}-{seed}"))
            except grpc.aio.AioRpcError as exc:
                report.rpc_failures += 1
                report.rpc_failure_codes[f"{exc.code().name}: {exc.details()}"[:120]] += 1
                await asyncio.sleep(0.1)
                continue
            records.append((record, a.fault, a.name, b.name))

    async def sample() -> None:
        while time.monotonic() < end:
            report.rss_samples_kb.append(rss_kb(pid))
            await asyncio.sleep(max(0.5, seconds / 10))

    sampler = asyncio.ensure_future(sample())
    await asyncio.gather(*(drive(i) for i in range(pairs)))
    sampler.cancel()
    await asyncio.sleep(0.5)  # let the last MatchEnded messages arrive
    report.rss_end_kb = rss_kb(pid)
    ended = Counter(m for bot in bots for m in bot.ended)
    for record, fault, _a, _b in records:
        report.matches += 1
        report.terminations[record.termination] += 1
        if fault is None:
            report.good_timeouts += record.termination == "timeout"
            for step in json.loads(record.replay_json)["steps"]:
                for _seat, _index, ms, _fault in step:
                    report.decisions += 1
                    report.latencies_ms.append(float(ms))
        else:
            report.faulty_matches[fault] += 1
            report.faulty_right_reason[fault] += record.termination == EXPECTED[fault] or (
                fault == "deserter" and record.termination in ("normal", "adjudication"))
        # Both seats are told the match ended, unless the seat had walked away.
        expected_ended = 1 if fault == "deserter" and record.termination == "disconnection" else 2
        if ended[record.match_id] < expected_ended:
            report.ended_mismatch += 1
    for bot in bots:
        report.faults_injected[bot.fault or "none"] += bot.injected
        bot.stopping = True
    for task in tasks:
        task.cancel()
    await asyncio.gather(*tasks, return_exceptions=True)
    await channel.close()
    for bot_channel in bot_channels:
        await bot_channel.close()
    report.records = records  # type: ignore[attr-defined]


def soak(streams: int = 200, seconds: float = 60.0, faulty_pairs: int = 0, fault_move_ms: int = 500) -> SoakReport:
    """Run `streams` bot streams for `seconds` against a fresh arena process; what was measured."""
    report = SoakReport(streams, seconds)
    with tempfile.TemporaryDirectory(prefix="tourney-soak-") as tmp:
        store = Path(tmp) / "stored.txt"
        env = {**os.environ, "PYTHONPATH": str(ROOT)}
        proc = subprocess.Popen([sys.executable, "-m", "tests.soak.arena_process", str(store)], cwd=ROOT, env=env,
                                stdout=subprocess.PIPE, text=True)
        try:
            assert proc.stdout is not None
            port, admin_port = int(proc.stdout.readline()), int(proc.stdout.readline())
            asyncio.run(_soak(f"127.0.0.1:{port}", streams, seconds, faulty_pairs, fault_move_ms, proc.pid, report,
                              organiser=f"127.0.0.1:{admin_port}"))
        finally:
            proc.terminate()
            proc.wait(30)
        stored = {line.split()[0] for line in store.read_text().splitlines() if line.strip()}
        played = {r.match_id for r, *_ in report.records}  # type: ignore[attr-defined]
        report.lost = len(played - stored) + report.rpc_failures
    return report


def table(report: SoakReport) -> str:
    """The report as a plain text table."""
    faults = sum(v for k, v in report.faults_injected.items() if k != "none")
    kinds = ", ".join(f"{k} {v}" for k, v in sorted(report.faults_injected.items()) if k != "none")
    rows = [
        ("concurrent bot streams", f"{report.streams}"),
        ("seconds of play", f"{report.seconds:g}"),
        ("matches played", f"{report.matches}"),
        ("terminations", ", ".join(f"{k} {v}" for k, v in sorted(report.terminations.items()))),
        ("faults injected", f"{faults} ({kinds})"),
        ("matches affected (faulty bot seated)", f"{sum(report.faulty_matches.values())}"),
        ("  ...ended with the expected reason", f"{sum(report.faulty_right_reason.values())}"),
        ("results lost (must be 0)", f"{report.lost}"),
        ("MatchEnded not delivered", f"{report.ended_mismatch}"),
        ("timeouts of well-behaved bots", f"{report.good_timeouts} in {report.decisions} decisions"),
        ("decision latency p50 / p99 / max (ms)",
         f"{report.percentile(0.5):.2f} / {report.percentile(0.99):.2f} / {report.percentile(1.0):.2f}"),
        ("arena RSS start -> end (MB)", f"{report.rss_start_kb / 1024:.1f} -> {report.rss_end_kb / 1024:.1f}"),
        ("arena RSS samples (MB)", " ".join(f"{kb / 1024:.0f}" for kb in report.rss_samples_kb)),
    ]
    width = max(len(k) for k, _ in rows)
    return "\n".join(f"{k.ljust(width)}  {v}" for k, v in rows)
