"""The schema is built by Alembic migrations, and they match the SQLModel tables exactly."""

from __future__ import annotations

from alembic.autogenerate import compare_metadata
from alembic.migration import MigrationContext
from sqlalchemy import create_engine, inspect, text
from sqlmodel import SQLModel

from tournament.store import open_store


def head_of(engine) -> str:
    with engine.connect() as con:
        return str(con.execute(text("select version_num from alembic_version")).scalar())


def test_a_new_store_is_migrated_to_head_and_matches_the_models(tmp_path):
    engine = open_store(str(tmp_path / "t.db"))
    assert head_of(engine) == "0001"
    with engine.connect() as con:
        diffs = compare_metadata(MigrationContext.configure(con), SQLModel.metadata)
    assert diffs == []
    open_store(str(tmp_path / "t.db"))  # opening again is a no-op
    assert head_of(engine) == "0001"


def test_a_store_from_before_migrations_is_stamped(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    SQLModel.metadata.create_all(create_engine(url))
    engine = open_store(url)
    assert head_of(engine) == "0001"
    assert "skillrating" in inspect(engine).get_table_names()


def test_postgres_is_migrated_too(postgres_url):
    engine = open_store(postgres_url)
    assert head_of(engine) == "0001"
    with engine.connect() as con:
        assert compare_metadata(MigrationContext.configure(con), SQLModel.metadata) == []
