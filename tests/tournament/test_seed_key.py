"""Match seeds are keyed by a secret stored with the tournament: `--seed` alone predicts nothing,
while the stored key (or the same `--seed-key`) reproduces every match exactly."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

import pytest
from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tourney.engine.core.chance import stream_start
from tourney.tournament.cli import app
from tourney.tournament.formats.seeding import LEGACY_KEY, keyed_match_seed
from tourney.tournament.store.database import open_store

runner = CliRunner()
KEY = "organiser-secret-0123456789"
RUN = ["run", "--game", "sticks", "--bots", "random,greedy,random@r2", "--games-per-pair", "2", "--seed", "1",
       "--local", "--json"]


def stored(db: Path) -> tuple[str, list[tuple[int, int, int, str]]]:
    """The tournament's stored key and its matches as (number, seed, plies, termination)."""
    with sqlite3.connect(db) as con:
        key = con.execute("select seed_key from tournament").fetchone()[0]
        rows = con.execute("select number, seed, plies, termination from match order by number").fetchall()
    return key, rows


def run(*args: str) -> dict[str, object]:
    result = runner.invoke(app, list(args))
    assert result.exit_code == 0, result.output
    doc: dict[str, object] = json.loads(result.stdout)
    return doc


def test_the_same_seed_without_a_key_gives_other_match_seeds(tmp_path: Path) -> None:
    run(*RUN, "--db", str(tmp_path / "a.db"))
    run(*RUN, "--db", str(tmp_path / "b.db"))
    key_a, a = stored(tmp_path / "a.db")
    key_b, b = stored(tmp_path / "b.db")
    assert len(key_a) == len(key_b) == 64 and key_a != key_b  # 256 random bits each
    assert not {seed for _, seed, _, _ in a} & {seed for _, seed, _, _ in b}
    # ...and none of them is the old unkeyed derivation anyone could compute from --seed 1.
    unkeyed = {stream_start(1, f"match/{k}") >> 2 for k in range(64)}
    assert not {seed for _, seed, _, _ in a} & unkeyed


def test_the_same_seed_key_replays_the_whole_tournament(tmp_path: Path) -> None:
    run(*RUN, "--seed-key", KEY, "--db", str(tmp_path / "a.db"))
    run(*RUN, "--seed-key", KEY, "--db", str(tmp_path / "b.db"))
    key_a, a = stored(tmp_path / "a.db")
    key_b, b = stored(tmp_path / "b.db")
    assert key_a == key_b == KEY and a == b and len(a) == 6
    assert [seed for _, seed, _, _ in a] == [keyed_match_seed(KEY, 1, k // 2) for k in range(6)]


def test_resume_uses_the_stored_key(tmp_path: Path) -> None:
    db = tmp_path / "t.db"
    first = run(*RUN, "--db", str(db))
    key, whole = stored(db)
    with sqlite3.connect(db) as con:
        con.execute("delete from matchseat where match_id in (select id from match where number >= 3)")
        con.execute("delete from match where number >= 3")
        con.execute("update tournament set status = 'running'")
    again = run("resume", str(first["tournament_id"]), "--db", str(db), "--local", "--json")
    assert again["standings"] == first["standings"]
    assert stored(db) == (key, whole)


def test_a_tournament_stored_before_keys_resumes_with_its_old_seeds(tmp_path: Path) -> None:
    db = tmp_path / "old.db"
    run(*RUN, "--db", str(db))
    open_store(str(db))
    with sqlite3.connect(db) as con:  # as migration 0004 leaves a tournament stored before it
        con.execute("update tournament set seed_key = ?, status = 'running'", (LEGACY_KEY,))
        con.execute("delete from matchseat")
        con.execute("delete from match")
    run("resume", "--db", str(db), "--local", "--json")
    _, rows = stored(db)
    assert [seed for _, seed, _, _ in rows] == [stream_start(1, f"match/{k // 2}") >> 2 for k in range(6)]


@pytest.mark.parametrize("key", ["short", "x" * 257, "tab\tinside-the-key-0123"])
def test_a_bad_seed_key_is_one_sentence(tmp_path: Path, key: str) -> None:
    result = runner.invoke(app, [*RUN, "--seed-key", key, "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 2
    lines = [line for line in result.stderr.splitlines() if line.strip()]
    assert len(lines) == 1 and "--seed-key must be 16 to 256 printable characters" in lines[0]
    assert not (tmp_path / "t.db").exists() or stored(tmp_path / "t.db")[1] == []
