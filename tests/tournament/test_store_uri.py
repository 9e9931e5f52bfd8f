"""--db as a SQLite URI filename (`sqlite:///file:NAME?mode=ro&uri=true`): the commands that read a store
open the file it names, and one that names no file is the same one sentence as a mistyped path."""

from __future__ import annotations

import json
import os
from pathlib import Path
from urllib.parse import quote

import pytest

from tests.tournament.test_cli import one_sentence_error, run
from tourney.tournament.cli.shared import open_existing
from tourney.tournament.store.database import open_store, url_of


def test_a_read_only_uri_filename_reads_the_stored_tournament(tmp_path: Path) -> None:
    db = tmp_path / "odd name%1.db"  # characters a URI filename percent-encodes
    played = run("run", "--game", "sticks", "--bots", "greedy,random", "--db", str(db), "--json")
    assert played.exit_code == 0, played.output
    shown = run("standings", "1", "--db", f"sqlite:///file:{quote(str(db))}?mode=ro&uri=true", "--json")
    assert shown.exit_code == 0, shown.output
    assert json.loads(shown.stdout)["standings"] == json.loads(played.stdout)["standings"]


def test_a_uri_filename_naming_no_file_is_one_sentence(tmp_path: Path) -> None:
    missing = tmp_path / "typo.db"
    one_sentence_error(run("standings", "1", "--db", f"sqlite:///file:{missing}?mode=ro&uri=true"),
                       f"there is no database {missing}")
    assert not missing.exists()


def test_the_url_another_process_opens_names_the_same_file(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.chdir(tmp_path)
    open_store("sqlite:///here.db").dispose()
    engine = open_existing("sqlite:///file:here.db?mode=rw&uri=true")
    url = url_of(engine)
    monkeypatch.chdir(os.sep)  # a Ray worker or a sandbox's helper opens the URL from elsewhere
    again = open_store(url)
    assert again.url.query["mode"] == "rw"
    with again.connect() as conn:
        assert conn.exec_driver_sql("PRAGMA database_list").all()[0][2] == str(tmp_path / "here.db")
