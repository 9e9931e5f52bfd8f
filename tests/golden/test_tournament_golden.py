"""The same seeds give the same stored tournaments: every golden case, in-process and on Ray, against the record.

The record (tournament_golden.json) is what the code stored before the refactors of issue 18;
a refactor that changes any stored result, standing, rating or replay fails here. Re-record
(`python -m tests.golden.record_tournaments`) only for a deliberate change of behaviour, and
say why in the commit.
"""

from __future__ import annotations

import json
from pathlib import Path
from typing import Any

import pytest

from tests.golden.tournament_cases import CASES, GOLDEN_FILE, TournamentCase, play, play_league
from tourney.workers import LocalExecutor, RayExecutor

RECORD: dict[str, Any] = json.loads(Path(__file__).with_name(GOLDEN_FILE).read_text())


def _same(got: dict[str, Any], want: dict[str, Any], what: str) -> None:
    """Compare part by part, so a failure names what changed (matches, ratings, ...) before the detail."""
    assert sorted(got) == sorted(want), f"{what}: recorded parts differ"
    for part in sorted(want):
        if part == "matches":
            assert len(got[part]) == len(want[part]), f"{what}: {len(got[part])} matches stored, not {len(want[part])}"
            for g, w in zip(got[part], want[part], strict=True):
                assert g == w, f"{what}: match {w['number']} differs"
        else:
            assert got[part] == want[part], f"{what}: {part} differs"


def test_the_record_covers_every_case_and_the_league() -> None:
    assert sorted(RECORD) == sorted([c.key for c in CASES] + ["league"])
    assert all(RECORD[c.key]["status"] == "finished" and RECORD[c.key]["matches"] for c in CASES)


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_in_process_stores_the_recorded_tournament(case: TournamentCase, tmp_path: Path) -> None:
    _same(play(case, tmp_path / "t.db", LocalExecutor()), RECORD[case.key], case.key)


@pytest.mark.parametrize("case", CASES, ids=[c.key for c in CASES])
def test_ray_stores_the_recorded_tournament(case: TournamentCase, tmp_path: Path, ray_session: object) -> None:
    _same(play(case, tmp_path / "t.db", RayExecutor(workers=2)), RECORD[case.key], case.key)


def test_a_league_stores_the_recorded_seasons(tmp_path: Path) -> None:
    got = play_league(tmp_path / "league.db", LocalExecutor())
    want = RECORD["league"]
    assert got["rounds"] == want["rounds"] and got["members"] == want["members"]
    assert sorted(got["divisions"]) == sorted(want["divisions"])
    for key in sorted(want["divisions"]):
        _same(got["divisions"][key], want["divisions"][key], f"league division {key}")


def test_a_league_on_ray_stores_the_recorded_seasons(tmp_path: Path, ray_session: object) -> None:
    assert play_league(tmp_path / "league.db", RayExecutor(workers=2)) == RECORD["league"]
