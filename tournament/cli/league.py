"""`tourney league create|join|leave|list|pause|resume|run-due|standings`: scheduled league seasons.

See tournament/league/ for the model.

Added to the root app as the `league` group by tournament/cli/main.py.
"""

from __future__ import annotations

import json
import os
import signal
import sys
import threading
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from types import FrameType
from typing import Annotated, Any

import typer
from rich.console import Console
from rich.table import Table

from tourney.engine.core import ConfigError, get_game
from tourney.engine.core.environment import ADMIN_TOKEN_ENV, DB_ENV, RAY_ADDRESS_ENV
from tourney.engine.core.printable import plain
from tourney.tournament.cli.shared import (
    STORED_SEEDS,
    TABLE_WIDTH,
    check_move_ms,
    check_seed,
    guarded,
    open_existing,
    parse_settings,
    standing_doc,
)
from tourney.tournament.formats.pairing import Pairing
from tourney.tournament.league.members import (
    LEAGUE_FORMATS,
    LeagueSettings,
    create_league,
    join_league,
    leave_league,
    list_leagues,
    set_paused,
)
from tourney.tournament.league.rounds import RoundReport, run_due
from tourney.tournament.league.schedule import DEFAULT_CATCH_UP, DEFAULT_LEASE_S, parse_catch_up, parse_when, utc_now
from tourney.tournament.league.season import LeagueTable, league_standings
from tourney.tournament.rating.standings_table import points_text
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.records import Played
from tourney.workers.executor import Executor, Feed
from tourney.workers.league_arena import RemoteLeagueExecutor

league_app = typer.Typer(no_args_is_help=True, help="Leagues: scheduled rounds, seasons, divisions with promotion "
                                                    "and relegation (create, join, leave, list, pause, resume, "
                                                    "run-due, standings).")
LEAGUE_STORE_MAKER = "tourney league create"  # what makes the store every other league command reads

DbOpt = Annotated[str, typer.Option(envvar=DB_ENV, help="Database: a SQLite path or SQLAlchemy URL "
                                                                f"(default ${DB_ENV}, else tourney.db).")]
