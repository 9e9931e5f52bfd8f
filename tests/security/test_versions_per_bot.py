"""A bot's author cannot fill the store with versions: one bot keeps at most MAX_VERSIONS versions and
MAX_BOT_BYTES of bundles.

Every upload was a new version kept for good, its bundle (up to 32 MiB packed, incompressible bytes
stay that size) too, and a version that crashes at once is validated in about a second: an author
with a token could grow the store by tens of MiB a second for as long as they liked.
"""

from __future__ import annotations

import hashlib
import os
from pathlib import Path

import pytest
from sqlalchemy.engine import Engine

from tourney.engine.core import ConfigError
from tourney.tournament.store import hosted as store
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import add_version, hosted_bot


def upload(engine: Engine, number: int, size: int = 100) -> None:
    """Store one more version of bot `flood`, a different bundle of `size` bytes."""
    data = number.to_bytes(4, "big") + os.urandom(size)
    add_version(engine, "flood", data, hashlib.sha256(data).hexdigest(), 1, "python3 bot.py", ["ninja-versus-ninja"])


def test_a_bot_keeps_at_most_its_count_of_versions(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_VERSIONS", 5, raising=False)
    engine = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    for i in range(5):
        upload(engine, i)
    with pytest.raises(ConfigError, match="has 5 versions, the most one bot keeps: submit under another"):
        upload(engine, 5)
    assert len(hosted_bot(engine, "flood")[1]) == 5
    upload_other = add_version(engine, "other", b"other", "1" * 64, 1, "python3 bot.py", ["ninja-versus-ninja"])
    assert upload_other.version == 1  # another bot's room is its own


def test_a_bot_keeps_at_most_its_bytes_of_bundles(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(store, "MAX_BOT_BYTES", 1000, raising=False)
    engine = open_store(f"sqlite:///{tmp_path / 'store.db'}")
    upload(engine, 0, 600)
    with pytest.raises(ConfigError, match="would pass the 0 MiB one bot may keep"):
        upload(engine, 1, 600)
    upload(engine, 2, 300)  # what still fits is kept
    assert len(hosted_bot(engine, "flood")[1]) == 2
