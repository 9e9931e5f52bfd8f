"""A hosted bot that fills its scratch with empty files is stopped at its file cap where no cgroup charges them.

An empty file on a tmpfs takes none of the mount's size, only kernel memory (an inode and a dentry,
~1 KB). A cgroup charges that memory to the bot; with the rlimit caps (no cgroup, as in the image) it
was charged to nothing: a bot made 1,000,000 empty files in /tmp in 13 s, 930 MB of the machine's
kernel memory, and played on. Now the worker counts them (rlimit_watch.py) and the bot forfeits.
"""

from __future__ import annotations

import pytest

from tests.hosted.conftest import Beside, Store
from tourney.engine.core import Termination
from tourney.workers.sandbox import SandboxLimits
from tourney.workers.sandbox import process as sandbox_process

pytestmark = [pytest.mark.timeout(180)]


def test_a_bot_past_its_scratch_file_cap_is_killed_and_forfeits(hosted_store: Store, beside: Beside,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(sandbox_process, "cgroups_usable", lambda: False)  # the image's caps: rlimits only
    # A generous move limit: the files are made in the bot's first move, on a machine that may be loaded.
    result = hosted_store.play("hosted:filer", "random", move_ms=60_000)
    assert result.termination is Termination.CRASH and result.forfeit_seat == 0, result.reason
    cap = SandboxLimits().scratch_files
    assert f"more than {cap:,} files in its scratch folders" in result.reason
    assert "FILER: made them all" not in hosted_store.log("filer")  # stopped before its 150,000
