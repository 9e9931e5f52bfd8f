"""Alembic environment: the results and league tables' metadata, on the connection open_store passes in."""

from __future__ import annotations

from alembic import context
from sqlalchemy import create_engine
from sqlmodel import SQLModel

import tourney.tournament.store.hosted_tables  # noqa: F401  (the hosted-bot tables, same metadata)
import tourney.tournament.store.ladder_tables  # noqa: F401  (registers the ladder tables on SQLModel.metadata)
import tourney.tournament.store.tables  # noqa: F401  (registers the results tables on SQLModel.metadata)
from tourney.tournament.store.league_tables import LeagueModel

config = context.config
target_metadata = [SQLModel.metadata, LeagueModel.metadata]


def run() -> None:
    connection = config.attributes.get("connection")
    if connection is None:  # the alembic command line: sqlalchemy.url from the config
        engine = create_engine(config.get_main_option("sqlalchemy.url") or "sqlite:///tourney.db")
        with engine.connect() as conn:
            context.configure(connection=conn, target_metadata=target_metadata, render_as_batch=True)
            with context.begin_transaction():
                context.run_migrations()
        return
    context.configure(connection=connection, target_metadata=target_metadata, render_as_batch=True)
    with context.begin_transaction():
        context.run_migrations()


run()
