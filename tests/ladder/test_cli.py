"""`tourney ladder add|run|standings` from the command line: the JSON standings, and bad input as one sentence."""

from __future__ import annotations

import json
from pathlib import Path

import pytest
from typer.testing import CliRunner

from tests.ladder.checks import assert_consistent
from tourney.engine.server.metrics import REGISTRY
from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store

runner = CliRunner()


def tourney(*args: str) -> tuple[int, str, str]:
    result = runner.invoke(app, list(args))
    return result.exit_code, result.stdout, result.stderr


@pytest.fixture
def db(tmp_path: Path) -> str:
    path = str(tmp_path / "ladder.db")
    for spec in ("greedy", "random", "random@r2"):
        code, out, _err = tourney("ladder", "add", spec, "--game", "sticks", "--db", path)
        assert code == 0 and "added to the sticks ladder" in out, (out, _err)
    return path


def sample(name: str, game: str) -> float:
    return REGISTRY.get_sample_value(name, {"game": game}) or 0.0


def test_standings_json_after_a_run(db: str) -> None:
    before = sample("tourney_ladder_matches_total", "sticks")
    code, out, err = tourney("ladder", "run", "--game", "sticks", "--db", db, "--local", "--matches", "12")
    assert code == 0, err
    assert "12 matches on the sticks ladder" in out
    code, out, _err = tourney("ladder", "standings", "--game", "sticks", "--db", db, "--json")
    assert code == 0
    doc = json.loads(out)
    assert doc["game"] == "sticks" and doc["done"] == 12 and doc["scheduled"] == 0
    assert [b["rank"] for b in doc["bots"]] == [1, 2, 3]
    assert sum(b["matches"] for b in doc["bots"]) == 24  # two seats a match
    conservative = [b["conservative"] for b in doc["bots"]]
    assert conservative == sorted(conservative, reverse=True)
    assert {b["bot"]: b["spec"] for b in doc["bots"]} == {"greedy": "greedy", "random": "random", "r2": "random"}
    assert sample("tourney_ladder_matches_total", "sticks") == before + 12
    assert sample("tourney_ladder_queue_matches", "sticks") == 0
    assert_consistent(open_store(db))
    code, out, _err = tourney("ladder", "standings", "--game", "sticks", "--db", db)
    assert code == 0 and "greedy" in out and "12 matches" in out


@pytest.mark.parametrize(("args", "says"), [
    (["add", "nosuch", "--game", "sticks"], "unknown bot 'nosuch'"),
    (["add", "greedy", "--game", "sticks"], "already on the ladder"),
    (["add", "greedy@a,random@b", "--game", "sticks"], "add them one at a time"),
    # A hosted bot's version joins under `NAME vN`: a bot added as that first kept the version off the ladder.
    (["add", "random@alice v1", "--game", "sticks"], "has the form of a hosted bot's version (NAME vN)"),
    (["add", "remote:x", "--game", "sticks"], "--arena"),
    (["add", "greedy", "--game", "no-such-game"], "no-such-game"),
    (["run", "--game", "sticks", "--matches", "0", "--local"], "--matches must be at least 1"),
    (["run", "--game", "sticks", "--for", "soon", "--local"], "is not a duration"),
    (["run", "--game", "sticks", "--for", "0s", "--local"], "is not a duration"),
    (["run", "--game", "sticks", "--for", "1m", "--matches", "3", "--local"], "not both"),
    (["run", "--game", "sticks", "--players", "5", "--local"], "not 5"),
    (["run", "--game", "sticks", "--set", "nosuch=1", "--local"], "nosuch"),
    (["run", "--game", "tiny-ninjas", "--local"], "there is no tiny-ninjas ladder"),
    (["standings", "--game", "tiny-ninjas"], "there is no tiny-ninjas ladder"),
    (["run", "--game", "sticks", "--address", "127.0.0.1:1"], "cannot join the Ray cluster"),
])
def test_bad_input_is_one_sentence_and_exit_2(db: str, args: list[str], says: str) -> None:
    code, out, err = tourney("ladder", *args, "--db", db)
    assert code == 2, out
    assert says in err and "Traceback" not in err and len(err.strip().splitlines()) == 1


def test_a_missing_store_is_a_typo_not_a_new_ladder(tmp_path: Path) -> None:
    for args in (["run", "--game", "sticks"], ["standings", "--game", "sticks"]):
        code, _out, err = tourney("ladder", *args, "--db", str(tmp_path / "nope.db"))
        assert code == 2 and "there is no database" in err
    assert not (tmp_path / "nope.db").exists()


