"""A league and its members: creating, joining, leaving, pausing and listing leagues."""

from __future__ import annotations

from dataclasses import dataclass, field
from datetime import datetime
from typing import Any

from croniter import croniter
from sqlalchemy.engine import Engine
from sqlalchemy.exc import IntegrityError
from sqlmodel import Session, select

from tourney.engine.core import ConfigError, get_game
from tourney.engine.server import command_name, is_command
from tourney.tournament.formats.registry import MAX_MATCHES
from tourney.tournament.labels import check_label
from tourney.tournament.league.schedule import next_due, next_tick, utc_now
from tourney.tournament.rating.ratings import initial_skill
from tourney.tournament.store.codec import dumps
from tourney.tournament.store.hosted import resolve_version
from tourney.tournament.store.league_tables import League, LeagueMember, LeagueSeason
from tourney.workers.program_specs import is_hosted, parse_hosted

LEAGUE_FORMATS = ("swiss", "round-robin")
REMOTE = "remote:"


@dataclass
class LeagueSettings:
    name: str
    game: str
    format: str = "swiss"
    schedule: str = "0 * * * *"
    rounds_per_season: int | None = None
    divisions: int = 1
    promote: int = 0
    games_per_pair: int = 2
    players: int = 2
    move_ms: int | None = None
    config: dict[str, Any] = field(default_factory=dict)
    seed: int = 1

    def check(self) -> None:
        """One sentence for each setting a user can get wrong."""
        check_label(self.name, "the league's name")
        game = get_game(self.game)
        if self.format not in LEAGUE_FORMATS:
            raise ConfigError(f"a league's format is swiss or round-robin, not '{self.format}': fix --format.")
        if not croniter.is_valid(self.schedule):
            raise ConfigError(f"'{self.schedule}' is not a cron schedule: write five fields, e.g. --schedule "
                              "'0 20 * * *' for every day at 20:00 UTC.")
        if self.rounds_per_season is not None and self.rounds_per_season < 1:
            raise ConfigError(f"--rounds-per-season must be at least 1, not {self.rounds_per_season}.")
        if self.divisions < 1:
            raise ConfigError(f"--divisions must be at least 1, not {self.divisions}.")
        if self.promote < 0 or (self.divisions > 1 and self.promote < 1):
            raise ConfigError("--promote must be at least 1 when there are several divisions: pass e.g. --promote 2.")
        if self.games_per_pair < 1:
            raise ConfigError(f"--games-per-pair must be at least 1, not {self.games_per_pair}.")
        if self.games_per_pair > MAX_MATCHES:  # even a round of two bots could never be played
            raise ConfigError(f"--games-per-pair {self.games_per_pair:,} is more than the {MAX_MATCHES:,} matches one "
                              "round holds: lower it.")
        if self.players != 2 or not game.min_players <= 2 <= game.max_players:
            raise ConfigError(f"leagues pair two players per match and {self.game} is not a two-player game: "
                              "pick another --game.")
        game.new_state(0, players=2, config=self.config)


def create_league(engine: Engine, settings: LeagueSettings, now: datetime | None = None) -> int:
    """Store a new league; its first round is the schedule's first tick after `now`."""
    settings.check()
    when = now or utc_now()
    next_tick(settings.schedule, when.timestamp())  # a schedule with no date to come (31 February) is refused here
    with Session(engine) as session:
        if session.exec(select(League).where(League.name == settings.name)).first() is not None:
            raise ConfigError(f"there is already a league named '{settings.name}': pick another name.")
        league = League(name=settings.name, game=settings.game, format=settings.format, schedule=settings.schedule,
                        rounds_per_season=settings.rounds_per_season, divisions=settings.divisions,
                        promote=settings.promote, games_per_pair=settings.games_per_pair, players=settings.players,
                        move_ms=settings.move_ms, config_json=dumps(settings.config), seed=settings.seed,
                        anchor_ts=when.timestamp())
        session.add(league)
        try:
            session.commit()
        except IntegrityError:
            raise ConfigError(f"there is already a league named '{settings.name}': pick another name.") from None
        assert league.id is not None
        return league.id


def get_league(session: Session, name: str) -> League:
    league = session.exec(select(League).where(League.name == name)).first()
    if league is None:
        raise ConfigError(f"there is no league named '{name}': create it with `tourney league create`.")
    return league


