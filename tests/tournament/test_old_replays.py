"""A Maître Ninja replay stored before the defender laid its row parry by parry (one index into
every possible row) cannot be played again: `tourney replay` says so in one sentence, exit 2, and
the stored match is left as it was."""

from __future__ import annotations

import json
import sqlite3
from pathlib import Path

from tests.maitre_ninja.old_replays import old_form
from tests.tournament.test_cli import one_sentence_error, run
from tourney.tournament.store.codec import pack_replay, unpack_replay


def stored_maitre_match(tmp_path: Path) -> tuple[str, int]:
    db = str(tmp_path / "t.db")
    result = run("run", "--game", "maitre-ninja", "--players", "4", "--bots", "random,random@b,random@c,random@d",
                 "--games-per-pair", "1", "--db", db, "--json")
    assert result.exit_code == 0, result.output
    matches = json.loads(run("matches", str(json.loads(result.stdout)["tournament_id"]), "--db", db,
                             "--json").stdout)["matches"]
    return db, matches[0]["id"]


def test_replay_of_an_old_maitre_ninja_match_is_one_sentence_and_exit_2(tmp_path: Path) -> None:
    db, match_id = stored_maitre_match(tmp_path)
    assert run("replay", str(match_id), "--db", db).exit_code == 0  # today's form replays
    with sqlite3.connect(db) as conn:
        (text,) = conn.execute("SELECT replay_json FROM match WHERE id = ?", (match_id,)).fetchone()
        conn.execute("UPDATE match SET replay_json = ? WHERE id = ?", (pack_replay(old_form(unpack_replay(text))),
                                                                        match_id))
        before = conn.execute("SELECT * FROM match WHERE id = ?", (match_id,)).fetchone()
        seats_before = conn.execute("SELECT * FROM matchseat WHERE match_id = ?", (match_id,)).fetchall()
    shown = run("replay", str(match_id), "--db", db)
    one_sentence_error(shown, "earlier version of the game", "cannot be played again move for move")
    assert "seat " not in shown.stdout  # nothing of a wrong play-by-play was printed first
    with sqlite3.connect(db) as conn:
        assert conn.execute("SELECT * FROM match WHERE id = ?", (match_id,)).fetchone() == before
        assert conn.execute("SELECT * FROM matchseat WHERE match_id = ?", (match_id,)).fetchall() == seats_before
