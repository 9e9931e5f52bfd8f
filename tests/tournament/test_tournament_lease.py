"""One driver per tournament: a `resume` (or `run --resume`) while another live process plays the tournament is
refused in one sentence; a driver killed with -9 on this machine is taken over at once, one on another machine
once its lease has run out; `resume` with no id passes over a tournament someone is playing.

The live driver is a real `tourney run` in another process, kept in its first match by tests.gated_sticks until
the test opens the gate: no sleeps, no timing assumptions.
"""

from __future__ import annotations

import json
import os
import re
import signal
import socket
import sqlite3
import subprocess
import sys
import time
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.gated_sticks import GATE_ENV
from tourney.engine.core import ConfigError
from tourney.tournament.cli import app
from tourney.tournament.entrants import Entrant
from tourney.tournament.runner import TournamentPlan
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import TOURNAMENTS
from tourney.tournament.store.writes import create_tournament

ROOT = Path(__file__).resolve().parents[2]
CODE = "import tests.gated_sticks; from tourney.tournament.cli import app; app()"
GATED = ["run", "--game", "gated-sticks", "--bots", "gate,random", "--games-per-pair", "4", "--seed", "5",
         "--local", "--json"]
MATCHES = 4  # one pair, four games
REFUSED = re.compile(r"tournament (\d+) is being played by another tourney process \((\S+), alive \d+ s ago\): "
                     r"let it finish or stop it first; a run that died on another machine can be resumed after 60 s\.")


def env(gate: Path) -> dict[str, str]:
    return {**os.environ, GATE_ENV: str(gate), "PYTHONPATH": str(ROOT)}


