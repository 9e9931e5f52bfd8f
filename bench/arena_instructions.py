"""Instructions a decision: the arena served over gRPC, beside the raw server and the arena in process.

    PYTHONPATH=. .venv/bin/python bench/arena_instructions.py [--game tiny-ninjas ...] [--decisions 480] \
        [--typed-views]

CPU time a decision moves ±20% with the machine's load; instructions (valgrind's callgrind, user space,
every thread of the server) do not. Three processes are counted:

- the arena (`tourney serve`'s server, bench/arena.py's), 8 aio bots playing GAME match after match
  (counted from after a warm-up to the end of `--decisions` decisions);
- the raw grpc.aio ping-pong server answering with one of that game's real requests (the reference of
  bench/arena.py), 8 streams, per round trip;
- the arena's own work with no gRPC (`bench/arena.py --in-process GAME`), per decision: the difference
  between two runs of different lengths, so the start and the warm-up cancel out. A run plays its last
  match to the end, so this needs matches shorter than the gap (2,000 decisions): a Ninja Arena match
  is ~6,000, both runs play one, and its in-process row means nothing.

If serving a decision cost work that the in-process run does not see, the served arena would count
more than the raw server and the in-process arena together. The served arena's instructions are then
split by where they run (gRPC, the interpreter, the compiled arena and rules, protobuf, orjson, ...).
Needs valgrind. Prints tables; no assertions. Under valgrind everything is ~100x slower: the bots'
30 s move time still holds, but keep --decisions small.
"""

from __future__ import annotations

import argparse
import contextlib
import glob
import os
import subprocess
import sys
import tempfile
from collections import Counter
from collections.abc import Callable, Iterator
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(Path(__file__).resolve().parent))

from arena import REAL_GAMES, TYPED_VIEWS, game_decisions_aio, raw_round_trips  # noqa: E402  (bench/arena.py's clients)

BENCH = str(Path(__file__).resolve().parent / "arena.py")
# Where an instruction runs, by the file of its code: the first name found in the object's path.
AREAS = (("cygrpc", "gRPC (cygrpc and its core)"), ("libpython", "Python interpreter"),
         ("compiled_rules", "arena + rules, compiled (mypyc)"), ("_asyncio", "asyncio (C)"),
         ("_upb", "protobuf (upb)"), ("orjson", "orjson"), ("libc.so", "libc"))


def _valgrind(out: str, *args: str) -> list[str]:
    return ["valgrind", "--tool=callgrind", "--instr-atstart=no", f"--callgrind-out-file={out}",
            sys.executable, BENCH, *args]


@contextlib.contextmanager
def _counted_server(out: str, *args: str) -> Iterator[tuple[int, str]]:
    """A bench server (`bench/arena.py ARGS`) under callgrind, counting nothing until `_count` says so."""
    proc = subprocess.Popen(_valgrind(out, *args), stdout=subprocess.PIPE, stderr=subprocess.DEVNULL, text=True,
                            cwd=ROOT)
    assert proc.stdout is not None
    try:
        yield proc.pid, f"127.0.0.1:{proc.stdout.readline().strip()}"
    finally:
        proc.terminate()
        proc.wait(120)


def _count(pid: int, out: str, run: Callable[[], int]) -> tuple[Counter[str], int]:
    """Instructions of server `pid` while `run` plays (per area, and their sum), and what `run` returns."""
    subprocess.run(["callgrind_control", "-i", "on", str(pid)], check=True, capture_output=True)
    done = run()
    subprocess.run(["callgrind_control", "-d", str(pid)], check=True, capture_output=True)
    areas: Counter[str] = Counter()
    for dump in glob.glob(f"{out}.*"):  # the dump of each thread that ran meanwhile
        areas.update(_by_area(dump))
    return areas, done


def _by_area(dump: str) -> Counter[str]:
    """Self instructions of a callgrind dump by area (AREAS; anything else is 'other')."""
    names: dict[str, str] = {}  # callgrind writes "(id) name" once, then "(id)"
    area = "other"
    areas: Counter[str] = Counter()
    skip = False  # the line after calls= is the call's inclusive cost, not self cost
    for line in Path(dump).read_text(errors="replace").splitlines():
        if line.startswith(("ob=", "cob=")):  # an object is named where it first appears, called or not
            key, _, name = line.partition("=")[2].partition(" ")
            if name:
                names[key] = name
            if line.startswith("ob="):
                path = names.get(key, key)
                area = next((label for needle, label in AREAS if needle in path), "other")
        elif line.startswith("calls="):
            skip = True
        elif line and (line[0].isdigit() or line[0] in "+-*"):
            if not skip:
                areas[area] += int(line.split()[-1])
            skip = False
    return areas


