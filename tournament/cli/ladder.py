"""`tourney ladder add|run|standings`: a continuous ladder per game (see tournament/ladder/).

Added to the root app as the `ladder` group by tournament/cli/main.py.
"""

from __future__ import annotations

import re
import signal
from types import FrameType
from typing import Annotated

import typer
from rich.console import Console
from rich.table import Table

from tourney.engine.core import ConfigError, get_game
from tourney.engine.core.environment import DB_ENV, RAY_ADDRESS_ENV
from tourney.engine.core.printable import plain, shown
from tourney.tournament.cli.progress import ProgressLines
from tourney.tournament.cli.shared import TABLE_WIDTH, check_move_ms, guarded, open_existing, parse_settings
from tourney.tournament.ladder.loop import LadderReport, run_ladder
from tourney.tournament.ladder.members import add_bot, ladder_doc
from tourney.tournament.store.database import open_store

ladder_app = typer.Typer(no_args_is_help=True, help="The continuous ladder of a game: add bots, keep matches "
                                                    "flowing on Ray, read the standings.")
LADDER_STORE_MAKER = "tourney ladder add"
DURATION = re.compile(r"^(\d+(?:\.\d+)?)([smhd]?)$")
UNIT_S = {"": 1.0, "s": 1.0, "m": 60.0, "h": 3600.0, "d": 86400.0}

DbOpt = Annotated[str, typer.Option(envvar=DB_ENV, help="Database: a SQLite path or SQLAlchemy URL "
                                                                f"(default ${DB_ENV}, else tourney.db).")]
GameOpt = Annotated[str, typer.Option("--game", "-g", help="Game id (see `tourney games`).")]


def parse_duration(text: str) -> float:
    """`90`, `90s`, `15m`, `2h` or `1d` in seconds; anything else is one sentence."""
    found = DURATION.match(text.strip().lower())
    if found is None or float(found.group(1)) <= 0:
        raise ConfigError(f"--for '{text}' is not a duration: write e.g. 90s, 15m, 2h or 1d.")
    return float(found.group(1)) * UNIT_S[found.group(2)]


@ladder_app.command("add")
def add(
    bot: Annotated[str, typer.Argument(help="A bot spec as `tourney run --bots` takes one (a built-in such as "
                                            "greedy, \"cmd:PROGRAM ARGS\", ...), optionally SPEC@NAME.")],
    game: GameOpt,
    db: DbOpt = "tourney.db",
) -> None:
    """Put a bot on the game's ladder; it starts at the rating prior and gets its first matches before others."""
    def body() -> None:
        entrant = add_bot(open_store(db), game, bot)
        print(f"{shown(entrant.alias)} added to the {game} ladder")  # the name may be a stranger's text
    guarded(body)


class Stopped(BaseException):  # noqa: N818  (a signal, not an error)
    """SIGTERM arrived: the ladder stops like on Ctrl-C."""


def _stop_on_term(_signum: int, _frame: FrameType | None) -> None:
    raise Stopped


