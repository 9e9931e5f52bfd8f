"""What a raw grpc.aio server costs a round trip in the arena's server patterns, and with work of its own.

    PYTHONPATH=. .venv/bin/python bench/arena_patterns.py [--rounds 3] [--per-stream 1500] [--size 3050]

No arena and no game: raw ping-pong servers (each in its own process) answer 8 grpc.aio streams of
one connection with `--size` bytes per message, and each row reads the server's CPU and its threads'
context switches per round trip from /proc. Three tables, rounds interleaved, medians:

1. the server written in each pattern the arena could use: an async generator (`async for` and
   `yield`, the baseline of bench/arena.py), `context.read()` / `context.write()` in the handler,
   a reader task feeding the arena's own `Outbox` (written at the loop's next turn), a reader task
   feeding an asyncio.Queue that the handler writes from, the handler with the arena's server options
   and metrics interceptor, and the generator on uvloop when it is installed;
2. the generator spending S µs of its own CPU before each answer (what the arena's referee, game,
   codec and session do per decision);
3. the generator with a client that spends C µs of CPU on each message before answering.

Tables 2 and 3 show why the arena costs more than its own Python adds: with work on either side,
the messages of the 8 streams stop arriving together and gRPC's per-message cost rises (more
wake-ups of its poller thread and of the loop, each a context switch).
Prints tables; no assertions.
"""

from __future__ import annotations

import argparse
import asyncio
import os
import statistics
import subprocess
import sys
from collections.abc import AsyncIterator, Callable, Sequence
from pathlib import Path
from typing import Any

import grpc

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arena import RAW_METHOD, _threads, raw_round_trips, spin  # noqa: E402  (bench/arena.py: the same client)

PATTERNS = ("generator", "read-write", "reader+outbox", "reader+queue", "arena options", "uvloop")


def _handler(pattern: str, payload: bytes, work_us: float) -> Callable[..., Any]:
    """The PingPong handler of `pattern`: one `payload` first, then one for each message read."""
    from tourney.engine.server.sessions import Outbox

    async def generator(requests: AsyncIterator[bytes], context: Any) -> AsyncIterator[bytes]:
        yield payload
        async for _ in requests:
            if work_us:
                spin(work_us)
            yield payload

    async def read_write(requests: AsyncIterator[bytes], context: Any) -> None:
        await context.write(payload)
        while await context.read() is not grpc.aio.EOF:
            await context.write(payload)

    async def reader_outbox(requests: AsyncIterator[bytes], context: Any) -> None:
        outbox = Outbox(asyncio.get_running_loop())

        async def read() -> None:
            while await context.read() is not grpc.aio.EOF:
                outbox.put(payload)
            outbox.put(None)

        outbox.put(payload)
        reader = asyncio.ensure_future(read())
        outbox.start(context.write)
        await outbox.finished
        reader.cancel()
        outbox.stop()

    async def reader_queue(requests: AsyncIterator[bytes], context: Any) -> None:
        queue: asyncio.Queue[bytes | None] = asyncio.Queue()

        async def read() -> None:
            while await context.read() is not grpc.aio.EOF:
                queue.put_nowait(payload)
            queue.put_nowait(None)

        queue.put_nowait(payload)
        reader = asyncio.ensure_future(read())
        while (item := await queue.get()) is not None:
            await context.write(item)
        reader.cancel()

    return {"generator": generator, "uvloop": generator, "read-write": read_write, "arena options": read_write,
            "reader+outbox": reader_outbox, "reader+queue": reader_queue}[pattern]


async def _serve(pattern: str, size: int, work_us: float) -> None:
    """A raw server in `pattern`; prints its port."""
    options: list[tuple[str, Any]] = []
    interceptors: list[Any] = []
    if pattern == "arena options":
        from tourney.engine.server.config import ArenaConfig
        from tourney.engine.server.metrics import MetricsInterceptor
        from tourney.engine.server.server import server_options

        options = server_options(ArenaConfig(), 4096)
        interceptors = [MetricsInterceptor([RAW_METHOD])]
    server = grpc.aio.server(options=options, interceptors=interceptors)
    server.add_generic_rpc_handlers((grpc.method_handlers_generic_handler("bench.Raw", {
        "PingPong": grpc.stream_stream_rpc_method_handler(_handler(pattern, b"x" * size, work_us))}),))
    port = server.add_insecure_port("127.0.0.1:0")
    await server.start()
    print(port, flush=True)
    await server.wait_for_termination()


