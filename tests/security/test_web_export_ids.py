"""The web app's one streamed download, a tournament's export, asked for with ids no store can hold.

Before: its id was any integer, so an id past 64 bits reached SQLite (OverflowError: a 500 and a
traceback in the log), and only a "no such tournament" gave the download's place back: four such
requests from anyone and every export was refused (429) until the web app restarted.
"""

from __future__ import annotations

import urllib.error
import urllib.request
from pathlib import Path

import pytest

from tests.web.browser import served
from tourney.tournament.store.database import open_store
from tourney.web.app import MAX_EXPORTS, create_app

WAIT_S = 20.0


def _status(url: str) -> int:
    try:
        with urllib.request.urlopen(url, timeout=WAIT_S) as answer:
            return int(answer.status)
    except urllib.error.HTTPError as refused:
        return refused.code


@pytest.mark.timeout(120)
def test_ids_no_store_holds_are_not_found_and_hold_no_download_place(tmp_path: Path) -> None:
    engine = open_store(str(tmp_path / "t.db"))
    with served(create_app(engine)) as base:
        for tournament_id in [str(1 << 70), str(1 << 63), "-1", "x"] * MAX_EXPORTS:
            assert _status(f"{base}/api/tournaments/{tournament_id}/export.jsonl") == 404, tournament_id
        assert _status(f"{base}/api/tournaments/5/export.jsonl") == 404  # not 429: every place is free
