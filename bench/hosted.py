"""Hosted-bot benchmarks (issue 29 item 5).

    .venv/bin/python bench/hosted.py [--matches N] [--sizes 1000,10000,100000] [--databases sqlite,postgresql]
                                     [--pg URL] [--start-runs 20]

(a) a sandboxed start against a bare start (bench/hosted_start.py's table; goal: at most 100 ms more);
(b) the ladder's scheduler, rating and storage throughput with 1,000, 10,000 and 100,000 simulated bots
    playing Coin (bench/coin_game.py, a match costs ~0.1 ms) through the real loop (tourney ladder run's
    run_ladder) on a local 2-CPU Ray, on SQLite and on PostgreSQL (a private PG 15 cluster unless --pg):
    matches/s scheduled, played, rated and stored (goal: >= 500 at 10,000 bots), the longest wait of any
    bot (in matches scheduled meanwhile and in seconds; a round, every bot once, is bots/2 matches), and
    the scheduler alone in µs per match (choose + rate-free bookkeeping), which must not grow with bots.
The bots start established (a few matches each, spread ratings), as on a ladder that has been running.
The machine is shared: run it when it is quiet, and read the numbers as a rough guide.
"""

from __future__ import annotations

import argparse
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
from pathlib import Path

# The repository root first, so that `bench.coin_game` imports here and in Ray's workers (see bench/tournament.py).
sys.path[0] = str(Path(__file__).resolve().parents[1])
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

from sqlalchemy import insert  # noqa: E402

import bench.coin_game  # noqa: E402, F401  (registers the stand-in game)
from bench.hosted_start import start_table  # noqa: E402
from bench.tournament import private_postgres  # noqa: E402
from tourney.tournament.ladder.loop import run_ladder  # noqa: E402
from tourney.tournament.ladder.scheduler import Scheduler  # noqa: E402
from tourney.tournament.rating.ratings import initial_skill  # noqa: E402
from tourney.tournament.store.database import open_store  # noqa: E402
from tourney.tournament.store.ladder_rows import BOTS, ladder_of  # noqa: E402
from tourney.tournament.store.tables import now  # noqa: E402
from tourney.workers import RayExecutor  # noqa: E402

SIZES = (1_000, 10_000, 100_000)
PLAYED_BEFORE = 5  # each bot's matches before the run: established bots, not newcomers
INSERT_BATCH = 5_000


def fill(url: str, bots: int, seed: int = 1) -> None:
    """A coin ladder of `bots` level bots with spread, partly settled ratings (one insert per batch)."""
    engine = open_store(url)
    found = ladder_of(engine, "coin", create=True)
    assert found is not None
    rng = random.Random(seed)
    prior = initial_skill("b")
    rows = []
    for i in range(bots):
        n = rng.randrange(10)
        rows.append({"ladder_id": found[0], "alias": f"b{i:06d}", "spec": f"level:n={n}",
                     "mu": prior.mu + (n - 4.5) * 1.5 + rng.gauss(0, 2), "sigma": prior.sigma * rng.uniform(0.3, 0.8),
                     "matches": PLAYED_BEFORE, "wins": 0, "added_at": now()})
    with engine.begin() as conn:
        for i in range(0, len(rows), INSERT_BATCH):
            conn.execute(insert(BOTS), rows[i:i + INSERT_BATCH])
    engine.dispose()


def scheduler_us(bots: int, matches: int = 50_000) -> float:
    """µs per match of the scheduler alone: choose a match, then free both bots with a moved rating."""
    rng = random.Random(2)
    s = Scheduler(2, sigma0=initial_skill("b").sigma)
    for i in range(bots):
        s.add(f"b{i}", rng.gauss(25, 4), rng.uniform(2, 6), PLAYED_BEFORE)
    started = time.perf_counter()
    for _ in range(matches):
        seats = s.next_match()
        assert seats is not None
        for alias in seats:
            bot = s.bots[alias]
            s.finished(alias, bot.mu + rng.uniform(-1, 1), bot.sigma * 0.99)
    return (time.perf_counter() - started) / matches * 1e6


