"""The `tourney` command line: games, match, run.

Errors a user can cause end with one sentence on stderr and exit code 2, never a traceback.
With --json, stdout carries exactly one JSON document and progress goes nowhere.
"""

from __future__ import annotations

import json
import random
import sys
import time
from collections.abc import Callable
from typing import Annotated, Any, NoReturn

import typer
from rich.console import Console
from rich.progress import BarColumn, MofNCompleteColumn, Progress, TextColumn, TimeElapsedColumn
from rich.table import Table

from engine.bots import bot_names, make_bot
from engine.core import Action, ConfigError, State, TourneyError, available_games, get_game
from engine.referee import TimeControl, play_match
from tournament.entrants import parse_entrants
from tournament.runner import TournamentPlan, run_tournament
from tournament.standings import Standing
from tournament.store import open_store

app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Tournaments and matches between game bots, for four ninja games.")
out = Console()
err = Console(stderr=True)

DEFAULT_GAME = "tiny-ninjas"
DEFAULT_BOTS = "random,greedy,ismcts"


def fail(message: str) -> NoReturn:
    """One sentence on stderr and exit code 2."""
    print(f"error: {message}", file=sys.stderr)
    raise typer.Exit(2)


def guarded(body: Callable[[], None]) -> None:
    try:
        body()
    except TourneyError as exc:
        fail(str(exc))
    except KeyboardInterrupt:
        fail("interrupted: finished matches are stored; run the same command with --resume to go on.")


def parse_settings(pairs: list[str] | None, mode: str | None) -> dict[str, Any]:
    """`--set key=value` pairs (values read as JSON when they parse, else as text) plus --mode."""
    config: dict[str, Any] = {}
    for pair in pairs or []:
        key, sep, raw = pair.partition("=")
        if not sep or not key:
            raise ConfigError(f"--set '{pair}' is not key=value: write e.g. --set round_cap=50.")
        try:
            config[key] = json.loads(raw)
        except json.JSONDecodeError:
            config[key] = raw
    if mode is not None:
        config["mode"] = mode
    return config


def check_move_ms(move_ms: int | None) -> None:
    if move_ms is not None and move_ms <= 0:
        raise ConfigError(f"--move-ms must be a positive number of milliseconds, not {move_ms}.")


GameOpt = Annotated[str, typer.Option("--game", "-g", help="Game id (see `tourney games`).")]
SeedOpt = Annotated[int | None, typer.Option(help="Seed; the same seed replays the same matches.")]
JsonOpt = Annotated[bool, typer.Option("--json", help="Print one JSON document and nothing else.")]
MoveOpt = Annotated[int | None, typer.Option("--move-ms", help="Per-move time limit in milliseconds.")]
PlayersOpt = Annotated[int | None, typer.Option(help="Number of players (for games of 2 or more).")]
ModeOpt = Annotated[str | None, typer.Option(help="Game mode (see `tourney games`).")]
SetOpt = Annotated[list[str] | None, typer.Option("--set", help="Game option key=value (repeatable).")]


@app.command()
def games(as_json: JsonOpt = False) -> None:
    """List the games, their player counts, modes and bots."""
    rows = [
        {"id": g.id, "name": g.name, "players": [g.min_players, g.max_players], "modes": list(g.modes),
         "bots": bot_names(g)}
        for g in available_games()
    ]
    if as_json:
        print(json.dumps({"games": rows}))
        return
    table = Table(title="Games")
    for col in ("id", "name", "players", "modes", "bots"):
        table.add_column(col)
    for g in available_games():
        lo, hi = g.min_players, g.max_players
        table.add_row(g.id, g.name, f"{lo}" if lo == hi else f"{lo}-{hi}", ", ".join(g.modes),
                      ", ".join(bot_names(g)))
    out.print(table)


