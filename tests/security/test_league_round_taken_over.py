"""A league round taken over after its player died deals anew the matches a remembering bot may have seen.

The attack: the process playing a league round dies (or is stopped) while a match is played; the
match's bots have seen its deal, and its result is never stored. The next `league run-due` takes the
round over and plays that match again, and it did so with the same seed: a `cmd:` program (it may keep
files, so it counts as remembering) met a deal it had already seen. Here the program writes its hand
at its first decision of each match to a file, as a bot keeping notes would (note_keeper.py).
"""

from __future__ import annotations

from datetime import UTC, datetime, timedelta
from pathlib import Path

import pytest

from tests.security.note_keeper import Died, DiesAfterOneMatch, hands, keeper_spec
from tourney.tournament.league.members import LeagueSettings, create_league, join_league
from tourney.tournament.league.rounds import run_due
from tourney.tournament.store.database import open_store
from tourney.workers.local import LocalExecutor

CREATED = datetime(2026, 1, 1, tzinfo=UTC)


def test_a_match_left_unstored_is_dealt_anew_when_its_round_is_taken_over(tmp_path: Path,
                                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the programs' logs go to ./bot-logs
    engine = open_store(str(tmp_path / "l.db"))
    create_league(engine, LeagueSettings(name="notes", game="tiny-ninjas", format="round-robin",
                                         schedule="0 * * * *", games_per_pair=2), now=CREATED)
    join_league(engine, "notes", keeper_spec(tmp_path), alias="keeper", now=CREATED)
    join_league(engine, "notes", "random", now=CREATED)
    later = CREATED + timedelta(hours=2)
    with pytest.raises(Died):
        run_due(engine, "notes", clock=lambda: later, executor=DiesAfterOneMatch(), max_rounds=1)
    reports = run_due(engine, "notes", clock=lambda: later, executor=LocalExecutor(), max_rounds=1)
    assert [(r.round, r.matches, r.status) for r in reports] == [(0, 2, "done")]  # the same round, taken over
    seen, again, _ = hands(tmp_path)
    assert again != seen
