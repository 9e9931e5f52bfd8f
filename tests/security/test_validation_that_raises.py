"""A web upload whose validation raises: the version must end `failed`, with a reason its author reads
(`tourney bot show`, the bot's page), never stay `pending` for good; and the queue goes on validating."""

from __future__ import annotations

import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import Engine
from typer.testing import CliRunner

from tests.web.browser import served
from tourney.tournament.cli import app
from tourney.tournament.hosted import validation_queue
from tourney.tournament.hosted.validation_queue import MAX_WAITING, ValidationQueue
from tourney.tournament.store.database import open_store, url_of
from tourney.tournament.store.hosted import FAILED, PENDING, VALIDATED, add_version, hosted_bot, set_status
from tourney.tournament.store.hosted_tables import HostedVersion
from tourney.web.app import create_app

WAIT_S = 60.0


def _stored(engine: Engine, name: str, n: int) -> HostedVersion:
    data = f"bundle {n}".encode()
    return add_version(engine, name, data, f"{n:064x}", 1, "python3 bot.py", ["tiny-ninjas"])


def _settled(engine: Engine, name: str, count: int) -> list[HostedVersion]:
    """The bot's versions once none of its first `count` is pending (polled; a bounded wait)."""
    deadline = time.monotonic() + WAIT_S
    while True:
        versions = hosted_bot(engine, name)[1]
        if len(versions) >= count and all(v.status != PENDING for v in versions[:count]):
            return versions
        assert time.monotonic() < deadline, [v.status for v in versions]
        time.sleep(0.05)


def test_a_validation_that_raises_ends_failed_with_a_reason(tmp_path: Path,
                                                          monkeypatch: pytest.MonkeyPatch) -> None:
    db = str(tmp_path / "t.db")
    engine = open_store(db)

    def raising(engine_: Engine, store: str, name: str, version: HostedVersion) -> None:
        if version.version % 2:
            raise RuntimeError("/secret/organiser/path: disk on fire")
        set_status(engine_, version.id or 0, VALIDATED)

    monkeypatch.setattr(validation_queue, "validate", raising)
    queue = ValidationQueue(engine, url_of(engine))
    # More versions than the queue holds, one at a time: every failure gives its place back.
    for n in range(1, MAX_WAITING + 3):
        queue.submit("dana", lambda n=n: _stored(engine, "dana", n))
        _settled(engine, "dana", n)
    versions = _settled(engine, "dana", MAX_WAITING + 2)
    assert [v.status for v in versions] == [FAILED, VALIDATED] * ((MAX_WAITING + 2) // 2)
    failed = versions[0]
    assert "validation itself stopped" in failed.status_reason and "submit the version again" in failed.status_reason
    assert "/secret" not in failed.status_reason  # an unexpected error's text is the organiser's, in the log

    shown = CliRunner().invoke(app, ["bot", "show", "dana", "--db", db])
    assert shown.exit_code == 0 and "validation itself stopped" in shown.stdout
    with served(create_app(engine)) as base, httpx.Client(base_url=base, timeout=30) as web:
        page = web.get("/hosted/dana")
        assert page.status_code == 200 and "validation itself stopped" in page.text
