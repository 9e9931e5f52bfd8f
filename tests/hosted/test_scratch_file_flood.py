"""A hosted bot that fills its scratch with empty files is stopped at its file cap where no cgroup charges them.

An empty file on a tmpfs takes none of the mount's size, only kernel memory (an inode and a dentry,
~1 KB). A cgroup charges that memory to the bot; with the rlimit caps (no cgroup, as in the image) it
was charged to nothing: a bot made 1,000,000 empty files in /tmp in 13 s, 930 MB of the machine's
kernel memory, and played on. Now the worker counts them (rlimit_watch.py) and the bot forfeits.
"""

from __future__ import annotations

import pytest

from tests.hosted.conftest import Beside, Store, crash_under_rlimits
from tourney.workers.sandbox import SandboxLimits

pytestmark = [pytest.mark.timeout(180)]


def test_a_bot_past_its_scratch_file_cap_is_killed_and_forfeits(hosted_store: Store, beside: Beside,
                                                                  monkeypatch: pytest.MonkeyPatch) -> None:
    reason = crash_under_rlimits(hosted_store, "hosted:filer", monkeypatch)
    assert f"more than {SandboxLimits().scratch_files:,} files in its scratch folders" in reason
    assert "FILER: made them all" not in hosted_store.log("filer")  # stopped before its 150,000