def _total(dump: str) -> int:
    """The instruction total callgrind wrote in `dump`."""
    for line in Path(dump).read_text(errors="replace").splitlines():
        if line.startswith("totals:"):
            return int(line.split()[1])
    raise ValueError(f"{dump} has no totals line: did callgrind finish?")


def in_process(game: str, decisions: int, folder: str) -> float:
    """Instructions a decision of `bench/arena.py --in-process GAME`: two runs, `decisions` apart."""
    totals = []
    for n, tag in ((decisions // 2, "short"), (decisions // 2 + decisions, "long")):
        out = os.path.join(folder, f"in-process-{tag}.out")
        # --in-process plays 8 * decisions // 4 decisions after its warm-up
        subprocess.run(["valgrind", "--tool=callgrind", f"--callgrind-out-file={out}", sys.executable, BENCH,
                        "--in-process", game, "--decisions", str(n // 2), "--rounds", "1",
                        *(["--typed-views"] if TYPED_VIEWS else [])],
                       check=True, capture_output=True, cwd=ROOT)
        totals.append(_total(out))
    return (totals[1] - totals[0]) / decisions


def measure(game: str, decisions: int, warm_up: int) -> None:
    """Print the three counts of `game` and the served arena's split (after `warm_up` decisions a stream)."""
    per = max(1, decisions // 8)
    with tempfile.TemporaryDirectory() as folder:
        served_out = os.path.join(folder, "served.out")
        samples: list[bytes] = []
        with _counted_server(served_out, "--serve-arena") as (pid, address):
            # The warm-up plays as the count does (8 streams): the legal lists' caches fill, and a real request
            _, size, _ = game_decisions_aio(address, game, 8, warm_up, samples=samples)
            served, served_done = _count(pid, served_out, lambda: game_decisions_aio(address, game, 8, per)[2])
        payload = min(samples, key=lambda data: abs(len(data) - size))
        payload_file = os.path.join(folder, "request.bin")
        Path(payload_file).write_bytes(payload)
        raw_out = os.path.join(folder, "raw.out")
        with _counted_server(raw_out, "--serve-raw", str(len(payload)), payload_file) as (pid, address):
            raw_round_trips(address, 8, 20, 12)
            raw, raw_done = _count(pid, raw_out, lambda: (raw_round_trips(address, 8, per, 12), 8 * per)[1])
        own = in_process(game, max(2000, 8 * per), folder)  # a short gap is mostly its caches filling
    served_each = sum(served.values()) / served_done
    raw_each = sum(raw.values()) / raw_done
    print(f"{game}: thousands of instructions (user space, every thread of the server); ActionRequest "
          f"~{size:.0f} bytes")
    print(f"{'served arena, a decision':>44} {served_each / 1e3:>8.1f}   ({served_done} decisions, 8 streams)")
    print(f"{'raw gRPC server, a round trip':>44} {raw_each / 1e3:>8.1f}   ({raw_done} round trips, 8 streams)")
    print(f"{'arena in process, a decision (bot parse incl.)':>44} {own / 1e3:>8.1f}")
    print(f"{'served - raw - in process':>44} {(served_each - raw_each - own) / 1e3:>8.1f}")
    print(f"{'where the served arena runs':>44} {'arena':>8} {'raw':>8}")
    for label in [label for _, label in AREAS] + ["other"]:
        print(f"{label:>44} {served[label] / served_done / 1e3:>8.1f} {raw[label] / raw_done / 1e3:>8.1f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--game", action="append", default=None, help="a real game (repeatable; default: all four)")
    parser.add_argument("--decisions", type=int, default=480, help="decisions counted (8 streams) of each game")
    parser.add_argument("--warm-up", type=int, default=60, help="decisions a stream before the served count starts")
    parser.add_argument("--typed-views", action="store_true",
                        help="the bots ask for the typed observation fields too (no Hello.json_view_only)")
    args = parser.parse_args()
    for game in args.game or REAL_GAMES:
        measure(game, args.decisions, args.warm_up)
        print()


if __name__ == "__main__":
    main()
