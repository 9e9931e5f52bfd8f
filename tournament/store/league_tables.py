"""The league tables, on their own SQLAlchemy metadata (migration 0003 creates them; open_store runs it).

A league is stored as these rows plus ordinary tournaments, one per division and season
(tables.py); the rows here say which tournament holds which division, who the members are
with their carried ratings, and which schedule slots were claimed and played.
"""

from __future__ import annotations

from sqlalchemy import UniqueConstraint
from sqlalchemy.orm import registry
from sqlmodel import Field, SQLModel

_registry = registry()


class LeagueModel(SQLModel, registry=_registry):
    """Base of the league tables (their own metadata; migration 0003 creates them)."""


class League(LeagueModel, table=True):
    """A league: its game, format, schedule and division settings."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(unique=True, index=True)
    game: str
    format: str
    schedule: str
    rounds_per_season: int | None = None  # None: a full round robin, or ceil(log2 n)+1 Swiss rounds
    divisions: int = 1
    promote: int = 0
    games_per_pair: int = 2
    players: int = 2
    move_ms: int | None = None
    config_json: str = "{}"
    seed: int = 1
    anchor_ts: float  # the schedule's first tick is the first one after this time (moved by resume)
    paused: bool = False  # no round is played while paused; resuming skips the ticks it missed


class LeagueMember(LeagueModel, table=True):
    """A bot in a league, with the rating it carries from round to round and season to season."""

    __table_args__ = (UniqueConstraint("league_id", "alias"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(index=True)
    alias: str
    spec: str
    mu: float
    sigma: float
    division: int | None = None  # None until the member's first season starts
    joined_ts: float
    left_ts: float | None = None  # set by `league leave`: forfeits the rest of the season, then is not placed


class LeagueSeason(LeagueModel, table=True):
    """One season: how many rounds it has."""

    __table_args__ = (UniqueConstraint("league_id", "season"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(index=True)
    season: int
    rounds: int
    started_ts: float


class LeagueDivision(LeagueModel, table=True):
    """The tournament that holds one division of one season."""

    __table_args__ = (UniqueConstraint("league_id", "season", "division"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(index=True)
    season: int
    division: int
    tournament_id: int


class LeagueRound(LeagueModel, table=True):
    """A schedule slot: claimed by exactly one run-due caller (unique league+slot), then done."""

    __table_args__ = (UniqueConstraint("league_id", "slot"),)
    id: int | None = Field(default=None, primary_key=True)
    league_id: int = Field(index=True)
    slot: int
    season: int  # -1: the slot passed without a season (too few members, or missed)
    round: int  # for a missed slot: how many ticks it stands for
    due_ts: float
    status: str  # running | done | skipped | missed (a run of ticks passed over by the catch-up policy)
    owner: str
    claimed_ts: float
    matches: int = 0
    forfeits: int = 0


def league_id(league: League) -> int:
    """The id of a stored league (every league read from the store has one)."""
    assert league.id is not None
    return league.id
