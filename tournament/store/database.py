"""Opening a store: the URL, the driver, SQLite's pragmas, and the Alembic upgrade to the newest schema.

SQLite file by default; any SQLAlchemy URL (PostgreSQL) works.
"""

from __future__ import annotations

import importlib.util
import threading
from pathlib import Path
from typing import Any
from urllib.parse import quote, unquote, urlsplit

from sqlalchemy import event, inspect
from sqlalchemy.engine import Engine, make_url
from sqlalchemy.exc import SQLAlchemyError
from sqlmodel import SQLModel, create_engine

from tourney.engine.core import TourneyError
from tourney.tournament.store import (  # noqa: F401  (each registers its tables on SQLModel.metadata)
    hosted_tables,
    ladder_tables,
    tables,
)
from tourney.tournament.store.league_tables import LeagueModel

MIGRATIONS = Path(__file__).resolve().parent.parent / "migrations"


class StoreError(TourneyError):
    """The database cannot be reached or written."""


class NewerSchema(Exception):
    """The store's schema revision is none this tourney knows: a newer tourney wrote it."""

    def __init__(self, found: str, newest: str) -> None:
        super().__init__(found, newest)
        self.found = found
        self.newest = newest


def open_store(url: str) -> Engine:
    """Connect to `url`, create missing tables, and fail with one sentence if that is impossible."""
    if not url.strip():  # SQLite would take "" as a private in-memory store, lost when the command ends
        raise StoreError("--db is empty: give a SQLite path or a SQLAlchemy URL (e.g. --db tourney.db).")
    if "://" not in url:
        url = f"sqlite:///{url}"
    url = with_driver(url)
    try:
        engine = create_engine(url, pool_pre_ping=True)
        if url.startswith("sqlite"):
            event.listen(engine, "connect", _sqlite_pragmas)
        migrate(engine)
    except NewerSchema as exc:  # upgrading would fail, and a downgrade would lose what the newer tourney stored
        raise StoreError(f"the database {redact(url)} was written by a newer tourney (schema {exc.found}; this one "
                         f"knows up to {exc.newest}): upgrade tourney, or pass another --db.") from None
    except SQLAlchemyError as exc:
        orig = getattr(exc, "orig", None)
        reason = str(orig) if orig is not None else type(exc).__name__
        raise StoreError(
            f"cannot use the database {redact(url)} ({reason.strip().splitlines()[0]}): "
            "check that it is reachable and writable, or pass another --db URL."
        ) from None
    except Exception as exc:
        raise StoreError(f"cannot use the database {redact(url)} ({exc}): pass a valid --db URL.") from None
    return engine


def sqlite_file(url: str) -> str | None:
    """The file a SQLite URL (or bare path) names, or None: an in-memory store, or not SQLite.

    A SQLite URI filename (`sqlite:///file:NAME?mode=ro&uri=true`) names the file inside its
    `file:` URI, percent-decoded; `mode=memory` names none.
    """
    if "://" not in url:
        return None if url == ":memory:" else url
    parsed = make_url(url)
    if parsed.get_backend_name() != "sqlite" or not parsed.database or parsed.database == ":memory:":
        return None
    if not _is_uri(parsed.query) or not parsed.database.startswith("file:"):
        return parsed.database
    if parsed.query.get("mode") == "memory":
        return None
    return unquote(urlsplit(parsed.database).path) or None


def _is_uri(query: Any) -> bool:
    """Whether a SQLite URL's query asks for its database to be read as a URI filename (`uri=true`)."""
    return str(query.get("uri", "")).lower() in ("true", "1")


def url_of(engine: Engine) -> str:
    """The engine's URL in full (password included) with a SQLite path made absolute: what another
    process (a Ray worker reading hosted bundles) opens to reach the same store."""
    url = engine.url
    path = sqlite_file(url.render_as_string(hide_password=False))
    if path is not None:
        absolute = str(Path(path).resolve())
        # A URI filename keeps its form (and its mode): only the path inside it is made absolute, encoded.
        uri = _is_uri(url.query) and str(url.database).startswith("file:")
        url = url.set(database=f"file:{quote(absolute)}" if uri else absolute)
    return url.render_as_string(hide_password=False)


# Alembic keeps the running migration's context in module-level proxies (alembic.context, alembic.op): two
# threads migrating at once (the web app's validation thread opening a store while a request opens one) read
# each other's, and one failed with KeyError('script'). One migration at a time in a process (and, on
# SQLite, in every process: `migrate`).
_MIGRATING = threading.Lock()


def migrate(engine: Engine) -> None:
    """Bring the schema to the newest Alembic revision (creating it in an empty database).

    A store created before migrations existed (tables but no alembic_version) gets its missing
    tables and is stamped as current; one at a revision unknown here raises NewerSchema, untouched.
    """
    from alembic import command
    from alembic.config import Config
    from alembic.runtime.migration import MigrationContext
    from alembic.script import ScriptDirectory

    cfg = Config()
    cfg.set_main_option("script_location", str(MIGRATIONS))
    scripts = ScriptDirectory.from_config(cfg)
    with _MIGRATING:
        with engine.connect() as conn:
            current = MigrationContext.configure(conn).get_current_revision()
        if current is not None and current not in {script.revision for script in scripts.walk_revisions()}:
            raise NewerSchema(current, str(scripts.get_current_head()))
        if current == scripts.get_current_head():
            return  # nothing to write (a read-only store opens too)
        with engine.begin() as conn:
            if conn.dialect.name == "sqlite":
                # Other processes may be making this new file's tables too: the first to take SQLite's write
                # lock migrates, the others wait for it (busy_timeout) and then find the schema current.
                conn.exec_driver_sql("BEGIN IMMEDIATE")
            cfg.attributes["connection"] = conn
            found = inspect(conn)
            if found.has_table("tournament") and not found.has_table("alembic_version"):
                SQLModel.metadata.create_all(conn)
                LeagueModel.metadata.create_all(conn)  # the league tables are part of the schema too
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


def with_driver(url: str) -> str:
    """postgresql:// with whichever driver is installed: psycopg (3) when present, else psycopg2."""
    scheme, rest = url.split("://", 1)
    if scheme in ("postgresql", "postgres"):
        driver = "psycopg" if importlib.util.find_spec("psycopg") else "psycopg2"
        return f"postgresql+{driver}://{rest}"
    return url


def redact(url: str) -> str:
    """The URL without its password, for error messages."""
    if "@" in url and "://" in url:
        scheme, rest = url.split("://", 1)
        creds, host = rest.rsplit("@", 1)
        if ":" in creds:
            return f"{scheme}://{creds.split(':', 1)[0]}:***@{host}"
    return url
