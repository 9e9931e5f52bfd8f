"""Versions a stopped web app left `pending`: the queue lives in memory, so the next start of the web app
must find them in the store and validate them, oldest first, each once, even more of them than the queue
holds, and still take new uploads."""

from __future__ import annotations

import shutil
import time
from pathlib import Path

import httpx
import pytest
from sqlalchemy.engine import Engine

from tests.hosted.bundles import GAME, bot_source
from tests.hosted.test_web_upload import archive
from tests.web.browser import served
from tourney.tournament.hosted import validation_queue
from tourney.tournament.hosted.submission import submit_version
from tourney.tournament.hosted.validation import validate
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import FAILED, PENDING, VALIDATED, hosted_bot, set_token
from tourney.tournament.store.hosted_tables import HostedVersion
from tourney.web.app import create_app

pytestmark = [pytest.mark.timeout(240),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]
WAIT_S = 180.0
BROKEN = "raise SystemExit(3)\n"


def _left_pending(engine: Engine, folder: Path, source: str) -> None:
    """Store a version as an upload does, as if the web app was stopped before validating it."""
    folder.mkdir()
    (folder / "bot.py").write_text(source)
    assert submit_version(engine, "gwen", folder, "python3 bot.py", [GAME]).status == PENDING


def test_versions_left_pending_are_validated_when_the_web_app_starts(tmp_path: Path,
                                                                      monkeypatch: pytest.MonkeyPatch) -> None:
    engine = open_store(str(tmp_path / "t.db"))
    _left_pending(engine, tmp_path / "v1", bot_source("good"))
    _left_pending(engine, tmp_path / "v2", BROKEN)
    _left_pending(engine, tmp_path / "v3", bot_source("good") + "\n# v3\n")
    validated: list[int] = []

    def counted(engine_: Engine, store: str, name: str, version: HostedVersion) -> tuple[str, str, str]:
        validated.append(version.version)
        return validate(engine_, store, name, version)

    monkeypatch.setattr(validation_queue, "validate", counted)
    monkeypatch.setattr(validation_queue, "MAX_WAITING", 1)  # fewer places than versions left pending
    author = {"Authorization": f"Bearer {set_token(engine, 'gwen')}"}
    with served(create_app(engine)) as base, httpx.Client(base_url=base, timeout=30) as web:
        sent = web.post("/api/hosted/gwen/versions", params={"run": "python3 bot.py", "game": GAME},
                        content=archive(bot_source("good") + "\n# v4\n"), headers=author)
        assert sent.status_code == 202, sent.text  # the versions resumed hold no place of the queue
        deadline = time.monotonic() + WAIT_S
        versions = hosted_bot(engine, "gwen")[1]
        while any(v.status == PENDING for v in versions):
            assert time.monotonic() < deadline, [v.status for v in versions]
            time.sleep(0.2)
            versions = hosted_bot(engine, "gwen")[1]
    assert [v.status for v in versions] == [VALIDATED, FAILED, VALIDATED, VALIDATED]
    assert "exit status 3" in versions[1].status_reason
    assert validated == [1, 2, 3, 4]  # upload order, each once