def bench_ladder(label: str, url: str, bots: int, matches: int, executor: RayExecutor) -> None:
    fill(url, bots)
    engine = open_store(url)
    report = run_ladder(engine, "coin", executor, matches=matches)
    print(f"{label:<12}{bots:>8}{report.played:>9}{report.per_second:>11.0f}{report.longest_wait_ticks:>13}"
          f"{report.longest_wait_s:>11.1f}{bots // 2:>8}{scheduler_us(bots):>14.1f}{os.getloadavg()[0]:>9.2f}",
          flush=True)
    engine.dispose()


def per_run(bots: int, given: int | None) -> int:
    """Matches per run: three rounds (each bot about three times), so the longest wait is a steady state's."""
    return given if given is not None else max(10_000, min(60_000, 3 * bots // 2))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--matches", type=int, default=None,
                        help="Matches per run (default: three rounds, at least 10,000 and at most 60,000).")
    parser.add_argument("--sizes", default=",".join(str(s) for s in SIZES), help="Bot counts, comma-separated.")
    parser.add_argument("--pg", help="A PostgreSQL URL to use instead of a private cluster.")
    parser.add_argument("--databases", default="sqlite,postgresql", help="Which stores, comma-separated.")
    parser.add_argument("--start-runs", type=int, default=20, help="Starts of each kind for (a); 0 skips (a).")
    args = parser.parse_args()
    sizes = [int(s) for s in args.sizes.split(",")]
    kinds = set(args.databases.split(","))
    if args.start_runs > 0:
        print("(a) a sandboxed start against a bare start (goal: at most 100 ms more)")
        print("\n".join(start_table(args.start_runs)), flush=True)
    print("\n(b) ladder throughput, Coin on a local 2-CPU Ray, after a warm-up run "
          "(goal: >= 500 matches/s at 10,000 bots; scheduler µs/match flat in bots)")
    print(f"{'database':<12}{'bots':>8}{'matches':>9}{'matches/s':>11}{'wait (m)':>13}{'wait (s)':>11}"
          f"{'round':>8}{'sched µs/m':>14}{'load 1m':>9}", flush=True)
    executor = RayExecutor(workers=2)
    started = None
    try:
        with tempfile.TemporaryDirectory() as tmp:
            warm = f"sqlite:///{Path(tmp) / 'warm.db'}"
            fill(warm, 100)
            run_ladder(open_store(warm), "coin", executor, matches=2_000)  # Ray up and its workers warm
            for n in sizes if "sqlite" in kinds else []:
                bench_ladder("sqlite", f"sqlite:///{Path(tmp) / f'ladder{n}.db'}", n, per_run(n, args.matches),
                             executor)
        if "postgresql" not in kinds:
            return
        pg = args.pg
        if pg is None:
            started = private_postgres()
            pg = started[0] if started else None
        if pg is None:
            print("postgresql  (not run: no PostgreSQL 15 binaries, or not root; pass --pg URL)")
            return
        for n in sizes:
            database = f"ladder{n}"
            admin = open_store(pg)
            with admin.connect().execution_options(isolation_level="AUTOCOMMIT") as conn:
                conn.exec_driver_sql(f"DROP DATABASE IF EXISTS {database}")
                conn.exec_driver_sql(f"CREATE DATABASE {database}")
            admin.dispose()
            bench_ladder("postgresql", pg.rsplit("/", 1)[0] + f"/{database}", n, per_run(n, args.matches), executor)
    finally:
        executor.close()
        if started is not None:
            subprocess.run(["runuser", "-u", "postgres", "--", "/usr/lib/postgresql/15/bin/pg_ctl", "-D",
                            str(started[1] / "db"), "-m", "immediate", "stop"], capture_output=True)
            shutil.rmtree(started[1], ignore_errors=True)


if __name__ == "__main__":
    main()
