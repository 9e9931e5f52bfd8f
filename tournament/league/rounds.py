"""Playing the rounds that are due (`run_due`): claim a slot, play each division's round, rate it, mark it done."""

from __future__ import annotations

import threading
from collections.abc import Callable
from dataclasses import dataclass, replace
from datetime import UTC, datetime

from sqlalchemy.engine import Engine
from sqlmodel import Session, select

from tourney.engine.core import ConfigError
from tourney.engine.server import LEAGUE_MATCHES, LEAGUE_ROUNDS
from tourney.tournament.formats.registry import next_round
from tourney.tournament.hosted.pinning import pin_for_round, playable
from tourney.tournament.league.forfeits import forfeit, is_forfeit, no_bye
from tourney.tournament.league.members import REMOTE, get_league
from tourney.tournament.league.schedule import (
    DEFAULT_CATCH_UP,
    DEFAULT_LEASE_S,
    MISSED,
    Clock,
    LeaseKeeper,
    claim_slot,
    default_owner,
    release,
    utc_now,
)
from tourney.tournament.league.season import division_tournaments, rate_round, season_started, start_season
from tourney.tournament.runner import count_resume, load_plan
from tourney.tournament.store.league_tables import League, LeagueMember, LeagueRound, LeagueSeason
from tourney.tournament.store.reads import load_history, load_standings
from tourney.tournament.store.writes import record_matches, save_ratings
from tourney.tournament.tournament_lease import TournamentLease
from tourney.workers.executor import Executor
from tourney.workers.local import LocalExecutor
from tourney.workers.threads import RoundStopped

Presence = Callable[[str], bool]
RoundHook = Callable[["RoundReport"], None]


@dataclass
class RoundReport:
    league: str
    slot: int
    season: int  # stored numbers count from 0; text for people says season + 1, round + 1
    round: int  # for a missed slot: how many ticks were passed over
    due: datetime
    matches: int
    forfeits: int
    status: str  # done | skipped | missed | released (stopped mid-round, claim given back)

    def line(self) -> str:
        """The one line `run-due` (and the arena) print for this slot."""
        due = f"{self.due:%Y-%m-%d %H:%M}"
        if self.status == MISSED:
            return (f"{self.league}: missed {self.round} round(s) due up to {due} (catch-up policy); "
                    "playing the latest")
        if self.status == "skipped":
            return (f"{self.league}: round due {due} skipped: too few bots for its divisions (each needs two); "
                    "add bots with `tourney league join` or create the league with fewer --divisions.")
        if self.status == "released":
            return f"{self.league}: season {self.season + 1} round {self.round + 1} (due {due}) stopped; claim released"
        return (f"{self.league}: season {self.season + 1} round {self.round + 1} (due {due}) {self.status}, "
                f"{self.matches} matches, {self.forfeits} forfeits")


def run_due(
    engine: Engine,
    name: str | None = None,
    clock: Clock = utc_now,
    executor: Executor | None = None,
    presence: Presence | None = None,
    owner: str | None = None,
    lease_s: float = DEFAULT_LEASE_S,
    max_rounds: int | None = None,
    catch_up: int | None = DEFAULT_CATCH_UP,
    on_round: RoundHook | None = None,
    stop: threading.Event | None = None,
) -> list[RoundReport]:
    """Play every round (of league `name`, or of every league not paused) whose scheduled time has passed.

    presence(spec) tells whether a remote bot is connected; an offline bot forfeits its
    matches of the round and gets no bye. Without it, remote bots count as offline (they can
    only play on an arena: `tourney serve --leagues`). catch_up: how many of the due rounds
    are played when several are (None: all); the older ones become one missed slot.
    on_round(report) runs as each slot ends. Setting `stop` ends the call between matches,
    giving the round's claim back. Returns the slots this call handled.
    """
    if lease_s <= 0:
        raise ConfigError(f"the claim lease must be a positive number of seconds, not {lease_s}.")
    with Session(engine) as session:
        if name is not None:
            ids = [get_league(session, name).id]
        else:
            ids = [lg.id for lg in session.exec(select(League).where(League.paused == False)  # noqa: E712
                                                .order_by(League.id))]  # type: ignore[arg-type]
    played: list[RoundReport] = []
    me = owner or default_owner()
    for league_id in ids:
        assert league_id is not None
        while max_rounds is None or len(played) < max_rounds:
            if stop is not None and stop.is_set():
                return played
            report = _run_next(engine, league_id, clock, executor or LocalExecutor(), presence or _builtin_only, me,
                               lease_s, catch_up, stop)
            if report is None:
                break
            played.append(report)
            count_round(report)
            if on_round is not None:
                on_round(report)
            if report.status == "released":
                return played
    return played


def count_round(report: RoundReport) -> None:
    """The league series of the metrics registry (served by whichever process plays the rounds)."""
    LEAGUE_ROUNDS.labels(report.status).inc()
    LEAGUE_MATCHES.labels("played").inc(report.matches)
    LEAGUE_MATCHES.labels("forfeit").inc(report.forfeits)


def _builtin_only(spec: str) -> bool:
    return not spec.startswith(REMOTE)


