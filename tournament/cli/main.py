"""The `tourney` command line: the root app, its own commands (games, match, run, resume, standings,
matches, replay, sprt), and every sub-app added with `add_typer` (the sub-apps never import this module).

Errors a user can cause end with one sentence on stderr and exit code 2, never a traceback.
With --json, stdout carries exactly one JSON document and progress goes nowhere.
"""

from __future__ import annotations

import json
import random
import sys
import textwrap
import time
from collections.abc import Callable, Sequence
from typing import TYPE_CHECKING, Annotated, Any, cast

import typer
from rich.console import Console
from rich.progress import (
    BarColumn,
    MofNCompleteColumn,
    Progress,
    TextColumn,
    TimeElapsedColumn,
    TimeRemainingColumn,
)
from rich.table import Table

from tourney.engine.bots import bot_infos, bot_names, make_bot, option_usage
from tourney.engine.core import Action, ConfigError, Game, State, TourneyError, available_games, get_game
from tourney.engine.core.environment import (
    ADMIN_TOKEN_ENV,
    DB_ENV,
    METRICS_HOST_ENV,
    METRICS_PORT_ENV,
    RAY_ADDRESS_ENV,
    SEED_KEY_ENV,
)
from tourney.engine.core.printable import plain, shown
from tourney.engine.referee import Replay, TimeControl, play_match, replay_match
from tourney.tournament.cli import export, hosted, ladder, league, pair, serve, web
from tourney.tournament.cli.fault_notes import ProgramFaultNotes
from tourney.tournament.cli.game_flags import DEFAULT_BOTS, WithGameFlags, default_lineup, given_game_flags
from tourney.tournament.cli.game_options import options_doc, options_lines
from tourney.tournament.cli.help_style import hide_flag_placeholders
from tourney.tournament.cli.interrupts import interrupt_on_sigterm
from tourney.tournament.cli.logs import configure_cli_logging
from tourney.tournament.cli.progress import ProgressLines
from tourney.tournament.cli.shared import (
    DEFAULT_GAME,
    ERROR_CHARS,
    MATCH_SEEDS,
    STORED_SEEDS,
    TABLE_WIDTH,
    DbOpt,
    GameOpt,
    HandicapOpt,
    JsonOpt,
    ModeOpt,
    MoveOpt,
    PlayersOpt,
    SeedOpt,
    SetOpt,
    check_move_ms,
    check_seed,
    err,
    fail,
    guarded,
    open_existing,
    out,
    parse_settings,
    standing_doc,
)
from tourney.tournament.cli.usage_errors import one_sentence_usage_errors
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.formats.seeding import check_seed_key
from tourney.tournament.hosted.pinning import pin_entrants
from tourney.tournament.labels import check_label
from tourney.tournament.lease import this_runner
from tourney.tournament.rating.result_text import SOLO_AI
from tourney.tournament.rating.sprt import explain as explain_sprt
from tourney.tournament.rating.standings import legend_lines
from tourney.tournament.rating.standings_table import standings_table
from tourney.tournament.responses import MatchesDoc, match_summary, played_match_doc, standings_doc
from tourney.tournament.runner import TournamentPlan, load_plan, run_tournament
from tourney.tournament.store.codec import unpack_replay
from tourney.tournament.store.database import open_store, url_of
from tourney.tournament.store.reads import (
    achievement_counts,
    load_standings,
    match_page,
    stored_match,
    stored_numbers,
    stored_tournament,
)
from tourney.tournament.store.writes import mark_status
from tourney.tournament.tournament_lease import latest_free, refuse_if_held, refuse_if_league_division
from tourney.workers.program_specs import is_hosted, is_program
from tourney.workers.realtime import play_realtime_match, wants_realtime

hide_flag_placeholders()
one_sentence_usage_errors()
configure_cli_logging()  # the library logs; the CLI shows its warnings on stderr as plain sentences
app = typer.Typer(add_completion=False, no_args_is_help=True,
                  help="Tournaments and matches between game bots, for four ninja games.")
