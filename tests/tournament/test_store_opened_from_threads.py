"""Stores opened from several threads at once: each migrates to the newest schema and opens.

Alembic keeps the running migration's context in module-level proxies, so two threads migrating at once
(the web app's validation thread and a request) read each other's and one failed (KeyError 'script')."""

from __future__ import annotations

import concurrent.futures
import threading
from pathlib import Path

from sqlalchemy import inspect

from tourney.tournament.store.database import open_store


def test_stores_opened_from_eight_threads_at_once_all_migrate(tmp_path: Path) -> None:
    start = threading.Barrier(8)

    def opened(name: str) -> list[str]:
        start.wait(timeout=60)  # all eight migrate a new store at the same moment
        engine = open_store(str(tmp_path / name))
        try:
            return sorted(inspect(engine).get_table_names())
        finally:
            engine.dispose()

    for round_ in range(3):
        start.reset()
        with concurrent.futures.ThreadPoolExecutor(8) as pool:
            tables = list(pool.map(opened, [f"store{round_}-{n}.db" for n in range(8)]))
        assert all("alembic_version" in t and "match" in t for t in tables)
        assert all(t == tables[0] for t in tables)
