"""The tournament driver: plan each round, hand its matches to an executor, write results as they arrive.

An executor (workers/: Ray tasks, or this process with --local) plays chunks of pairings and
yields each chunk when it is done; the driver writes the chunk in one transaction at once
(tournament.store.writes). A match is a pure function of (game, config, seed, bots), so the
same plan always gives the same results whatever the executor, and a resumed tournament plays
only what is not stored. Standings and ratings are computed from stored matches in schedule
order, never arrival order (tournament.store.reads).
"""

from __future__ import annotations

from collections.abc import Callable
from dataclasses import dataclass

from sqlalchemy.engine import Engine

from tourney.engine.core import get_game
from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.registry import FormatSpec, next_round, sprt_state
from tourney.tournament.lease import this_runner
from tourney.tournament.plan import RESUMES, TournamentPlan, bot_seed, play_and_record, play_pairing
from tourney.tournament.rating.achievements import rules_for
from tourney.tournament.rating.played_numbers import PlayedNumbers
from tourney.tournament.rating.sprt import SprtState
from tourney.tournament.rating.standings import Standing
from tourney.tournament.store.codec import loads
from tourney.tournament.store.database import url_of
from tourney.tournament.store.reads import (
    load_history,
    load_match_log,
    standings_of,
    stored_numbers,
    stored_setting,
    stored_tournament,
)
from tourney.tournament.store.records import BYE_SEED
from tourney.tournament.store.writes import (
    bye_records,
    create_tournament,
    mark_status,
    record_matches,
    save_ratings,
    save_setting,
    save_streaks,
)
from tourney.tournament.store.written_log import WrittenLog
from tourney.tournament.tournament_lease import TournamentLease
from tourney.workers.executor import Executor
from tourney.workers.local import LocalExecutor

# The plan and the playing of one match live in tournament.plan (what a worker imports); named here too
# for the many callers that import them with the driver.
__all__ = ["TournamentPlan", "TournamentReport", "bot_seed", "count_resume", "load_plan", "play_and_record",
           "play_pairing", "run_tournament"]


@dataclass
class TournamentReport:
    tournament_id: int
    standings: list[Standing]
    matches: int
    sprt: SprtState | None = None


def load_plan(engine: Engine, tournament_id: int) -> tuple[int, TournamentPlan]:
    """The stored tournament's plan, to resume it."""
    t, entered = stored_tournament(engine, tournament_id)
    settings = loads(t.settings_json)
    specs = {a: sp for a, sp in settings.get("entrants", [])}
    entrants = [Entrant(alias, specs.get(alias, spec)) for alias, spec in entered]
    sprt = settings.get("sprt")
    plan = TournamentPlan(game=t.game, entrants=entrants, seed=t.seed,
                          games_per_pair=int(settings.get("games_per_pair", 2)), players=t.players,
                          config=loads(t.config_json), move_ms=settings.get("move_ms"), name=t.name,
                          format=settings.get("format", t.format), cycles=int(settings.get("cycles", 1)),
                          rounds=settings.get("rounds"),
                          sprt=(float(sprt[0]), float(sprt[1]), float(sprt[2]), float(sprt[3])) if sprt else None,
                          seed_key=t.seed_key, sprt_elo=str(settings.get("sprt_elo", "logistic")),
                          store=url_of(engine), resumes=int(settings.get(RESUMES, 0)))
    assert t.id is not None
    return t.id, plan


def count_resume(engine: Engine, tournament_id: int, plan: TournamentPlan) -> None:
    """Count one more resume of the tournament, in the store and in `plan`, before it plays a match: the
    tables that get deals of their own then get fresh ones (TournamentPlan.seed_of)."""
    plan.resumes = int(stored_setting(engine, tournament_id, RESUMES) or 0) + 1
    save_setting(engine, tournament_id, RESUMES, plan.resumes)


def run_tournament(
    engine: Engine,
    plan: TournamentPlan,
    tournament_id: int | None = None,
    on_match: Callable[[int, int], None] | None = None,
    executor: Executor | None = None,
    on_start: Callable[[int], None] | None = None,
) -> TournamentReport:
    """Play every planned match not yet stored, writing each chunk as it arrives; return the standings.

    The tournament is held for this process while it plays (TournamentLease): a tournament another live process
    plays is refused with one sentence, and a run that loses it (stalled, taken over) stops between chunks.
    """
    spec = plan.spec()  # a plan that cannot be played fails before anything is stored
    me = this_runner()
    resumed = tournament_id is not None
    if tournament_id is None:
        tournament_id = create_tournament(engine, plan, runner=me)  # held from the start: no resume picks it up
    with TournamentLease(engine, tournament_id, me) as lease:
        try:
            return _drive(engine, plan, spec, tournament_id, resumed, lease, on_match, executor, on_start)
        except KeyboardInterrupt:  # said while still held, so the next driver's "running" is never overwritten
            mark_status(engine, tournament_id, "interrupted", me)
            raise


def _drive(engine: Engine, plan: TournamentPlan, spec: FormatSpec, tournament_id: int, resumed: bool,
           lease: TournamentLease, on_match: Callable[[int, int], None] | None, executor: Executor | None,
           on_start: Callable[[int], None] | None) -> TournamentReport:
    """run_tournament's play, holding the tournament's lease."""
    n = len(plan.entrants)
    aliases = [e.alias for e in plan.entrants]
    runner = executor if executor is not None else LocalExecutor()
    if resumed:
        mark_status(engine, tournament_id, "running", lease.me)  # no longer interrupted
        count_resume(engine, tournament_id, plan)
    if on_start is not None:
        on_start(tournament_id)
    done = PlayedNumbers(stored_numbers(engine, tournament_id))
    # Nothing stored yet: the run keeps what it writes for the end (store.written_log) instead of reading it back.
    kept = WrittenLog() if not len(done) else None
    # Only progress needs the total, and counting it builds the whole schedule once more (a format plans it to
    # count it): ~1 us a match of the shortest, issue 32.
    expected = plan.expected_matches() if on_match is not None else None
    total = max(expected, len(done)) if expected is not None else 0  # 0: open-ended (SPRT)
    r = 0
    while True:
        history = load_history(engine, tournament_id, aliases) if r > 0 and spec.format != "round-robin" else []
        pairings = next_round(spec, n, history, r)
        if pairings is None:
            break
        todo = [p for p in pairings if p.number not in done]
        byes = [p for p in todo if p.seed_offset == BYE_SEED]
        if byes:
            record_matches(engine, tournament_id, plan, [], byes)
            if kept is not None:
                kept.add(bye_records(plan, byes))
            done.update(b.number for b in byes)
        matches = [p for p in todo if p.seed_offset != BYE_SEED]
        for chunk in runner.run(plan, matches):
            record_matches(engine, tournament_id, plan, chunk)
            if kept is not None:
                kept.add(chunk)
            done.update(p.number for p, _, _ in chunk)
            if on_match is not None:
                on_match(len(done), total)
            lease.check()  # taken over: the other driver plays the rest
        r += 1
    # One log for standings, ratings and streaks: kept, or read once from the store.
    log = kept.log() if kept is not None else load_match_log(engine, tournament_id)
    standings = standings_of(aliases, log)
    save_ratings(engine, tournament_id, standings)
    game = get_game(plan.game)
    save_streaks(engine, tournament_id, rules_for(game.streak_achievements, plan.config, game.default_config()), log)
    verdict = sprt_state(spec, load_history(engine, tournament_id, aliases)) if spec.sprt else None
    return TournamentReport(tournament_id, standings, len(done), verdict)
