"""One new store opened by several commands at once (an organiser's script starting `tourney bot submit` for
each author): one of them makes its tables, and each of the others then finds them made.

Both made the tables, and all but one stopped with "cannot use the database ... (table bot already
exists)": the migration of one process did not keep the others out of the same empty file.
"""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest
from sqlalchemy import inspect

from tourney.tournament.store.database import open_store

pytestmark = pytest.mark.timeout(300)

PROCESSES = 6

# Imports, then waits for a line on its standard input (the test's signal to go), then opens the store.
OPENER = """
import sys
from tourney.tournament.store.database import open_store
sys.stdin.readline()
open_store(sys.argv[1]).dispose()
print("opened")
"""


def test_a_new_store_opened_by_six_processes_at_once_opens_in_each(tmp_path: Path) -> None:
    for round_ in range(3):
        db = tmp_path / f"new{round_}.db"
        openers = [subprocess.Popen([sys.executable, "-c", OPENER, str(db)], stdin=subprocess.PIPE,
                                    stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
                   for _ in range(PROCESSES)]
        for opener in openers:  # all six start their migration together
            assert opener.stdin is not None
            opener.stdin.write("go\n")
            opener.stdin.flush()
        ended = [opener.communicate(timeout=240) for opener in openers]
        assert [out for out, _ in ended] == ["opened\n"] * PROCESSES, [err[-300:] for _, err in ended]
        engine = open_store(str(db))
        assert {"alembic_version", "match", "hostedbot", "laddermatch"} <= set(inspect(engine).get_table_names())
        engine.dispose()