# Commands are listed in this order: the root's own, then these (export, pair, serve, connect,
# arena-match, web), then the groups.
app.add_typer(export.app)
app.add_typer(pair.app)
app.add_typer(serve.app)
app.add_typer(web.app)
app.add_typer(hosted.bot_app, name="bot")
app.add_typer(league.league_app, name="league")
app.add_typer(serve.bots_app, name="bots")
app.add_typer(ladder.ladder_app, name="ladder")

if TYPE_CHECKING:

    from tourney.workers import Executor as PoolExecutor



@app.command()
def games(as_json: JsonOpt = False) -> None:
    """List the games, their player counts, modes and bots (each with its description and options)."""
    rows = [
        {"id": g.id, "name": g.name, "players": [g.min_players, g.max_players], "modes": list(g.modes),
         "bots": bot_names(g), "default_bots": default_lineup(g).split(","),
         "bot_details": [b.as_json() for b in bot_infos(g)], "options": options_doc(g)}
        for g in available_games()
    ]
    if as_json:
        print(json.dumps({"games": rows}))
        return
    # The terminal's own width (80 in a pipe): the table wraps its cells, the lists wrap their lines.
    screen = Console()
    table = Table(title="Games")
    for col in ("id", "name", "players", "modes", "bots"):
        table.add_column(col, no_wrap=col == "id", overflow="fold")
    for g in available_games():
        lo, hi = g.min_players, g.max_players
        table.add_row(g.id, g.name, f"{lo}" if lo == hi else f"{lo}-{hi}", ", ".join(g.modes),
                      ", ".join(bot_names(g)))
    screen.print(table)
    screen.print("\n[bold]Game options[/bold] (--set KEY=VALUE)", highlight=False)
    for g in available_games():
        screen.print(f"{g.id}:", highlight=False)
        for head, meaning in options_lines(g):
            screen.print(_indented(head, 2, screen.width), _indented(meaning, 6, screen.width), sep="\n",
                         highlight=False, markup=False)
    for g in available_games():
        screen.print(f"\n[bold]{g.id}[/bold] bots:", highlight=False)
        screen.print(_indented(f"default line-up of `tourney run`: {default_lineup(g)}", 2, screen.width),
                     highlight=False, markup=False)
        for b in bot_infos(g):
            options = ", ".join(option_usage(o) for o in b.options) or "no options"
            screen.print(_indented(f"{b.name}: {b.description}", 2, screen.width, hang=4),
                         _indented(f"options: {options}", 6, screen.width), sep="\n", highlight=False, markup=False)


def _indented(text: str, indent: int, width: int, hang: int | None = None) -> str:
    """`text` folded at word boundaries to `width`: the first line indented by `indent` spaces, the
    others by `hang` (default the same)."""
    return textwrap.fill(text, width=max(width, indent + 20), initial_indent=" " * indent,
                         subsequent_indent=" " * (indent if hang is None else hang), break_on_hyphens=False)


