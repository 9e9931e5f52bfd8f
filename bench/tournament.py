"""Tournament benchmarks: Ray scaling, Ray overhead, Swiss pairing time, result writes per second.

    .venv/bin/python bench/tournament.py [--game tiny-ninjas] [--matches 2000] [--repeats 3] [--pg URL]
                                         [--ray-bots random,greedy]

(a) matches/s with 1 and 2 Ray workers, taking turns on one warm 2-CPU Ray, and the scaling
    (2-worker rate / 2x 1-worker rate, the same matches) beside the load average and plain Ray's scaling;
(b) Ray overhead: 1 Ray worker against the same matches played in-process in the same turn, in CPU seconds
    (this process in-process; this process and all of Ray's for Ray) and wall seconds, at two run sizes, split
    into the marginal cost per match (the slope between the sizes) and the fixed cost per run (the rest);
    beside them the once-per-cluster costs a warm run does not pay: ray.init, each worker's start and imports;
(c) Swiss pairing time for one round at 100, 1,000 and 10,000 players: our FIDE Dutch pairer and py4swiss
    (capped at 2 minutes), on the same history, wall and CPU seconds (goals: under 1 s at 1,000 and 10 s at
    10,000), and our round judged against py4swiss's by the Dutch criteria; then our slowest round of a
    whole event at 1,000 and 10,000; `--pairing-only` runs just this;
(d) matches/s written by record_matches beside a plain SQLAlchemy core executemany of the same rows, and
    their ratio (goals: >= 0.7x raw, >= 5,000 matches/s on SQLite), on SQLite and PostgreSQL (a private
    PG 15 cluster if --pg is not given) in the same run;
(e) seconds from typing `tourney run` to its first stored result, on Ray (the default) and with --local;
(f) peak RSS (VmHWM, a fresh process each) of the CLI itself, `tourney run --local`, playing, storing and
    finishing a 1,000- and a 100,000-match run (goal: within 20%);
(g) the CLI's loop against `play_and_record` on many short matches, in CPU time (goal: >= 0.9x): each round one
    fresh process plays the same matches both ways (the first way alternating); `in run` is the CPU the CLI's run
    spent inside play_and_record over the run's whole CPU (timed in the same seconds: the steady measure), and
    `separate` the bare loop's CPU over the CLI run's; medians of at least 5 rounds;
(h) Ray's overhead as a user sees it: `tourney run --workers 1` (Ray, started by the run) against `tourney run
    --local` on the same run, turns interleaved (goal: <= 5%): whole runs (wall-clock matches/s and the CPU of
    every process either started, Ray's start included) and steady (a quarter-size run too: the matches between
    the two sizes per wall and per CPU second, every fixed cost cancelled); with `--joined`, also a run joining a
    Ray started once beforehand;
(i) a Ray chunk's cost per match besides play: pickling it in the worker, unpickling it and building its rows in
    the driver;
`--store-only` runs just (d) and (f), `--ray-only` just (a), (b) and (h), `--cli-only` just (f) and (g),
`--loop-only` just (g), `--user-only` just (h), `--wire-only` just (i).
The machine is shared: run it when it is quiet, and read the numbers as a rough guide.
"""

from __future__ import annotations

import argparse
import contextlib
import os
import random
import shutil
import socket
import statistics
import subprocess
import sys
import tempfile
import time
from collections.abc import Sequence
from dataclasses import dataclass
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy.engine import Engine

# Run as a script, Python puts bench/ first on the path, and Ray gives its workers the driver's
# script folder too, where bench/engine.py would shadow the `engine` package: the repository
# root takes its place (Ray adds the script folder only when it is on the driver's path).
sys.path[0] = str(Path(__file__).resolve().parents[1])
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

from tourney.engine.core import get_game  # noqa: E402
from tourney.tournament.entrants import Entrant  # noqa: E402
from tourney.tournament.formats.dutch import dutch_round  # noqa: E402
from tourney.tournament.formats.pairing import Pairing, PlayedGame  # noqa: E402
from tourney.tournament.runner import TournamentPlan, play_and_record  # noqa: E402
from tourney.tournament.store.database import open_store  # noqa: E402
from tourney.tournament.store.records import Played  # noqa: E402
from tourney.tournament.store.tables import Achievement, Match, MatchSeat  # noqa: E402
from tourney.tournament.store.writes import (  # noqa: E402
    ACHIEVEMENT_COLUMNS,
    MATCH_COLUMNS,
    SEAT_COLUMNS,
    MatchRows,
    create_tournament,
    entrant_ids,
    match_rows,
    record_matches,
)
from tourney.workers import LocalExecutor  # noqa: E402


def plan_for(game: str, matches: int, lineup: str = "random,greedy") -> TournamentPlan:
    """Two entrants, `lineup` (two bot specs, each its own alias), playing `matches` games."""
    first, second = lineup.split(",")
    bots = [Entrant(first, first), Entrant(second if second != first else f"{second}2", second)]
    return TournamentPlan(game=game, entrants=bots, seed=1, games_per_pair=max(2, matches),
                          seed_key="bench-tournament")  # fixed: every run plays the same matches


def rate(executor: object, plan: TournamentPlan) -> tuple[float, float]:
    """(matches/s, total seconds) for playing the whole schedule, results collected, no database."""
    schedule = plan.schedule()
    start = time.perf_counter()
    n = sum(len(chunk) for chunk in executor.run(plan, schedule))  # type: ignore[attr-defined]
    took = time.perf_counter() - start
    return n / took, took


