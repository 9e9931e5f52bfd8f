"""A public export record carries the public replay as GetMatch does, `first` and `changes`: `frames_of` rebuilds
from it exactly the match's public frames in every game, and its size grows with the match's length, not its
square (whole frames repeat Tiny Ninjas' event log at every step). A replay an earlier version of its game stored
exports with `unavailable` and no frames; the web download is the command's lines."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import httpx
import pytest
from typer.testing import CliRunner

from tests.export.conftest import match_copies
from tests.maitre_ninja.old_replays import old_form
from tests.web.browser import served
from tourney.engine.core import get_game
from tourney.engine.public_replay import frames_of, public_frames
from tourney.engine.referee import Replay
from tourney.tournament.cli import app
from tourney.tournament.entrants import parse_entrants
from tourney.tournament.runner import TournamentPlan, run_tournament
from tourney.tournament.store.codec import pack_replay, unpack_replay
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app

CONFIGS: dict[str, dict[str, Any]] = {"tiny-ninjas": {}, "ninja-versus-ninja": {}, "maitre-ninja": {},
                                      "ninja-arena": {"tick_cap": 60}}  # a short arena: its length is not the point
BYTES_PER_PLY = 1000  # a change is some 400 bytes; whole frames are 17 kB a ply here, and grow with the ply
SENTENCE = "cannot be played again move for move; its stored result is unchanged."


def cli_lines(path: Path, tournament: int) -> str:
    result = CliRunner().invoke(app, ["export", str(tournament), "--db", str(path)])
    assert result.exit_code == 0, result.output
    return result.stdout


def web_lines(path: Path, tournament: int) -> str:
    engine = open_store(str(path))
    try:
        with served(create_app(engine)) as base:
            return httpx.get(f"{base}/api/tournaments/{tournament}/export.jsonl", timeout=60).text
    finally:
        engine.dispose()


def store_tournament(path: Path, game: str) -> int:
    engine = open_store(str(path))
    plan = TournamentPlan(game=game, entrants=parse_entrants("greedy,random", get_game(game)), seed=5,
                          games_per_pair=2, config=CONFIGS[game], name=f"replay {game}", seed_key="public-replay-key")
    tournament = run_tournament(engine, plan).tournament_id
    engine.dispose()
    return tournament


def stored_replays(path: Path, tournament: int) -> dict[int, Replay]:
    """number -> the stored replay, read with plain SQL."""
    with sqlite3.connect(path) as con:
        rows = con.execute("select number, replay_json from match where tournament_id = ?", (tournament,)).fetchall()
    return {number: Replay.from_dict(unpack_replay(text)) for number, text in rows}


@pytest.mark.parametrize("game", sorted(CONFIGS))
def test_frames_rebuilt_from_a_record_are_the_matchs_public_frames(tmp_path: Path, game: str) -> None:
    path = tmp_path / "store.db"
    tournament = store_tournament(path, game)
    replays = stored_replays(path, tournament)
    records = [json.loads(line) for line in cli_lines(path, tournament).splitlines()]
    assert len(records) == len(replays) == 2
    for record in records:
        assert "frames" not in record and record["changes"]  # every step's change, no whole frames
        frames = public_frames(replays[record["number"]])
        assert len(record["changes"]) == len(frames) - 1 == record["plies"]
        assert frames_of(record) == json.loads(json.dumps(frames))


def test_a_long_tiny_ninjas_match_exports_its_changes_not_every_frame(tmp_path: Path) -> None:
    """A line grows with the match's length: a bound per ply that whole frames break tenfold."""
    path = tmp_path / "store.db"
    tournament = match_copies(path, 1)
    line = cli_lines(path, tournament)
    record = json.loads(line)
    plies = record["plies"]
    assert plies >= 200, plies  # long enough that whole frames are megabytes
    frames = public_frames(stored_replays(path, tournament)[record["number"]])
    whole = len(json.dumps(frames, separators=(",", ":")))
    assert len(line) < whole / 10, (len(line), whole)
    assert len(line) < BYTES_PER_PLY * plies, (len(line), plies)
    assert frames_of(record) == json.loads(json.dumps(frames))
    assert web_lines(path, tournament) == line


def test_a_replay_an_earlier_version_stored_exports_unavailable_with_its_result(tmp_path: Path) -> None:
    path = tmp_path / "store.db"
    tournament = store_tournament(path, "maitre-ninja")
    before = [json.loads(line) for line in cli_lines(path, tournament).splitlines()]
    with sqlite3.connect(path) as con:
        match_id, text = con.execute("select id, replay_json from match where tournament_id = ? order by number "
                                     "limit 1", (tournament,)).fetchone()
        con.execute("update match set replay_json = ? where id = ?", (pack_replay(old_form(unpack_replay(text))),
                                                                       match_id))
    lines = cli_lines(path, tournament)
    old, kept = (json.loads(line) for line in lines.splitlines())
    assert old["match"] == match_id and old["first"] is None and old["changes"] == [] and "frames" not in old
    assert old["unavailable"].endswith(SENTENCE) and frames_of(old) == []
    played = ("seats", "termination", "reason", "plies")  # the result stands as played
    assert {k: old[k] for k in played} == {k: before[0][k] for k in played}
    assert kept == before[1] and "unavailable" not in kept
    assert web_lines(path, tournament) == lines