@app.command(cls=WithGameFlags)
def match(
    bots: Annotated[str, typer.Option(help="Bots by seat, comma-separated, e.g. random,greedy.")],
    game: GameOpt = DEFAULT_GAME,
    seed: SeedOpt = None,
    players: PlayersOpt = None,
    mode: ModeOpt = None,
    handicap: HandicapOpt = None,
    settings: SetOpt = None,
    move_ms: MoveOpt = None,
    as_json: JsonOpt = False,
    verbose: Annotated[bool, typer.Option("--verbose", "-v", help="Print the play-by-play.")] = False,
    db: Annotated[str, typer.Option(envvar=DB_ENV, help="The store hosted:NAME bots are read from (default "
                                                              f"${DB_ENV}, else tourney.db).")] = "tourney.db",
) -> None:
    """Play one match and print its result."""
    def body() -> None:
        g = get_game(game)
        check_move_ms(move_ms)
        check_seed(seed, MATCH_SEEDS)
        config = parse_settings(g.options, settings, mode, handicap, given_game_flags())
        entrants = parse_entrants(bots, g, unique=False)
        if any(is_hosted(e.spec) for e in entrants):  # resolved (and the sandbox checked) before playing
            entrants = pin_entrants(open_store(db), entrants)
        names, specs = [e.alias for e in entrants], [e.spec for e in entrants]
        if str(config.get("mode", "")).lower() == "solo":
            if len(entrants) != 1:
                raise ConfigError(f"solo mode seats one bot against {g.name}' own AI, not {len(entrants)}: "
                                  f"pass one bot, e.g. --bots {entrants[0].alias}.")
            # The game plays the other seats itself and never asks them: any bot holds them.
            ai_seats = (players if players is not None else g.min_players) - 1
            names += [SOLO_AI] * ai_seats
            specs += ["random"] * ai_seats
        n = players if players is not None else len(specs)
        if n != len(specs):
            raise ConfigError(f"{len(specs)} bots given for {n} players: name one bot per seat.")
        s = seed if seed is not None else random.SystemRandom().randrange(1 << 31)
        show = play_by_play(g, names) if verbose and not as_json else None
        started = time.perf_counter()
        # A long match (a deep search) says it is alive: a line on stderr every few seconds.
        with ProgressLines(f"{game} seed {s}", unit="decisions", enabled=not as_json,
                           final=False) as lines:
            def step(state: State, joint: list[tuple[int, Action]]) -> None:
                lines.update(lines.done + 1)
                if show is not None:
                    show(state, joint)

            realtime = wants_realtime(game, config)
            if any(is_program(spec) for spec in specs):
                from tourney.tournament.hosted.seat import hosted_starter
                from tourney.workers.programs import play_with_programs  # starts a private loopback arena

                result = play_with_programs(game, specs, s, config, move_ms, realtime=realtime,
                                            hosted=hosted_starter(db))
                if show is not None:  # the programs played over the network: show it from the replay
                    replay_match(result.replay, show)
            elif realtime:  # on the clock: no steps to show as they happen
                result = play_realtime_match(game, [make_bot(spec, g, s * 31 + i) for i, spec in enumerate(specs)],
                                             s, config)
            else:
                seats = [make_bot(spec, g, s * 31 + i) for i, spec in enumerate(specs)]
                result = play_match(game, seats, s, config=config, players=n,
                                    time_control=TimeControl.from_ms(move_ms), on_step=step)
        doc = played_match_doc(names, result, time.perf_counter() - started)
        if as_json:
            print(doc.model_dump_json())
            return
        places = " > ".join(" = ".join(f"{names[s_]} (seat {s_})" for s_ in tier) for tier in result.ranking)
        out.print(f"{game}, seed {s}: {shown(places, ERROR_CHARS)}; {shown(result.reason, ERROR_CHARS)} after "
                  f"{doc.plies} decisions; scores {list(result.scores)}", highlight=False, markup=False, soft_wrap=True)
    guarded(body)


WorkersOpt = Annotated[int | None, typer.Option("--workers", help="Cap on matches played in parallel (Ray tasks).")]
LocalOpt = Annotated[bool, typer.Option("--local", help="Play in this process without Ray (debugging).")]
AddressOpt = Annotated[str | None, typer.Option("--address", help=f"Ray cluster to join (default: {RAY_ADDRESS_ENV}, "
                                                "else a local Ray instance).")]
MetricsPortOpt = Annotated[int | None, typer.Option(envvar=METRICS_PORT_ENV, help="Serve Prometheus metrics "
                                                        "on this port while the tournament runs.")]
MetricsHostOpt = Annotated[str, typer.Option(envvar=METRICS_HOST_ENV, help="Interface the metrics listen on "
                                                                                  "(0.0.0.0: every interface).")]


SprtEloOpt = Annotated[str, typer.Option("--sprt-elo", help="The SPRT's Elo scale, as fishtest offers: logistic "
                                          "(expected score) or normalized (t-value, independent of the draw rate).")]


def parse_sprt(text: str | None, alpha: float, beta: float) -> tuple[float, float, float, float] | None:
    """`--sprt elo0,elo1` plus --alpha/--beta."""
    if text is None:
        return None
    try:
        elo0, elo1 = (float(x) for x in text.split(","))
    except ValueError:
        raise ConfigError(f"--sprt '{text}' is not elo0,elo1: write e.g. --sprt 0,5.") from None
    return elo0, elo1, alpha, beta