def _run_next(engine: Engine, league_id: int, clock: Clock, executor: Executor, presence: Presence, owner: str,
              lease_s: float, catch_up: int | None = None, stop: threading.Event | None = None
              ) -> RoundReport | None:
    with Session(engine) as session:
        league = session.get(League, league_id)
        assert league is not None
        session.expunge(league)
    claim = claim_slot(engine, league, clock().timestamp(), owner, lease_s, catch_up)
    if claim is None:
        return None
    due = datetime.fromtimestamp(claim.due_ts, UTC)
    if claim.status == MISSED:
        return RoundReport(league.name, claim.slot, -1, claim.round, due, 0, 0, MISSED)
    assert claim.id is not None
    status = "done"
    matches = forfeits = 0
    try:
        with LeaseKeeper(engine, claim.id, owner, lease_s, clock):
            if claim.round == 0 and not season_started(engine, league, claim.season) \
                    and not start_season(engine, league, claim.season, clock().timestamp()):
                status = "skipped"
            if status == "done":
                matches, forfeits = _play_round(engine, league, claim.season, claim.round, executor, presence,
                                                stop)
    except RoundStopped:
        release(engine, claim.id, owner)
        return RoundReport(league.name, claim.slot, claim.season, claim.round, due, matches, forfeits, "released")
    except BaseException:
        # SIGTERM (raised as an exception by the command line), Ctrl-C or a failure: whoever runs next
        # takes the round over at once instead of after the lease.
        release(engine, claim.id, owner)
        raise
    _finish(engine, league, claim, status, matches, forfeits)
    return RoundReport(league.name, claim.slot, claim.season if status == "done" else -1, claim.round,
                       due, matches, forfeits, status)


def _play_round(engine: Engine, league: League, season: int, rnd: int, executor: Executor,
                presence: Presence, stop: threading.Event | None = None) -> tuple[int, int]:
    """Round `rnd` of every division; offline bots (and members who left, and hosted ones with nothing to play)
    forfeit, and get no bye.
    Returns (matches played, forfeits)."""
    played = forfeits = 0
    gone = _left(engine, league)
    for _division, tid in division_tournaments(engine, league, season):
        # Held while its round is played: a `tourney resume` of the division meanwhile is refused.
        with TournamentLease(engine, tid) as lease:
            tid, plan = load_plan(engine, tid)
            # Each round (and a round taken over) resumes the division: its matches left unstored are dealt anew.
            count_resume(engine, tid, plan)
            spec = plan.spec()
            n = len(plan.entrants)
            aliases = [e.alias for e in plan.entrants]
            if plan.format == "swiss":
                pairings = next_round(spec, n, load_history(engine, tid, aliases), rnd) or []
            else:
                pairings = [p for p in next_round(spec, n, [], 0) or [] if p.round == rnd]
            # A hosted member with nothing to play (retired, nothing validated) is as absent as one who left.
            online = {i: e.alias not in gone and presence(e.spec) and playable(engine, e.spec)
                      for i, e in enumerate(plan.entrants)}
            byes = [p for p in pairings if len(p.seats) == 1 and online[p.seats[0]]]
            lost_byes = [no_bye(plan, p) for p in pairings if len(p.seats) == 1 and not online[p.seats[0]]]
            absent = [p for p in pairings if len(p.seats) > 1 and not all(online[s] for s in p.seats)]
            games = [p for p in pairings if len(p.seats) > 1 and all(online[s] for s in p.seats)]
            record_matches(engine, tid, plan, [forfeit(plan, p, online) for p in absent] + lost_byes, byes)
            forfeits += len(absent)
            # Hosted members pinned for the round (as it started), so both games of a duplicate pair meet one version.
            chunks = executor.run(replace(plan, entrants=pin_for_round(engine, tid, rnd, plan.entrants)), games)
            try:
                for chunk in chunks:
                    record_matches(engine, tid, plan, chunk)
                    # An executor that finds a bot gone only when it asks for the match returns a forfeit.
                    absent_now = sum(1 for _, rec, _ in chunk if is_forfeit(rec))
                    played += len(chunk) - absent_now
                    forfeits += absent_now
                    lease.check()  # taken over: the other process plays the rest
                    if stop is not None and stop.is_set():
                        raise RoundStopped
                if stop is not None and stop.is_set():  # the executor stopped handing out matches early
                    raise RoundStopped
            finally:
                close = getattr(chunks, "close", None)
                if close is not None:
                    close()  # a generator left early stops handing out matches now, not when collected
    return played, forfeits


def _left(engine: Engine, league: League) -> set[str]:
    with Session(engine) as session:
        return {m.alias for m in session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id)
                                              .where(LeagueMember.left_ts != None))}  # noqa: E711


def _finish(engine: Engine, league: League, claim: LeagueRound, status: str, matches: int, forfeits: int) -> None:
    """Update carried ratings from the round's matches and mark the slot done, in one transaction;
    at a season's last round, store each division's final ratings and close its tournament."""
    with Session(engine) as session:
        row = session.get(LeagueRound, claim.id)
        assert row is not None
        if row.owner != claim.owner or row.status != "running":
            return  # our claim expired and another caller took the round over
        season_rounds = 0
        if status == "done":
            rate_round(session, league, claim.season, claim.round)
            season = session.exec(select(LeagueSeason).where(LeagueSeason.league_id == league.id)
                                  .where(LeagueSeason.season == claim.season)).first()
            season_rounds = season.rounds if season is not None else 0
        else:
            row.season = -1
        row.status = status
        row.matches = matches
        row.forfeits = forfeits
        session.add(row)
        session.commit()
    if status == "done" and claim.round + 1 >= season_rounds:
        for _division, tid in division_tournaments(engine, league, claim.season):
            _, plan = load_plan(engine, tid)
            save_ratings(engine, tid, load_standings(engine, tid, [e.alias for e in plan.entrants]))
