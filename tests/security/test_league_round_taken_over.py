"""A league round taken over after its player died deals anew the matches a remembering bot may have seen.

The attack: the process playing a league round dies (or is stopped) while a match is played; the
match's bots have seen its deal, and its result is never stored. The next `league run-due` takes the
round over and plays that match again, and it did so with the same seed: a `cmd:` program (it may keep
files, so it counts as remembering) met a deal it had already seen. Here the program writes its hand
at its first decision of each match to a file, as a bot keeping notes would.
"""

from __future__ import annotations

import json
import sys
from collections.abc import Iterator, Sequence
from datetime import UTC, datetime, timedelta
from pathlib import Path
from typing import Any

import pytest

from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.store.database import open_store
from tourney.workers.local import LocalExecutor

ROOT = Path(__file__).resolve().parents[2]
CREATED = datetime(2026, 1, 1, tzinfo=UTC)
NOTES = """
import json, sys
sys.path.insert(0, sys.argv[2])
from tourney_bot import Bot, run_bot

class Keeper(Bot):
    seen = set()

    def act(self, observation, legal_actions, request):
        if request.match_id not in self.seen:
            self.seen.add(request.match_id)
            with open(sys.argv[1], "a") as notes:
                notes.write(json.dumps(observation["hand"]) + "\\n")
        return 0

run_bot(Keeper())
"""


class Died(Exception):
    """The process playing the round is gone."""


class DiesAfterOneMatch:
    """Plays the round's first match, then dies before handing its result back."""

    workers = 1

    def run(self, plan: Any, pairings: Sequence[Any], more: Any = None) -> Iterator[list[Any]]:
        plan.play(pairings[0])
        raise Died
        yield []  # a generator, as executors are

    def close(self) -> None:
        pass


def test_a_match_left_unstored_is_dealt_anew_when_its_round_is_taken_over(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the programs' logs go to ./bot-logs
    (tmp_path / "keeper.py").write_text(NOTES)
    notes = tmp_path / "hands.txt"
    engine = open_store(str(tmp_path / "l.db"))
    create_league(engine, LeagueSettings(name="notes", game="tiny-ninjas", format="round-robin",
                                         schedule="0 * * * *", games_per_pair=2), now=CREATED)
    program = f"cmd:{sys.executable} {tmp_path / 'keeper.py'} {notes} {ROOT / 'clients/python'}"
    join_league(engine, "notes", program, alias="keeper", now=CREATED)
    join_league(engine, "notes", "random", now=CREATED)
    later = CREATED + timedelta(hours=2)
    with pytest.raises(Died):
        run_due(engine, "notes", clock=lambda: later, executor=DiesAfterOneMatch(), max_rounds=1)
    reports = run_due(engine, "notes", clock=lambda: later, executor=LocalExecutor(), max_rounds=1)
    assert [(r.round, r.matches, r.status) for r in reports] == [(0, 2, "done")]  # the same round, taken over
    seen, again, _ = [json.loads(line) for line in notes.read_text().splitlines()]
    assert again != seen