def start_gated(db: Path, gate: Path) -> tuple[subprocess.Popen[str], int]:
    """A `tourney run` in another process, stuck in its first match until `gate` exists; returns it and the id
    of the tournament it announced (on stderr, once the tournament is stored and held)."""
    proc = subprocess.Popen([sys.executable, "-c", CODE, *GATED, "--db", str(db)], cwd=ROOT, env=env(gate),
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert proc.stderr is not None
    for line in proc.stderr:
        found = re.fullmatch(r"tournament (\d+)\n", line)
        if found:
            return proc, int(found.group(1))
    proc.wait()
    raise AssertionError(f"the gated run ended (exit {proc.returncode}) without announcing its tournament")


def tourney(args: list[str], gate: Path) -> subprocess.CompletedProcess[str]:
    """`tourney ARGS` in a process of its own (another runner than the test's and the gated run's)."""
    return subprocess.run([sys.executable, "-c", CODE, *args], cwd=ROOT, env=env(gate), capture_output=True,
                          text=True, timeout=300)


def row(db: Path, tid: int) -> tuple[str, str]:
    """(status, runner) of tournament `tid`."""
    with sqlite3.connect(db) as con:
        status, runner = con.execute("select status, runner from tournament where id = ?", (tid,)).fetchone()
    return str(status), str(runner)


def numbers(db: Path, tid: int) -> list[int]:
    with sqlite3.connect(db) as con:
        return sorted(n for (n,) in con.execute("select number from match where tournament_id = ?", (tid,)))


def test_a_resume_while_another_process_plays_is_refused_and_every_match_is_stored_once(tmp_path: Path) -> None:
    db, gate = tmp_path / "t.db", tmp_path / "gate"
    first, tid = start_gated(db, gate)
    try:
        me = f"{socket.gethostname()}:{first.pid}"
        assert row(db, tid) == ("running", me)
        for args in (["resume", str(tid)], ["run", "--resume", str(tid)]):
            refused = tourney([*args, "--db", str(db), "--local", "--json"], gate)
            assert refused.returncode == 2, refused.stderr
            found = REFUSED.search(refused.stderr)
            assert found and found.groups() == (str(tid), me), refused.stderr
            assert refused.stdout == "" and "Traceback" not in refused.stderr
        # No id: the only unfinished tournament is held, and the sentence says so.
        latest = tourney(["resume", "--db", str(db), "--local", "--json"], gate)
        assert latest.returncode == 2 and "Traceback" not in latest.stderr
        assert (f"every unfinished tournament in this database is being played by another tourney process "
                f"(tournament {tid} by {me})") in latest.stderr
        assert numbers(db, tid) == []  # the refused commands played nothing
    finally:
        gate.touch()
    out, err = first.communicate(timeout=300)
    assert first.returncode == 0, err
    assert json.loads(out)["matches"] == MATCHES
    assert numbers(db, tid) == list(range(MATCHES))  # each match once
    assert row(db, tid) == ("finished", "")  # released at the end


def test_a_driver_killed_with_sigkill_is_resumed_at_once(tmp_path: Path) -> None:
    db, gate = tmp_path / "k.db", tmp_path / "gate"
    first, tid = start_gated(db, gate)
    first.kill()
    first.wait()
    assert row(db, tid) == ("running", f"{socket.gethostname()}:{first.pid}")  # the dead driver still named
    gate.touch()
    resumed = tourney(["resume", str(tid), "--db", str(db), "--local", "--json"], gate)
    assert resumed.returncode == 0, resumed.stderr
    assert json.loads(resumed.stdout)["matches"] == MATCHES
    assert numbers(db, tid) == list(range(MATCHES))
    assert row(db, tid) == ("finished", "")


def test_sigterm_marks_the_tournament_interrupted_and_releases_it(tmp_path: Path) -> None:
    db, gate = tmp_path / "s.db", tmp_path / "gate"
    first, tid = start_gated(db, gate)
    first.send_signal(signal.SIGTERM)
    _out, err = first.communicate(timeout=300)
    assert first.returncode == 2 and f"`tourney resume {tid}`" in err
    assert row(db, tid) == ("interrupted", "")


def plan() -> TournamentPlan:
    return TournamentPlan(game="sticks", entrants=[Entrant("g", "greedy"), Entrant("r", "random")], seed=1,
                          games_per_pair=2, seed_key="tournament-lease-test-key")


def test_resume_with_no_id_passes_over_a_tournament_another_process_plays(tmp_path: Path) -> None:
    import tests.sticks  # noqa: F401  (registers the game)

    db = tmp_path / "two.db"
    engine = open_store(str(db))
    free = create_tournament(engine, plan())
    held = create_tournament(engine, plan())  # the latest, played on another machine:

    def alive_elsewhere() -> None:
        with engine.begin() as conn:
            conn.execute(TOURNAMENTS.update().where(TOURNAMENTS.c.id == held)
                         .values(runner="elsewhere:7", heartbeat_ts=time.time()))

    alive_elsewhere()
    runner = CliRunner()
    result = runner.invoke(app, ["resume", "--db", str(db), "--local", "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["tournament_id"] == free
    alive_elsewhere()
    again = runner.invoke(app, ["resume", "--db", str(db), "--local", "--json"])
    assert again.exit_code == 2
    assert f"(tournament {held} by elsewhere:7)" in again.stderr
    # Its lease runs out: the tournament is free again.
    with engine.begin() as conn:
        conn.execute(TOURNAMENTS.update().where(TOURNAMENTS.c.id == held)
                     .values(heartbeat_ts=time.time() - 3600))
    last = runner.invoke(app, ["resume", "--db", str(db), "--local", "--json"])
    assert last.exit_code == 0, last.output
    assert json.loads(last.stdout)["tournament_id"] == held


def test_a_lease_on_another_host_refuses_until_it_runs_out(tmp_path: Path) -> None:
    import tests.sticks  # noqa: F401
    from tourney.tournament.store.lease_rows import claim, release, renew

    engine = open_store(str(tmp_path / "lease.db"))
    tid = create_tournament(engine, plan())
    alive = lambda _runner: False  # noqa: E731  (on another host: its process cannot be checked)
    assert claim(engine, TOURNAMENTS, tid, "far:1", 1000.0, 60.0, alive) is None
    assert claim(engine, TOURNAMENTS, tid, "near:2", 1059.0, 60.0, alive) == ("far:1", 1000.0)  # fresh: refused
    assert renew(engine, TOURNAMENTS, tid, "far:1", 1059.5)
    assert claim(engine, TOURNAMENTS, tid, "near:2", 1119.0, 60.0, alive) == ("far:1", 1059.5)
    assert claim(engine, TOURNAMENTS, tid, "near:2", 1120.0, 60.0, alive) is None  # ran out: taken over
    assert not renew(engine, TOURNAMENTS, tid, "far:1", 1121.0)  # far:1 has lost it
    release(engine, TOURNAMENTS, tid, "far:1")  # not its to release: nothing happens
    assert claim(engine, TOURNAMENTS, tid, "far:1", 1121.0, 60.0, alive) == ("near:2", 1120.0)
    # A runner known to be dead (its pid gone on this machine) is taken over at once.
    assert claim(engine, TOURNAMENTS, tid, "far:1", 1121.0, 60.0, lambda r: r == "near:2") is None
    release(engine, TOURNAMENTS, tid, "far:1")
    with engine.connect() as conn:
        assert conn.execute(TOURNAMENTS.select().where(TOURNAMENTS.c.id == tid)).one().runner == ""


def test_a_driver_that_loses_its_lease_knows_and_stops(tmp_path: Path) -> None:
    import tests.sticks  # noqa: F401
    from tourney.tournament.tournament_lease import TournamentLease

    engine = open_store(str(tmp_path / "lost.db"))
    tid = create_tournament(engine, plan())
    with TournamentLease(engine, tid, "stalled:1", renew_s=0.01) as lease:
        lease.check()  # still held
        with engine.begin() as conn:  # another driver took it over, as after a stall past the lease
            conn.execute(TOURNAMENTS.update().values(runner="other:2", heartbeat_ts=time.time()))
        assert lease.lost.wait(60)
        with pytest.raises(ConfigError, match=f"took tournament {tid} over while this one stalled"):
            lease.check()
    with engine.connect() as conn:  # leaving does not release what another driver holds
        assert conn.execute(TOURNAMENTS.select()).one().runner == "other:2"


def test_a_run_that_loses_its_tournament_stops_playing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    """Stalled past its lease and taken over, a driver stops at its next chunk instead of playing on beside the
    driver that took over (which plays the rest)."""
    import tests.sticks  # noqa: F401
    from tourney.tournament import runner
    from tourney.tournament.runner import run_tournament
    from tourney.tournament.tournament_lease import TournamentLease

    leases: list[TournamentLease] = []

    class Quick(TournamentLease):
        """Renews every 10 ms, so the loss is seen at once."""

        def __init__(self, *args: object, **kwargs: object) -> None:
            super().__init__(*args, renew_s=0.01, **kwargs)  # type: ignore[arg-type]
            leases.append(self)

    engine = open_store(str(tmp_path / "taken.db"))
    asked: list[int] = []

    class TakenOverAfterOneChunk:
        def run(self, plan: TournamentPlan, pairings: list) -> object:
            for i, p in enumerate(pairings):
                asked.append(p.number)
                if i == 1:  # another driver takes the tournament over while this one plays its second match
                    with engine.begin() as conn:
                        conn.execute(TOURNAMENTS.update().values(runner="other:2", heartbeat_ts=time.time()))
                    assert leases[0].lost.wait(60)
                yield [plan.play(p)]

    monkeypatch.setattr(runner, "TournamentLease", Quick)
    big = TournamentPlan(game="sticks", entrants=[Entrant("g", "greedy"), Entrant("r", "random")], seed=1,
                         games_per_pair=8, seed_key="tournament-lease-test-key")
    with pytest.raises(ConfigError, match="took tournament 1 over while this one stalled"):
        run_tournament(engine, big, executor=TakenOverAfterOneChunk())  # type: ignore[arg-type]
    assert asked == [0, 1]  # not one match more after the loss was seen
    with engine.connect() as conn:
        row = conn.execute(TOURNAMENTS.select()).one()
    assert (row.runner, row.status) == ("other:2", "running")  # the new driver's, untouched
