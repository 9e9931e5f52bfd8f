"""The hosted-bot tables: a bot an author submitted, its versions, and the bundles' bytes.

On SQLModel's default metadata with the results tables (migration 0005 creates them). A
bundle's bytes are kept once per content hash (`BundleBlob`), however many versions share them,
so every worker of a cluster fetches a bundle from the store and no shared filesystem is needed.
"""

from __future__ import annotations

from datetime import datetime

from sqlalchemy import Column, LargeBinary, UniqueConstraint
from sqlmodel import Field, SQLModel

from tourney.tournament.store.tables import now


class HostedBot(SQLModel, table=True):
    """A bot run by the organiser from its submitted bundles (`hosted:NAME`)."""

    id: int | None = Field(default=None, primary_key=True)
    name: str = Field(index=True, unique=True)
    retired: bool = False  # a retired bot plays no new match; its versions and results stay
    token_hash: str = ""  # SHA-256 of its author's token (`tourney bot token`): uploads and logs on the web
    created_at: datetime = Field(default_factory=now)


class HostedVersion(SQLModel, table=True):
    """One submitted version: which bundle, the command that starts it, and its validation."""

    __table_args__ = (UniqueConstraint("bot_id", "version"),)
    id: int | None = Field(default=None, primary_key=True)
    bot_id: int = Field(index=True)
    version: int
    sha256: str = Field(index=True)
    run: str  # the command, run from the bundle's folder inside the sandbox
    games_json: str = "[]"
    files: int
    size: int  # packed bytes
    status: str = "pending"  # pending | validated | failed
    status_reason: str = ""  # why a validation failed (public)
    log_tail: str = ""  # the last lines of the bot's log in a failed validation (its author's and the organiser's)
    created_at: datetime = Field(default_factory=now)


class BundleBlob(SQLModel, table=True):
    """A packed bundle's bytes, by their SHA-256."""

    sha256: str = Field(primary_key=True)
    data: bytes = Field(sa_column=Column(LargeBinary, nullable=False))
