"""The built-in bots' ladder, per game: random, greedy and the search bot at 10, 50 and 200 ms.

For each game a round robin of the five entrants is played on Ray with the product's own
tournament runner (duplicate pairs: the same seed twice with the seats swapped; for
4-player Ninja Arena, pods of four with the seats rotated through one seed), stored in a
throw-away SQLite file, and the product's standings (performance Elo with its 95% interval)
are printed. A second table gives each entrant's score against greedy: for 2-player games
the mean over duplicate pairs with a 95% interval, for 4-player pods the first-place share
next to greedy's own.

    .venv/bin/python bench/ladder.py                      # every game, a few minutes each
    .venv/bin/python bench/ladder.py --game ninja-arena --pairs 4
    .venv/bin/python bench/ladder.py --calibrated --pairs 10       # the same at CPU-time budgets (below)

`--pairs` is duplicate pairs per encounter (2-player games) or cycles of the pod schedule
(4-player Ninja Arena: each cycle is 5 pods of 4 rotations). The search bot of a game is
named in SEARCH_BOTS (override with --search game=spec); its budget is appended as `:ms=`.
The search bots think on the wall clock, so a loaded machine makes them weaker.

`--calibrated` takes the load out: first a few games are played in this process with the
search bot's clock set to CPU time (time.process_time), recording how many iterations each
decision finishes within 10, 50 or 200 ms of CPU; the tournament then plays the bot with that
mean count fixed (`:iterations=`), so its strength is the same on a busy or an idle machine
and every match is a pure function of its seed. `--versus greedy` plays only the search bot
(at `--ms`, default 50) against greedy, in duplicate pairs (4 players: one search seat and
three greedy, the seats rotated through each seed), the sample the issue's goals are about:

    .venv/bin/python bench/ladder.py --game maitre-ninja --versus greedy --pairs 1000 --calibrated
    .venv/bin/python bench/ladder.py --game maitre-ninja --versus greedy --pairs 1000 --iterations 40
"""

from __future__ import annotations

import argparse
import math
import os
import statistics
import sys
import tempfile
import time
from collections import defaultdict
from collections.abc import Sequence
from pathlib import Path
from typing import Any

# Run as a script, Python puts bench/ first on the path, and Ray gives its workers the driver's
# script folder too, where bench/engine.py would shadow the `engine` package.
sys.path[0] = str(Path(__file__).resolve().parents[1])
os.environ.setdefault("RAY_AUTH_MODE", "disabled")

from tourney.engine.bots.registry import make_bot  # noqa: E402
from tourney.engine.core import DecisionRequest, game_ids, get_game  # noqa: E402
from tourney.engine.core.errors import ConfigError  # noqa: E402
from tourney.engine.referee import play_match  # noqa: E402
from tourney.tournament.entrants import Entrant  # noqa: E402
from tourney.tournament.rating.standings import Z95  # noqa: E402
from tourney.tournament.runner import TournamentPlan, TournamentReport, run_tournament  # noqa: E402
from tourney.tournament.store.database import open_store  # noqa: E402
from tourney.tournament.store.reads import stored_matches  # noqa: E402
from tourney.workers import LocalExecutor  # noqa: E402

# Each game's strongest general search bot, by its registered name (a game's own bot wins).
SEARCH_BOTS = {
    "tiny-ninjas": "montecarlo",
    "maitre-ninja": "regret",
    "ninja-versus-ninja": "expectimax",
    "ninja-arena": "duct",
}
BUDGETS_MS = (10, 50, 200)
PLAYERS = {"ninja-arena": 4}  # the Ninja Arena goal is about the 4-player game
# A few minutes a game on two loaded cores: a Ninja Arena cycle is 20 matches of ~100 ticks.
DEFAULT_PAIRS = {"ninja-arena": 1}
CALIBRATION_GAMES = 4  # against greedy, the search bot's seat rotated: a few hundred searched decisions

Rows = list[list[tuple[str, float, int]]]  # per stored match, each seat's (alias, points, tier)


