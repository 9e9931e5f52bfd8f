"""A validation deals afresh each time: a bot cannot recognise its validation by the deal.

The attack: validation always played one fixed seed, so a bundle could carry that deal's first
observations and behave well only when it saw them (and otherwise as it liked, ranked). Here a bundle
writes the observations it is shown to its log, then stops, so its validation fails and keeps the log's
tail: two validations of that one bundle, in the real sandbox, must have been shown different deals.
"""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest

from tests.hosted.bundles import GAME, PLAYS
from tourney.tournament.hosted.submission import submit_version
from tourney.tournament.hosted.validation import validate
from tourney.tournament.store.database import open_store, url_of
from tourney.tournament.store.hosted import FAILED

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]

# Plays its first legal action (so the deal alone decides what it sees), writes each observation's digest, and
# quits at its third: the validation fails and stores the log's last lines (log_tail keeps three).
WITNESS = PLAYS + """
import hashlib, json, os
seen = []

class Witness(Bot):
    def act(self, observation, legal_actions, request):
        seen.append(observation)
        print("SAW", hashlib.sha256(json.dumps(observation, sort_keys=True).encode()).hexdigest()[:16], flush=True)
        if len(seen) == 3:
            os._exit(3)
        return 0

run_bot(Witness())
"""


def test_two_validations_of_one_bundle_are_dealt_differently(tmp_path: Path) -> None:
    engine = open_store(str(tmp_path / "t.db"))
    folder = tmp_path / "witness"
    folder.mkdir()
    (folder / "bot.py").write_text(WITNESS)
    tails = []
    for _ in range(2):
        version = submit_version(engine, "eve", folder, "python3 bot.py", [GAME])
        status, _reason, tail = validate(engine, url_of(engine), "eve", version)
        assert status == FAILED
        assert tail.count("SAW") == 3, tail  # it was shown three observations
        tails.append(tail)
    assert tails[0] != tails[1]
