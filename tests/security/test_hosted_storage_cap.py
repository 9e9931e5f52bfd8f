"""Attack on the store by a hosted bot's author: every upload is a new version (up to 32 MiB packed) and
nothing bounded how many one bot keeps, so an author with a token could fill the organiser's database
upload after upload. One bot now keeps at most MAX_VERSIONS versions and MAX_BOT_BYTES of bundles; past
them a submission is refused with one sentence, and nothing already stored is touched."""

from __future__ import annotations

import io
import shutil
import tarfile
from pathlib import Path

import httpx
import pytest

from tests.hosted.bundles import GAME, bot_source
from tests.web.browser import served
from tourney.engine.core import ConfigError
from tourney.tournament.store import hosted
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import VALIDATED, add_version, hosted_bot, resolve_version, set_status, set_token
from tourney.web.app import create_app
from tourney.workers.sandbox import pack_bundle

pytestmark = pytest.mark.timeout(180)


def _bundle(folder: Path, text: str) -> tuple[bytes, str, int]:
    folder.mkdir(parents=True, exist_ok=True)
    (folder / "bot.py").write_text(text)
    return pack_bundle(folder)


def test_one_bot_keeps_at_most_max_versions(tmp_path: Path) -> None:
    engine = open_store(str(tmp_path / "t.db"))
    packed, sha256, files = _bundle(tmp_path / "b", bot_source("good"))
    for _ in range(hosted.MAX_VERSIONS):
        add_version(engine, "flood", packed, sha256, files, "python3 bot.py", [GAME])
    set_status(engine, 7, VALIDATED)  # the version its ladder plays
    with pytest.raises(ConfigError, match=f"keeps {hosted.MAX_VERSIONS} versions already"):
        add_version(engine, "flood", packed, sha256, files, "python3 bot.py", [GAME])
    _, versions = hosted_bot(engine, "flood")
    assert len(versions) == hosted.MAX_VERSIONS  # nothing stored, nothing lost
    assert resolve_version(engine, "flood", None).version == 7
    add_version(engine, "another", packed, sha256, files, "python3 bot.py", [GAME])  # another bot has its own room


def test_one_bot_keeps_at_most_max_bot_bytes(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = open_store(str(tmp_path / "t.db"))
    bundles = [_bundle(tmp_path / str(i), bot_source("good") + f"# {i}\n" + "x" * 2000) for i in range(3)]
    monkeypatch.setattr(hosted, "MAX_BOT_BYTES", sum(len(b[0]) for b in bundles[:2]))
    for packed, sha256, files in bundles[:2]:
        add_version(engine, "heavy", packed, sha256, files, "python3 bot.py", [GAME])
    packed, sha256, files = bundles[0]
    add_version(engine, "heavy", packed, sha256, files, "python3 bot.py", [GAME])  # a bundle kept already: no bytes
    packed, sha256, files = bundles[2]
    with pytest.raises(ConfigError, match="MiB one bot may: submit a smaller bundle"):
        add_version(engine, "heavy", packed, sha256, files, "python3 bot.py", [GAME])
    assert [v.version for v in hosted_bot(engine, "heavy")[1]] == [1, 2, 3]


@pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")
def test_an_upload_past_the_cap_is_refused_in_one_sentence(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    engine = open_store(str(tmp_path / "t.db"))
    packed, sha256, files = _bundle(tmp_path / "b", bot_source("good"))
    monkeypatch.setattr(hosted, "MAX_VERSIONS", 3)
    for _ in range(3):
        add_version(engine, "frank", packed, sha256, files, "python3 bot.py", [GAME])
    token = set_token(engine, "frank")
    body = io.BytesIO()
    with tarfile.open(fileobj=body, mode="w:gz") as tar:
        data = bot_source("good").encode()
        info = tarfile.TarInfo("bot.py")
        info.size = len(data)
        tar.addfile(info, io.BytesIO(data))
    with served(create_app(engine)) as base, httpx.Client(base_url=base, timeout=30) as web:
        sent = web.post("/api/hosted/frank/versions", params={"run": "python3 bot.py", "game": GAME},
                        content=body.getvalue(), headers={"Authorization": f"Bearer {token}"})
    assert sent.status_code == 400, sent.text
    assert sent.json()["detail"] == ("hosted bot 'frank' keeps 3 versions already, the most one bot may: ask the "
                                     "organiser to submit it under a new name.")
    assert len(hosted_bot(engine, "frank")[1]) == 3