def calibrate(game: str, search: str, ms: int, games: int = CALIBRATION_GAMES) -> int:
    """The mean number of iterations a decision of `search` finishes in `ms` of this process's
    CPU time, over `games` games against greedy played here (one process, nothing else in it).

    The bot's clock is swapped for time.process_time, so other programs on the machine do not
    shorten its budget; each search reports the work it finished as `last_iterations`.
    """
    players = PLAYERS.get(game, 2)
    counts: list[int] = []
    for g in range(games):
        seed = 7_000 + g
        bot = make_bot(f"{search}:ms={ms}", get_game(game), seed)
        if not hasattr(bot, "clock") or not hasattr(bot, "last_iterations"):
            raise ConfigError(f"bot '{search}' cannot be calibrated (no clock or last_iterations): drop --calibrated "
                              "or pick a search bot that counts its iterations.")
        bot.clock = time.process_time
        seats: list[Any] = [make_bot("greedy", get_game(game), seed + p) for p in range(players)]
        seats[g % players] = _Counting(bot, counts)
        play_match(game, seats, seed, players=players)
    if not counts:
        raise ConfigError(f"bot '{search}' never searched in {games} games of {game}: nothing to calibrate.")
    return max(1, round(statistics.fmean(counts)))


class _Counting:
    """A seat that passes each decision to `bot` and keeps the iterations of every one it searched."""

    def __init__(self, bot: Any, counts: list[int]) -> None:
        self.bot = bot
        self.counts = counts

    def act(self, request: DecisionRequest) -> int:
        """The bot's answer; a decision it answered without searching (one legal action) is not counted."""
        self.bot.last_iterations = None
        index: int = self.bot.act(request)
        if self.bot.last_iterations is not None:
            self.counts.append(self.bot.last_iterations)
        return index


def budget_specs(search: str, game: str, budgets: Sequence[int], calibrated: bool) -> dict[int, str]:
    """The search bot's spec per budget in ms: `:ms=` (wall clock) or, calibrated, the CPU-time
    iteration count; the calibrated counts are printed, with what they stand for."""
    if not calibrated:
        return {ms: f"{search}:ms={ms}" for ms in budgets}
    specs = {}
    for ms in budgets:
        started = time.process_time()
        n = calibrate(game, search, ms)
        print(f"calibrated {game} {search}: {ms} ms of CPU = {n} iterations a decision "
              f"({CALIBRATION_GAMES} games against greedy, {time.process_time() - started:.0f} s CPU)", flush=True)
        specs[ms] = f"{search}:iterations={n}"
    return specs


def entrants(search: str, specs: dict[int, str] | None = None) -> list[Entrant]:
    """random, greedy, and the search bot at each budget, aliased by its budget."""
    bots = [Entrant("random", "random"), Entrant("greedy", "greedy")]
    specs = specs or {ms: f"{search}:ms={ms}" for ms in BUDGETS_MS}
    bots += [Entrant(f"{search}@{ms}ms", spec) for ms, spec in specs.items()]
    return bots


def play(plan: TournamentPlan, workers: int, local: bool) -> tuple[TournamentReport, Rows, list[int], float]:
    """Run `plan` (on Ray, or in this process with `local`) into a throw-away store: the report,
    each stored match's seats and seed, and the wall time it took."""
    from tourney.workers import RayExecutor

    executor = LocalExecutor() if local else RayExecutor(workers=workers)
    with tempfile.TemporaryDirectory(prefix="tourney-ladder-") as tmp:
        store = open_store(str(Path(tmp) / "ladder.db"))
        started = time.perf_counter()
        report = run_tournament(store, plan, executor=executor)
        took = time.perf_counter() - started
        stored = stored_matches(store, report.tournament_id)
        rows = [[(s.alias, s.points, s.tier) for s in seats] for _, seats in stored]
        seeds = [m.seed for m, _ in stored]
    return report, rows, seeds, took


def print_standings(report: TournamentReport) -> None:
    """The product's standings: score and performance Elo with its 95% interval."""
    print(f"{'#':>2} {'bot':<22}{'games':>6}{'score %':>9}  {'Elo [95%]':<22}")
    for i, s in enumerate(report.standings, 1):
        pct = 100 * s.game_points / s.games if s.games else 0.0
        print(f"{i:>2} {s.alias:<22}{s.games:>6}{pct:>8.1f}%  {s.rating:>5.0f} [{_elo(s.low)}, {_elo(s.high)}]")


