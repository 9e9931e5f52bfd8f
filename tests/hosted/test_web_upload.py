"""The web app's one write: a hosted bot's author uploads a version with the bot's token; the bot's page
shows versions, validation and faults, and the logs of failed validations only to its author."""

from __future__ import annotations

import io
import shutil
import tarfile
import threading
import time
from pathlib import Path

import httpx
import pytest

from tests.hosted.bundles import GAME, bot_source
from tests.web.browser import served
from tourney.tournament.hosted import validation_queue
from tourney.tournament.hosted.document import hosted_bot_doc
from tourney.tournament.hosted.submission import submit_version
from tourney.tournament.hosted.validation import validate
from tourney.tournament.store.database import open_store, url_of
from tourney.tournament.store.hosted import VALIDATED, hosted_bot, set_status, set_token
from tourney.web.app import create_app
from tourney.web.hosted import MAX_UPLOAD

pytestmark = [pytest.mark.timeout(180),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]
WAIT_S = 90.0


def archive(source: str) -> bytes:
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w:gz") as tar:
        data = source.encode()
        info = tarfile.TarInfo("bot.py")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    return out.getvalue()


def test_the_author_uploads_and_only_the_author_reads_the_logs(tmp_path: Path) -> None:
    engine = open_store(str(tmp_path / "t.db"))
    folder = tmp_path / "v1"
    folder.mkdir()
    (folder / "bot.py").write_text(bot_source("good"))
    first = submit_version(engine, "frank", folder, "python3 bot.py", [GAME])
    validate(engine, url_of(engine), "frank", first)
    token = set_token(engine, "frank")
    author = {"Authorization": f"Bearer {token}"}
    broken = "print('PRIVATE-LOG-LINE api key sk-123', flush=True)\nraise SystemExit(3)\n"
    with served(create_app(engine)) as base, httpx.Client(base_url=base, timeout=30) as web:
        url = "/api/hosted/frank/versions"
        params = {"run": "python3 bot.py", "game": GAME}
        assert web.post(url, params=params, content=archive(broken)).status_code == 403
        assert web.post(url, params=params, content=archive(broken),
                        headers={"Authorization": "Bearer not-the-token"}).status_code == 403
        too_big = web.post(url, params=params, content=b"\0" * (MAX_UPLOAD + 1), headers=author)
        assert too_big.status_code == 413
        not_archive = web.post(url, params=params, content=b"just text", headers=author)
        assert not_archive.status_code == 400 and "neither a folder nor" in not_archive.json()["detail"]
        assert web.post("/api/hosted/nobody/versions", params=params, content=archive(broken),
                        headers=author).status_code == 404

        sent = web.post(url, params=params, content=archive(broken), headers=author)
        assert sent.status_code == 202, sent.text
        assert sent.json()["version"] == 2 and sent.json()["status"] == "pending"
        deadline = time.monotonic() + WAIT_S
        while (doc := web.get("/api/hosted/frank", headers=author).json())["versions"][1]["status"] == "pending":
            assert time.monotonic() < deadline, "the upload was not validated in time"
            time.sleep(0.2)
        v1, v2 = doc["versions"]
        assert v1["status"] == "validated" and v2["status"] == "failed"
        assert "exit status 3" in v2["reason"] and "PRIVATE-LOG-LINE" in v2["log"]

        public = web.get("/api/hosted/frank").json()
        assert public["versions"][1]["status"] == "failed" and "log" not in public["versions"][1]
        # one document: the author's is `tourney bot show --json`'s (the organiser's) plus author and faults
        organiser = hosted_bot_doc(engine, "frank", logs=True).model_dump(mode="json")
        assert {k: v for k, v in doc.items() if k not in ("author", "faults")} == organiser
        assert public["versions"] == [{k: v for k, v in row.items() if k != "log"} for row in organiser["versions"]]
        assert "PRIVATE-LOG-LINE" not in web.get("/hosted/frank").text
        assert "PRIVATE-LOG-LINE" not in web.get("/hosted/frank", params={"token": "wrong"}).text
        assert "PRIVATE-LOG-LINE" in web.get("/hosted/frank", params={"token": token}).text
        assert web.get("/hosted/nobody").status_code == 404



def test_an_upload_refused_for_a_full_queue_stores_nothing(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The attack: an author uploads faster than versions validate. Past the queue's places each upload was
    # refused (429), but only after its version was stored: a new bundle in the store (up to 32 MiB) on
    # every refused upload, pending for ever. Now a version is stored only when it has a place in the queue.
    started, release = threading.Event(), threading.Event()

    def validating(*args: object) -> None:
        started.set()
        release.wait(WAIT_S)

    monkeypatch.setattr(validation_queue, "MAX_WAITING", 1)
    monkeypatch.setattr(validation_queue, "validate", validating)
    engine = open_store(str(tmp_path / "t.db"))
    folder = tmp_path / "v1"
    folder.mkdir()
    (folder / "bot.py").write_text(bot_source("good"))
    first = submit_version(engine, "frank", folder, "python3 bot.py", [GAME])
    set_status(engine, first.id or 0, VALIDATED)  # else the app would validate it at start, before the uploads
    author = {"Authorization": f"Bearer {set_token(engine, 'frank')}"}
    try:
        with served(create_app(engine)) as base, httpx.Client(base_url=base, timeout=30) as web:
            statuses = []
            for i in range(4):  # one validating, one waiting, then no place
                upload = web.post("/api/hosted/frank/versions", params={"run": "python3 bot.py", "game": GAME},
                                  content=archive(bot_source("good") + f"\n# {i}\n"), headers=author)
                statuses.append(upload.status_code)
                assert i > 0 or started.wait(WAIT_S)  # the first is off the queue before the next arrives
            assert statuses == [202, 202, 429, 429]
            assert [v.version for v in hosted_bot(engine, "frank")[1]] == [1, 2, 3]  # v1 and the two queued
    finally:
        release.set()