def _play(db: str, plan: TournamentPlan | None, resume: int | None, local: bool, address: str | None,
          workers: int | None, as_json: bool, arena: str | None = None,
          admin_token: str = "", metrics_port: int | None = None, metrics_host: str = "127.0.0.1") -> None:
    """Open the store, build the executor, run (or resume) the tournament and print the standings."""
    from tourney.workers import make_executor
    from tourney.workers.settled_heap import freeze_once

    engine = open_store(db) if plan is not None else open_existing(db)
    tid: int | None = None
    if plan is None or resume is not None:
        tid, plan = load_plan(engine, resume if resume is not None else latest_free(engine))
        refuse_if_league_division(engine, tid)
        expected = plan.expected_matches()  # None: open-ended (SPRT), done when its status says so
        if stored_tournament(engine, tid)[0].status == "finished" and (
                expected is None or len(stored_numbers(engine, tid)) >= expected):
            raise ConfigError(f"tournament {tid} is finished: nothing to resume; `tourney standings {tid}` prints its "
                              "standings.")
        refuse_if_held(engine, tid)  # before workers start: another live process is playing it
        if arena is None:  # a tournament played on an arena goes on there
            from tourney.tournament.arena_tournament import remembered_arena

            arena = remembered_arena(engine, tid)
    plan.spec()
    if arena is not None and any(is_hosted(e.spec) for e in plan.entrants):
        raise ConfigError("hosted bots run sandboxed on this run's workers, not on an arena: leave out --arena.")
    plan.entrants = pin_entrants(engine, plan.entrants)
    plan.store = url_of(engine)
    if arena is not None:
        from tourney.tournament.arena_tournament import remember_arena
        from tourney.workers.arena import RemoteArenaExecutor

        # It plays only TournamentPlans, which is all this function hands it.
        on_arena = RemoteArenaExecutor(arena, admin_token, workers or 4)
        on_arena.check_bots(plan.game, get_game(plan.game).min_players, [e.spec for e in plan.entrants])
        executor = cast("PoolExecutor", on_arena)
    else:
        executor = make_executor(local=local, address=address, workers=workers)
        # The imports and the store outlive the run: the collector need not walk them. With Ray too: this process
        # plans the schedule and plays the first matches while Ray starts (which freezes again once it is up).
        freeze_once()
    from tourney.tournament.metrics import instrument

    # --metrics-port: matches counted as their results arrive here, and the remaining-matches gauge.
    metered, on_start, on_match = instrument(cast("Any", executor), metrics_port, count_matches=arena is None,
                                             metrics_host=metrics_host)
    # A bot program that did not play says why on stderr as it happens, not only in bot-logs/.
    executor = cast("PoolExecutor", ProgramFaultNotes(metered, lambda note: err.print(
        shown(note, ERROR_CHARS), markup=False, highlight=False, soft_wrap=True)))
    started = time.perf_counter()
    announced: list[int] = []
    restore_sigterm = interrupt_on_sigterm()  # a `kill` stops the run the way Ctrl-C does
    try:
        def announce(t: int) -> None:
            announced.append(t)
            print(f"tournament {t}", file=sys.stderr, flush=True)
            if arena is not None:
                remember_arena(engine, t, arena)
            if on_start is not None:
                on_start(t)

        if as_json:
            report = run_tournament(engine, plan, tournament_id=tid, executor=executor, on_start=announce,
                                    on_match=on_match)
        elif not err.is_terminal:  # a pipe or a log: a line every few seconds instead of a bar
            with ProgressLines(plan.game, plan.expected_matches()) as lines:
                def note(done: int, total: int) -> None:
                    lines.update(done, total)
                    if on_match is not None:
                        on_match(done, total)

                report = run_tournament(engine, plan, tournament_id=tid, executor=executor, on_match=note,
                                        on_start=announce)
        else:
            with Progress(TextColumn("{task.description}"), BarColumn(), MofNCompleteColumn(),
                          TextColumn("{task.fields[rate]}"), TimeElapsedColumn(), TimeRemainingColumn(),
                          console=err, transient=True) as progress:
                task = progress.add_task(f"{plan.game}", total=plan.expected_matches(), rate="")

                def tick(done: int, total: int) -> None:
                    rate = done / max(1e-9, time.perf_counter() - started)
                    progress.update(task, completed=done, total=total or None, rate=f"{rate:.1f} matches/s")
                    if on_match is not None:
                        on_match(done, total)

                report = run_tournament(engine, plan, tournament_id=tid, executor=executor, on_match=tick,
                                        on_start=announce)
    except KeyboardInterrupt:  # Ctrl-C, or SIGTERM (see interrupt_on_sigterm)
        stopped = announced[0] if announced else tid  # tid: the tournament being resumed
        if stopped is None:
            raise TourneyError("interrupted before the tournament was created: nothing was stored.") from None
        mark_status(engine, stopped, "interrupted", this_runner())  # unless another process plays it now
        # Said before the executor closes: Ray, stopping tasks in flight, may abort this process.
        fail(f"interrupted: tournament {stopped} keeps the matches it finished and is marked interrupted; "
             f"`tourney resume {stopped}` (with the same --db) plays the rest.")
    finally:
        restore_sigterm()
        executor.close()
    verdict = None
    if report.sprt is not None:
        v = report.sprt
        verdict = {"verdict": v.verdict, "llr": round(v.llr, 3), "lower": round(v.lower, 3),
                   "upper": round(v.upper, 3), "pairs": v.pairs, "pentanomial": list(v.pentanomial),
                   "elo_scale": v.scale}
    earned = achievement_counts(engine, report.tournament_id)
    if as_json:
        print(json.dumps({"tournament_id": report.tournament_id, "game": plan.game, "format": plan.format,
                          "matches": report.matches, "standings": [standing_doc(s) for s in report.standings],
                          "sprt": verdict, "achievements": earned}))
        return
    title = f"{plan.game}: {plan.format} tournament {report.tournament_id}, {report.matches} matches (stored in {db})"
    Console(width=TABLE_WIDTH).print(standings_table(report.standings, title))
    if earned:
        table = Table(title="Achievements earned")
        for col in ("bot", "achievement", "times"):
            table.add_column(col, justify="right" if col == "times" else "left")
        for alias, names in earned.items():
            for achievement, times in names.items():
                table.add_row(alias, achievement, str(times))
        Console(width=TABLE_WIDTH).print(table)
    if verdict is not None:
        out.print(f"SPRT: {verdict['verdict']} (LLR {verdict['llr']} in [{verdict['lower']}, {verdict['upper']}], "
                  f"{verdict['pairs']} pairs, pentanomial {verdict['pentanomial']})", highlight=False)