def test_a_name_is_echoed_with_its_control_characters_escaped(tmp_path: Path) -> None:
    """The alias `ladder add` prints back may be a bot author's text: an escape sequence in it reached the
    organiser's terminal raw."""
    code, out, _err = tourney("ladder", "add", "greedy@red\x1b[31mtext", "--game", "sticks", "--db",
                              str(tmp_path / "l.db"))
    assert code == 0
    assert "\x1b" not in out and out == "red\\x1b[31mtext added to the sticks ladder\n"


def test_a_ladder_too_small_for_a_match(tmp_path: Path) -> None:
    path = str(tmp_path / "one.db")
    assert tourney("ladder", "add", "greedy", "--game", "sticks", "--db", path)[0] == 0
    code, _out, err = tourney("ladder", "run", "--game", "sticks", "--db", path, "--local")
    assert code == 2 and "has 1 bot(s) and a match needs 2" in err


def test_one_ladder_run_at_a_time(db: str) -> None:
    import socket
    import subprocess
    import sys
    import time

    from tourney.tournament.store.ladder_rows import LADDERS, ladder_of
    from tourney.tournament.store.lease_rows import claim

    engine = open_store(db)
    found = ladder_of(engine, "sticks", create=False)
    assert found is not None

    def held_by(runner: str, beat: float) -> None:
        with engine.begin() as conn:
            conn.exec_driver_sql("update ladder set runner = ?, heartbeat_ts = ?", (runner, beat))

    held_by("elsewhere:1", time.time())  # alive on another machine
    code, _out, err = tourney("ladder", "run", "--game", "sticks", "--db", db, "--local", "--matches", "2")
    assert code == 2 and "another `tourney ladder run` (elsewhere:1" in err
    held_by("elsewhere:1", time.time() - 3600)  # its lease ran out long ago
    assert tourney("ladder", "run", "--game", "sticks", "--db", db, "--local", "--matches", "2")[0] == 0
    finished = subprocess.run([sys.executable, "-c", "import os; print(os.getpid())"], capture_output=True, text=True)
    held_by(f"{socket.gethostname()}:{finished.stdout.strip()}", time.time())  # this machine, process gone
    assert tourney("ladder", "run", "--game", "sticks", "--db", db, "--local", "--matches", "2")[0] == 0
    with engine.connect() as conn:
        assert conn.exec_driver_sql("select runner from ladder").scalar() == ""  # released at the end
    assert claim(engine, LADDERS, found[0], "a:1", time.time(), 60, lambda _r: False) is None
    assert claim(engine, LADDERS, found[0], "b:2", time.time(), 60, lambda _r: False) is not None  # a holds it


def test_the_first_run_fixes_the_match_settings(tmp_path: Path) -> None:
    path = str(tmp_path / "three.db")
    for spec in ("greedy", "random", "random@r2", "random@r3"):
        assert tourney("ladder", "add", spec, "--game", "sticks", "--db", path)[0] == 0
    assert tourney("ladder", "run", "--game", "sticks", "--db", path, "--local", "--matches", "3",
                   "--players", "3")[0] == 0
    code, _out, err = tourney("ladder", "run", "--game", "sticks", "--db", path, "--local", "--players", "2")
    assert code == 2 and "plays with 3 players" in err and "drop --players" in err
    assert tourney("ladder", "run", "--game", "sticks", "--db", path, "--local", "--matches", "3")[0] == 0
    engine = open_store(path)
    with engine.connect() as conn:
        seats = [json.loads(a) for (a,) in conn.exec_driver_sql("select aliases_json from laddermatch")]
    assert len(seats) == 6 and all(len(s) == 3 for s in seats)  # the second run kept three players
    assert_consistent(engine)


def test_standings_print_a_long_name_whole_on_an_80_column_console(db: str) -> None:
    # rich caps print(width=) at the console's own width: a pipe or an 80-column terminal cut the name with "…".
    long_name = "greedy_with_a_name_long_enough_to_need_more_than_eighty_columns_" + "x" * 20
    code, out, err = tourney("ladder", "add", f"greedy@{long_name}", "--game", "sticks", "--db", db)
    assert code == 0, err
    result = runner.invoke(app, ["ladder", "standings", "--game", "sticks", "--db", db], env={"COLUMNS": "80"})
    assert result.exit_code == 0, result.stderr
    assert long_name in result.stdout and "…" not in result.stdout
