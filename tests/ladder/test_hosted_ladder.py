"""Hosted bots on the ladder, in the real sandbox: a validated version joins its game's ladder by itself,
a newer version takes its place (the old one keeps its rating as history), and a retired bot leaves."""

from __future__ import annotations

import json
import shutil
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.hosted.bundles import GAME, bot_source
from tests.ladder.checks import assert_consistent
from tests.web.browser import chromium, served
from tourney.tournament.cli import app
from tourney.tournament.hosted.submission import submit_version
from tourney.tournament.ladder.hosted_entries import enroll
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import VALIDATED, set_status
from tourney.web.app import create_app

pytestmark = [pytest.mark.timeout(300),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]
runner = CliRunner()


def tourney(*args: str) -> str:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    return result.stdout


def submit(tmp_path: Path, db: str, name: str, folder: str) -> None:
    bot = tmp_path / folder
    bot.mkdir()
    (bot / "bot.py").write_text(bot_source("good"))
    tourney("bot", "submit", name, str(bot), "--run", "python3 bot.py", "--game", GAME, "--db", db)


def on_ladder(db: str) -> dict[str, dict[str, Any]]:
    doc = json.loads(tourney("ladder", "standings", "--game", GAME, "--db", db, "--json"))
    return {b["bot"]: b for b in doc["bots"]}


def ratings(db: str, name: str) -> dict[int, dict[str, Any]]:
    doc = json.loads(tourney("bot", "show", name, "--db", db, "--json"))
    return {r["version"]: r for r in doc["ladders"]}


def test_validated_versions_climb_the_ladder_and_retired_bots_leave(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    submit(tmp_path, db, "alice", "a1")
    submit(tmp_path, db, "bob", "b1")
    bots = on_ladder(db)
    assert {a: b["spec"] for a, b in bots.items()} == {"alice v1": "hosted:alice:version=1",
                                                       "bob v1": "hosted:bob:version=1"}
    tourney("ladder", "add", "greedy", "--game", GAME, "--db", db)

    tourney("ladder", "run", "--game", GAME, "--db", db, "--local", "--matches", "4")
    bots = on_ladder(db)
    assert all(b["matches"] > 0 for b in bots.values()), bots  # every new bot placed within the first matches

    submit(tmp_path, db, "alice", "a2")  # v2 takes v1's place; v1's rating stays as its history
    bots = on_ladder(db)
    assert "alice v1" not in bots and bots["alice v2"]["matches"] == 0
    v1 = ratings(db, "alice")[1]
    assert not v1["on_ladder"] and v1["matches"] > 0 and len(v1["history"]) == v1["matches"]
    assert v1["history"][-1] == pytest.approx(v1["conservative"], abs=1e-3)

    tourney("ladder", "run", "--game", GAME, "--db", db, "--local", "--matches", "2")
    alice = ratings(db, "alice")
    assert alice[1]["matches"] == v1["matches"]  # the old version plays no more
    assert alice[2]["on_ladder"] and alice[2]["matches"] > 0  # the new one is placed first

    bob_before = ratings(db, "bob")[1]["matches"]
    tourney("bot", "retire", "bob", "--db", db)
    assert "bob v1" not in on_ladder(db)
    tourney("ladder", "run", "--game", GAME, "--db", db, "--local", "--matches", "3")
    bob = ratings(db, "bob")[1]
    assert bob["matches"] == bob_before and not bob["on_ladder"]
    assert_consistent(open_store(db))

    # The bot's page shows each version's ladder rating and whether it is still on the ladder.
    with served(create_app(open_store(db))) as base, chromium() as page:
        page.goto(f"{base}/hosted/alice")
        rows = page.locator("#ladders tr").all_inner_texts()[1:]
        assert [r.split("\t")[1] for r in rows] == ["v1", "v2"]
        assert [r.split("\t")[4] for r in rows] == ["left", "yes"]
        assert page.locator("#ladders svg.history").count() >= 1


def test_the_newest_version_stays_on_the_ladder_whichever_validation_ends_last(tmp_path: Path) -> None:
    """Two versions submitted in a row: the second's validation ended first, then the first's, and the older
    version took the ladder back from the newer one (run at once, both left it)."""
    engine = open_store(str(tmp_path / "t.db"))
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_text(bot_source("good"))
    first, second = (submit_version(engine, "quick", folder, "python3 bot.py", [GAME]) for _ in range(2))
    for version in (second, first):  # the second's validation ends first
        assert version.id is not None
        set_status(engine, version.id, VALIDATED)
        enroll(engine, "quick", version.version, [GAME])
    db = str(tmp_path / "t.db")
    assert {alias: bot["spec"] for alias, bot in on_ladder(db).items()} == {"quick v2": "hosted:quick:version=2"}
    assert {v: r["on_ladder"] for v, r in ratings(db, "quick").items()} == {1: False, 2: True}