@app.command(cls=WithGameFlags)
def run(
    game: GameOpt = DEFAULT_GAME,
    bots: Annotated[str | None, typer.Option(help="Entrants, comma-separated; `name@alias` enters a bot twice. "
                                           "In a gauntlet the first is the challenger. Default: "
                                                  f"{DEFAULT_BOTS}, or the game's own line-up (`tourney games` "
                                                  "names it).")] = None,
    format: Annotated[str, typer.Option("--format", help="round-robin, swiss, gauntlet or solo (each bot "
                                                         "against Tiny Ninjas' Solo AI; --mode solo picks "
                                                         "it).")] = "round-robin",
    games_per_pair: Annotated[int, typer.Option(help="Games each pair plays; even = duplicate pairs (the same "
                                                     "deal with seats swapped), except that in a game with hidden "
                                                     "information a remote: or cmd: bot, which can remember a "
                                                     "deal, gets a new deal every game.")] = 4,
    cycles: Annotated[int, typer.Option(help="Repeat the schedule; odd cycles swap who starts.")] = 1,
    rounds: Annotated[int | None, typer.Option(help="Swiss rounds (default ceil(log2 n)+1); pod rounds; "
                                                    "SPRT batch cap.")] = None,
    sprt: Annotated[str | None, typer.Option("--sprt", help="Gauntlet only: stop when the SPRT elo0,elo1 "
                                                            "decides.")] = None,
    alpha: Annotated[float, typer.Option(help="SPRT false-positive rate.")] = 0.05,
    beta: Annotated[float, typer.Option(help="SPRT false-negative rate.")] = 0.05,
    sprt_elo: SprtEloOpt = "logistic",
    seed: Annotated[int, typer.Option(help="Tournament seed.")] = 1,
    seed_key: Annotated[str | None, typer.Option(envvar=SEED_KEY_ENV, help="The secret that, with --seed, "
                                                 "makes every match seed (default: a new random one, stored with "
                                                 "the tournament); the same key replays the same tournament.")]
    = None,
    db: DbOpt = "tourney.db",
    players: Annotated[int, typer.Option(help="Players per match (3-6: round robin in pods).")] = 2,
    mode: ModeOpt = None,
    handicap: HandicapOpt = None,
    settings: SetOpt = None,
    move_ms: MoveOpt = None,
    name: Annotated[str, typer.Option(help="Tournament name.")] = "tournament",
    resume: Annotated[int | None, typer.Option(help="Resume the stored tournament with this id (its stored "
                                                    "settings win over the options).")] = None,
    workers: WorkersOpt = None,
    local: LocalOpt = False,
    address: AddressOpt = None,
    arena: Annotated[str | None, typer.Option(help="Play every match on the arena at HOST:PORT (RunMatch); "
                                                   "bots connected there enter as remote:NAME.")] = None,
    admin_token: Annotated[str, typer.Option(envvar=ADMIN_TOKEN_ENV,
                                             help="The arena's admin token, for --arena.")] = "",
    metrics_port: MetricsPortOpt = None,
    metrics_host: MetricsHostOpt = "127.0.0.1",
    as_json: JsonOpt = False,
) -> None:
    """Run a tournament on Ray workers, store every result as it arrives, and print the standings."""
    def body() -> None:
        if resume is not None:
            _play(db, None, resume, local, address, workers, as_json, arena=arena, admin_token=admin_token,
                  metrics_port=metrics_port, metrics_host=metrics_host)
            return
        g = get_game(game)
        check_move_ms(move_ms)
        check_seed(seed, STORED_SEEDS)
        check_label(name, "the tournament's --name")
        if games_per_pair < 1:
            raise ConfigError(f"--games-per-pair must be at least 1, not {games_per_pair}.")
        config = parse_settings(g.options, settings, mode, handicap, given_game_flags())
        try:
            entrants = parse_entrants(default_lineup(g) if bots is None else bots, g,
                                      remote_ok=arena is not None)
        except ConfigError:
            if arena is None or bots is None:
                raise
            from tourney.tournament.arena_tournament import connected_by_that_name

            meant = connected_by_that_name(arena, admin_token, g, bots)
            if meant is None:
                raise
            raise ConfigError(f"'{meant}' is no built-in bot, but a bot named {meant} is connected to the arena "
                              f"at {arena}: enter it as remote:{meant}.") from None
        chosen = "solo" if mode == "solo" and format == "round-robin" else format  # Solo has one format
        plan = TournamentPlan(game=game, entrants=entrants, seed=seed, games_per_pair=games_per_pair,
                              players=players, config=config, move_ms=move_ms, name=name, format=chosen,
                              cycles=cycles, rounds=rounds, sprt=parse_sprt(sprt, alpha, beta),
                              seed_key=None if seed_key is None else check_seed_key(seed_key),
                              sprt_elo=sprt_elo)
        if rounds is not None and not plan.counts_rounds():
            raise ConfigError(f"--rounds sets Swiss rounds, pod rounds (--players 3-6) or an SPRT's batch cap; a "
                              f"{'two-player round robin' if chosen == 'round-robin' else chosen} plays a fixed "
                              "schedule: leave --rounds out and set its length with --games-per-pair or --cycles.")
        if not g.min_players <= players <= g.max_players:
            count = f"{g.min_players}" if g.min_players == g.max_players else f"{g.min_players}-{g.max_players}"
            raise ConfigError(f"{game} is played by {count} players, not {players}: fix --players.")
        plan.spec()
        g.new_state(0, players=players, config=plan.config)  # a bad config fails before anything is stored
        _play(db, plan, None, local, address, workers, as_json, arena=arena, admin_token=admin_token,
              metrics_port=metrics_port, metrics_host=metrics_host)
    guarded(body)


