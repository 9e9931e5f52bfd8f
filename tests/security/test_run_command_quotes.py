"""A bot's --run that the sandbox cannot split into a command is refused at submission, nothing stored.

`shlex` refuses an unclosed quote: the command was stored as it was, and its validation then raised
ValueError when the sandbox split it, so `tourney bot submit` ended in a traceback and the version
(also one uploaded through the web app, answered 202) stayed `pending` for good.
"""

from __future__ import annotations

from pathlib import Path

import pytest

from tourney.engine.core import ConfigError
from tourney.tournament.hosted.submission import submit_version
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import hosted_bots


@pytest.mark.parametrize(("run", "why"), [('python3 "bot.py', "close its quotes"), ("python3 bot.py '", "close its"),
                                          ("  ", "--run is empty"), ("''", "--run")])
def test_a_command_that_cannot_be_split_is_refused_and_nothing_is_stored(tmp_path: Path, run: str, why: str) -> None:
    (tmp_path / "bot").mkdir()
    (tmp_path / "bot" / "bot.py").write_text("print(1)\n")
    engine = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    with pytest.raises(ConfigError, match=why):
        submit_version(engine, "quotes", tmp_path / "bot", run, ["ninja-versus-ninja"])
    assert hosted_bots(engine) == []
