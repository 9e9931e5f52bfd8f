"""A chunk whose Ray worker died mid-match is played again on fresh deals where a bot may remember the first.

The attack: a `cmd:` program may keep files. It writes down what it was dealt, then its Ray worker dies
(here the program kills it itself, at its first decision: a crash at the worst moment, made certain
rather than timed). The chunk is played again; had the retry dealt the same cards, the program would
now know them, and what comes after, before the match begins. A tournament's tables with such a seat
in a game with hidden information are dealt anew on a retry, as after a resume; the stored matches
still carry the seeds they were played with.
"""

from __future__ import annotations

import sys
from pathlib import Path

import pytest
from sqlmodel import Session, select

from tourney.tournament.entrants import Entrant
from tourney.tournament.formats.registry import next_round
from tourney.tournament.plan import TournamentPlan
from tourney.tournament.runner import run_tournament
from tourney.tournament.store.database import open_store
from tourney.tournament.store.tables import Match
from tourney.workers import RayExecutor

pytestmark = pytest.mark.timeout(300)

ROOT = Path(__file__).resolve().parents[2]

# Notes a digest of its first observation in its match (a line in the folder it is given); in the first
# match of all, before answering, it kills the Ray worker it runs under (its nearest ancestor
# whose command line is Ray's worker's) and ends. Otherwise it plays its first legal action.
WITNESS = f"""
import hashlib, json, os, signal, sys
sys.path.insert(0, {str(ROOT / "clients/python")!r})
from tourney_bot import Bot, run_bot

folder = sys.argv[1]

def ray_worker():
    pid = os.getppid()
    while pid > 1:
        with open(f"/proc/{{pid}}/cmdline", "rb") as f:
            line = f.read()
        if b"ray::" in line or b"default_worker.py" in line:
            return pid
        with open(f"/proc/{{pid}}/stat") as f:
            pid = int(f.read().rsplit(")", 1)[1].split()[1])
    raise SystemExit("no Ray worker above this program")

class Witness(Bot):
    noted = False  # a program is started for each match

    def act(self, observation, legal_actions, request):
        if not self.noted:
            self.noted = True
            with open(os.path.join(folder, "seen.txt"), "a") as out:
                out.write(hashlib.sha256(json.dumps(observation, sort_keys=True).encode()).hexdigest() + "\\n")
            if not os.path.exists(os.path.join(folder, "killed")):
                open(os.path.join(folder, "killed"), "w").close()
                os.kill(ray_worker(), signal.SIGKILL)
                os._exit(0)
        return 0

run_bot(Witness())
"""


def test_a_retried_chunk_deals_anew_what_the_program_saw(ray_session: object, tmp_path: Path) -> None:
    (tmp_path / "witness.py").write_text(WITNESS)
    program = f"cmd:{sys.executable} {tmp_path / 'witness.py'} {tmp_path}"
    plan = TournamentPlan(game="tiny-ninjas", entrants=[Entrant("witness", program), Entrant("random", "random")],
                          seed=3, games_per_pair=1, seed_key="retry-deals-anew-0123456789")
    engine = open_store(str(tmp_path / "t.db"))
    executor = RayExecutor(workers=1, chunk=1)
    try:
        report = run_tournament(engine, plan, executor=executor)
    finally:
        executor.close()
    seen = (tmp_path / "seen.txt").read_text().split()
    assert (tmp_path / "killed").exists() and len(seen) == 2  # the first attempt's worker died; the retry played
    assert seen[0] != seen[1]  # ...on another deal
    with Session(engine) as session:
        stored = session.exec(select(Match).where(Match.tournament_id == report.tournament_id)).all()
    assert len(stored) == 1 and stored[0].termination == "normal"
    pairing = next_round(plan.spec(), 2, [], 0)[0]  # type: ignore[index]
    assert stored[0].seed == plan.retried(1).seed_of(pairing) != plan.seed_of(pairing)