@app.command()
def resume(
    tournament_id: Annotated[int | None, typer.Argument(help="Tournament id (default: the most recent "
                                                            "unfinished one no other process is "
                                                            "playing; a league's divisions are "
                                                            "played by its rounds).")] = None,
    db: DbOpt = "tourney.db",
    workers: WorkersOpt = None,
    local: LocalOpt = False,
    address: AddressOpt = None,
    arena: Annotated[str | None, typer.Option(help="Play the missing matches on the arena at HOST:PORT (default: "
                                                   "the arena the tournament was played on, if any).")] = None,
    admin_token: Annotated[str, typer.Option(envvar=ADMIN_TOKEN_ENV,
                                             help="The arena's admin token, for an arena tournament.")] = "",
    metrics_port: MetricsPortOpt = None,
    metrics_host: MetricsHostOpt = "127.0.0.1",
    as_json: JsonOpt = False,
) -> None:
    """Finish a stored tournament: play exactly the matches still missing (on its arena, if it had one)."""
    guarded(lambda: _play(db, None, tournament_id, local, address, workers, as_json,
                          arena=arena, admin_token=admin_token, metrics_port=metrics_port,
                          metrics_host=metrics_host))


@app.command(help="Print a stored tournament's standings (from the matches stored so far).\n\n"
             + "\n\n".join(legend_lines()))
