"""Attack on league schedules: a cron schedule that is valid but never falls on a date (31 February),
and a --now at the calendar's end. croniter raised CroniterBadDateError: `league create` stored the league
and then failed printing it (a traceback, exit 1), and from then on `league list` failed the same way
for every league; `league run-due --now 9999-12-31` too. Now each is one sentence and exit 2."""

from __future__ import annotations

import subprocess
import sys
from pathlib import Path

import pytest

TOURNEY = str(Path(sys.executable).with_name("tourney"))

pytestmark = pytest.mark.timeout(120)


def _tourney(*args: str) -> subprocess.CompletedProcess[str]:
    return subprocess.run([TOURNEY, *args], capture_output=True, text=True, timeout=90)


def test_a_schedule_that_never_comes_is_refused_and_nothing_is_stored(tmp_path: Path) -> None:
    db = str(tmp_path / "l.db")
    assert _tourney("league", "create", "ok", "-g", "tiny-ninjas", "--schedule", "0 20 * * *", "--db", db
                    ).returncode == 0
    never = _tourney("league", "create", "never", "-g", "tiny-ninjas", "--schedule", "0 0 31 2 *", "--db", db)
    assert never.returncode == 2 and never.stderr.strip().splitlines() == [
        "error: the schedule '0 0 31 2 *' has no date after " + never.stderr.split(" after ", 1)[1].split(" ", 1)[0]
        + " to fall on: write one whose days exist, e.g. '0 20 * * *'."], never.stderr[-500:]
    listed = _tourney("league", "list", "--db", db)
    assert listed.returncode == 0 and "ok" in listed.stdout and "never" not in listed.stdout, listed.stderr[-500:]


def test_run_due_at_the_calendars_end_is_one_sentence(tmp_path: Path) -> None:
    db = str(tmp_path / "l.db")
    assert _tourney("league", "create", "ok", "-g", "tiny-ninjas", "--schedule", "0 20 * * *", "--db", db
                    ).returncode == 0
    late = _tourney("league", "run-due", "--db", db, "--now", "9999-12-31T23:59:59")
    assert late.returncode == 2 and "Traceback" not in late.stderr
    assert len(late.stderr.strip().splitlines()) == 1 and "has no date after" in late.stderr, late.stderr[-500:]
