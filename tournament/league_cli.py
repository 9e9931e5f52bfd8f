"""`tourney league create|join|run-due|standings`: scheduled league seasons (see tournament/league.py).

Registered on the main `app` by one import at the bottom of tournament/cli.py.
"""

from __future__ import annotations

import json
import os
import sys
import time
from collections.abc import Callable, Iterator, Sequence
from datetime import datetime
from typing import Annotated, Any

import typer
from rich.console import Console

from engine.core import ConfigError, get_game
from tournament.cli import TABLE_WIDTH, _standing_doc, _standings_table, app, guarded, parse_settings
from tournament.league import (
    LEAGUE_FORMATS,
    LeagueSettings,
    RoundReport,
    create_league,
    join_league,
    league_standings,
    parse_when,
    run_due,
    utc_now,
)
from tournament.league_arena import RemoteLeagueExecutor
from tournament.round_robin import Pairing
from tournament.runner import Executor, Played, TournamentPlan
from tournament.store import open_store

league_app = typer.Typer(no_args_is_help=True, help="Leagues: scheduled rounds, seasons, divisions with promotion "
                                                    "and relegation (create, join, run-due, standings).")
app.add_typer(league_app, name="league")

DbOpt = Annotated[str, typer.Option(help="Database: a SQLite path or SQLAlchemy URL.")]
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
    bot: Annotated[str, typer.Argument(help="A built-in bot spec, or remote:NAME for a bot that connects to the "
                                            "arena.")],
    alias: Annotated[str | None, typer.Option(help="Name in the league (default: the bot spec).")] = None,
    db: DbOpt = "tourney.db",
    now: NowOpt = None,
) -> None:
    """Enter a bot; it plays from the next season on (in the lowest division once seasons have begun)."""
    def body() -> None:
        spec, at, named = bot.rpartition("@") if "@" in bot else (bot, "", "")
        if at and alias is not None and alias != named:
            raise ConfigError(f"'{bot}' names the alias {named} and --alias {alias}: give the alias once.")
        who = join_league(open_store(db), name, spec, alias or named or None, parse_when(now))
        print(f"{who} joined league {name}")
    guarded(body)


def round_line(r: RoundReport) -> str:
    """One line per round run: what was played, or why nothing was (a season needs 2 bots a division)."""
    due = f"due {r.due:%Y-%m-%d %H:%M}"
    if r.status == "skipped":
        return (f"{r.league}: round {r.slot} ({due}) skipped: too few bots for its divisions (each needs two); "
                "add bots with `tourney league join` or create the league with fewer --divisions.")
    return (f"{r.league}: season {r.season} round {r.round} ({due}) {r.status}, {r.matches} matches, "
            f"{r.forfeits} forfeits")


class LazyExecutor:
    """Starts (or joins) the executor only when a round is due: a cron job that finds nothing due
    every minute never pays for joining the Ray cluster."""

    def __init__(self, build: Callable[[], Executor]) -> None:
        self.build = build
        self.inner: Executor | None = None
        self.workers = 1

    def run(self, plan: TournamentPlan, pairings: Sequence[Pairing]) -> Iterator[list[Played]]:
        if self.inner is None:
            self.inner = self.build()
            self.workers = self.inner.workers
        return self.inner.run(plan, pairings)

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
    address: Annotated[str | None, typer.Option("--address", help="Ray cluster to join (default: RAY_ADDRESS, "
                                                                  "else a local Ray instance).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Cap on matches played in parallel.")] = None,
    watch: Annotated[float | None, typer.Option(help="Keep running: look for due rounds every this many "
                                                     "seconds.")] = None,
    metrics_port: Annotated[int | None, typer.Option(help="Serve Prometheus metrics on this port.")] = None,
    arena: Annotated[str | None, typer.Option("--arena", help="Play on the arena at HOST:PORT, where remote:NAME "
                                                              "bots are connected (instead of Ray).")] = None,
    admin_token: Annotated[str | None, typer.Option(help="The arena's admin token (default "
                                                         "$TOURNEY_ADMIN_TOKEN).")] = None,
    now: NowOpt = None,
    as_json: JsonOpt = False,
) -> None:
    """Play every round whose scheduled time has passed (safe from cron, and with several copies at once).

    Remote bots (remote:NAME) play only with --arena (or in `tourney serve --leagues`); elsewhere,
    or when they are not connected, they forfeit their matches of the round.
    """
    def body() -> None:
        from tournament.metrics import MeteredExecutor, serve_metrics
        from workers import make_executor

        if watch is not None and watch <= 0:
            raise ConfigError(f"--watch must be a positive number of seconds, not {watch}.")
        engine = open_store(db)
        if metrics_port is not None:
            serve_metrics(metrics_port)
        fixed = parse_when(now)
        clock: Callable[[], datetime] = (lambda: fixed) if fixed is not None else utc_now
        executor: Executor
        presence = None
        if arena is not None:
            # The arena counts its matches itself; who is connected shows when a match is asked for.
            executor = RemoteLeagueExecutor(arena, admin_token or os.environ.get("TOURNEY_ADMIN_TOKEN", ""),
                                            workers or 4)
            presence = _everyone
        else:
            executor = MeteredExecutor(LazyExecutor(lambda: make_executor(local=local, address=address,
                                                                          workers=workers)))
        reports: list[RoundReport] = []
        try:
            while True:
                done = run_due(engine, name, clock=clock, executor=executor, presence=presence)
                reports.extend(done)
                if not as_json:
                    for r in done:
                        print(round_line(r), flush=True)
                if watch is None:
                    break
                time.sleep(watch)
        finally:
            executor.close()
        if as_json:
            print(json.dumps({"rounds": [_report_doc(r) for r in reports]}))
        elif not reports:
            print("no round is due", file=sys.stderr)
    guarded(body)


@league_app.command("standings")
def standings_command(
    name: Annotated[str, typer.Argument(help="The league.")],
    season: Annotated[int | None, typer.Option(help="Season (default: the current one).")] = None,
    db: DbOpt = "tourney.db",
    as_json: JsonOpt = False,
) -> None:
    """Each division's standings in a season, and every bot's carried rating."""
    def body() -> None:
        table = league_standings(open_store(db), name, season)
        if as_json:
            print(json.dumps({
                "league": table.league, "game": table.game, "season": table.season,
                "next_round": table.next_due.isoformat() if table.next_due else None,
                "divisions": [{"division": d + 1, "standings": [_standing_doc(s) for s in rows]}
                              for d, rows in table.divisions],
                "ratings": {a: {"mu": round(mu, 3), "sigma": round(sg, 3)} for a, (mu, sg) in table.ratings.items()},
            }))
            return
        console = Console(width=TABLE_WIDTH)
        if not table.divisions:
            console.print(f"league {table.league}: no season has started yet; next round due {table.next_due}",
                          highlight=False)
        for d, rows in table.divisions:
            console.print(_standings_table(rows, f"{table.league} ({table.game}), season {table.season}, "
                                                 f"division {d + 1}"))
    guarded(body)