NowOpt = Annotated[str | None, typer.Option("--now", help="Act as if it were this ISO time, UTC (testing, "
                                                          "catching up).")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document and nothing else.")]


@league_app.command("create")
def create(
    name: Annotated[str, typer.Argument(help="The league's name.")],
    game: Annotated[str, typer.Option("--game", "-g", help="Game id (two-player).")],
    schedule: Annotated[str, typer.Option(help="Cron schedule of the rounds (UTC), e.g. '0 20 * * *'.")],
    format: Annotated[str, typer.Option("--format", help=" or ".join(LEAGUE_FORMATS) + ".")] = "swiss",
    rounds_per_season: Annotated[int | None, typer.Option(help="Rounds in a season (default: a full round robin, "
                                                               "or ceil(log2 n)+1 Swiss rounds).")] = None,
    divisions: Annotated[int, typer.Option(help="Divisions (1 = a single table).")] = 1,
    promote: Annotated[int, typer.Option(help="Bots promoted (and relegated) between adjacent divisions each "
                                              "season.")] = 0,
    games_per_pair: Annotated[int, typer.Option(help="Games per pairing; even = duplicate pairs.")] = 2,
    seed: Annotated[int, typer.Option(help="League seed.")] = 1,
    move_ms: Annotated[int | None, typer.Option("--move-ms", help="Per-move limit in milliseconds.")] = None,
    mode: Annotated[str | None, typer.Option(help="Game mode.")] = None,
    settings: Annotated[list[str] | None, typer.Option("--set", help="Game option key=value (repeatable).")] = None,
    db: DbOpt = "tourney.db",
    now: NowOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Create a league; its first round is due at the schedule's first tick from now."""
    def body() -> None:
        check_move_ms(move_ms)
        check_seed(seed, STORED_SEEDS)
        engine = open_store(db)
        league = LeagueSettings(name=name, game=game, format=format, schedule=schedule,
                                rounds_per_season=rounds_per_season, divisions=divisions, promote=promote,
                                games_per_pair=games_per_pair, seed=seed, move_ms=move_ms,
                                config=parse_settings(get_game(game).options, settings, mode))
        league_id = create_league(engine, league, parse_when(now))
        table = league_standings(engine, name)
        doc = {"league_id": league_id, "name": name, "next_round": table.next_due.isoformat() if table.next_due
               else None}
        print(json.dumps(doc) if as_json else f"league {name} created; first round due {doc['next_round']}")
    guarded(body)


@league_app.command("join")
def join(
    name: Annotated[str, typer.Argument(help="The league.")],
    bot: Annotated[str, typer.Argument(help="A built-in bot spec, remote:NAME for a bot that connects to the "
                                            "arena, or \"cmd:PROGRAM ARGS\" for a program started for each match "
                                            "where the round is played (it must exist there).")],
    alias: Annotated[str | None, typer.Option(help="Name in the league (default: the bot spec).")] = None,
    db: DbOpt = "tourney.db",
    now: NowOpt = None,
) -> None:
    """Enter a bot; it plays from the next season on (in the lowest division once seasons have begun)."""
    def body() -> None:
        spec, at, named = bot.rpartition("@") if "@" in bot else (bot, "", "")
        if at and alias is not None and alias != named:
            raise ConfigError(f"'{bot}' names the alias {named} and --alias {alias}: give the alias once.")
        store = open_existing(db, LEAGUE_STORE_MAKER)
        who = join_league(store, name, spec, alias or named or None, parse_when(now))
        print(f"{who} joined league {name}")
    guarded(body)


class LazyExecutor:
    """Starts (or joins) the executor only when a round is due: a cron job that finds nothing due
    every minute never pays for joining the Ray cluster."""

    def __init__(self, build: Callable[[], Executor]) -> None:
        self.build = build
        self.inner: Executor | None = None
        self.workers = 1

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing], more: Feed | None = None
            ) -> Iterator[list[Played]]:
        if self.inner is None:
            self.inner = self.build()
            self.workers = self.inner.workers
        return self.inner.run(plan, pairings, more)

    def close(self) -> None:
        close = getattr(self.inner, "close", None)
        if close is not None:
            close()


def _everyone(_spec: str) -> bool:
    return True


def _report_doc(r: RoundReport) -> dict[str, Any]:
    return {"league": r.league, "slot": r.slot, "season": r.season, "round": r.round, "due": r.due.isoformat(),
            "matches": r.matches, "forfeits": r.forfeits, "status": r.status}