def run_game(game: str, search: str, pairs: int, workers: int, local: bool, calibrated: bool = False) -> None:
    """Play one game's ladder (on Ray, or in this process with `local`) and print its two tables."""
    players = PLAYERS.get(game, 2)
    bots = entrants(search, budget_specs(search, game, BUDGETS_MS, calibrated))
    plan = TournamentPlan(game=game, entrants=bots, seed=1, players=players, seed_key=f"bench-ladder-{game}",
                          games_per_pair=2 * pairs, cycles=1 if players == 2 else pairs, name=f"ladder {game}")
    report, rows, seeds, took = play(plan, workers, local)
    print(f"\n{game}: round robin of {len(bots)} bots, {players} players a match, {report.matches} matches, "
          f"{took:.0f} s")
    print_standings(report)
    if players == 2:
        versus_greedy_pairs([b.alias for b in bots], rows, seeds)
    else:
        first_place_shares([b.alias for b in bots], rows)


def run_versus(game: str, search: str, opponent: str, pairs: int, workers: int, local: bool, ms: int,
               calibrated: bool, iterations: int | None, seed: int = 1) -> None:
    """Only the search bot against `opponent`: duplicate pairs (4 players: one search seat and
    three opponents, rotated through each seed), with the score and its 95% interval."""
    players = PLAYERS.get(game, 2)
    if iterations is not None:
        spec = f"{search}:iterations={iterations}"
        label = f"{search}@{iterations}it"
    else:
        spec = budget_specs(search, game, [ms], calibrated)[ms]
        label = f"{search}@{ms}ms"
    others = [Entrant(opponent if i == 0 else f"{opponent}-{i + 1}", opponent) for i in range(players - 1)]
    plan = TournamentPlan(game=game, entrants=[Entrant(label, spec), *others], seed=seed, players=players,
                          seed_key=f"bench-ladder-versus-{game}", games_per_pair=2 * pairs,
                          cycles=1 if players == 2 else pairs, name=f"ladder {game} {label} vs {opponent}")
    report, rows, seeds, took = play(plan, workers, local)
    print(f"\n{game}: {spec} against {opponent}, {players} players a match, {report.matches} matches, {took:.0f} s")
    print_standings(report)
    if players == 2:
        versus_greedy_pairs([label], rows, seeds, opponent)
    else:
        first_places_versus(label, [o.alias for o in others], rows, seeds)


def _elo(x: float) -> str:
    return f"{x:.0f}" if math.isfinite(x) else ("+inf" if x > 0 else "-inf")


def versus_greedy_pairs(aliases: list[str], rows: Rows, seeds: list[int], opponent: str = "greedy") -> None:
    """Each entrant's mean score against `opponent` over complete duplicate pairs, with a 95% interval."""
    pair_points: dict[tuple[str, int], list[float]] = defaultdict(list)
    for seats, seed in zip(rows, seeds, strict=True):
        names = {alias for alias, _, _ in seats}
        if opponent not in names or len(names) != 2:
            continue
        for alias, points, _ in seats:
            if alias != opponent:
                pair_points[(alias, seed)].append(points)
    print(f"   {'against ' + opponent:<22}{'pairs':>6}{'score %':>9}  {'95% interval':<16}")
    for alias in aliases:
        scores = [sum(p) / 2 for (a, _), p in pair_points.items() if a == alias and len(p) == 2]
        if scores:
            print(f"   {alias:<22}{len(scores):>6}{_mean_interval(scores)}")


def _mean_interval(samples: list[float]) -> str:
    """`mean%  [low, high]`: the mean of independent samples in [0, 1] with its normal 95% interval."""
    mean = statistics.fmean(samples)
    if len(samples) < 2:
        return f"{100 * mean:>8.1f}%  (one sample: none)"
    half = Z95 * statistics.stdev(samples) / math.sqrt(len(samples))
    return f"{100 * mean:>8.1f}%  [{100 * max(0.0, mean - half):.1f}, {100 * min(1.0, mean + half):.1f}]"


def _first_shares(seats: list[tuple[str, float, int]]) -> dict[str, float]:
    """Each seat's share of the match's first place (a shared first counts 1/k)."""
    top = [alias for alias, _, tier in seats if tier == 0]
    return {alias: (1.0 / len(top) if alias in top else 0.0) for alias, _, _ in seats}


