"""`tourney export` in constant memory: peak RSS and time of exporting 1,000 to 100,000 stored matches.

    .venv/bin/python bench/export.py [--sizes 1000,10000,100000] [--game tiny-ninjas] [--exports public,full]

For each size a fresh SQLite store gets that many matches (a few real matches, stored again and again under
new schedule numbers through the store's own writer), then `tourney export` runs in a fresh process, public
and --full, its output read through a pipe and counted; the table shows its peak resident set (VmHWM), seconds
and bytes written per match. The goal: the peak does not grow with the size (within 20% from 1,000 to 100,000
matches), and a public record grows with its match's length, not its square. The public export
replays every match for its frames, so it takes minutes at 100,000.
The machine is shared: read the seconds as a rough guide.
"""

from __future__ import annotations

import argparse
import os
import subprocess
import sys
import tempfile
import time
from pathlib import Path

sys.path[0] = str(Path(__file__).resolve().parents[1])  # the repository, not bench/, first on the path

from tourney.engine.bots import make_bot  # noqa: E402
from tourney.engine.core import get_game  # noqa: E402
from tourney.engine.referee import play_match  # noqa: E402
from tourney.tournament.entrants import parse_entrants  # noqa: E402
from tourney.tournament.formats.pairing import Pairing  # noqa: E402
from tourney.tournament.runner import TournamentPlan  # noqa: E402
from tourney.tournament.store.database import open_store  # noqa: E402
from tourney.tournament.store.records import StoredMatch, match_record  # noqa: E402
from tourney.tournament.store.writes import create_tournament, record_matches  # noqa: E402

ADMIN = "bench-export-Xk29-pQ7v"
DISTINCT = 20  # real matches played, then stored again under new numbers
BATCH = 2000  # matches per record_matches call while filling a store
# The child prints its own high-water mark when it exits (VmHWM: its own address space, see bench/tournament.py).
CHILD = """import atexit, sys
from pathlib import Path
atexit.register(lambda: print(next(l for l in Path('/proc/self/status').read_text().splitlines()
                                   if l.startswith('VmHWM:')).split()[1], file=sys.stderr))
from tourney.tournament.cli import app
sys.argv = ['tourney', *sys.argv[1:]]
app()
"""


def fill(path: Path, game: str, size: int) -> None:
    """A store with one tournament of `size` matches of `game` (random against greedy)."""
    engine = open_store(str(path))
    plan = TournamentPlan(game=game, entrants=parse_entrants("random,greedy", get_game(game)),
                          name="export bench", seed_key="export-bench-key")
    tid = create_tournament(engine, plan)
    records: list[StoredMatch] = []
    for seed in range(DISTINCT):
        g = get_game(game)
        result = play_match(game, [make_bot("random", g, seed), make_bot("greedy", g, seed)], seed)
        records.append(match_record(["random", "greedy"], result))
    for start in range(0, size, BATCH):
        record_matches(engine, tid, plan, [(Pairing(n, 0, (0, 1), n), records[n % DISTINCT], 0.01)
                                           for n in range(start, min(size, start + BATCH))])
    engine.dispose()


def export_peak(path: Path, full: bool) -> tuple[int, float, int]:
    """(peak RSS in KB, seconds, bytes written) of one `tourney export` of the store at `path`, in a fresh process."""
    args = ["export", "1", "--db", str(path)]
    if full:
        args += ["--full", "--admin-token", ADMIN]
    start = time.perf_counter()
    written = 0
    # Counted as it streams, not kept: public exports of whole frames were 12 GB at 100,000 matches.
    with subprocess.Popen([sys.executable, "-c", CHILD, *args], stdout=subprocess.PIPE, stderr=subprocess.PIPE,
                          env={**os.environ, "PYTHONPATH": str(Path(__file__).resolve().parents[1])}) as child:
        assert child.stdout is not None and child.stderr is not None
        while chunk := child.stdout.read(1 << 20):
            written += len(chunk)
        err = child.stderr.read().decode()  # the child writes only its high-water mark there: no deadlock
    if child.returncode != 0:
        raise SystemExit(f"tourney export failed: {err}")
    return int(err.strip().splitlines()[-1]), time.perf_counter() - start, written


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--sizes", default="1000,10000,100000", help="Comma-separated match counts.")
    parser.add_argument("--game", default="tiny-ninjas")
    parser.add_argument("--exports", default="public,full", help="Which exports to time: public, full or both.")
    args = parser.parse_args()
    kinds = [k == "full" for k in ("public", "full") if k in args.exports.split(",")]
    sizes = [int(s) for s in args.sizes.split(",")]
    print(f"{'matches':>8} {'export':>7} {'peak RSS MB':>12} {'seconds':>8} {'matches/s':>10} {'bytes/match':>12}")
    with tempfile.TemporaryDirectory() as tmp:
        for size in sizes:
            path = Path(tmp) / f"{size}.db"
            fill(path, args.game, size)
            for full in kinds:
                peak_kb, seconds, written = export_peak(path, full)
                print(f"{size:>8} {'full' if full else 'public':>7} {peak_kb / 1024:>12.1f} {seconds:>8.1f} "
                      f"{size / seconds:>10.0f} {written / size:>12.0f}", flush=True)
            path.unlink()
    return 0


if __name__ == "__main__":
    sys.exit(main())
