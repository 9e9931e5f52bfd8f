"""When league rounds are due and who plays them: cron ticks, claims (leases), catch-up after downtime."""

from __future__ import annotations

import os
import socket
import threading
from collections.abc import Callable
from datetime import UTC, datetime

from croniter import CroniterBadDateError, croniter
from sqlalchemy import update
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from tourney.engine.core import ConfigError
from tourney.tournament.store.league_tables import League, LeagueRound, LeagueSeason, league_id

DEFAULT_LEASE_S = 300.0  # a claim not renewed for this long belongs to a dead caller
DEFAULT_CATCH_UP = 3  # due rounds played after downtime; older ones are recorded as missed
MISSED = "missed"
Clock = Callable[[], datetime]


def utc_now() -> datetime:
    return datetime.now(UTC)


def next_due(session: Session, league: League) -> datetime:
    last = session.exec(select(LeagueRound).where(LeagueRound.league_id == league.id)
                        .order_by(LeagueRound.slot.desc())).first()  # type: ignore[attr-defined]
    return datetime.fromtimestamp(due_after(league, last), UTC)


def due_after(league: League, last: LeagueRound | None) -> float:
    """When the slot after `last` is due: the schedule's next tick after the last slot (or after
    the league's anchor: its creation, or its last resume)."""
    anchor = league.anchor_ts if last is None else max(last.due_ts, league.anchor_ts)
    return next_tick(league.schedule, anchor)


def next_tick(schedule: str, after: float) -> float:
    """The first tick of cron `schedule` after the timestamp `after`; ConfigError when there is none
    (a date that never comes, such as the 31st of February, or none before the calendar's end)."""
    try:
        return float(croniter(schedule, after).get_next(float))
    except (CroniterBadDateError, OverflowError):
        raise ConfigError(f"the schedule '{schedule}' has no date after {datetime.fromtimestamp(after, UTC):%Y-%m-%d}"
                          " to fall on: write one whose days exist, e.g. '0 20 * * *'.") from None


def parse_catch_up(text: str) -> int | None:
    """--catch-up: `all` (None), `latest` (1) or a positive number of rounds."""
    value = text.strip().lower()
    if value == "all":
        return None
    if value == "latest":
        return 1
    if value.isdigit() and int(value) >= 1:
        return int(value)
    raise ConfigError(f"--catch-up is all, latest or a number of rounds (at least 1), not '{text}'.")


def default_owner() -> str:
    return f"{socket.gethostname()}:{os.getpid()}"


def claim_slot(engine: Engine, league: League, now: float, owner: str, lease_s: float,
           catch_up: int | None = None) -> LeagueRound | None:
    """Claim the next slot that is due (or a dead or stopped caller's claim); None when there is none to take.

    When more than `catch_up` ticks are due, the older ones are claimed together as one missed slot.
    """
    with Session(engine) as session:
        last = session.exec(select(LeagueRound).where(LeagueRound.league_id == league.id)
                            .order_by(LeagueRound.slot.desc())).first()  # type: ignore[attr-defined]
        if last is not None and last.status == "running":
            if last.claimed_ts > now - lease_s:
                return None  # another caller is playing it
            # Reclaim atomically: only one caller's UPDATE matches the old owner and time.
            result = session.execute(update(LeagueRound).where(LeagueRound.id == last.id)  # type: ignore[arg-type]
                                     .where(LeagueRound.owner == last.owner)  # type: ignore[arg-type]
                                     .where(LeagueRound.claimed_ts == last.claimed_ts)  # type: ignore[arg-type]
                                     .values(owner=owner, claimed_ts=now))
            session.commit()
            if result.rowcount != 1:  # type: ignore[attr-defined]
                return None
            session.refresh(last)
            return last
        if league.paused:
            return None
        due = due_after(league, last)
        if due > now:
            return None
        slot = 0 if last is None else last.slot + 1
        kept = _oldest_kept(league.schedule, now, catch_up)
        if kept is not None and due < kept:
            # Ticks from `due` to just before `kept` are passed over: one row stands for all of them.
            newest_missed = float(croniter(league.schedule, kept).get_prev(float))
            claim = LeagueRound(league_id=league_id(league), slot=slot, season=-1,
                                round=_ticks(league.schedule, due, kept), due_ts=newest_missed, status=MISSED,
                                owner=owner, claimed_ts=now)
        else:
            season, rnd = _next_position(session, league, last)
            claim = LeagueRound(league_id=league_id(league), slot=slot, season=season, round=rnd, due_ts=due,
                                status="running", owner=owner, claimed_ts=now)
        session.add(claim)
        try:
            session.commit()
        except IntegrityError:  # another caller claimed this slot first
            session.rollback()
            return None
        session.refresh(claim)
        return claim