def bench_ray(game: str, matches: int, repeats: int, lineup: str = "random,greedy") -> None:
    """(a) and (b): 1 and 2 Ray workers on the same warm 2-CPU Ray, and in-process, taking turns `repeats` times.

    Scaling = matches/s with 2 workers / (2 x matches/s with 1 worker), the same schedule each
    time. The turns alternate so that a change in the machine's load hits both sides; each row
    shows the 1-minute load average and Ray's own 2-vs-1 scaling for plain CPU tasks measured
    in the same turn, the most the cores allowed then. On the 2-CPU Ray, `workers=1` keeps one
    task in flight and `workers=2` two per worker (Ray caps what runs): the extra queued task is
    worth under 1% at ~0.5 s chunks, in the 2-worker column's favour.

    (b) compares each turn's 1-worker runs with in-process runs of the same matches in the same
    turn, in CPU seconds (what the shared machine's load disturbs least): this process alone
    in-process, against this process plus every process Ray started (raylet, GCS, workers, agents)
    for Ray; wall seconds beside them. Each side plays `matches` and a quarter of them: the slope
    between the two is the marginal cost of a match, what is left of the longer run the fixed cost
    of a run (first chunks one match each, the last chunk's wait, the plan's upload).
    """
    import ray

    from tourney.workers import RayExecutor

    get_game(game)
    plan = plan_for(game, matches, lineup)
    small = max(1, matches // 4)
    short = plan_for(game, small, lineup)
    cpu, wall = tree_cpu_s(), time.perf_counter()
    ray.init(num_cpus=2, include_dashboard=False, log_to_driver=False, configure_logging=False)
    init_cpu, init_wall = tree_cpu_s() - cpu, time.perf_counter() - wall
    cpu, wall = tree_cpu_s(), time.perf_counter()
    rate(RayExecutor(workers=2), plan_for(game, 2, lineup))  # each worker process started, imported, first match
    first_cpu, first_wall = tree_cpu_s() - cpu, time.perf_counter() - wall
    for workers in (2, 1):
        rate(RayExecutor(workers=workers), plan_for(game, 50))  # warm
    rate(LocalExecutor(), plan_for(game, 50))
    cpu = tree_cpu_s()
    time.sleep(IDLE_S)
    idle = (tree_cpu_s() - cpu) / IDLE_S
    print(f"\n(a) {matches} {game} matches ({lineup}), 1 and 2 workers in turn on one warm 2-CPU Ray")
    print(f"{'turn':>4}{'load 1m':>9}{'1 worker m/s':>14}{'2 workers m/s':>15}{'scaling':>9}{'plain Ray':>11}")
    scalings: list[float] = []
    turns: list[RayTurn] = []
    for turn in range(1, repeats + 1):
        load = os.getloadavg()[0]
        long_side = cpu_and_wall(plan), ray_cpu_and_wall(RayExecutor(workers=1), plan)
        two_rate, _ = rate(RayExecutor(workers=2), plan)
        short_side = cpu_and_wall(short), ray_cpu_and_wall(RayExecutor(workers=1), short)
        turns.append(RayTurn(load, *long_side[0], *long_side[1], *short_side[0], *short_side[1]))
        one_rate = matches / turns[-1].ray_wall
        reference = ray_reference_scaling(ray, per_task_s=0.3)
        scalings.append(two_rate / (2 * one_rate))
        print(f"{turn:>4}{load:>9.2f}{one_rate:>14.1f}{two_rate:>15.1f}{scalings[-1]:>9.2f}{reference:>11.2f}",
              flush=True)
    ray.shutdown()
    print(f"scaling, median of {repeats}: {statistics.median(scalings):.2f} of linear (goal >= 0.9); "
          "'plain Ray' is what the cores allowed in that turn (1.0 on an idle machine)")
    print(f"\n(b) Ray overhead, 1 worker vs in-process, the same matches in each turn: {matches} and {small} "
          f"({1000 * statistics.median(t.in_cpu for t in turns) / matches:.2f} ms of CPU a match in-process)")
    print(f"{'turn':>4}{'load 1m':>9}{'in-process CPU s':>18}{'Ray CPU s':>11}{'CPU':>8}{'in-process s':>14}"
          f"{'Ray s':>8}{'wall':>8}{'marginal CPU':>14}{'wall':>8}{'fixed Ray CPU s':>17}{'wall s':>8}")
    for turn, t in enumerate(turns, 1):
        print(f"{turn:>4}{t.load:>9.2f}{t.in_cpu:>18.2f}{t.ray_cpu:>11.2f}{t.cpu_over():>+7.1f}%{t.in_wall:>14.2f}"
              f"{t.ray_wall:>8.2f}{t.wall_over():>+7.1f}%{t.marginal_cpu_over():>+13.1f}%"
              f"{t.marginal_wall_over():>+7.1f}%{t.fixed_cpu(matches, small):>17.2f}"
              f"{t.fixed_wall(matches, small):>8.2f}")
    med = statistics.median
    print(f"median over the whole {matches}-match run: Ray {med(t.cpu_over() for t in turns):+.1f}% CPU, "
          f"{med(t.wall_over() for t in turns):+.1f}% wall over in-process (goal <= 5%)")
    print(f"median per extra match (marginal): Ray {med(t.marginal_cpu_over() for t in turns):+.1f}% "
          f"CPU, {med(t.marginal_wall_over() for t in turns):+.1f}% wall; fixed per warm run: "
          f"{med(t.fixed_cpu(matches, small) for t in turns):.2f} s CPU, "
          f"{med(t.fixed_wall(matches, small) for t in turns):.2f} s wall")
    print(f"once per cluster (not in the runs above): ray.init {init_cpu:.2f} s CPU, {init_wall:.2f} s wall; both "
          f"workers' start, imports and first match {first_cpu:.2f} s CPU, {first_wall:.2f} s wall; an idle Ray "
          f"uses {idle:.3f} CPU s per second (in every Ray row above, as part of the marginal cost)")


IDLE_S = 3.0  # how long the idle Ray's own CPU use is sampled


@dataclass(frozen=True)
class RayTurn:
    """One turn of (b): in-process and 1-worker Ray, CPU and wall seconds, over the long and the short run."""

    load: float
    in_cpu: float
    in_wall: float
    ray_cpu: float
    ray_wall: float
    in_cpu_short: float
    in_wall_short: float
    ray_cpu_short: float
    ray_wall_short: float

    def cpu_over(self) -> float:
        return _percent_over(self.ray_cpu, self.in_cpu)

    def wall_over(self) -> float:
        return _percent_over(self.ray_wall, self.in_wall)

    def marginal_cpu_over(self) -> float:
        """Ray's CPU per extra match over in-process's, in percent."""
        return _percent_over(self.ray_cpu - self.ray_cpu_short, self.in_cpu - self.in_cpu_short)

    def marginal_wall_over(self) -> float:
        return _percent_over(self.ray_wall - self.ray_wall_short, self.in_wall - self.in_wall_short)

    def fixed_cpu(self, n: int, small: int) -> float:
        """Ray's CPU seconds per run beyond its marginal cost times the matches, less in-process's own."""
        return _intercept(self.ray_cpu, self.ray_cpu_short, n, small) - _intercept(self.in_cpu, self.in_cpu_short,
                                                                                    n, small)

    def fixed_wall(self, n: int, small: int) -> float:
        return _intercept(self.ray_wall, self.ray_wall_short, n, small) - _intercept(self.in_wall, self.in_wall_short,
                                                                                      n, small)


def _percent_over(ray_side: float, in_process: float) -> float:
    """How much more `ray_side` is than `in_process`, in percent (nan when a tiny run measured no difference)."""
    return 100 * (ray_side / in_process - 1) if in_process > 0 else float("nan")


def _intercept(long: float, short: float, n: int, small: int) -> float:
    """The cost of a run of no matches on the line through (small, short) and (n, long)."""
    return long - n * (long - short) / (n - small)


def cpu_and_wall(plan: TournamentPlan) -> tuple[float, float]:
    """This process's CPU seconds and the wall seconds of playing `plan` in-process."""
    cpu = time.process_time()
    _, took = rate(LocalExecutor(), plan)
    return time.process_time() - cpu, took


def ray_cpu_and_wall(executor: object, plan: TournamentPlan) -> tuple[float, float]:
    """CPU seconds of this process and all of Ray's, and wall seconds, of playing `plan` on `executor`."""
    cpu = tree_cpu_s()
    _, took = rate(executor, plan)
    return tree_cpu_s() - cpu, took


def tree_cpu_s() -> float:
    """CPU seconds (user + system) used so far by this process and every process below it: the Ray
    that ray.init started here (raylet, GCS, workers, agents) runs in this process's children."""
    return sum(cpu for cpu, _ in subtree_cpu(include_self=True).values())


def subtree_cpu(include_self: bool = False) -> dict[int, tuple[float, str]]:
    """pid -> (CPU seconds used so far, command name) of every live process below this one (and this one)."""
    tick = os.sysconf("SC_CLK_TCK")
    children: dict[int, list[int]] = {}
    used: dict[int, tuple[float, str]] = {}
    for entry in Path("/proc").iterdir():
        if not entry.name.isdigit():
            continue
        try:
            stat = (entry / "stat").read_text()
        except OSError:  # ended meanwhile
            continue
        fields = stat[stat.rindex(")") + 2:].split()  # after the command name, which may hold spaces
        children.setdefault(int(fields[1]), []).append(int(entry.name))
        used[int(entry.name)] = ((int(fields[11]) + int(fields[12])) / tick, stat[stat.index("(") + 1:stat.rindex(")")])
    found: dict[int, tuple[float, str]] = {}
    todo = list(children.get(os.getpid(), []))
    if include_self:
        todo.append(os.getpid())
    while todo:
        pid = todo.pop()
        if pid in used:
            found[pid] = used[pid]
        todo += children.get(pid, [])
    return found


def ray_reference_scaling(ray: object, per_task_s: float, tasks: int = 12) -> float:
    """Ray's own 2-vs-1 scaling for pure CPU tasks of `per_task_s`, measured now: on a shared
    machine this, not 1.0, is the ceiling for the tournament's scaling."""
    def burn(seconds: float) -> float:
        end = time.process_time() + seconds
        while time.process_time() < end:
            pass
        return seconds

    task = ray.remote(num_cpus=1)(burn)  # type: ignore[attr-defined]
    walls = []
    for conc in (1, 2):
        start = time.perf_counter()
        inflight: list[object] = []
        left = tasks
        while left or inflight:
            while left and len(inflight) < conc:
                inflight.append(task.remote(per_task_s))
                left -= 1
            _, inflight = ray.wait(inflight, num_returns=1)  # type: ignore[attr-defined]
        walls.append(time.perf_counter() - start)
    return walls[0] / (2 * walls[1])


def played(pairs: list[tuple[int, int]], bye: int | None, rng: random.Random) -> list[PlayedGame]:
    """One round's games with random results (win, draw or loss alike); a bye is a win."""
    games = [PlayedGame((a, b), (x, 1 - x)) for a, b in pairs for x in [rng.choice([1.0, 0.5, 0.0])]]
    if bye is not None:
        games.append(PlayedGame((bye,), (1.0,)))
    return games


def simulate_swiss(n: int, rounds: int, rng: random.Random) -> list[list[PlayedGame]]:
    """`rounds` rounds of an n-player Swiss paired by our FIDE Dutch pairer, random results."""
    history: list[list[PlayedGame]] = []
    for _ in range(rounds):
        history.append(played(*dutch_round(n, history, PAIRING_ROUNDS), rng))
    return history


PAIRING_ROUNDS = 9
PY4SWISS_CAP_S = 120.0


def _py4swiss_time(n: int, history: list[list[PlayedGame]], out: Any) -> None:
    from tests.tournament.py4swiss_reference import py4swiss_round

    wall, cpu = time.perf_counter(), time.process_time()
    pairs, bye = py4swiss_round(n, history, PAIRING_ROUNDS)
    out.put((time.perf_counter() - wall, time.process_time() - cpu, sorted(pairs), bye))


def py4swiss_timed(
    n: int, history: list[list[PlayedGame]]
) -> tuple[float, float, list[tuple[int, int]], int | None] | None:
    """py4swiss's (wall s, CPU s, pairs, bye) for the same round, in a child process stopped after
    PY4SWISS_CAP_S (None then)."""
    import multiprocessing
    import queue

    ctx = multiprocessing.get_context("fork")
    out = ctx.Queue()
    child = ctx.Process(target=_py4swiss_time, args=(n, history, out))
    child.start()
    try:
        return out.get(timeout=PY4SWISS_CAP_S)  # type: ignore[no-any-return]
    except queue.Empty:
        return None
    finally:
        child.kill()
        child.join()


SWISS_GOALS_S = {1000: 1.0, 10_000: 10.0}
SWISS_REPEATS = 3


def bench_swiss() -> None:
    """(c) one round's pairing time, ours (FIDE Dutch, rustworkx) and py4swiss, after 4 rounds of the same event.

    Ours: the best of SWISS_REPEATS runs. Wall seconds are what the goals speak of; CPU seconds (this process
    only) show what the pairer costs when the shared machine is busy. `criteria`: our round judged against
    py4swiss's by the Dutch criteria (tests/tournament/dutch_criteria.py): same, tie (other pairs, equal on
    C.1-C.19 in every bracket), or the first criterion where ours is better or worse. `C.10`: our unmet colour
    preferences and, in brackets, the fewest the same players allow (where py4swiss is too slow to compare)."""
    from tests.tournament.dutch_criteria import colour_floor, compare_pairings, round_totals
    from tourney.tournament.formats.dutch import entrants_from_rounds

    print("\n(c) Swiss pairing time for round 5 (FIDE Dutch; the same history for both; py4swiss capped at "
          f"{PY4SWISS_CAP_S:.0f} s); load {os.getloadavg()[0]:.2f}")
    print(f"{'players':>8}{'ours s':>9}{'ours cpu':>10}{'goal s':>8}{'py4swiss s':>12}{'py4 cpu':>9}"
          f"{'C.10 (floor)':>14}  criteria vs py4swiss")
    for n in (100, 1000, 10_000):
        history = simulate_swiss(n, 4, random.Random(n))
        ours = ours_cpu = float("inf")
        for _ in range(SWISS_REPEATS):  # the best of a few: the least disturbed by the other users
            wall, cpu = time.perf_counter(), time.process_time()
            pairs, bye = dutch_round(n, history, PAIRING_ROUNDS)
            ours, ours_cpu = min(ours, time.perf_counter() - wall), min(ours_cpu, time.process_time() - cpu)
        theirs = py4swiss_timed(n, history)
        goal = f"< {SWISS_GOALS_S[n]:.0f}" if n in SWISS_GOALS_S else "-"
        people = entrants_from_rounds(n, history, PAIRING_ROUNDS)
        unmet = round_totals(people, (pairs, bye), len(history))["C.10 colour preference unmet"]
        colours = f"{unmet} ({colour_floor(people, (pairs, bye))})"
        if theirs is None:
            shown, shown_cpu, verdict = f">{PY4SWISS_CAP_S:.0f}", "-", "-"
        else:
            shown, shown_cpu = f"{theirs[0]:.2f}", f"{theirs[1]:.2f}"
            v = compare_pairings(people, (pairs, bye), (theirs[2], theirs[3]), len(history))
            verdict = v.outcome if v.criterion is None else f"{v.outcome} on {v.criterion} ({v.detail})"
        print(f"{n:>8}{ours:>9.2f}{ours_cpu:>10.2f}{goal:>8}{shown:>12}{shown_cpu:>9}{colours:>14}  {verdict}",
              flush=True)
    print(f"\n    ours over every round of a {PAIRING_ROUNDS}-round event (later rounds: more, smaller score groups)")
    print(f"{'players':>8}{'slowest s':>11}{'its cpu':>9}{'round':>7}{'median s':>10}")
    for n in (1000, 10_000):
        rng, history, times = random.Random(n), [], []
        for r in range(PAIRING_ROUNDS):
            wall, cpu = time.perf_counter(), time.process_time()
            pairs, bye = dutch_round(n, history, PAIRING_ROUNDS)
            times.append((time.perf_counter() - wall, time.process_time() - cpu, r + 1))
            history.append(played(pairs, bye, rng))
        slow = max(times)
        print(f"{n:>8}{slow[0]:>11.2f}{slow[1]:>9.2f}{slow[2]:>7}{statistics.median(t[0] for t in times):>10.2f}",
              flush=True)


WRITE_MATCHES = 8192  # matches written per side and turn in (d)
WRITE_TURNS = 5
TEMPLATES = 64  # real matches played once, their records reused under new schedule numbers


def synthetic_played(plan: TournamentPlan, matches: int) -> list[Played]:
    """`matches` finished matches of `plan`: TEMPLATES real ones played in-process, repeated under
    consecutive schedule numbers (seats alternating), as a long tournament's chunks would bring them."""
    templates = [item for chunk in LocalExecutor().run(plan, plan.schedule()[:TEMPLATES]) for item in chunk]
    out: list[Played] = []
    for n in range(matches):
        pairing, record, seconds = templates[n % len(templates)]
        out.append((Pairing(n, 0, pairing.seats, n), record, seconds))
    return out


def raw_write(engine: Engine, batches: list[list[MatchRows]]) -> None:
    """The baseline: the same rows, one transaction per batch, three plain core executemany
    statements of dicts (matches with their ids returned in order, then seats, then achievements)."""
    matches, seats, earned = Match.__table__, MatchSeat.__table__, Achievement.__table__  # type: ignore[attr-defined]
    for rows in batches:
        with engine.begin() as conn:
            ids = conn.execute(matches.insert().returning(matches.c.id, sort_by_parameter_order=True),
                               [dict(zip(MATCH_COLUMNS, r.match, strict=True)) for r in rows]).scalars().all()
            placed = [dict(zip(SEAT_COLUMNS, (i, *s), strict=True)) for r, i in zip(rows, ids, strict=True)
                      for s in r.seats]
            conn.execute(seats.insert(), placed)
            achieved = [dict(zip(ACHIEVEMENT_COLUMNS, (i, *e), strict=True)) for r, i in zip(rows, ids, strict=True)
                        for e in r.achievements]
            if achieved:
                conn.execute(earned.insert(), achieved)


def bench_writes(url: str, label: str, plan: TournamentPlan, played: list[Played], batch: int) -> None:
    """One row of (d): record_matches against the raw executemany of the same rows, in alternating turns."""
    engine = open_store(url)
    ours, raw = [], []
    for _ in range(WRITE_TURNS):
        tid = create_tournament(engine, plan)
        start = time.perf_counter()
        for i in range(0, len(played), batch):
            record_matches(engine, tid, plan, played[i:i + batch])
        ours.append(len(played) / (time.perf_counter() - start))
        raw_tid = create_tournament(engine, plan)
        with engine.connect() as conn:
            ids = entrant_ids(conn, raw_tid)
        when = datetime.now(UTC)
        batches = [match_rows(raw_tid, plan, played[i:i + batch], (), ids, when) for i in range(0, len(played), batch)]
        start = time.perf_counter()
        raw_write(engine, batches)
        raw.append(len(played) / (time.perf_counter() - start))
    engine.dispose()
    mine, base = statistics.median(ours), statistics.median(raw)
    print(f"{label:<12}{batch:>7}{mine:>15.0f}{base:>13.0f}{mine / base:>8.2f}{os.getloadavg()[0]:>9.2f}", flush=True)


def private_postgres() -> tuple[str, Path] | None:
    bin_dir = Path("/usr/lib/postgresql/15/bin")
    if not (bin_dir / "initdb").exists() or os.geteuid() != 0:
        return None
    data = Path(tempfile.mkdtemp(prefix="tourney-pg-bench-"))
    shutil.chown(data, "postgres", "postgres")
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    run = ["runuser", "-u", "postgres", "--"]
    subprocess.run([*run, str(bin_dir / "initdb"), "-D", str(data / "db"), "-U", "postgres", "--auth=trust"],
                   check=True, capture_output=True)
    subprocess.run([*run, str(bin_dir / "pg_ctl"), "-D", str(data / "db"), "-l", str(data / "log"), "-w", "-o",
                    f"-p {port} -k {data} -c listen_addresses=127.0.0.1", "start"], check=True, capture_output=True)
    return f"postgresql://postgres@127.0.0.1:{port}/postgres", data


def bench_db(pg: str | None, game: str) -> None:
    """(d) record_matches beside a plain core executemany of the same rows, SQLite and PostgreSQL in one run."""
    plan = plan_for(game, WRITE_MATCHES)
    played = synthetic_played(plan, WRITE_MATCHES)
    print(f"\n(d) result writes, {WRITE_MATCHES} {game} matches per side, median of {WRITE_TURNS} alternating turns "
          "(one transaction per batch; goal: >= 0.7x raw and >= 5,000 matches/s on SQLite)")
    print(f"{'database':<12}{'batch':>7}{'record_matches':>15}{'raw core':>13}{'ratio':>8}{'load 1m':>9}")
    with tempfile.TemporaryDirectory() as tmp:
        for batch in (256, 16, 1):
            some = played if batch > 1 else played[:WRITE_MATCHES // 8]  # one per transaction is slow
            bench_writes(str(Path(tmp) / f"bench{batch}.db"), "sqlite", plan, some, batch)
    started = None
    if pg is None:
        started = private_postgres()
        pg = started[0] if started else None
    if pg is None:
        print("postgresql  (not run: no PostgreSQL 15 binaries, or not root; pass --pg URL)")
        return
    try:
        for batch in (256, 16):
            bench_writes(pg, "postgresql", plan, played, batch)
    finally:
        if started is not None:
            subprocess.run(["runuser", "-u", "postgres", "--", "/usr/lib/postgresql/15/bin/pg_ctl", "-D",
                            str(started[1] / "db"), "-m", "immediate", "stop"], capture_output=True)
            shutil.rmtree(started[1], ignore_errors=True)


RSS_SIZES = (1_000, 100_000)
SAMPLE_S = 0.05  # how often (h) reads the CPU of every process of a run
# A Ray worker's command names in /proc (15 characters at most): between tasks, and playing a chunk.
RAY_WORKER_NAMES = ("ray::IDLE", "ray::play_chunk")
CLI_BOTS = "random,random@r2"  # the shortest matches there are: the loop's own cost shows most
# The child runs the CLI's own entry point and, at exit (after the command's SystemExit), writes its
# peak resident set (VmHWM) to the file named first on its command line.
CLI_CHILD = """
import atexit, runpy, sys
from pathlib import Path
out = sys.argv.pop(1)
def report():
    hwm = [l for l in Path("/proc/self/status").read_text().splitlines() if l.startswith("VmHWM:")]
    Path(out).write_text(hwm[0].split()[1] if hwm else "0")
atexit.register(report)
sys.argv[0] = "tourney"
runpy.run_module("tourney.tournament.cli", run_name="__main__")
"""


def cli_run(game: str, matches: int, extra: Sequence[str] = ()) -> tuple[float, int]:
    """(CPU seconds, peak RSS in KB) of `tourney run --local --json` playing `matches` random-vs-random
    matches into a fresh SQLite file, in a fresh process; the same seed and key every time."""
    with tempfile.TemporaryDirectory() as tmp:
        rss = Path(tmp) / "hwm"
        argv = [sys.executable, "-c", CLI_CHILD, str(rss), "run", "--local", "--json", "--game", game,
                "--bots", CLI_BOTS, "--games-per-pair", str(matches), "--seed-key", "bench-tournament",
                "--db", str(Path(tmp) / "cli.db"), *extra]
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        assert proc.stderr is not None
        err = proc.stderr.read()  # read to the end first: a full pipe would stall the child
        _, status, usage = os.wait4(proc.pid, 0)
        proc.returncode = os.waitstatus_to_exitcode(status)
        if proc.returncode != 0:
            sys.exit(f"error: tourney run failed:\n{err.decode(errors='replace').strip()}")
        return usage.ru_utime + usage.ru_stime, int(rss.read_text() or 0)


def peak_rss_kb() -> int:
    """This process's peak resident set in KB: VmHWM, the high-water mark of its own address space.

    ru_maxrss is not used: a child that Python starts with vfork inherits the parent's maximum
    at exec, so it would report the benchmark's own size, not the run's."""
    for line in Path("/proc/self/status").read_text().splitlines():
        if line.startswith("VmHWM:"):
            return int(line.split()[1])
    import resource

    return int(resource.getrusage(resource.RUSAGE_SELF).ru_maxrss)  # not Linux: the best there is


def bench_rss(game: str) -> None:
    """(f) peak RSS of the CLI itself, `tourney run --local`, over 1,000 and 100,000 matches (goal: within 20%)."""
    print(f"\n(f) peak RSS of `tourney run --local --json` ({game}, {CLI_BOTS}): playing, storing and finishing "
          "(standings, ratings, streaks, achievements, the JSON), fresh process each")
    print(f"{'matches':>9}{'peak RSS MB':>13}{'CPU s':>9}{'vs first':>10}{'load 1m':>9}")
    first = None
    for n in RSS_SIZES:
        cpu, kb = cli_run(game, n)
        mb = kb / 1024
        first = first or mb
        print(f"{n:>9}{mb:>13.1f}{cpu:>9.1f}{mb / first:>10.2f}{os.getloadavg()[0]:>9.2f}", flush=True)


# (g)'s child: one process plays the same matches twice, in the order given first on its command line: through the
# CLI (`tourney run --local --json`, its run_tournament call timed: the loop, each chunk's write, the finish's
# standings, ratings and streaks; not the imports, the store's opening or the printing) and through a bare loop of
# play_and_record (nothing stored). Both after the same gc set-up (freeze_once, which the CLI itself does): the
# collector's settings are no side's advantage. Inside the CLI's run, the CPU spent in each match's
# play_and_record (TournamentPlan.play) is added up too: the rest of the run is the loop's own work, measured in
# the same seconds as the matches it serves. It prints the CLI's CPU, that in-play part and the bare loop's CPU.
LOOP_CHILD = """
import runpy, sys, time
order, db, game, matches = sys.argv[1], sys.argv[2], sys.argv[3], int(sys.argv[4])
import tourney.tournament.cli.main as cli
from tourney.tournament.entrants import Entrant
from tourney.tournament.plan import TournamentPlan, play_and_record
from tourney.workers.settled_heap import freeze_once
measured = {}
def timed(*args, **kwargs):
    started = time.process_time()
    try:
        return play(*args, **kwargs)
    finally:
        measured["cli"] = time.process_time() - started
play, cli.run_tournament = cli.run_tournament, timed
measured["in_play"] = 0.0
def play_timed(self, pairing, play_one=TournamentPlan.play):
    started = time.process_time()
    try:
        return play_one(self, pairing)
    finally:
        measured["in_play"] += time.process_time() - started
TournamentPlan.play = play_timed
def reference():
    plan = TournamentPlan(game=game, entrants=[Entrant("random", "random"), Entrant("r2", "random")], seed=1,
                          games_per_pair=matches, seed_key="bench-tournament")
    schedule = plan.schedule()
    freeze_once()
    started = time.process_time()
    for pairing in schedule:
        play_and_record(plan, pairing)
    measured["reference"] = time.process_time() - started
def through_cli():
    sys.argv = ["tourney", "run", "--local", "--json", "--game", game, "--bots", "random,random@r2",
                "--games-per-pair", str(matches), "--seed-key", "bench-tournament", "--db", db]
    try:
        runpy.run_module("tourney.tournament.cli", run_name="__main__")
    except SystemExit as stop:
        if stop.code:
            raise
for side in order.split(","):
    reference() if side == "reference" else through_cli()
print(measured["cli"], measured["in_play"], measured["reference"], file=sys.stderr)
"""


def loop_and_reference_cpu_s(game: str, matches: int, cli_first: bool) -> tuple[float, float, float]:
    """(CPU seconds of the CLI's run_tournament, the part of them spent in play_and_record, CPU seconds of the bare
    play_and_record loop) over the same `matches` matches, measured one after the other in one fresh process
    (LOOP_CHILD)."""
    order = "cli,reference" if cli_first else "reference,cli"
    with tempfile.TemporaryDirectory() as tmp:
        done = subprocess.run([sys.executable, "-c", LOOP_CHILD, order, str(Path(tmp) / "loop.db"), game, str(matches)],
                              stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True, check=False)
    if done.returncode != 0:
        sys.exit(f"error: (g)'s run failed:\n{done.stderr.strip()}")
    cli_s, in_play_s, reference_s = done.stderr.split()[-3:]
    return float(cli_s), float(in_play_s), float(reference_s)


def bench_cli_loop(game: str, matches: int, repeats: int) -> None:
    """(g) the CLI's loop (`tourney run --local`) against `play_and_record` over the same matches, in CPU time.

    Each round is one fresh process that plays the same `matches` matches twice, one right after the other
    (which goes first alternates by round), so a busy minute on the shared machine hits both sides of the round it
    falls in (LOOP_CHILD): through the CLI, whose run_tournament call is timed (the loop, every chunk's write and
    the finish: standings, ratings, streaks; not the imports, the store's opening or the JSON printed), and as a
    bare loop of play_and_record, nothing stored. CPU time of the process, not wall. Two ratios a round:
    - `separate`: the bare loop's CPU over the CLI's, the two measured a few seconds apart;
    - `in run`: the CPU the CLI's run spent inside play_and_record over the whole run's: the matches and the
      loop's own work (the rest) are timed in the same seconds, interleaved match by match, so the machine's
      load changes both alike; this is the steadier of the two, and the loop's own us a match come from it.
    The verdict is the median of at least 5 rounds, never one round.
    """
    rounds = max(5, repeats)
    separate, in_run, own_us, direct, through = [], [], [], [], []
    print(f"\n(g) `tourney run --local` against play_and_record: {matches} {game} matches ({CLI_BOTS}), CPU time, "
          f"{rounds} interleaved rounds (each a fresh process playing them both ways, the first way alternating)")
    print(f"{'round':>5}{'load 1m':>9}{'first':>11}{'play_and_record m/s':>21}{'CLI loop m/s':>14}{'separate':>10}"
          f"{'in run':>8}{'own us/match':>14}")
    for turn in range(1, rounds + 1):
        load = os.getloadavg()[0]
        cli_s, in_play_s, reference_s = loop_and_reference_cpu_s(game, matches, cli_first=turn % 2 == 0)
        direct.append(matches / reference_s)
        through.append(matches / cli_s)
        separate.append(reference_s / cli_s)
        in_run.append(in_play_s / cli_s)
        own_us.append(1e6 * (cli_s - in_play_s) / matches)
        first = "CLI" if turn % 2 == 0 else "reference"
        print(f"{turn:>5}{load:>9.2f}{first:>11}{direct[-1]:>21.0f}{through[-1]:>14.0f}{separate[-1]:>10.2f}"
              f"{in_run[-1]:>8.2f}{own_us[-1]:>14.1f}", flush=True)
    med = statistics.median
    print(f"median of {rounds} rounds: in run {med(in_run):.2f} (rounds {min(in_run):.2f}-{max(in_run):.2f}), "
          f"separate {med(separate):.2f} (rounds {min(separate):.2f}-{max(separate):.2f}); goal >= 0.9")
    print(f"    play_and_record {1e6 / med(direct):.0f} us a match alone, the CLI's loop {1e6 / med(through):.0f} us, "
          f"of which its own work {med(own_us):.1f} us")


def cli_run_everything(game: str, matches: int, extra: Sequence[str]) -> tuple[float, float, dict[str, float]]:
    """(wall seconds, CPU seconds of the CLI and every process below it, those CPU seconds by command name) of
    `tourney run --json` playing `matches` random-vs-random matches into a fresh SQLite file.

    The CPU is read from /proc every SAMPLE_S while the run lasts, each process's last reading kept: the
    children's CPU the kernel adds up for this process (getrusage) missed most of Ray's (a 20,000-match run:
    8.3 s by getrusage, 14.6 s by sampling, the Ray worker's 5.1 s among the missing), since a process's CPU
    reaches it only through a chain of parents that each waited for their child, and Ray's processes are
    killed and reparented rather than waited for. What a process uses in its last SAMPLE_S is missed: at
    most a few hundredths of a second a process, on either side. This process becomes a subreaper, so a
    process the run orphans (Ray's, at shutdown) stays below it, in view, until it ends, and is reaped here.
    """
    import ctypes
    import threading

    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER
    already = subtree_cpu()  # a joined cluster's processes: only what they use during the run counts
    seen: dict[int, tuple[float, str]] = {}
    done = threading.Event()

    def sample() -> None:
        while True:
            seen.update(subtree_cpu())
            if done.wait(SAMPLE_S):
                return

    sampler = threading.Thread(target=sample, daemon=True)
    with tempfile.TemporaryDirectory() as tmp:
        tourney = Path(sys.executable).parent / "tourney"
        argv = [str(tourney), "run", "--json", "--game", game, "--bots", CLI_BOTS, "--games-per-pair", str(matches),
                "--seed-key", "bench-tournament", "--db", str(Path(tmp) / "user.db"), *extra]
        start = time.perf_counter()
        proc = subprocess.Popen(argv, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE)
        sampler.start()
        err = proc.communicate()[1]
        wall = time.perf_counter() - start
        if proc.returncode != 0:
            sys.exit(f"error: tourney run failed:\n{err.decode(errors='replace').strip()}")
        deadline = time.monotonic() + 30
        while time.monotonic() < deadline and set(subtree_cpu()) - set(already):  # Ray's, handed here at the end
            with contextlib.suppress(ChildProcessError):
                os.waitpid(-1, os.WNOHANG)
            time.sleep(0.05)
        done.set()
        sampler.join()
    for pid, (cpu, name) in already.items():
        if pid in seen:
            seen[pid] = (seen[pid][0] - cpu, name)
    by_name: dict[str, float] = {}
    for cpu, name in seen.values():
        by_name[name] = by_name.get(name, 0.0) + cpu
    return wall, sum(by_name.values()), by_name


@dataclass(frozen=True)
class UserRun:
    """One way of running (h)'s tournament, measured at two sizes: whole runs, and the steady part between them."""

    wall: float  # seconds of the long run, start to exit
    cpu: float  # CPU seconds of every process of the long run
    wall_short: float
    cpu_short: float
    parts: dict[str, float]  # the long run's CPU seconds by process name
    parts_short: dict[str, float]

    def steady_per_wall_s(self, n: int, small: int) -> float:
        """Matches a wall second between the short and the long run: every start and fixed cost cancels out."""
        return (n - small) / (self.wall - self.wall_short)

    def steady_per_cpu_s(self, n: int, small: int) -> float:
        """Matches a CPU second (all processes) between the short and the long run."""
        return (n - small) / (self.cpu - self.cpu_short)


def user_run(game: str, matches: int, small: int, extra: Sequence[str]) -> UserRun:
    """`tourney run` with `extra` at `matches` and at `small` matches (measured by cli_run_everything)."""
    wall, cpu, parts = cli_run_everything(game, matches, extra)
    wall_short, cpu_short, parts_short = cli_run_everything(game, small, extra)
    return UserRun(wall, cpu, wall_short, cpu_short, parts, parts_short)


def bench_user_overhead(game: str, matches: int, repeats: int, joined: bool = False) -> None:
    """(h) `tourney run --workers 1` (Ray) against `tourney run --local`, as a user runs them: the same matches,
    interleaved turns, two measures of each:
    - whole run: wall-clock matches/s and the CPU seconds of every process (Ray's start and shutdown included);
    - steady: a quarter-size run is played too, and the matches between the two sizes over the wall and CPU
      seconds between them give matches per wall second and per CPU second with every fixed cost (Ray's start,
      imports, the store's opening, the finish's constant part) cancelled out: Ray's overhead per extra match.

    joined: a third way each turn joins a 1-CPU Ray started once beforehand (`ray start --head` on 127.0.0.1,
    no dashboard, usage stats, autoscaler monitor or log monitor), as someone who runs many tournaments would:
    the cluster's start is then paid once, not by every run; what its processes use during the run is counted.
    """
    small = max(1, matches // 4)
    ways = {"--local": ["--local"], "Ray": ["--workers", "1"]}
    cluster = joined_cluster() if joined else None
    if cluster is not None:
        ways["joined"] = ["--address", cluster[0], "--workers", "1"]
    print(f"\n(h) Ray as a user sees it: `tourney run --workers 1` vs `tourney run --local`, {matches} and {small} "
          f"{game} matches ({CLI_BOTS}), {repeats} interleaved turns; whole = the {matches}-match run from start to "
          f"exit (Ray's start included); steady = the matches between the two sizes (every fixed cost cancelled)")
    head = "".join(f"{w + ' whole m/s':>18}{'CPU s':>8}{'steady m/s':>12}{'m/CPU s':>9}" for w in ways)
    print(f"{'turn':>4}{'load 1m':>9}{head}")
    runs: dict[str, list[UserRun]] = {w: [] for w in ways}
    try:
        for turn in range(1, repeats + 1):
            load = os.getloadavg()[0]
            order = list(ways) if turn % 2 else list(reversed(ways))
            for way in order:
                runs[way].append(user_run(game, matches, small, ways[way]))
            line = "".join(f"{matches / r.wall:>18.0f}{r.cpu:>8.2f}{r.steady_per_wall_s(matches, small):>12.0f}"
                           f"{r.steady_per_cpu_s(matches, small):>9.0f}" for r in (runs[w][-1] for w in ways))
            print(f"{turn:>4}{load:>9.2f}{line}", flush=True)
    finally:
        if cluster is not None:
            stop_cluster(cluster[1])
    med = statistics.median
    local = runs["--local"]
    for way in ways:
        if way == "--local":
            continue
        mine = runs[way]
        pairs = list(zip(mine, local, strict=True))
        whole_cpu = med(_percent_over(r.cpu, base.cpu) for r, base in pairs)
        whole_wall = med(_percent_over(r.wall, base.wall) for r, base in pairs)
        steady_cpu = med(_percent_over(base.steady_per_cpu_s(matches, small), r.steady_per_cpu_s(matches, small))
                         for r, base in pairs)
        steady_wall = med(_percent_over(base.steady_per_wall_s(matches, small), r.steady_per_wall_s(matches, small))
                          for r, base in pairs)
        fixed = med(_intercept(r.cpu, r.cpu_short, matches, small) - _intercept(base.cpu, base.cpu_short, matches,
                                                                                small) for r, base in pairs)
        print(f"median of {repeats} turns, {way} over --local: whole run {whole_cpu:+.1f}% CPU, {whole_wall:+.1f}% "
              f"wall; steady {steady_cpu:+.1f}% CPU a match, {steady_wall:+.1f}% wall a match (goal <= 5%); "
              f"fixed cost a run {fixed:.2f} CPU s more")
    worker = statistics.median(sum(r.parts_short.get(n, 0.0) for n in RAY_WORKER_NAMES) for r in runs["Ray"])
    print(f"Ray's worker played in the short runs for {worker:.2f} CPU s (median): the driver plays the first matches "
          "while Ray starts, so where this is small Ray was barely up before the short run ended, its start was cut "
          "short there and not in the long run, and Ray's steady columns hold part of its start (a fair steady cost "
          "a match needs a short run that Ray mostly plays: raise --user-matches; the joined runs have no start)")
    print("the Ray runs' CPU seconds by process (median of the turns; `tourney` is the driver, which also plays the "
          "matches that end before Ray is up; ray::IDLE is the worker between tasks)")
    parts = [r.parts for r in runs["Ray"]]
    names = sorted({name for p in parts for name in p}, key=lambda n: -statistics.median(p.get(n, 0.0) for p in parts))
    for name in names:
        print(f"  {name:<24}{statistics.median(p.get(name, 0.0) for p in parts):>8.2f}")


def joined_cluster() -> tuple[str, Path]:
    """Start a 1-CPU Ray head on 127.0.0.1 in a temp dir of its own, below this process; return its address and
    that dir (stop_cluster ends it)."""
    import ctypes

    ctypes.CDLL(None, use_errno=True).prctl(36, 1, 0, 0, 0)  # PR_SET_CHILD_SUBREAPER: its daemons stay below us
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        port = s.getsockname()[1]
    temp = Path(tempfile.mkdtemp(prefix="tourney-bench-ray-"))
    ray_cli = [sys.executable, "-c", "from ray.scripts.scripts import main; main()"]
    subprocess.run([*ray_cli, "start", "--head", "--node-ip-address", "127.0.0.1", f"--port={port}", "--num-cpus", "1",
                    "--include-dashboard=false", "--disable-usage-stats", f"--temp-dir={temp}",
                    # Ray's hidden options: no autoscaler monitor (a fixed cluster) and no log monitor (a run does
                    # not ask for its workers' output); ray.init offers neither.
                    "--no-monitor", "--include-log-monitor=false"],
                   check=True, stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    return f"127.0.0.1:{port}", temp


def stop_cluster(temp: Path) -> None:
    """End every process of the cluster started in `temp` (found by that dir in its command line), reap them, and
    remove the dir. Not `ray stop`: that stops every Ray of the machine, other people's too."""
    import signal

    needle = os.fsencode(temp)
    for entry in Path("/proc").iterdir():
        if entry.name.isdigit() and int(entry.name) != os.getpid():
            with contextlib.suppress(OSError):
                if needle in (entry / "cmdline").read_bytes():
                    os.kill(int(entry.name), signal.SIGKILL)
    deadline = time.monotonic() + 10
    while time.monotonic() < deadline and subtree_cpu():
        with contextlib.suppress(ChildProcessError):
            os.waitpid(-1, os.WNOHANG)
        time.sleep(0.05)
    shutil.rmtree(temp, ignore_errors=True)


def bench_wire(game: str, matches: int, repeats: int) -> None:
    """(i) what a Ray chunk of finished matches costs besides playing them, per match: pickling it in the worker
    (play_chunk's pack_chunk), unpacking it in the driver (unpack_chunk) and building its rows (match_rows), CPU
    microseconds, the best of `repeats` (the least disturbed by the machine's other work)."""
    from datetime import datetime

    from tourney.workers.ray_tasks import pack_chunk, unpack_chunk

    plan = TournamentPlan(game=game, entrants=[Entrant("random", "random"), Entrant("r2", "random")], seed=1,
                          games_per_pair=matches, seed_key="bench-tournament")
    pairings = plan.schedule()
    chunk = [play_and_record(plan, pairing) for pairing in pairings]
    sent = [played[1:] for played in chunk]  # what play_chunk packs: the driver holds the pairings
    packed = pack_chunk(sent)
    entrants = {"random": 1, "r2": 2}
    at = datetime.now(UTC)

    def best_us(work: Any) -> float:
        times = []
        for _ in range(repeats):
            started = time.process_time()
            work()
            times.append(time.process_time() - started)
        return min(times) / matches * 1e6

    print(f"\n(i) a Ray chunk's cost per match besides play: {matches} {game} matches ({CLI_BOTS}), CPU us, "
          f"best of {repeats}, load {os.getloadavg()[0]:.2f}")
    print(f"{'pack (worker)':>16}{'unpack (driver)':>19}{'rows (driver)':>15}{'bytes':>8}")
    print(f"{best_us(lambda: pack_chunk(sent)):>16.2f}"
          f"{best_us(lambda: unpack_chunk(packed, pairings)):>19.2f}"
          f"{best_us(lambda: match_rows(1, plan, chunk, [], entrants, at)):>15.2f}{len(packed) / matches:>8.0f}")


def first_result_s(extra: list[str], timeout_s: float = 120.0) -> float:
    """Seconds from starting `tourney run` to the first match row in its database (then it is stopped)."""
    import signal
    import sqlite3

    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "first.db"
        tourney = Path(sys.executable).parent / "tourney"
        start = time.perf_counter()
        proc = subprocess.Popen([str(tourney), "run", "--bots", "random,greedy", "--games-per-pair", "400",
                                 "--db", str(db), *extra], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        found = float("nan")
        try:
            while time.perf_counter() - start < timeout_s and proc.poll() is None:
                try:
                    with sqlite3.connect(db, timeout=0.1) as con:
                        if con.execute("select count(*) from match").fetchone()[0]:
                            found = time.perf_counter() - start
                            break
                except sqlite3.Error:
                    pass  # not created yet
                time.sleep(0.02)
        finally:
            proc.send_signal(signal.SIGINT)  # Ctrl-C: what is stored stays, Ray is shut down
            try:
                proc.wait(60)
            except subprocess.TimeoutExpired:
                proc.kill()
                proc.wait()
        return found


def bench_first_result() -> None:
    print("\n(e) first stored result after `tourney run` (Tiny Ninjas, random vs greedy; goal <= 2 s)")
    print(f"{'command':<34}{'seconds':>10}")
    for name, extra in (("tourney run (Ray)", []), ("tourney run --local", ["--local"])):
        print(f"{name:<34}{first_result_s(extra):>10.2f}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", default="tiny-ninjas")
    parser.add_argument("--matches", type=int, default=2000)
    parser.add_argument("--repeats", type=int, default=3, help="Turns of 1 and 2 Ray workers for (a).")
    parser.add_argument("--ray-bots", default="random,greedy",
                        help="The two bots of (a) and (b); random,random gives the shortest matches.")
    parser.add_argument("--pg", default=None, help="PostgreSQL URL (default: start a private cluster)")
    parser.add_argument("--pairing-only", action="store_true", help="Only (c), the Swiss pairing times.")
    parser.add_argument("--store-only", action="store_true", help="Only (d) and (f), the store's writes and memory.")
    parser.add_argument("--ray-only", action="store_true", help="Only (a) and (b), Ray's scaling and overhead.")
    parser.add_argument("--cli-only", action="store_true", help="Only (f) and (g), the CLI's memory and loop.")
    parser.add_argument("--cli-matches", type=int, default=4000, help="Matches of (g)'s longer CLI run.")
    parser.add_argument("--loop-only", action="store_true", help="Only (g), the CLI's loop against play_and_record.")
    parser.add_argument("--user-only", action="store_true", help="Only (h), Ray against --local as a user runs them.")
    parser.add_argument("--wire-only", action="store_true", help="Only (i), a Ray chunk's cost besides play.")
    parser.add_argument("--joined", action="store_true",
                        help="(h) also joins a Ray started once beforehand (`ray start --head` on 127.0.0.1).")
    parser.add_argument("--user-matches", type=int, default=40000,
                        help="Matches of (h)'s long runs (a quarter for the short ones).")
    args = parser.parse_args()
    if args.wire_only:
        bench_wire(args.game, args.matches, 5)
        return
    if args.loop_only:
        bench_cli_loop(args.game, args.cli_matches, args.repeats)
        return
    if args.user_only:
        bench_user_overhead(args.game, args.user_matches, args.repeats, args.joined)
        return
    if args.cli_only:
        bench_rss(args.game)
        bench_cli_loop(args.game, args.cli_matches, args.repeats)
        return
    if args.pairing_only:
        bench_swiss()
        return
    if not args.store_only:
        bench_ray(args.game, args.matches, args.repeats, args.ray_bots)
        bench_user_overhead(args.game, args.user_matches, args.repeats, args.joined)
        if args.ray_only:
            return
        bench_first_result()
        bench_swiss()
    bench_db(args.pg, args.game)
    bench_rss(args.game)
    bench_cli_loop(args.game, args.cli_matches, args.repeats)


if __name__ == "__main__":
    main()