def standings(
    tournament_id: Annotated[int, typer.Argument(help="Tournament id.")],
    db: DbOpt = "tourney.db",
    as_json: JsonOpt = False,
) -> None:
    def body() -> None:
        engine = open_existing(db)
        tid, plan = load_plan(engine, tournament_id)
        table = load_standings(engine, tid, [e.alias for e in plan.entrants])
        if as_json:
            print(standings_doc(tid, plan.game, plan.format, table).model_dump_json())
            return
        Console(width=TABLE_WIDTH).print(standings_table(table, f"{plan.game}: {plan.format} tournament {tid}"))
    guarded(body)


@app.command("sprt", help="Play duplicate pairs of new vs old until the pentanomial SPRT decides, and print "
             "the verdict.\n\nH0 says the new bot is at most elo0 better than the old one, H1 that it is at least "
             "elo1 better. After each batch of pairs the log-likelihood ratio (LLR) weighs the results: reaching "
             "log((1-beta)/alpha) accepts H1 (a false 'better' at most alpha of the time), reaching "
             "log(beta/(1-alpha)) accepts H0 (a missed improvement at most beta of the time); in between, play on.")
def sprt_command(
    bots: Annotated[str, typer.Option(help="The new bot and the old one, e.g. ismcts,greedy.")],
    game: GameOpt = DEFAULT_GAME,
    elo0: Annotated[float, typer.Option(help="Elo difference of H0 (the new bot is no better than this).")] = 0.0,
    elo1: Annotated[float, typer.Option(help="Elo difference of H1 (the new bot is at least this much better).")]
    = 5.0,
    alpha: Annotated[float, typer.Option(help="False-positive rate.")] = 0.05,
    beta: Annotated[float, typer.Option(help="False-negative rate.")] = 0.05,
    sprt_elo: SprtEloOpt = "logistic",
    rounds: Annotated[int | None, typer.Option(help="Give up after this many batches of duplicate pairs.")] = None,
    seed: Annotated[int, typer.Option(help="Seed.")] = 1,
    db: DbOpt = "tourney.db",
    mode: ModeOpt = None,
    settings: SetOpt = None,
    move_ms: MoveOpt = None,
    workers: WorkersOpt = None,
    local: LocalOpt = False,
    address: AddressOpt = None,
    as_json: JsonOpt = False,
) -> None:
    def body() -> None:
        g = get_game(game)
        check_move_ms(move_ms)
        check_seed(seed, STORED_SEEDS)
        entrants = parse_entrants(bots, g)
        if len(entrants) != 2:
            raise ConfigError(f"sprt compares two bots, not {len(entrants)}: pass --bots new,old.")
        plan = TournamentPlan(game=game, entrants=entrants, seed=seed, games_per_pair=2, players=2,
                              config=parse_settings(g.options, settings, mode), move_ms=move_ms, name="sprt",
                              format="gauntlet", rounds=rounds, sprt=(elo0, elo1, alpha, beta), sprt_elo=sprt_elo)
        plan.spec()
        g.new_state(0, players=2, config=plan.config)
        if not as_json:
            out.print(explain_sprt(elo0, elo1, alpha, beta, sprt_elo), highlight=False)
        _play(db, plan, None, local, address, workers, as_json)
    guarded(body)


