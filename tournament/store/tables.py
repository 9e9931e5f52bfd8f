"""The results tables (SQLModel, on SQLModel's default metadata).

The schema is managed by Alembic (tournament/migrations): opening a store upgrades it to the
newest revision. After changing a table here, add a revision: `alembic -c tournament/alembic.ini
revision --autogenerate -m "why"` against a database at the previous revision. The league tables
live in league_tables.py, on their own metadata.
"""

from __future__ import annotations

from datetime import UTC, datetime

from sqlalchemy import BigInteger, Column, Float, Table, UniqueConstraint
from sqlmodel import Field, SQLModel
from sqlmodel.sql.sqltypes import AutoString


def now() -> datetime:
    """The time a row is written (UTC)."""
    return datetime.now(UTC)


class Bot(SQLModel, table=True):
    """A named player: a built-in bot spec or a bot program, known across tournaments."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    spec: str


class Tournament(SQLModel, table=True):
    """One tournament: its game, format and the inputs that make it reproducible."""

    id: int | None = Field(default=None, primary_key=True)
    name: str
    game: str
    format: str
    players: int
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    # The organiser's secret behind every match seed (tournament.formats.seeding); "" for tournaments
    # stored before match seeds were keyed.
    seed_key: str = Field(default="", sa_column=Column(AutoString, nullable=False, server_default=""))
    config_json: str = "{}"
    settings_json: str = "{}"
    status: str = "running"  # running | interrupted (its driver was stopped; resume goes on) | finished
    # The driver playing it now ("host:pid", "" when none) and when it last said it is alive (Unix seconds):
    # its lease (tournament/lease.py), so that a second driver is refused.
    runner: str = Field(default="", sa_column=Column(AutoString, nullable=False, server_default=""))
    heartbeat_ts: float = Field(default=0.0, sa_column=Column(Float, nullable=False, server_default="0"))
    created_at: datetime = Field(default_factory=now)


class Entrant(SQLModel, table=True):
    """A bot's entry in a tournament (the same bot may enter under several aliases)."""

    __table_args__ = (UniqueConstraint("tournament_id", "alias"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    bot_id: int = Field(foreign_key="bot.id", index=True)  # a bot's page gathers its entries
    alias: str
    position: int


class Match(SQLModel, table=True):
    """A finished match: who played, how it ended, the seed and the replay."""

    # Its unique (tournament_id, number) index also serves every read by tournament: no index of its own (0010).
    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id")
    number: int  # position in the tournament's schedule
    round: int = 0
    game: str
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))  # 62-bit match seeds
    players: int
    config_json: str = "{}"
    termination: str
    reason: str
    plies: int
    duration_s: float
    replay_json: str
    details_json: str = "{}"
    finished_at: datetime = Field(default_factory=now)


class MatchSeat(SQLModel, table=True):
    """One seat of a finished match: its entrant, place, points and clock."""

    id: int | None = Field(default=None, primary_key=True)
    match_id: int = Field(foreign_key="match.id", index=True)
    seat: int
    entrant_id: int | None = Field(default=None, foreign_key="entrant.id", index=True)  # a bot's page
    alias: str
    tier: int  # 0 = first place (shared within a tier)
    points: float  # 1 win, 0.5 draw, 0 loss (shares for more players)
    score: float
    decisions: int
    think_s: float
    faults_json: str = "{}"


class Rating(SQLModel, table=True):
    """An entrant's rating at the end of a tournament."""

    __table_args__ = (UniqueConstraint("tournament_id", "alias"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    alias: str
    rating: float
    low: float
    high: float
    games: int


class SkillRating(SQLModel, table=True):
    """An entrant's OpenSkill rating (Plackett-Luce μ, σ) and tiebreaks at the end of a tournament."""

    __table_args__ = (UniqueConstraint("tournament_id", "alias"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    alias: str
    mu: float
    sigma: float
    buchholz: float = 0.0
    sonneborn_berger: float = 0.0
    direct: float = 0.0


class Achievement(SQLModel, table=True):
    """An achievement an entrant earned: in one match, or across matches (a streak, with its opponent)."""

    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int = Field(foreign_key="tournament.id", index=True)
    match_id: int | None = Field(default=None, foreign_key="match.id")
    alias: str
    number: int
    name: str
    opponent: str | None = None


# The tables as core Table objects, for the statements a run executes: built from these they compile without
# the ORM, whose first use configures every mapper (~10 ms of every `tourney run`, issue 32).
TOURNAMENTS: Table = Tournament.__table__  # type: ignore[attr-defined]
BOTS: Table = Bot.__table__  # type: ignore[attr-defined]
ENTRANTS: Table = Entrant.__table__  # type: ignore[attr-defined]
MATCHES: Table = Match.__table__  # type: ignore[attr-defined]
SEATS: Table = MatchSeat.__table__  # type: ignore[attr-defined]
RATINGS: Table = Rating.__table__  # type: ignore[attr-defined]
SKILLS: Table = SkillRating.__table__  # type: ignore[attr-defined]
ACHIEVEMENTS: Table = Achievement.__table__  # type: ignore[attr-defined]
