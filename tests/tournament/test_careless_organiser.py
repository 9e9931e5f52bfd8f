"""Attacks of a careless or hostile organiser on `tourney`'s commands, each mended: one sentence, exit 2,
and the store keeps what it held.

Before: a store written by a newer tourney failed with Alembic's "Can't locate revision" and "pass a valid
--db URL"; --db "" played into a store in memory, lost when the command ended; --host "" served the web
pages on every interface; --arena "" stored a tournament and then failed it with gRPC's log lines; a league
or tournament named with ESC sequences, or with 100,000 characters, was stored and printed raw; a FIFO
given as a bot's bundle was called missing; and a garbage or mismatched TLS key made `serve` blame --port
after printing gRPC's errors.
"""

from __future__ import annotations

import json
import os
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

from tests.tournament.test_cli import one_sentence_error, run


@pytest.fixture
def stored(tmp_path: Path) -> tuple[str, list[dict[str, object]]]:
    """A store holding one finished tournament, and its standings."""
    db = str(tmp_path / "t.db")
    first = run("run", "--game", "sticks", "--bots", "random,greedy", "--db", db, "--json")
    assert first.exit_code == 0, first.output
    return db, json.loads(first.stdout)["standings"]


def _unchanged(db: str, standings: list[dict[str, object]]) -> None:
    again = run("standings", "1", "--db", db, "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["standings"] == standings
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from tournament").fetchone()[0] == 1
        assert con.execute("select count(*) from league").fetchone()[0] == 0


def test_a_store_written_by_a_newer_tourney_is_named_so_and_left_untouched(stored):
    db, standings = stored
    with sqlite3.connect(db) as con:
        con.execute("update alembic_version set version_num = '9999'")
    for args in (("standings", "1"), ("run", "--game", "sticks", "--bots", "random,greedy"), ("league", "list")):
        one_sentence_error(run(*args, "--db", db), "was written by a newer tourney (schema 9999",
                           "upgrade tourney")
    with sqlite3.connect(db) as con:
        assert con.execute("select version_num from alembic_version").fetchone()[0] == "9999"
        assert con.execute("select count(*) from match").fetchone()[0] == 4


def test_an_empty_db_is_refused_not_played_into_memory(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    for empty in ("", "  "):
        one_sentence_error(run("run", "--game", "sticks", "--bots", "random,greedy", "--db", empty, "--json"),
                           "--db is empty")
    assert os.listdir(tmp_path) == []


@pytest.mark.parametrize("args,fragment", [
    (("web", "--host", "", "--port", "0"), "--host is empty"),
    (("serve", "--host", " ", "--port", "0"), "--host is empty"),
    (("run", "--game", "sticks", "--bots", "random,greedy", "--metrics-host", "", "--metrics-port", "0"),
     "--metrics-host is empty"),
    (("run", "--game", "sticks", "--bots", "random,greedy", "--arena", ""), "--arena is empty"),
    (("connect", "--game", "sticks", "--arena", ""), "--arena is empty"),
    (("league", "create", "", "--game", "sticks", "--schedule", "0 20 * * *"), "NAME is empty"),
    (("league", "create", "a\x1b[31mred", "--game", "sticks", "--schedule", "0 20 * * *"),
     "'a\\x1b[31mred' holds a character that is not printable"),
    (("league", "create", "L" * 1000, "--game", "sticks", "--schedule", "0 20 * * *"), "1,000 characters"),
    (("run", "--game", "sticks", "--bots", "random,greedy", "--name", "n\u202ex"), "'n\\u202ex' holds a character"),
    (("run", "--game", "sticks", "--bots", "random,greedy", "--name", "n" * 101), "101 characters"),
])
def test_an_empty_or_unprintable_value_is_one_sentence_and_stores_nothing(stored, args, fragment):
    db, standings = stored
    one_sentence_error(run(*args, "--db", db) if args[0] not in ("serve", "connect") else run(*args), fragment)
    _unchanged(db, standings)


@pytest.mark.parametrize("args,flag", [
    (("bot", "submit", "alice", ".", "--run", ""), "--run"),
    (("match", "--game", "sticks", "--bots", " "), "--bots"),
    (("league", "create", "L", "--game", "sticks", "--schedule", ""), "--schedule"),
])
def test_an_empty_required_option_is_not_told_to_be_left_out(stored, args, flag):
    db, standings = stored
    done = run(*args, "--db", db)
    one_sentence_error(done, f"{flag} is empty: give it a value")
    assert "leave" not in done.output  # the command needs it: leaving it out is no way out
    _unchanged(db, standings)


def test_an_empty_optional_option_may_be_left_out(stored):
    db, standings = stored
    done = run("run", "--game", "sticks", "--bots", "random,greedy", "--arena", "", "--db", db)
    one_sentence_error(done, "--arena is empty: give it a value (`--help` says what), or leave --arena out.")
    _unchanged(db, standings)


def test_a_printable_unicode_name_is_kept(stored):
    db, _ = stored
    done = run("run", "--game", "sticks", "--bots", "random,greedy", "--db", db, "--name", "Ünïcödé 大会 🥷", "--json")
    assert done.exit_code == 0, done.output
    with sqlite3.connect(db) as con:
        assert con.execute("select name from tournament where id = 2").fetchone()[0] == "Ünïcödé 大会 🥷"


def _pem_pair(folder: Path, name: str) -> tuple[Path, Path]:
    cert, key = folder / f"{name}.crt", folder / f"{name}.key"
    subprocess.run(["openssl", "req", "-x509", "-newkey", "rsa:2048", "-nodes", "-keyout", str(key), "-out",
                    str(cert), "-days", "1", "-subj", "/CN=localhost"], check=True, capture_output=True, timeout=60)
    return cert, key


def test_a_tls_file_that_is_not_the_right_pem_is_named_not_the_port(tmp_path):
    cert, key = _pem_pair(tmp_path, "one")
    _, other_key = _pem_pair(tmp_path, "two")
    garbage = tmp_path / "garbage.pem"
    garbage.write_bytes(os.urandom(2000))
    for tls, fragment in (((garbage, key), f"--tls-cert {garbage} holds no PEM certificate chain"),
                          ((cert, cert), f"--tls-key {cert} holds no PEM private key"),
                          ((cert, other_key), f"--tls-key {other_key} does not go with --tls-cert {cert}")):
        result = run("serve", "--port", "0", "--tls-cert", str(tls[0]), "--tls-key", str(tls[1]))
        one_sentence_error(result, fragment)
        assert "admin token" not in result.output  # refused before anything is announced


def test_a_pipe_given_as_a_bundle_is_named_a_pipe_not_missing(stored, tmp_path):
    db, standings = stored
    pipe = tmp_path / "bundle"
    os.mkfifo(pipe)
    one_sentence_error(run("bot", "submit", "piped", str(pipe), "--run", "python3 bot.py", "--db", db),
                       "is neither a folder nor a file")
    _unchanged(db, standings)


@pytest.mark.parametrize("args,fragment", [
    (("run", "--cycles", "abc"), "Invalid value for '--cycles'"),
    (("run", "--nosuch"), "No such option: --nosuch"),
    (("standings",), "Missing argument"),
    (("nosuchcommand",), "No such command 'nosuchcommand'"),
])
def test_a_usage_error_is_one_sentence_naming_the_commands_help(args, fragment):
    result = run(*args)
    one_sentence_error(result, fragment, "--help`")
    assert "╭" not in result.output  # Typer's boxed message, over five lines, before


def test_a_full_disk_under_the_output_is_one_sentence(stored):
    # /dev/full fails every write with ENOSPC, as a full disk does. Before: a traceback (OSError: [Errno 28]).
    db, standings = stored
    command = [sys.executable, "-c",
               "import sys, tests.sticks; from tourney.tournament.cli import app; sys.argv[0] = 'tourney'; app()"]
    for args, stdout in ((["standings", "1", "--json"], "/dev/full"), (["export", "1", "--out", "/dev/full"], None)):
        with open(stdout or os.devnull, "w") as sink:
            done = subprocess.run([*command, *args, "--db", db], stdout=sink, stderr=subprocess.PIPE, text=True,
                                  timeout=120, cwd=Path(__file__).parents[2])  # where `tests` imports from
        assert done.returncode == 2 and done.stderr.splitlines() == [
            "error: the disk is full (No space left on device): free some space, or write elsewhere (--out, --db, "
            "another redirect), and run the command again."], done.stderr
    _unchanged(db, standings)


@pytest.mark.parametrize("schedule", [(), ("--format", "gauntlet"), ("--mode", "solo")])
def test_rounds_on_a_fixed_schedule_is_refused_not_ignored(stored, schedule):
    """`run --rounds 5` on a two-player round robin used to play its fixed schedule as if --rounds were absent."""
    db, standings = stored
    game = ("--game", "tiny-ninjas") if schedule == ("--mode", "solo") else ("--game", "sticks")
    one_sentence_error(run("run", *game, "--bots", "random,greedy", *schedule, "--rounds", "5", "--db", db),
                       "leave --rounds out")
    _unchanged(db, standings)


def test_rounds_still_sets_pod_rounds(tmp_path):
    db = str(tmp_path / "pods.db")
    result = run("run", "--game", "maitre-ninja", "--players", "3", "--bots", "random,greedy,random@r2",
                 "--rounds", "2", "--games-per-pair", "1", "--db", db, "--json")
    assert result.exit_code == 0, result.output
    with sqlite3.connect(db) as con:
        assert con.execute("select count(*) from match").fetchone()[0] == 2 * 3