MAX_COUNTED_TICKS = 100_000  # counting missed ticks stops here (an every-minute league down for months)


def _oldest_kept(schedule: str, now: float, catch_up: int | None) -> float | None:
    """The earliest of the latest `catch_up` ticks at or before `now` (None: keep every tick)."""
    if catch_up is None:
        return None
    ticks = croniter(schedule, now + 1e-3)
    tick = now
    for _ in range(catch_up):
        tick = float(ticks.get_prev(float))
    return tick


def _ticks(schedule: str, first: float, until: float) -> int:
    """How many ticks fall in [first, until) (first is a tick)."""
    ticks = croniter(schedule, first)
    count, tick = 1, first
    while count < MAX_COUNTED_TICKS:
        tick = float(ticks.get_next(float))
        if tick >= until:
            break
        count += 1
    return count


class LeaseKeeper:
    """Renews a round's claim every third of the lease while the round plays (a daemon thread).

    Only a claim still ours and still running is renewed; a caller that lost its claim (the
    lease ran out while it was stalled) finds out when it finishes the round (rounds.py), which then
    leaves the round alone.
    """

    def __init__(self, engine: Engine, claim_id: int, owner: str, lease_s: float, clock: Clock) -> None:
        self.engine = engine
        self.claim_id = claim_id
        self.owner = owner
        self.interval_s = lease_s / 3
        self.clock = clock
        self._done = threading.Event()
        self._thread = threading.Thread(target=self._run, name="league-lease", daemon=True)

    def renew(self) -> bool:
        """Push the claim's time to now; False when the claim is no longer ours."""
        with Session(self.engine) as session:
            result = session.execute(update(LeagueRound).where(LeagueRound.id == self.claim_id)  # type: ignore[arg-type]
                                     .where(LeagueRound.owner == self.owner)  # type: ignore[arg-type]
                                     .where(LeagueRound.status == "running")  # type: ignore[arg-type]
                                     .values(claimed_ts=self.clock().timestamp()))
            session.commit()
            return bool(result.rowcount == 1)  # type: ignore[attr-defined]

    def _run(self) -> None:
        while not self._done.wait(self.interval_s):
            try:
                if not self.renew():
                    return
            except Exception:  # the database is away for a moment: the next beat tries again
                continue

    def __enter__(self) -> LeaseKeeper:
        self._thread.start()
        return self

    def __exit__(self, *_exc: object) -> None:
        self._done.set()
        self._thread.join(5.0)


def release(engine: Engine, claim_id: int, owner: str) -> bool:
    """Give a running claim back (its time goes to 0, so the next caller takes it over at once)."""
    with Session(engine) as session:
        result = session.execute(update(LeagueRound).where(LeagueRound.id == claim_id)  # type: ignore[arg-type]
                                 .where(LeagueRound.owner == owner)  # type: ignore[arg-type]
                                 .where(LeagueRound.status == "running")  # type: ignore[arg-type]
                                 .values(claimed_ts=0.0))
        session.commit()
        return bool(result.rowcount == 1)  # type: ignore[attr-defined]


def _next_position(session: Session, league: League, last: LeagueRound | None) -> tuple[int, int]:
    """(season, round) of the slot after `last`: the next round, or round 0 of a new season."""
    played = session.exec(select(LeagueRound).where(LeagueRound.league_id == league.id)
                          .where(LeagueRound.season >= 0)
                          .order_by(LeagueRound.slot.desc())).first()  # type: ignore[attr-defined]
    if played is None:
        return 0, 0
    season = session.exec(select(LeagueSeason).where(LeagueSeason.league_id == league.id)
                          .where(LeagueSeason.season == played.season)).first()
    if season is not None and played.round + 1 < season.rounds:
        return played.season, played.round + 1
    return played.season + 1, 0


def parse_when(text: str | None) -> datetime | None:
    """An ISO time (UTC when no zone is given), for --now."""
    if text is None:
        return None
    try:
        when = datetime.fromisoformat(text)
    except ValueError:
        raise ConfigError(f"'{text}' is not an ISO time: write e.g. --now 2026-01-31T20:00.") from None
    return when if when.tzinfo is not None else when.replace(tzinfo=UTC)
