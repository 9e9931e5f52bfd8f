"""The schema is built by Alembic migrations, and they match the SQLModel tables exactly."""

from __future__ import annotations

from alembic import command
from alembic.autogenerate import compare_metadata
from alembic.config import Config
from alembic.migration import MigrationContext
from alembic.script import ScriptDirectory
from sqlalchemy import create_engine, inspect, text
from sqlmodel import Session, SQLModel, select

from tourney.tournament.store.database import MIGRATIONS, open_store
from tourney.tournament.store.league_tables import League, LeagueModel

MODELS = [SQLModel.metadata, LeagueModel.metadata]  # the results tables and the league tables


def alembic_config(url: str = "") -> Config:
    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    if url:
        cfg.set_main_option("sqlalchemy.url", url)
    return cfg


HEAD = ScriptDirectory.from_config(alembic_config()).get_current_head()


def store_at(url: str, revision: str):
    """A SQLite store migrated only as far as `revision` (an older release's schema)."""
    engine = create_engine(url)
    with engine.begin() as con:
        cfg = alembic_config(url)
        cfg.attributes["connection"] = con
        command.upgrade(cfg, revision)
    return engine


def head_of(engine) -> str:
    with engine.connect() as con:
        return str(con.execute(text("select version_num from alembic_version")).scalar())


def test_a_new_store_is_migrated_to_head_and_matches_the_models(tmp_path):
    engine = open_store(str(tmp_path / "t.db"))
    assert head_of(engine) == HEAD
    with engine.connect() as con:
        diffs = compare_metadata(MigrationContext.configure(con), MODELS)
    assert diffs == []
    open_store(str(tmp_path / "t.db"))  # opening again is a no-op
    assert head_of(engine) == HEAD


def test_a_store_from_before_migrations_is_stamped(tmp_path):
    url = f"sqlite:///{tmp_path / 'old.db'}"
    SQLModel.metadata.create_all(create_engine(url))
    engine = open_store(url)
    assert head_of(engine) == HEAD
    assert {"skillrating", "league", "leagueround"} <= set(inspect(engine).get_table_names())


def test_postgres_is_migrated_too(postgres_url):
    engine = open_store(postgres_url)
    assert head_of(engine) == HEAD
    with engine.connect() as con:
        assert compare_metadata(MigrationContext.configure(con), MODELS) == []


def test_a_store_at_the_first_revision_is_upgraded(tmp_path):
    url = f"sqlite:///{tmp_path / 'v1.db'}"
    engine = store_at(url, "0001")
    assert head_of(engine) == "0001" != HEAD
    assert "achievement" not in inspect(engine).get_table_names()
    upgraded = open_store(url)
    assert head_of(upgraded) == HEAD
    assert "achievement" in inspect(upgraded).get_table_names()


def test_league_tables_made_before_their_migration_are_kept(tmp_path):
    # Leagues used to create their tables on first use, in stores at revision 0002.
    url = f"sqlite:///{tmp_path / 'leagues.db'}"
    engine = store_at(url, "0002")
    LeagueModel.metadata.create_all(engine)
    with Session(engine) as session:
        session.add(League(name="weekly", game="sticks", format="swiss", schedule="@daily", anchor_ts=0.0))
        session.commit()
    upgraded = open_store(url)
    assert head_of(upgraded) == HEAD
    with Session(upgraded) as session:
        assert [lg.name for lg in session.exec(select(League)).all()] == ["weekly"]
    with upgraded.connect() as con:
        assert compare_metadata(MigrationContext.configure(con), MODELS) == []


TABLES = ("tournament", "entrant", "match", "matchseat", "achievement", "rating", "skillrating")


def played_store_at(tmp_path, revision: str):
    """A SQLite store holding a played tournament, at an older release's schema `revision`: played at head, then
    migrated down (a run now holds its tournament through columns that older schemas lack)."""
    from tourney.tournament.entrants import Entrant
    from tourney.tournament.runner import TournamentPlan, run_tournament

    url = f"sqlite:///{tmp_path / f'v{revision}.db'}"
    plan = TournamentPlan(game="tiny-ninjas", entrants=[Entrant("r", "random"), Entrant("r2", "random")], seed=3,
                          games_per_pair=4, seed_key="migration-0010-test-key")
    played = open_store(url)
    run_tournament(played, plan)
    played.dispose()
    engine = create_engine(url)
    with engine.begin() as con:
        cfg = alembic_config(url)
        cfg.attributes["connection"] = con
        command.downgrade(cfg, revision)
    return url, engine


def columns_of(engine) -> dict[str, list[str]]:
    """The columns of each results table, as the store has them now."""
    return {t: [c["name"] for c in inspect(engine).get_columns(t)] for t in TABLES}


def rows(engine, columns: dict[str, list[str]]) -> dict[str, list[tuple]]:
    """Every row of the results tables, in the given `columns` (an older schema's)."""
    found = {}
    with engine.connect() as con:
        for t, names in columns.items():
            listed = ", ".join(f'"{c}"' for c in names)
            found[t] = [tuple(r) for r in con.execute(text(f'select {listed} from "{t}" order by id'))]
    return found


def test_a_store_at_0009_keeps_every_row_and_drops_the_match_tournament_index(tmp_path):
    url, engine = played_store_at(tmp_path, "0009")
    old = columns_of(engine)
    before = rows(engine, old)
    assert "ix_match_tournament_id" in {ix["name"] for ix in inspect(engine).get_indexes("match")}
    assert len(before["match"]) == 4 and len(before["matchseat"]) == 8
    upgraded = open_store(url)
    assert head_of(upgraded) == HEAD
    assert "ix_match_tournament_id" not in {ix["name"] for ix in inspect(upgraded).get_indexes("match")}
    assert rows(upgraded, old) == before
    with upgraded.connect() as con:
        assert compare_metadata(MigrationContext.configure(con), MODELS) == []


def test_a_store_at_0010_keeps_every_row_and_its_tournaments_have_no_runner(tmp_path):
    url, engine = played_store_at(tmp_path, "0010")
    released = store_at(f"sqlite:///{tmp_path / 'release.db'}", "0010")  # the schema as the 0010 release made it
    old = columns_of(engine)
    assert old == columns_of(released)
    before = rows(engine, old)
    assert len(before["match"]) == 4 and len(before["matchseat"]) == 8 and len(before["rating"]) == 2
    upgraded = open_store(url)
    assert head_of(upgraded) == HEAD
    assert rows(upgraded, old) == before
    with upgraded.connect() as con:
        assert [tuple(r) for r in con.execute(text("select runner, heartbeat_ts from tournament"))] == [("", 0.0)]
        assert compare_metadata(MigrationContext.configure(con), MODELS) == []