def _process_counters(pid: int) -> tuple[float, int, int]:
    """CPU seconds, voluntary and involuntary context switches of all the threads of process `pid` so far."""
    threads = _threads(pid).values()
    return sum(t[0] for t in threads), sum(t[1] for t in threads), sum(t[2] for t in threads)


Row = tuple[str, str, float, float]  # label, server pattern, its own µs a message, the client's µs a message


def measure(rows: Sequence[Row], size: int, per_stream: int, rounds: int) -> None:
    """Start one server per row, measure every row in each round (interleaved), print the medians."""
    servers = {}
    try:
        for label, pattern, work_us, _ in rows:
            proc = subprocess.Popen([sys.executable, __file__, "--serve", pattern, str(size), str(work_us)],
                                    stdout=subprocess.PIPE, text=True, cwd=ROOT)
            assert proc.stdout is not None
            servers[label] = (proc, f"127.0.0.1:{proc.stdout.readline().strip()}")
            raw_round_trips(servers[label][1], 8, 50, 12)  # warm-up
        got: dict[str, list[tuple[float, float, float, float]]] = {label: [] for label, *_ in rows}
        for _ in range(rounds):
            for label, _, _, client_us in rows:
                proc, address = servers[label]
                before = _process_counters(proc.pid)
                rate = raw_round_trips(address, 8, per_stream, 12, client_us=client_us)
                after = _process_counters(proc.pid)
                n = 8 * per_stream
                got[label].append((rate, 1e6 * (after[0] - before[0]) / n, (after[1] - before[1]) / n,
                                   (after[2] - before[2]) / n))
    finally:
        for proc, _ in servers.values():
            proc.terminate()
            proc.wait(30)
    print(f"{'server':>26} {'round trips/s':>14} {'server CPU µs':>14} {'voluntary':>10} {'preempted':>10}"
          f"   load {os.getloadavg()[0]:.1f}")
    for label, *_ in rows:
        rate, cpu, voluntary, preempted = (statistics.median(column) for column in zip(*got[label], strict=True))
        print(f"{label:>26} {rate:>14.0f} {cpu:>14.1f} {voluntary:>10.2f} {preempted:>10.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--rounds", type=int, default=3, help="measurements of each row; the median is shown")
    parser.add_argument("--per-stream", type=int, default=1500, help="round trips per stream (8 streams)")
    parser.add_argument("--size", type=int, default=3050, help="bytes the server sends a message (a Tiny Ninjas "
                        "ActionRequest is ~3,050)")
    args = parser.parse_args()
    try:
        import uvloop  # noqa: F401
        patterns = PATTERNS
    except ImportError:
        patterns = tuple(p for p in PATTERNS if p != "uvloop")
    print(f"8 streams, {args.size} bytes a message, {args.per_stream} round trips a stream, median of {args.rounds}; "
          "CPU and context switches of all the server's threads per round trip\n\n1. server patterns")
    measure([(p, p, 0.0, 0.0) for p in patterns], args.size, args.per_stream, args.rounds)
    print("\n2. the generator spending S µs of its own CPU a message")
    measure([(f"S = {s} µs", "generator", float(s), 0.0) for s in (0, 40, 70, 100)], args.size, args.per_stream,
            args.rounds)
    print("\n3. the generator, with a client spending C µs of CPU a message")
    measure([(f"C = {c} µs", "generator", 0.0, float(c)) for c in (0, 60, 120)], args.size, args.per_stream,
            args.rounds)


if __name__ == "__main__":
    if len(sys.argv) > 1 and sys.argv[1] == "--serve":
        pattern = sys.argv[2]
        if pattern == "uvloop":
            import uvloop

            uvloop.install()
        asyncio.run(_serve(pattern, int(sys.argv[3]), float(sys.argv[4])))
    else:
        main()
