"""The ladder on a real local Ray: newcomers first, ratings that move the right way, and kill -9 then resume."""

from __future__ import annotations

import json
import signal
import subprocess
import sys
import time
from pathlib import Path
from typing import Any

import pytest

from tests.ladder.checks import assert_consistent, rows
from tourney.tournament.entrants import Entrant
from tourney.tournament.ladder.loop import run_ladder
from tourney.tournament.ladder.members import add_bot, standings
from tourney.tournament.ladder.plan import LadderPairing, LadderPlan
from tourney.tournament.rating.ratings import initial_skill
from tourney.tournament.store.database import open_store
from tourney.tournament.store.ladder_rows import ladder_of
from tourney.workers import RayExecutor

ROOT = Path(__file__).resolve().parents[2]


@pytest.fixture
def executor(ray_session: Any) -> Any:
    pool = RayExecutor(workers=1)
    yield pool
    pool.close()


@pytest.mark.timeout(300)
def test_new_bots_get_their_first_matches_before_established_ones_play_again(tmp_path: Path, executor: Any) -> None:
    engine = open_store(str(tmp_path / "ladder.db"))
    for i in range(10):
        add_bot(engine, "sticks", f"random@old{i}")
    run_ladder(engine, "sticks", executor, matches=30)
    add_bot(engine, "sticks", "random@new1")
    add_bot(engine, "sticks", "greedy@new2")
    report = run_ladder(engine, "sticks", executor, matches=10)
    assert report.played == 10
    later = rows(engine, "select aliases_json from laddermatch where number >= 30 order by number")
    seats = [json.loads(r.aliases_json) for r in later]
    first = {a: next(i for i, s in enumerate(seats) if a in s) for a in ("new1", "new2")}
    # Twelve bots and one worker: a wave is two matches; both newcomers are in it, ahead of every old bot's
    # second match of this run, although ten old bots were idle and waiting too.
    assert max(first.values()) <= 1
    for i in range(10):
        mine = [n for n, s in enumerate(seats) if f"old{i}" in s]
        if len(mine) >= 2:
            assert mine[1] > max(first.values())
    assert_consistent(engine)


@pytest.mark.timeout(300)
def test_a_strong_bot_beats_random_and_its_rating_rises(tmp_path: Path, executor: Any) -> None:
    engine = open_store(str(tmp_path / "ladder.db"))
    for spec in ("greedy", "random@r1", "random@r2", "random@r3"):
        add_bot(engine, "tiny-ninjas", spec)
    run_ladder(engine, "tiny-ninjas", executor, matches=60)
    # Results end one at a time on Ray: the ladder still mixes its pairs (all six meet) instead of locking
    # into two fixed pairs whose ratings are never compared.
    met = {frozenset(json.loads(r.aliases_json)) for r in rows(engine, "select aliases_json from laddermatch")}
    assert len(met) == 6
    table = {e.alias: e for e in standings(engine, "tiny-ninjas")}
    prior = initial_skill("greedy")
    assert table["greedy"].mu > prior.mu + 3  # moved up, and well clear of noise
    assert all(table["greedy"].mu > table[r].mu for r in ("r1", "r2", "r3"))
    assert table["greedy"].wins > table["greedy"].matches / 2
    assert all(e.sigma < prior.sigma for e in table.values())  # every bot's uncertainty fell
    assert_consistent(engine)


def count(db: Path, status: str) -> int:
    import sqlite3

    try:
        with sqlite3.connect(db) as con:
            return int(con.execute("select count(*) from laddermatch where status = ?", (status,)).fetchone()[0])
    except sqlite3.OperationalError:  # not created yet
        return 0


def ladder_run(db: Path, *args: str) -> subprocess.Popen[bytes]:
    code = "import tests.sticks; from tourney.tournament.cli import app; app()"
    return subprocess.Popen([sys.executable, "-c", code, "ladder", "run", "--game", "sticks", "--db", str(db),
                             "--workers", "1", *args], cwd=ROOT, stdout=subprocess.PIPE, stderr=subprocess.PIPE)


@pytest.mark.timeout(400)
def test_kill_9_loses_and_duplicates_nothing(tmp_path: Path) -> None:
    db = tmp_path / "ladder.db"
    engine = open_store(str(db))
    for spec in ("greedy", "greedy@g2", "random", "random@r2", "random@r3", "random@r4"):
        add_bot(engine, "sticks", spec)
    proc = ladder_run(db, "--for", "10m")
    deadline = time.monotonic() + 240
    try:
        while True:
            assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
            assert time.monotonic() < deadline, "the ladder stored too few matches to be killed mid-run"
            if count(db, "done") >= 20:
                proc.send_signal(signal.SIGSTOP)  # frozen: what is stored now is what the kill leaves
                if count(db, "scheduled") > 0:
                    break
                proc.send_signal(signal.SIGCONT)
            time.sleep(0.02)
    finally:
        proc.kill()
        proc.wait()
    assert proc.returncode == -signal.SIGKILL
    done_before = count(db, "done")
    in_flight = rows(engine, "select number, seed, aliases_json from laddermatch where status = 'scheduled'")
    assert in_flight
    assert_consistent(engine)  # what was stored at the kill already adds up

    again = ladder_run(db, "--matches", "15")
    out, err = again.communicate(timeout=300)
    assert again.returncode == 0, err.decode()
    assert "15 matches" in out.decode() and f"({len(in_flight)} resumed)" in out.decode()
    assert count(db, "done") == done_before + 15 and count(db, "scheduled") == 0
    assert_consistent(engine)
    # The matches in flight at the kill were played again with their seats and seed, and gave the result
    # the match gives wherever it is played (a pure function of its number and seats).
    found = ladder_of(engine, "sticks", create=False)
    assert found is not None
    plan = LadderPlan(game="sticks", seed_key=found[1])
    specs = {r.alias: r.spec for r in rows(engine, "select alias, spec from ladderbot")}
    for m in in_flight:
        stored = rows(engine, f"select seed, aliases_json, seats_json from laddermatch where number = {m.number}")[0]
        assert (stored.seed, stored.aliases_json) == (m.seed, m.aliases_json)
        aliases = json.loads(m.aliases_json)
        _p, record, _s = plan.play(LadderPairing(m.number, tuple(Entrant(a, specs[a]) for a in aliases)))
        assert [s["tier"] for s in json.loads(stored.seats_json)] == [s.tier for s in record.seats]
