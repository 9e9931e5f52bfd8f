"""The results tables (SQLModel) and the session helpers around them.

SQLite file by default; any SQLAlchemy URL (PostgreSQL) works. The schema is managed by
Alembic (tournament/migrations): opening a store upgrades it to the newest revision. After
changing a table here, add a revision: `alembic -c tournament/alembic.ini revision
--autogenerate -m "why"` against a database at the previous revision. Each finished match is
written in its own transaction as soon as it ends, so a driver that dies loses nothing
that finished, and a resumed tournament skips what is already stored.
"""

from __future__ import annotations

import json
from datetime import UTC, datetime
from pathlib import Path
from typing import Any

from sqlalchemy import BigInteger, Column, UniqueConstraint, event, inspect
from sqlalchemy.engine import Engine
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import Field, Session, SQLModel, create_engine, select
from sqlmodel.sql.sqltypes import AutoString

from engine.core import TourneyError


def _now() -> datetime:
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
    # The organiser's secret behind every match seed (tournament.seeding); "" for tournaments
    # stored before match seeds were keyed.
    seed_key: str = Field(default="", sa_column=Column(AutoString, nullable=False, server_default=""))
    config_json: str = "{}"
    settings_json: str = "{}"
    status: str = "running"  # running | finished
    created_at: datetime = Field(default_factory=_now)


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

    __table_args__ = (UniqueConstraint("tournament_id", "number"),)
    id: int | None = Field(default=None, primary_key=True)
    tournament_id: int | None = Field(default=None, foreign_key="tournament.id", index=True)
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
    finished_at: datetime = Field(default_factory=_now)


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


class StoreError(TourneyError):
    """The database cannot be reached or written."""


def open_store(url: str) -> Engine:
    """Connect to `url`, create missing tables, and fail with one sentence if that is impossible."""
    if "://" not in url:
        url = f"sqlite:///{url}"
    url = _with_driver(url)
    try:
        engine = create_engine(url, pool_pre_ping=True)
        if url.startswith("sqlite"):
            event.listen(engine, "connect", _sqlite_pragmas)
        migrate(engine)
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None)
        reason = str(orig) if orig is not None else type(exc).__name__
        raise StoreError(
            f"cannot use the database {_redact(url)} ({reason.strip().splitlines()[0]}): "
            "check that it is reachable and writable, or pass another --db URL."
        ) from None
    except Exception as exc:
        raise StoreError(f"cannot use the database {_redact(url)} ({exc}): pass a valid --db URL.") from None
    return engine


MIGRATIONS = Path(__file__).resolve().parent / "migrations"


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (creating it in an empty database).

    A store created before migrations existed (tables but no alembic_version) gets its missing
    tables and is stamped as current.
    """
    from alembic import command
    from alembic.config import Config

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    with engine.begin() as conn:
        cfg.attributes["connection"] = conn
        tables = inspect(conn)
        if tables.has_table("tournament") and not tables.has_table("alembic_version"):
            from tournament.league import LeagueModel  # the league tables are part of the schema too

            SQLModel.metadata.create_all(conn)
            LeagueModel.metadata.create_all(conn)
            command.stamp(cfg, "head")
        else:
            command.upgrade(cfg, "head")


def _sqlite_pragmas(dbapi_connection: Any, _record: Any) -> None:
    """WAL with synchronous=NORMAL: a commit survives the driver being killed (only a power cut can
    lose the last few), at a fraction of the cost of a full fsync per commit; readers never block."""
    cursor = dbapi_connection.cursor()
    cursor.execute("PRAGMA journal_mode=WAL")
    cursor.execute("PRAGMA synchronous=NORMAL")
    cursor.execute("PRAGMA busy_timeout=10000")
    cursor.close()


def _with_driver(url: str) -> str:
    """postgresql:// with whichever driver is installed: psycopg (3) when present, else psycopg2."""
    scheme, rest = url.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        import importlib.util

        driver = "psycopg" if importlib.util.find_spec("psycopg") else "psycopg2"
        return f"postgresql+{driver}://{rest}"
    return url


def _redact(url: str) -> str:
    """The URL without its password, for error messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        if ":" in creds:
            return f"{scheme}://{creds.split(':', 1)[0]}:***@{host}"
    return url


def dumps(value: Any) -> str:
    """Compact, stable JSON for the *_json columns."""
    return json.dumps(value, sort_keys=True, separators=(",", ":"))


def get_or_create_bot(session: Session, name: str, spec: str) -> Bot:
    bot = session.exec(select(Bot).where(Bot.name == name)).first()
    if bot is None:
        bot = Bot(name=name, spec=spec)
        session.add(bot)
        session.flush()
    return bot