@ladder_app.command("run")
def run(
    game: GameOpt,
    db: DbOpt = "tourney.db",
    address: Annotated[str | None, typer.Option("--address", help=f"Ray cluster to join (default: {RAY_ADDRESS_ENV}, "
                                                                  "else a local Ray instance).")] = None,
    matches: Annotated[int | None, typer.Option("--matches", help="Stop after this many matches.")] = None,
    duration: Annotated[str | None, typer.Option("--for", help="Stop after this long, e.g. 90s, 15m, 2h (matches "
                                                               "in flight then finish).")] = None,
    workers: Annotated[int | None, typer.Option("--workers", help="Cap on matches played in parallel.")] = None,
    local: Annotated[bool, typer.Option("--local", help="Play in this process without Ray.")] = False,
    players: Annotated[int | None, typer.Option(help="Players per match (default 2; the first run fixes it).")] = None,
    move_ms: Annotated[int | None, typer.Option("--move-ms", help="Per-move limit in milliseconds (the first run "
                                                                  "fixes it).")] = None,
    mode: Annotated[str | None, typer.Option(help="Game mode (see `tourney games`; the first run fixes it).")] = None,
    settings: Annotated[list[str] | None, typer.Option("--set", help="Game option key=value (repeatable).")] = None,
    metrics_port: Annotated[int | None, typer.Option(help="Serve Prometheus metrics on this port.")] = None,
    metrics_host: Annotated[str, typer.Option(help="Interface the metrics listen on.")] = "127.0.0.1",
) -> None:
    """Keep the game's ladder playing (until --matches, --for, Ctrl-C or SIGTERM); it resumes where it stopped.

    The first run fixes the ladder's --players, --set/--mode and --move-ms; later runs use them.

    Matches are chosen from the bots' ratings: new bots first, then whoever is most overdue
    (uncertain bots sooner), against the idle bots closest in rating (see README, "The ladder").
    """
    def body() -> None:
        from tourney.engine.server import serve_metrics
        from tourney.workers import make_executor

        if matches is not None and duration is not None:
            raise ConfigError("give --matches or --for, not both.")
        seconds = parse_duration(duration) if duration is not None else None
        check_move_ms(move_ms)
        config = parse_settings(get_game(game).options, settings, mode) if settings or mode else None
        engine = open_existing(db, LADDER_STORE_MAKER)
        if metrics_port is not None:
            serve_metrics(metrics_port, metrics_host)
        executor = make_executor(local=local, address=address, workers=workers)
        previous = signal.signal(signal.SIGTERM, _stop_on_term)
        report = LadderReport(game)

        progress = ProgressLines(f"{game} ladder", matches, final=False)

        def seen(now: LadderReport) -> None:
            nonlocal report
            report = now
            progress.update(now.played)
        try:
            with progress:  # a line on stderr every few seconds: a ladder may run for hours
                report = run_ladder(engine, game, executor, matches=matches, seconds=seconds, players=players,
                                    config=config, move_ms=move_ms, on_batch=seen)
        except (KeyboardInterrupt, Stopped):
            print("stopped: every rated match is stored; matches in flight are played first by the next "
                  "`tourney ladder run`.")
        finally:
            signal.signal(signal.SIGTERM, previous)
            executor.close()
        print(f"{report.played} matches on the {game} ladder ({report.replayed} resumed) in {report.seconds:.1f} s, "
              f"{report.per_second:.1f}/s; longest wait {report.longest_wait_s:.1f} s")
    guarded(body)


@ladder_app.command("standings")
def standings(
    game: GameOpt,
    db: DbOpt = "tourney.db",
    limit: Annotated[int | None, typer.Option("--limit", help="Show only the best N.", min=1)] = None,
    as_json: Annotated[bool, typer.Option("--json", help="Print one JSON document and nothing else.")] = False,
) -> None:
    """The ladder's bots by conservative rating μ − 3σ, best first."""
    def body() -> None:
        doc = ladder_doc(open_existing(db, LADDER_STORE_MAKER), game, limit, specs=True)
        if as_json:
            print(doc.model_dump_json())
            return
        table = Table(title=f"{game} ladder: {doc.done} matches, {doc.scheduled} in flight")
        for column in ("#", "bot", "μ − 3σ", "μ", "σ", "matches", "wins", "spec"):
            table.add_column(column, justify="left" if column in ("bot", "spec") else "right")
        for b in doc.bots:
            table.add_row(str(b.rank), plain(b.bot), f"{b.conservative:.2f}", f"{b.mu:.2f}", f"{b.sigma:.2f}",
                          str(b.matches), str(b.wins), plain(b.spec or ""))
        Console(width=TABLE_WIDTH).print(table)  # print(width=) is capped at a narrow console's own width
    guarded(body)
