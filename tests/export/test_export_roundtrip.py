"""`tourney export` of real stored tournaments, read back: every full record replays to the stored result,
and the public record of the same match shows that result and the public view of every step of it (rebuilt
from its changes)."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path
from typing import Any

import pytest
from typer.testing import CliRunner

from tests.export.conftest import ADMIN, Stored
from tourney.engine.core import Action, State
from tourney.engine.public_replay import frames_of
from tourney.engine.referee import Replay, replay_match
from tourney.tournament.cli import app

GAMES = ("tiny-ninjas", "ninja-versus-ninja", "maitre-ninja")


def export(stored: Stored, tournament: int, out: Path, *extra: str) -> list[dict[str, Any]]:
    result = CliRunner().invoke(app, ["export", str(tournament), "--db", str(stored.path), "--out", str(out), *extra])
    assert result.exit_code == 0, result.output
    return [json.loads(line) for line in out.read_text().splitlines()]


def stored_seats(stored: Stored, tournament: int) -> dict[int, list[tuple[int, str, int, float]]]:
    """number -> (seat, alias, tier, points) per seat, read with plain SQL."""
    out: dict[int, list[tuple[int, str, int, float]]] = {}
    with sqlite3.connect(stored.path) as con:
        for number, seat, alias, tier, points in con.execute(
                "select m.number, s.seat, s.alias, s.tier, s.points from match m join matchseat s on s.match_id = m.id "
                "where m.tournament_id = ? order by m.number, s.seat", (tournament,)):
            out.setdefault(number, []).append((seat, alias, tier, points))
    return out


@pytest.mark.parametrize("game", GAMES)
def test_full_records_replay_to_the_stored_results(stored: Stored, game: str, tmp_path: Path) -> None:
    tournament = stored.by_game[game]
    records = export(stored, tournament, tmp_path / "full.jsonl", "--full", "--admin-token", ADMIN)
    seats = stored_seats(stored, tournament)
    assert [r["number"] for r in records] == sorted(seats)  # every stored match, in schedule order
    played = 0
    for record in records:
        assert [(s["seat"], s["bot"], s["place"] - 1, s["points"]) for s in record["seats"]] == seats[record["number"]]
        if record["termination"] == "BYE":
            continue
        result = replay_match(Replay.from_dict(record["replay"]))
        places = {seat: tier for tier, group in enumerate(result.ranking) for seat in group}
        assert [(s["place"] - 1, s["points"]) for s in record["seats"]] == [
            (places[s["seat"]], result.points(s["seat"])) for s in record["seats"]]
        assert (result.termination.value, result.reason, result.seed) == (
            record["termination"], record["reason"], record["seed"])
        played += 1
    assert played > 0


@pytest.mark.parametrize("game", GAMES)
def test_public_records_show_the_result_and_each_steps_public_view(stored: Stored, game: str, tmp_path: Path) -> None:
    tournament = stored.by_game[game]
    full = export(stored, tournament, tmp_path / "full.jsonl", "--full", "--admin-token", ADMIN)
    public = export(stored, tournament, tmp_path / "public.jsonl")
    assert len(public) == len(full)
    byes = 0
    for pub, org in zip(public, full, strict=True):
        assert not {"seed", "replay", "config", "details"} & set(pub)
        assert all(set(s) == {"seat", "bot", "place", "points", "score", "faults"} for s in pub["seats"])
        same = ("match", "number", "round", "game", "players", "termination", "reason", "plies")
        assert {k: pub[k] for k in same} == {k: org[k] for k in same}
        assert [{k: s[k] for k in pub["seats"][0]} for s in org["seats"]] == pub["seats"]
        if org["termination"] == "BYE":
            byes += 1
            continue
        views: list[dict[str, Any]] = []

        def seen(state: State, _joint: list[tuple[int, Action]], views: list[dict[str, Any]] = views) -> None:
            views.append(json.loads(json.dumps(state.public_view())))
        replay_match(Replay.from_dict(org["replay"]), seen)
        frames = frames_of(pub)  # the public record is GetMatch's public replay document: first, then changes
        assert len(frames) == org["plies"] + 1
        assert frames[1:] == views  # the first frame is the position before the first step
    assert byes == (2 if game == "tiny-ninjas" else 0)  # a Swiss of three: one bye in each of its two rounds


def test_stdout_carries_the_same_lines_as_a_file(stored: Stored, tmp_path: Path) -> None:
    tournament = stored.by_game["ninja-versus-ninja"]
    export(stored, tournament, tmp_path / "public.jsonl")
    result = CliRunner().invoke(app, ["export", str(tournament), "--db", str(stored.path)])
    assert result.exit_code == 0 and result.stdout == (tmp_path / "public.jsonl").read_text()