@app.command()
def match(
    bots: Annotated[str, typer.Option(help="Bots by seat, comma-separated, e.g. random,greedy.")],
    game: GameOpt = DEFAULT_GAME,
    seed: SeedOpt = None,
    players: PlayersOpt = None,
    mode: ModeOpt = None,
    settings: SetOpt = None,
    move_ms: MoveOpt = None,
    as_json: JsonOpt = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print the play-by-play.")] = False,
) -> None:
    """Play one match and print its result."""
    def body() -> None:
        g = get_game(game)
        check_move_ms(move_ms)
        config = parse_settings(settings, mode)
        entrants = parse_entrants(bots, g, unique=False)
        n = players if players is not None else len(entrants)
        if n != len(entrants):
            raise ConfigError(f"{len(entrants)} bots given for {n} players: name one bot per seat.")
        s = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
        seats = [make_bot(e.spec, g, s * 31 + i) for i, e in enumerate(entrants)]

        def show(state: State, joint: list[tuple[int, Action]]) -> None:
            moves = "; ".join(f"seat {seat} ({entrants[seat].alias}): {a.label}" for seat, a in joint)
            out.print(moves, highlight=False)
            out.print(g.render(state), highlight=False)

        started = time.perf_counter()
        result = play_match(game, seats, s, config=config, players=n, time_control=TimeControl.from_ms(move_ms),
                            on_step=show if verbose and not as_json else None)
        doc = {
            "game": game, "seed": s, "ranking": [list(t) for t in result.ranking], "scores": list(result.scores),
            "termination": result.termination, "reason": result.reason, "plies": len(result.replay.steps),
            "seats": [{"seat": i, "bot": e.alias, "points": result.points(i)} for i, e in enumerate(entrants)],
            "seconds": round(time.perf_counter() - started, 3),
        }
        if as_json:
            print(json.dumps(doc))
            return
        places = " > ".join(" = ".join(f"{entrants[s_].alias} (seat {s_})" for s_ in tier) for tier in result.ranking)
        out.print(f"{game}, seed {s}: {places}; {result.reason} after {doc['plies']} decisions; "
                  f"scores {list(result.scores)}", highlight=False)
    guarded(body)


@app.command()
def run(
    game: GameOpt = DEFAULT_GAME,
    bots: Annotated[str, typer.Option(help="Entrants, comma-separated; `name@alias` enters a bot twice.")]
    = DEFAULT_BOTS,
    games_per_pair: Annotated[int, typer.Option(help="Games each pair plays; even = duplicate pairs.")] = 4,
    seed: Annotated[int, typer.Option(help="Tournament seed.")] = 1,
    db: Annotated[str, typer.Option(help="Results database: a SQLite path or SQLAlchemy URL.")] = "tourney.db",
    players: Annotated[int, typer.Option(help="Players per match.")] = 2,
    mode: ModeOpt = None,
    settings: SetOpt = None,
    move_ms: MoveOpt = None,
    name: Annotated[str, typer.Option(help="Tournament name.")] = "tournament",
    resume: Annotated[int | None, typer.Option(help="Resume the stored tournament with this id.")] = None,
    as_json: JsonOpt = False,
) -> None:
    """Run a round-robin tournament, store every result, and print the standings."""
    def body() -> None:
        g = get_game(game)
        check_move_ms(move_ms)
        if games_per_pair < 1:
            raise ConfigError(f"--games-per-pair must be at least 1, not {games_per_pair}.")
        if players != 2:
            raise ConfigError("round robin pairs two players per match: pass --players 2.")
        plan = TournamentPlan(game=game, entrants=parse_entrants(bots, g), seed=seed, games_per_pair=games_per_pair,
                              players=players, config=parse_settings(settings, mode), move_ms=move_ms, name=name)
        g.new_state(0, players=players, config=plan.config)  # a bad config fails before anything is stored
        schedule = plan.schedule()
        engine = open_store(db)
        if as_json:
            report = run_tournament(engine, plan, tournament_id=resume)
        else:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(), TimeElapsedColumn(),
                          console=err, transient=True) as progress:
                task = progress.add_task(f"{game}", total=len(schedule))
                report = run_tournament(engine, plan, tournament_id=resume,
                                        on_match=lambda done, total: progress.update(task, completed=done))
        if as_json:
            print(json.dumps({"tournament_id": report.tournament_id, "game": game, "matches": report.matches,
                              "standings": [_standing_doc(s) for s in report.standings]}))
            return
        out.print(_standings_table(report.standings, f"{game}: tournament {report.tournament_id}, "
                                                     f"{report.matches} matches (stored in {db})"))
    guarded(body)


def _standing_doc(s: Standing) -> dict[str, Any]:
    return {"bot": s.alias, "games": s.games, "wins": s.wins, "draws": s.draws, "losses": s.losses,
            "points": s.points, "score_pct": round(s.score_pct, 1), "rating": round(s.rating, 1),
            "rating_low": round(s.low, 1), "rating_high": round(s.high, 1), "faults": s.faults}


def _standings_table(standings: list[Standing], title: str) -> Table:
    table = Table(title=title)
    for col in ("#", "bot", "games", "W", "D", "L", "points", "score %", "rating (95% CI)", "faults"):
        table.add_column(col, justify="left" if col == "bot" else "right")
    for i, s in enumerate(standings, 1):
        table.add_row(str(i), s.alias, str(s.games), str(s.wins), str(s.draws), str(s.losses), f"{s.points:g}",
                      f"{s.score_pct:.1f}", f"{s.rating:.0f} [{s.low:.0f}, {s.high:.0f}]", str(s.faults))
    return table


if __name__ == "__main__":  # pragma: no cover
    app()
