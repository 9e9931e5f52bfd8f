"""`tourney run` writes and reads its tournament with core statements: the ORM's first use configures every mapper
(~10 ms of every run, issue 32), so a run that never touches an ORM class never pays it."""

from __future__ import annotations

import json
import subprocess
import sys
from pathlib import Path

# A fresh process (the mappers are configured once per process, and other tests configure them): the CLI's
# `run --local --json`, then whether SQLModel's registry still has mappers waiting to be configured.
CHILD = """
import json, runpy, sys
from sqlmodel import SQLModel
sys.argv = ["tourney", "run", "--local", "--json", "--bots", "random,random@r2", "--games-per-pair", "6",
            "--seed-key", "orm-free-run-test-key", "--db", sys.argv[1]]
try:
    runpy.run_module("tourney.tournament.cli", run_name="__main__")
except SystemExit as stop:
    if stop.code:
        raise
print(json.dumps({"unconfigured": bool(SQLModel._sa_registry._new_mappers)}))
"""


def test_a_run_never_configures_the_orm(tmp_path: Path) -> None:
    done = subprocess.run([sys.executable, "-c", CHILD, str(tmp_path / "run.db")], capture_output=True, text=True,
                          timeout=300, check=False)
    assert done.returncode == 0, done.stderr
    report, verdict = (json.loads(line) for line in done.stdout.strip().splitlines()[-2:])
    assert report["matches"] == 6 and len(report["standings"]) == 2  # the run itself finished and printed
    assert verdict == {"unconfigured": True}
