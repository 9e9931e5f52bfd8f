"""A ladder restarted after its run died deals anew the match a remembering bot may have seen.

The attack: `tourney ladder run` dies (`kill -9`, a crash, its machine) while a match is played; the
match's bots have seen its deal, and it stays scheduled, unrated. The next `ladder run` plays it again,
first, and it did so with the same seed: a `cmd:` program (it may keep files, so it counts as
remembering) met a deal it had already seen. Here the program writes its hand at its first decision
of each match to a file, as a bot keeping notes would (note_keeper.py).
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tests.security.note_keeper import Died, DiesAfterOneMatch, hands, keeper_spec
from tourney.tournament.ladder.loop import run_ladder
from tourney.tournament.ladder.members import add_bot
from tourney.tournament.store.database import open_store
from tourney.workers.local import LocalExecutor

GAME = "tiny-ninjas"


def test_a_match_a_dead_run_left_scheduled_is_dealt_anew(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)  # the programs' logs go to ./bot-logs
    engine = open_store(str(tmp_path / "ladder.db"))
    add_bot(engine, GAME, f"{keeper_spec(tmp_path)}@keeper")
    add_bot(engine, GAME, "random")
    with pytest.raises(Died):
        run_ladder(engine, GAME, DiesAfterOneMatch(), matches=1)
    report = run_ladder(engine, GAME, LocalExecutor(), matches=1)
    assert (report.replayed, report.played) == (1, 1)  # the dead run's match, played again
    seen, again = hands(tmp_path)
    assert again != seen