@league_app.command("run-due")
def run_due_command(
    name: Annotated[str | None, typer.Argument(help="Only this league (default: every league).")] = None,
    db: DbOpt = "tourney.db",
    local: Annotated[bool, typer.Option("--local", help="Play in this process without Ray.")] = False,
    address: Annotated[str | None, typer.Option("--address", help=f"Ray cluster to join (default: {RAY_ADDRESS_ENV}, "
                                                                  "else a local Ray instance). Without a Ray node "
                                                                  "on this machine use ray://HEAD:10001.")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Cap on matches played in parallel.")] = None,
    watch: Annotated[float | None, typer.Option(help="Keep running: look for due rounds every this many "
                                                     "seconds.")] = None,
    catch_up: Annotated[str, typer.Option("--catch-up", help="After downtime, play this many of the due rounds "
                                                             "(all, latest or N); older ones are recorded as "
                                                             "missed.")] = str(DEFAULT_CATCH_UP),
    lease: Annotated[float, typer.Option("--lease", help="Seconds a round's claim lasts without renewal (it is "
                                                         "renewed while the round plays; a crashed scheduler's "
                                                         "round is taken over after this).")] = DEFAULT_LEASE_S,
    metrics_port: Annotated[int | None, typer.Option(help="Serve Prometheus metrics on this port.")] = None,
    metrics_host: Annotated[str, typer.Option(help="Interface the metrics listen on (0.0.0.0: every "
                                                   "interface).")] = "127.0.0.1",
    arena: Annotated[str | None, typer.Option("--arena", help="Play on the arena at HOST:PORT, where remote:NAME "
                                                              "bots are connected (instead of Ray).")] = None,
    admin_token: Annotated[str | None, typer.Option(help="The arena's admin token (default "
                                                         f"${ADMIN_TOKEN_ENV}).")] = None,
    now: NowOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play every round whose scheduled time has passed (safe from cron, and with several copies at once).

    Remote bots (remote:NAME) play only with --arena (or in `tourney serve --leagues`); elsewhere,
    or when they are not connected, they forfeit their matches of the round. SIGTERM stops the
    round in play and gives its claim back, so the next run takes it over at once.
    """
    def body() -> None:
        from tourney.tournament.metrics import MeteredExecutor, serve_metrics
        from tourney.workers import make_executor

        if watch is not None and watch <= 0:
            raise ConfigError(f"--watch must be a positive number of seconds, not {watch}.")
        if lease <= 0:
            raise ConfigError(f"--lease must be a positive number of seconds, not {lease}.")
        keep = parse_catch_up(catch_up)
        engine = open_existing(db, LEAGUE_STORE_MAKER)
        if metrics_port is not None:
            serve_metrics(metrics_port, metrics_host)
        fixed = parse_when(now)
        clock: Callable[[], datetime] = (lambda: fixed) if fixed is not None else utc_now
        executor: Executor
        presence = None
        if arena is not None:
            # The arena counts its matches itself; who is connected shows when a match is asked for.
            executor = RemoteLeagueExecutor(arena, admin_token or os.environ.get(ADMIN_TOKEN_ENV, ""),
                                            workers or 4)
            presence = _everyone
        else:
            executor = MeteredExecutor(LazyExecutor(lambda: make_executor(local=local, address=address,
                                                                          workers=workers)))
        reports: list[RoundReport] = []

        def show(report: RoundReport) -> None:
            reports.append(report)
            if not as_json:
                print(report.line(), flush=True)

        # SIGTERM asks the round in play to stop between matches and give its claim back: raised at any
        # point instead, it could land inside a database commit and leave the store's session unusable.
        stop = threading.Event()

        def on_term(_signum: int, _frame: FrameType | None) -> None:
            stop.set()

        previous = signal.signal(signal.SIGTERM, on_term)
        try:
            while not stop.is_set():
                run_due(engine, name, clock=clock, executor=executor, presence=presence, lease_s=lease,
                        catch_up=keep, on_round=show, stop=stop)
                if watch is None:
                    break
                stop.wait(watch)
            if stop.is_set():
                print("stopped (SIGTERM): the round in play, if any, was given back to the next run-due",
                      file=sys.stderr, flush=True)
                raise typer.Exit(143)
        finally:
            signal.signal(signal.SIGTERM, previous)
            executor.close()
            if as_json:
                print(json.dumps({"rounds": [_report_doc(r) for r in reports]}))
        if not as_json and not reports:
            print("no round is due", file=sys.stderr)
    guarded(body)


@league_app.command("standings")
def standings_command(
    name: Annotated[str, typer.Argument(help="The league.")],
    season: Annotated[int | None, typer.Option(min=1, help="Season, as the tables number them (1 is the first; "
                                                           "default: the current one).")] = None,
    db: DbOpt = "tourney.db",
    as_json: JsonOpt = False,
) -> None:
    """Each division's standings in a season, and every bot's carried rating."""
    def body() -> None:
        table = league_standings(open_existing(db, LEAGUE_STORE_MAKER), name, None if season is None else season - 1)
        if as_json:
            print(json.dumps({
                "league": table.league, "game": table.game, "season": table.season,
                "next_round": table.next_due.isoformat() if table.next_due else None,
                "divisions": [{"division": d + 1, "standings": [standing_doc(s) for s in rows]}
                              for d, rows in table.divisions],
                "ratings": {a: {"mu": round(mu, 3), "sigma": round(sg, 3)} for a, (mu, sg) in table.ratings.items()},
            }))
            return
        # As wide as the table needs: a pipe must not truncate a bot's name.
        console = Console(width=TABLE_WIDTH, soft_wrap=True)
        if not table.divisions:
            console.print(f"league {table.league}: no season has started yet; next round due {_when(table.next_due)}",
                          highlight=False)
        for d, rows in table.divisions:
            console.print(league_table(table, d, rows), highlight=False)
        if table.divisions:
            console.print(f"next round due {_when(table.next_due)}", highlight=False)
    guarded(body)


def _when(moment: datetime | None) -> str:
    return "never (paused)" if moment is None else f"{moment:%Y-%m-%d %H:%M} UTC"


def league_table(table: LeagueTable, division: int, rows: Sequence[Any]) -> Table:
    """One division's standings in the columns an organiser reads: place, bot, record, points, the
    rating it carries, faults."""
    out = Table(title=f"{table.league} ({table.game}), season {table.season + 1}, division {division + 1}",
                title_justify="left")
    for col in ("#", "bot", "games", "W-D-L", "pts", "Buchholz", "rating μ-3σ", "faults"):
        out.add_column(col, justify="left" if col == "bot" else "right", no_wrap=True)
    for i, s in enumerate(rows, 1):
        mu, sigma = table.ratings.get(s.alias, (s.mu, s.sigma))
        wdl = f"{s.wins}-{s.draws}-{s.losses}" + (f" +{s.byes} bye" if s.byes else "")
        out.add_row(str(i), plain(s.alias), str(s.games), wdl, points_text(s.points), points_text(s.buchholz),
                    f"{mu - 3 * sigma:.1f}", str(s.faults))
    return out


@league_app.command("list")
def list_command(db: DbOpt = "tourney.db", as_json: JsonOpt = False) -> None:
    """Every league: game, format, schedule, members, current season, next round (or paused)."""
    def body() -> None:
        leagues = list_leagues(open_existing(db, LEAGUE_STORE_MAKER))
        if as_json:
            print(json.dumps({"leagues": [{
                "name": lg.name, "game": lg.game, "format": lg.format, "schedule": lg.schedule,
                "members": lg.members, "paused": lg.paused, "season": lg.season,
                "next_round": lg.next_due.isoformat() if lg.next_due else None} for lg in leagues]}))
            return
        if not leagues:
            print("no league yet: create one with `tourney league create`", file=sys.stderr)
            return
        out = Table(title_justify="left")
        for col in ("league", "game", "format", "schedule", "members", "season", "next round"):
            out.add_column(col, no_wrap=True)
        for lg in leagues:
            out.add_row(lg.name, lg.game, lg.format, lg.schedule, str(lg.members),
                        "-" if lg.season is None else str(lg.season + 1), _when(lg.next_due))
        Console(width=TABLE_WIDTH, soft_wrap=True).print(out, highlight=False)
    guarded(body)


@league_app.command("leave")
def leave_command(
    name: Annotated[str, typer.Argument(help="The league.")],
    alias: Annotated[str, typer.Argument(help="The member's name in the league.")],
    db: DbOpt = "tourney.db",
    now: NowOpt = None,
) -> None:
    """Take a bot out: it forfeits the rest of this season and is not placed in the next one."""
    def body() -> None:
        leave_league(open_existing(db, LEAGUE_STORE_MAKER), name, alias, parse_when(now))
        print(f"{alias} left league {name}")
    guarded(body)


@league_app.command("pause")
def pause_command(name: Annotated[str, typer.Argument(help="The league.")], db: DbOpt = "tourney.db") -> None:
    """Stop playing a league's rounds until it is resumed."""
    def body() -> None:
        set_paused(open_existing(db, LEAGUE_STORE_MAKER), name, True)
        print(f"league {name} paused")
    guarded(body)


@league_app.command("resume")
def resume_command(name: Annotated[str, typer.Argument(help="The league.")], db: DbOpt = "tourney.db",
                   now: NowOpt = None) -> None:
    """Play a paused league again; the ticks that passed while it was paused are not played."""
    def body() -> None:
        due = set_paused(open_existing(db, LEAGUE_STORE_MAKER), name, False, parse_when(now))
        print(f"league {name} resumed; next round due {_when(due)}")
    guarded(body)
