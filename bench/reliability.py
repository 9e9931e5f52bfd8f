"""Reliability under load: faulty and well-behaved bots together on one arena, then a table.

    python bench/reliability.py [--streams 200] [--seconds 60] [--faulty-pairs 20] [--fault-move-ms 500]

The arena runs in its own process (its RSS is sampled); the bots are scripted gRPC streams in
this one. Pairs of bots play Tiny Ninjas match after match. In `--faulty-pairs` of the pairs one
bot misbehaves (never replies, answers out of range, sends garbage, drops its stream mid-match
and reconnects, or answers after the deadline), at a short time limit; the others play at the
arena's default time control. The table shows the faults injected, the matches they affected
(and how many ended with the expected typed reason), results lost (must be 0: every RunMatch
record reached the arena's storage) and the time losses of well-behaved bots at this load.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from tests.soak.soaklib import soak, table  # noqa: E402


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--streams", type=int, default=200, help="concurrent bot streams (two per pair)")
    parser.add_argument("--seconds", type=float, default=60.0, help="seconds of play")
    parser.add_argument("--faulty-pairs", type=int, default=20, help="pairs with a misbehaving bot")
    parser.add_argument("--fault-move-ms", type=int, default=500, help="time limit of matches with a faulty bot")
    args = parser.parse_args()
    report = soak(streams=args.streams, seconds=args.seconds, faulty_pairs=args.faulty_pairs,
                  fault_move_ms=args.fault_move_ms)
    print(table(report))
    if report.lost:
        sys.exit(1)


if __name__ == "__main__":
    main()