def first_places_versus(label: str, others: list[str], rows: Rows, seeds: list[int]) -> None:
    """The search bot's first-place share and the opponents' share per seat, each with a 95%
    interval over seeds (one seed: every rotation of the seats), and how many times greedy's it is."""
    mine: dict[int, list[float]] = defaultdict(list)
    theirs: dict[int, list[float]] = defaultdict(list)
    for seats, seed in zip(rows, seeds, strict=True):
        shares = _first_shares(seats)
        mine[seed].append(shares[label])
        theirs[seed] += [shares[o] for o in others]
    mine_per_seed = [statistics.fmean(v) for v in mine.values()]
    theirs_per_seed = [statistics.fmean(v) for v in theirs.values()]
    print(f"   {'first places':<22}{'seeds':>6}{'share %':>9}  {'95% interval':<16}")
    print(f"   {label:<22}{len(mine_per_seed):>6}{_mean_interval(mine_per_seed)}")
    print(f"   {others[0] + ' (a seat)':<22}{len(theirs_per_seed):>6}{_mean_interval(theirs_per_seed)}")
    base = statistics.fmean(theirs_per_seed)
    ratio = f"{statistics.fmean(mine_per_seed) / base:.2f}x" if base else "no first place for the opponents"
    print(f"   {label} takes first place {ratio} as often as one {others[0]} seat")


def first_place_shares(aliases: list[str], rows: Rows) -> None:
    """Each entrant's share of first places per game played (a shared first counts 1/k)."""
    firsts: dict[str, float] = defaultdict(float)
    games: dict[str, int] = defaultdict(int)
    for seats in rows:
        for alias, share in _first_shares(seats).items():
            games[alias] += 1
            firsts[alias] += share
    base = firsts["greedy"] / games["greedy"] if games["greedy"] else 0.0
    print(f"   {'first places':<22}{'games':>6}{'share %':>9}  {'x greedy':>8}")
    for alias in aliases:
        if games[alias]:
            share = firsts[alias] / games[alias]
            ratio = f"{share / base:.2f}" if base else ("-" if share == 0 else "inf")
            print(f"   {alias:<22}{games[alias]:>6}{100 * share:>8.1f}%  {ratio:>8}")


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--game", action="append", help="a game id (repeatable; default: every game)")
    parser.add_argument("--pairs", type=int, default=None,
                        help="duplicate pairs per encounter (default 4), or pod-schedule cycles for 4-player games "
                             "(default 1)")
    parser.add_argument("--workers", type=int, default=2, help="Ray workers (default 2)")
    parser.add_argument("--local", action="store_true", help="play in this process, one match at a time, not on Ray")
    parser.add_argument("--search", action="append", default=[], metavar="GAME=SPEC",
                        help="the search bot for a game, e.g. tiny-ninjas=ismcts:rollout_depth=6")
    parser.add_argument("--calibrated", action="store_true",
                        help="fixed iteration counts measured in CPU time instead of wall-clock `ms=` budgets")
    parser.add_argument("--versus", metavar="BOT", help="play only the search bot against BOT (e.g. greedy)")
    parser.add_argument("--ms", type=int, default=50, help="with --versus: the search bot's budget (default 50)")
    parser.add_argument("--iterations", type=int, default=None,
                        help="with --versus: this iteration count for the search bot instead of a budget")
    parser.add_argument("--seed", type=int, default=1,
                        help="with --versus: the tournament seed; runs with different seeds are separate samples")
    args = parser.parse_args()
    if (args.pairs is not None and args.pairs < 1) or args.workers < 1:
        parser.error("--pairs and --workers must be at least 1")
    if args.ms < 1 or (args.iterations is not None and args.iterations < 1):
        parser.error("--ms and --iterations must be at least 1")
    if args.iterations is not None and (args.versus is None or args.calibrated):
        parser.error("--iterations fixes the search bot of a --versus run: add --versus greedy, drop --calibrated")
    if args.seed != 1 and args.versus is None:
        parser.error("--seed picks the seeds of a --versus run: add --versus greedy")
    search = dict(SEARCH_BOTS)
    for item in args.search:
        game, sep, spec = item.partition("=")
        if not sep or not spec:
            parser.error(f"--search {item} is not GAME=SPEC: write e.g. --search ninja-arena=duct")
        search[game] = spec
    known = game_ids()
    games = args.game or [g for g in known if g in SEARCH_BOTS]
    for game in games:
        if game not in known:
            parser.error(f"unknown game '{game}': choose one of {', '.join(known)}")
        pairs = args.pairs if args.pairs is not None else DEFAULT_PAIRS.get(game, 4)
        try:
            if args.versus:
                run_versus(game, search[game], args.versus, pairs, args.workers, args.local, args.ms,
                           args.calibrated, args.iterations, args.seed)
            else:
                run_game(game, search[game], pairs, args.workers, args.local, args.calibrated)
        except ConfigError as exc:
            parser.error(str(exc))


if __name__ == "__main__":
    main()