@app.command()
def matches(
    tournament_id: Annotated[int, typer.Argument(help="Tournament id.")],
    db: DbOpt = "tourney.db",
    as_json: JsonOpt = False,
) -> None:
    """List a stored tournament's matches: id, round, seats, result."""
    def body() -> None:
        engine = open_existing(db)
        load_plan(engine, tournament_id)  # one sentence if there is no such tournament
        # the web's match list reads the same rows into the same model
        docs = [match_summary(m, seats) for m, seats in match_page(engine, tournament_id).matches]
        if as_json:
            print(MatchesDoc(tournament_id=tournament_id, matches=docs, total=len(docs)).model_dump_json())
            return
        table = Table(title=f"tournament {tournament_id}: {len(docs)} matches")
        for col in ("id", "#", "round", "seats", "result", "plies"):
            table.add_column(col)
        for d in docs:
            seats = " vs ".join(s.bot for s in d.seats)
            # Stored numbers count from 0; people count matches and rounds from 1.
            # Names and reasons (a program's log tail) are text, never rich markup.
            table.add_row(str(d.id), str(d.number + 1), str(d.round + 1), plain(seats, ERROR_CHARS),
                          plain(f"{d.result} ({d.reason})", ERROR_CHARS), str(d.plies))
        Console(width=TABLE_WIDTH).print(table)
    guarded(body)


@app.command()
def replay(
    match_id: Annotated[int, typer.Argument(help="Match id (see `tourney matches ID`).")],
    db: DbOpt = "tourney.db",
    full: Annotated[bool, typer.Option("--full", help="Also name each secret decision and show the seed: the "
                                                      "organiser's view, which names hidden cards.")] = False,
) -> None:
    """Replay a stored match step by step: what each seat did and the public position (what the rules reveal)."""
    def body() -> None:
        engine = open_existing(db)
        found = stored_match(engine, match_id)
        if found is None:
            raise ConfigError(f"there is no match {match_id} in {db}: list them with `tourney matches ID`.")
        match, seats = found
        if match.termination == "BYE":
            out.print(f"match {match_id}: a bye for {plain(seats[0].alias)}", highlight=False)
            return
        record = Replay.from_dict(unpack_replay(match.replay_json))
        by_seat = {s.seat: s.alias for s in seats}  # a solo match stores only the bot's seat: the rest are the game's
        names = [by_seat.get(i, SOLO_AI) for i in range(record.players)]
        replay_match(record)  # first without printing: a replay of an older game version stops here (exit 2)
        result = replay_match(record, play_by_play(get_game(record.game_id), names, reveal_secrets=full))
        places = " > ".join(" = ".join(names[s] for s in tier) for tier in result.ranking)
        seed = f", seed {record.seed}" if full else ""
        out.print(f"match {match_id} ({record.game_id}{seed}): {plain(places, ERROR_CHARS)}; "
                  f"{plain(result.reason, ERROR_CHARS)}", highlight=False)
    guarded(body)


def play_by_play(g: Game, names: Sequence[str], reveal_secrets: bool = False
                 ) -> Callable[[State, list[tuple[int, Action]]], None]:
    """A referee on_step that prints each step for a person: who did what, then the public position.

    Each seat's action is named, simultaneous ones together once applied, except a secret action
    (Maître Ninja's attack line, a parry laid face down, a Tiny Ninjas mulligan): only that the
    seat committed one, and the game's public rendering shows what was revealed. With
    `reveal_secrets` (the organiser's `replay --full`) secret actions are named too.
    """
    if g.legend is not None:
        out.print(g.legend, highlight=False, markup=False, soft_wrap=True)

    def show(state: State, joint: list[tuple[int, Action]]) -> None:
        # Simultaneous moves are revealed together once applied; a secret one stays "committed".
        said = "; ".join(f"seat {seat} ({names[seat]}): "
                         f"{action.label if reveal_secrets or not action.secret else 'committed'}"
                         for seat, action in joint)
        out.print(said, highlight=False, markup=False)
        out.print(g.render(state), highlight=False, markup=False)
    return show
