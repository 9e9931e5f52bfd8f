"""The ladder tables (SQLModel's default metadata; migration 0008 creates them).

A ladder is one per game: its seed key, its entrants (a bot spec under an alias, with the
OpenSkill rating it has now) and its matches. A match row is written when the match is
scheduled (status "scheduled": its number, seats and seed are fixed from then on) and
completed in the same transaction that moves its players' ratings (status "done"), so a
ladder killed at any moment restarts by replaying exactly the scheduled rows.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import BigInteger, Column, Index, UniqueConstraint
from sqlmodel import Field, SQLModel

from tourney.tournament.store.tables import now

SCHEDULED = "scheduled"
DONE = "done"


class Ladder(SQLModel, table=True):
    """A game's ladder: the organiser's secret behind its match seeds."""

    id: int | None = Field(default=None, primary_key=True)
    game: str = Field(unique=True, index=True)
    seed_key: str
    settings_json: str = ""  # players, config and move_ms, fixed by its first `ladder run` ("" until then)
    runner: str = ""  # the `ladder run` playing it now ("host:pid"), "" when none
    heartbeat_ts: float = 0.0  # when that run last said it is alive (Unix seconds)
    created_at: datetime = Field(default_factory=now)


class LadderBot(SQLModel, table=True):
    """A ladder entrant: a bot spec under an alias, its current rating and how many matches it has had."""

    __table_args__ = (UniqueConstraint("ladder_id", "alias"),)
    id: int | None = Field(default=None, primary_key=True)
    ladder_id: int = Field(foreign_key="ladder.id", index=True)
    alias: str
    spec: str
    mu: float
    sigma: float
    matches: int = 0
    wins: int = 0
    # False once it left the ladder (a hosted bot retired, or replaced by its newer version): it gets
    # no new match; its rating and matches stay, as the history of that version.
    active: bool = True
    added_at: datetime = Field(default_factory=now)


class LadderMatch(SQLModel, table=True):
    """One ladder match: scheduled (seats and seed fixed), then done (result, ratings after, replay)."""

    # The web page lists the latest rated matches: an index, not a sort of every match.
    __table_args__ = (UniqueConstraint("ladder_id", "number"),
                      Index("ix_laddermatch_ladder_rated", "ladder_id", "rated"))
    id: int | None = Field(default=None, primary_key=True)
    ladder_id: int = Field(foreign_key="ladder.id", index=True)
    number: int  # the order it was scheduled in; the seed is a keyed hash of it
    seed: int = Field(sa_column=Column(BigInteger, nullable=False))
    aliases_json: str  # the seats' aliases, in seat order
    status: str = Field(default=SCHEDULED, index=True)
    rated: int | None = None  # the order its result was rated in (arrival order); None while scheduled
    termination: str = ""
    reason: str = ""
    plies: int = 0
    duration_s: float = 0.0
    seats_json: str = "[]"  # per seat: tier, points, and mu, sigma after this match
    replay_json: str = ""
    scheduled_at: datetime = Field(default_factory=now)
    finished_at: datetime | None = None
