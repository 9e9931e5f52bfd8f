"""`tourney bot submit|list|show|retire` and hosted:NAME seats in `match` and `run`, with the real sandbox."""

from __future__ import annotations

import json
import shutil
import signal
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.hosted.bundles import GAME, bot_source
from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store

pytestmark = [pytest.mark.timeout(180),
              pytest.mark.skipif(shutil.which("bwrap") is None, reason="bubblewrap is not installed")]
runner = CliRunner()


def bundle(folder: Path, source: str) -> Path:
    folder.mkdir(parents=True)
    (folder / "bot.py").write_text(source)
    return folder


def cli(*args: str):
    return runner.invoke(app, list(args))


def test_submit_validates_then_the_bot_plays_as_hosted(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    good = bundle(tmp_path / "good", bot_source("good"))
    first = cli("bot", "submit", "alice", str(good), "--run", "python3 bot.py", "--game", GAME, "--db", db)
    assert first.exit_code == 0, first.output
    assert first.stdout.splitlines()[0] == "alice v1"
    again = cli("bot", "submit", "alice", str(good), "--run", "python3 bot.py", "--game", GAME, "--db", db)
    assert again.stdout.splitlines()[0] == "alice v2"
    shown = json.loads(cli("bot", "show", "alice", "--db", db, "--json").stdout)
    v1, v2 = shown["versions"]
    assert v1["sha256"] == v2["sha256"] and v1["status"] == v2["status"] == "validated"  # same files, same hash
    assert json.loads(cli("bot", "list", "--db", db, "--json").stdout) == [
        {"name": "alice", "versions": 2, "latest": 2, "status": "validated"}]

    played = cli("match", "--game", GAME, "--bots", "hosted:alice,random", "--seed", "3", "--db", db, "--json")
    assert played.exit_code == 0, played.output
    assert json.loads(played.stdout)["termination"] in ("normal", "adjudication")
    pinned = cli("match", "--game", GAME, "--bots", "hosted:alice:version=1,random", "--db", db, "--json")
    assert pinned.exit_code == 0, pinned.output

    ran = cli("run", "--local", "--game", GAME, "--bots", "hosted:alice,random", "--games-per-pair", "2",
              "--db", db, "--json")
    assert ran.exit_code == 0, ran.output
    with sqlite3.connect(db) as con:
        settings = json.loads(con.execute("select settings_json from tournament").fetchone()[0])
        reasons = [r for (r,) in con.execute("select termination from match")]
    assert ["alice", "hosted:alice:version=2"] in settings["entrants"]  # pinned when the run started
    assert len(reasons) == 2 and set(reasons) <= {"normal", "adjudication"}

    assert cli("bot", "retire", "alice", "--db", db).exit_code == 0
    refused = cli("match", "--game", GAME, "--bots", "hosted:alice,random", "--db", db)
    assert refused.exit_code == 2 and "retired" in refused.output


def test_a_version_that_fails_validation_says_why_and_is_not_ranked(tmp_path: Path) -> None:
    db = str(tmp_path / "t.db")
    broken = bundle(tmp_path / "broken", "print('loading my weights from weights.bin', flush=True)\n"
                                         "raise SystemExit('BOOM: weights.bin is missing')\n")
    result = cli("bot", "submit", "bob", str(broken), "--run", "python3 bot.py", "--game", GAME, "--db", db)
    assert result.exit_code == 1
    assert result.stdout.splitlines()[0] == "bob v1"
    assert "failed its validation" in result.output and "BOOM: weights.bin is missing" in result.output
    version = json.loads(cli("bot", "show", "bob", "--db", db, "--json").stdout)["versions"][0]
    assert version["status"] == "failed" and "exited before connecting, exit status 1" in version["reason"]
    assert "BOOM: weights.bin is missing" in version["log"] and "BOOM" not in version["reason"]
    refused = cli("match", "--game", GAME, "--bots", "hosted:bob,random", "--db", db)
    assert refused.exit_code == 2 and "no validated version" in refused.output


@pytest.mark.parametrize("args, words", [
    (["bot", "submit", "no/slash", "{dir}", "--run", "python3 bot.py"], "not a hosted bot name"),
    (["bot", "submit", "carol", "{dir}/missing", "--run", "python3 bot.py"], "does not exist"),
    (["bot", "submit", "carol", "{dir}", "--run", " "], "--run is empty"),
    (["bot", "submit", "carol", "{dir}", "--run", "python3 bot.py", "--game", "chess"], "chess"),
    (["bot", "show", "nobody"], "no hosted bot 'nobody'"),
    (["bot", "retire", "nobody"], "no hosted bot 'nobody'"),
    (["match", "--game", GAME, "--bots", "hosted:carol:version=x,random"], "hosted:NAME:version=N"),
])
def test_bad_input_is_one_sentence(tmp_path: Path, args: list[str], words: str) -> None:
    folder = bundle(tmp_path / "b", bot_source("good"))
    open_store(str(tmp_path / "t.db")).dispose()  # a store, without that bot
    result = cli(*[a.replace("{dir}", str(folder)) for a in args], "--db", str(tmp_path / "t.db"))
    assert result.exit_code == 2, result.output
    assert words in result.output and "Traceback" not in result.output
    assert result.output.startswith("error: ") and result.output.count("\n") == 1


@pytest.mark.parametrize("args", [["list"], ["list", "--json"], ["show", "alice"], ["retire", "alice"],
                                  ["token", "alice"]])
def test_a_mistyped_store_is_a_typo_not_a_new_empty_one(tmp_path: Path, args: list[str]) -> None:
    """`bot list` on a store that is not there printed an empty table (every bot gone, it seemed) and left
    an empty database behind; the others said there was no such bot."""
    typo = tmp_path / "tourny.db"
    result = cli("bot", *args, "--db", str(typo))
    assert result.exit_code == 2, result.output
    assert result.output == f"error: there is no database {typo}: check --db (`tourney bot submit` creates it).\n"
    assert not typo.exists()


def test_a_machine_without_bwrap_refuses_hosted_bots(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    folder = bundle(tmp_path / "b", bot_source("good"))
    monkeypatch.setenv("PATH", str(tmp_path))  # no bwrap on it
    result = cli("bot", "submit", "dave", str(folder), "--run", "python3 bot.py", "--db", str(tmp_path / "t.db"))
    assert result.exit_code == 2
    assert "apt-get install bubblewrap" in result.output


def test_a_league_plays_a_hosted_bot(tmp_path: Path) -> None:
    import tourney.tournament.cli.league  # noqa: F401  (registers `tourney league`)

    db = str(tmp_path / "l.db")
    good = bundle(tmp_path / "good", bot_source("good"))
    assert cli("bot", "submit", "erin", str(good), "--run", "python3 bot.py", "--game", GAME, "--db", db).exit_code == 0
    made = cli("league", "create", "hl", "--game", GAME, "--format", "round-robin", "--schedule", "30 18 * * 1",
               "--games-per-pair", "2", "--db", db, "--now", "2026-03-01T00:00")
    assert made.exit_code == 0, made.output
    assert cli("league", "join", "hl", "hosted:nobody", "--db", db).exit_code == 2  # no such hosted bot
    for spec in ("hosted:erin", "random"):
        joined = cli("league", "join", "hl", spec, "--db", db)
        assert joined.exit_code == 0, joined.output
    due = cli("league", "run-due", "hl", "--db", db, "--local", "--now", "2026-03-02T19:00", "--json")
    assert due.exit_code == 0, due.output
    assert [(r["matches"], r["forfeits"]) for r in json.loads(due.stdout)["rounds"]] == [(2, 0)]
    with sqlite3.connect(db) as con:
        ends = {r for (r,) in con.execute("select termination from match")}
    assert ends <= {"normal", "adjudication"}


@pytest.mark.parametrize("signum", [signal.SIGTERM, signal.SIGINT])
def test_a_submission_stopped_during_its_validation_says_the_version_waits(tmp_path: Path, signum: int) -> None:
    """`kill` during the validation ended `bot submit` without a word (status 143), its version left pending."""
    db = tmp_path / "t.db"
    stuck = bundle(tmp_path / "stuck", "import time\ntime.sleep(600)\n")  # never connects: stopped first
    submit = subprocess.Popen([str(Path(sys.executable).parent / "tourney"), "bot", "submit", "stuck", str(stuck),
                               "--run", "python3 bot.py", "--game", GAME, "--db", str(db)],
                              stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    assert submit.stdout is not None
    assert submit.stdout.readline() == "stuck v1\n"  # stored; its validation starts now
    submit.send_signal(signum)
    _out, err = submit.communicate(timeout=120)
    assert submit.returncode == 2, err
    assert err == ("error: interrupted: stuck v1 is stored but not validated (pending): `tourney web` validates it "
                   "when it starts, or submit it again.\n")
    shown = json.loads(cli("bot", "show", "stuck", "--db", str(db), "--json").stdout)
    assert [v["status"] for v in shown["versions"]] == ["pending"]