def join_league(engine: Engine, name: str, spec: str, alias: str | None = None, now: datetime | None = None) -> str:
    """Enter bot `spec`: a built-in bot, remote:NAME (a bot connected to the arena), cmd:PROGRAM (a
    program started for each match where the round is played) or hosted:NAME (a submitted bot, run
    sandboxed where the round is played); returns its alias.

    A bot that joins during a season plays from the next season on, in the lowest division. A
    member that left may join again under the same alias (its rating is kept).
    """
    with Session(engine) as session:
        league = get_league(session, name)
        assert league.id is not None
        if is_command(spec):
            command_name(spec, 0)  # a spec naming no program fails here; the program runs where rounds are played
        elif is_hosted(spec):  # it plays its latest validated version (or the one named) as each round starts
            name_, version = parse_hosted(spec)
            resolve_version(engine, name_, version)
        elif not spec.startswith(REMOTE):
            from tourney.engine.bots import make_bot

            make_bot(spec, get_game(league.game), 0)  # an unknown bot fails here
        who = alias or spec
        existing = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id)
                                .where(LeagueMember.alias == who)).first()
        if existing is not None and existing.left_ts is not None and existing.spec == spec:
            existing.left_ts = None
            session.add(existing)
            session.commit()
            return who
        if existing is not None:
            raise ConfigError(f"'{who}' is already in league '{name}': pass another --alias.")
        rating = initial_skill(who)
        session.add(LeagueMember(league_id=league.id, alias=who, spec=spec, mu=rating.mu, sigma=rating.sigma,
                                 joined_ts=(now or utc_now()).timestamp()))
        try:
            session.commit()
        except IntegrityError:
            raise ConfigError(f"'{who}' is already in league '{name}': pass another --alias.") from None
    return who


def leave_league(engine: Engine, name: str, alias: str, now: datetime | None = None) -> None:
    """Take `alias` out of the league: it forfeits its remaining matches of the season and is not
    placed in the next one. Its results so far stay in the standings."""
    with Session(engine) as session:
        league = get_league(session, name)
        member = session.exec(select(LeagueMember).where(LeagueMember.league_id == league.id)
                              .where(LeagueMember.alias == alias)).first()
        if member is None or member.left_ts is not None:
            raise ConfigError(f"'{alias}' is not a member of league '{name}': see `tourney league list`.")
        member.left_ts = (now or utc_now()).timestamp()
        session.add(member)
        session.commit()


def set_paused(engine: Engine, name: str, paused: bool, now: datetime | None = None) -> datetime:
    """Pause or resume a league; returns when its next round is due.

    Resuming does not play the ticks that passed while it was paused: the schedule restarts
    from the time of resuming.
    """
    with Session(engine) as session:
        league = get_league(session, name)
        if league.paused == paused:
            state = "paused" if paused else "running"
            raise ConfigError(f"league '{name}' is already {state}: nothing to do.")
        league.paused = paused
        if not paused:
            league.anchor_ts = (now or utc_now()).timestamp()
        session.add(league)
        session.commit()
        return (now or utc_now()) if paused else next_due(session, league)


@dataclass
class LeagueSummary:
    """One line of `tourney league list`."""

    name: str
    game: str
    format: str
    schedule: str
    members: int
    paused: bool
    season: int | None  # the latest started season
    next_due: datetime | None  # None while paused


def list_leagues(engine: Engine) -> list[LeagueSummary]:
    """Every league, by name."""
    out = []
    with Session(engine) as session:
        leagues = session.exec(select(League).order_by(League.name)).all()
        for lg in leagues:
            members = session.exec(select(LeagueMember).where(LeagueMember.league_id == lg.id)
                                   .where(LeagueMember.left_ts == None)).all()  # noqa: E711  (SQL IS NULL)
            seasons = [s.season for s in session.exec(select(LeagueSeason).where(LeagueSeason.league_id == lg.id))]
            out.append(LeagueSummary(lg.name, lg.game, lg.format, lg.schedule, len(members), lg.paused,
                                     max(seasons) if seasons else None,
                                     None if lg.paused else next_due(session, lg)))
    return out
