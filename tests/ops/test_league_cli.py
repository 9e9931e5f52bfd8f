"""`tourney league ...` from the command line: create, join, run-due, standings, and one-sentence errors."""

from __future__ import annotations

import json

from typer.testing import CliRunner

import tourney.tournament.cli.league  # noqa: F401  (registers `tourney league`)
from tourney.tournament.cli import app

runner = CliRunner()


def invoke(*args: str):
    return runner.invoke(app, list(args))


def test_create_join_run_due_and_standings(tmp_path) -> None:
    db = str(tmp_path / "l.db")
    made = invoke("league", "create", "cli", "--game", "sticks", "--format", "round-robin", "--schedule",
                  "30 18 * * 1", "--divisions", "2", "--promote", "1", "--db", db, "--now", "2026-03-01T00:00",
                  "--json")
    assert made.exit_code == 0, made.output
    assert json.loads(made.stdout)["next_round"] == "2026-03-02T18:30:00+00:00"  # the first Monday, 18:30 UTC
    for bot in ("random", "greedy", "random@r2", "greedy@g2"):
        spec, _, alias = bot.partition("@")
        args = ["league", "join", "cli", spec, "--db", db] + (["--alias", alias] if alias else [])
        joined = invoke(*args)
        assert joined.exit_code == 0, joined.output
    early = invoke("league", "run-due", "cli", "--db", db, "--local", "--now", "2026-03-02T18:29", "--json")
    assert early.exit_code == 0 and json.loads(early.stdout)["rounds"] == []
    due = invoke("league", "run-due", "--db", db, "--local", "--now", "2026-03-09T19:00", "--json")
    assert due.exit_code == 0, due.output
    rounds = json.loads(due.stdout)["rounds"]
    assert [(r["season"], r["round"], r["status"]) for r in rounds] == [(0, 0, "done"), (1, 0, "done")]
    table = invoke("league", "standings", "cli", "--db", db, "--season", "1", "--json")  # people count from 1
    assert table.exit_code == 0, table.output
    doc = json.loads(table.stdout)
    assert [len(d["standings"]) for d in doc["divisions"]] == [2, 2]
    assert set(doc["ratings"]) == {"random", "greedy", "r2", "g2"}
    text = invoke("league", "standings", "cli", "--db", db)
    assert text.exit_code == 0 and "season 2, division 1" in text.stdout  # the latest: stored as 1, read as 2
    first = invoke("league", "standings", "cli", "--db", db, "--season", "1")
    assert first.exit_code == 0 and "season 1, division 1" in first.stdout
    zero = invoke("league", "standings", "cli", "--db", db, "--season", "0")
    assert zero.exit_code == 2 and "Traceback" not in zero.output


def test_mistakes_get_one_sentence_and_exit_code_2(tmp_path) -> None:
    db = str(tmp_path / "l.db")
    bad_cron = invoke("league", "create", "x", "--game", "sticks", "--schedule", "every day", "--db", db)
    assert bad_cron.exit_code == 2 and "is not a cron schedule" in bad_cron.output
    bad_format = invoke("league", "create", "x", "--game", "sticks", "--schedule", "0 * * * *", "--format", "gauntlet",
                        "--db", db)
    assert bad_format.exit_code == 2 and "swiss or round-robin" in bad_format.output
    no_promote = invoke("league", "create", "x", "--game", "sticks", "--schedule", "0 * * * *", "--divisions", "2",
                        "--db", db)
    assert no_promote.exit_code == 2 and "--promote" in no_promote.output
    assert invoke("league", "create", "x", "--game", "sticks", "--schedule", "0 * * * *", "--db", db).exit_code == 0
    again = invoke("league", "create", "x", "--game", "sticks", "--schedule", "0 * * * *", "--db", db)
    assert again.exit_code == 2 and "already a league" in again.output
    unknown = invoke("league", "join", "nope", "random", "--db", db)
    assert unknown.exit_code == 2 and "no league named 'nope'" in unknown.output
    bad_bot = invoke("league", "join", "x", "no-such-bot", "--db", db)
    assert bad_bot.exit_code == 2 and "Traceback" not in bad_bot.output
    assert invoke("league", "join", "x", "random", "--db", db).exit_code == 0
    twice = invoke("league", "join", "x", "random", "--db", db)
    assert twice.exit_code == 2 and "already in league" in twice.output
    bad_season = invoke("league", "standings", "x", "--season", "4", "--db", db)
    assert bad_season.exit_code == 2 and "no season 4: it has played seasons none yet" in bad_season.output
    bad_now = invoke("league", "run-due", "--db", db, "--now", "yesterday")
    assert bad_now.exit_code == 2 and "ISO time" in bad_now.output


def test_list_leave_pause_resume_and_readable_standings(tmp_path) -> None:
    db = str(tmp_path / "l.db")
    long_alias = "a-rather-long-bot-name-from-the-organisers-spreadsheet"
    assert invoke("league", "create", "weekly", "--game", "sticks", "--schedule", "0 20 * * *", "--db", db,
                  "--now", "2026-03-01T00:00").exit_code == 0
    for spec, alias in (("random", long_alias), ("greedy", "g"), ("random", "r"), ("remote:far", "far")):
        assert invoke("league", "join", "weekly", spec, "--alias", alias, "--db", db).exit_code == 0
    played = invoke("league", "run-due", "--db", db, "--local", "--now", "2026-03-01T21:00")
    assert played.exit_code == 0, played.output
    assert "weekly: season 1 round 1 (due 2026-03-01 20:00) done, 2 matches, 2 forfeits" in played.stdout
    table = invoke("league", "standings", "weekly", "--db", db)
    assert table.exit_code == 0
    assert long_alias in table.stdout and "…" not in table.stdout  # nothing truncated, even through a pipe
    assert "rating μ-3σ" in table.stdout and "next round due 2026-03-02 20:00 UTC" in table.stdout
    listed = invoke("league", "list", "--db", db, "--json")
    assert json.loads(listed.stdout)["leagues"][0] == {
        "name": "weekly", "game": "sticks", "format": "swiss", "schedule": "0 20 * * *", "members": 4,
        "paused": False, "season": 0, "next_round": "2026-03-02T20:00:00+00:00"}
    assert invoke("league", "leave", "weekly", "far", "--db", db).stdout.strip() == "far left league weekly"
    assert invoke("league", "pause", "weekly", "--db", db).exit_code == 0
    assert "never (paused)" in invoke("league", "list", "--db", db).stdout
    paused = invoke("league", "run-due", "--db", db, "--local", "--now", "2026-03-05T21:00", "--json")
    assert json.loads(paused.stdout)["rounds"] == []
    resumed = invoke("league", "resume", "weekly", "--db", db, "--now", "2026-03-05T21:00")
    assert resumed.exit_code == 0 and "next round due 2026-03-06 20:00 UTC" in resumed.stdout
    again = invoke("league", "resume", "weekly", "--db", db)
    assert again.exit_code == 2 and "already running" in again.output
    gone = invoke("league", "leave", "weekly", "nobody", "--db", db)
    assert gone.exit_code == 2 and "not a member" in gone.output
    bad = invoke("league", "run-due", "--db", db, "--catch-up", "some")
    assert bad.exit_code == 2 and "--catch-up is all, latest or a number" in bad.output
    lease = invoke("league", "run-due", "--db", db, "--lease", "0")
    assert lease.exit_code == 2 and "--lease must be a positive" in lease.output


def test_resume_leaves_a_league_division_to_its_league(tmp_path) -> None:
    """Between rounds a division's tournament is unfinished and held by nobody; a plain `tourney resume` used to
    play the rest of its season there and then, off the schedule. It is now refused (and passed over with no
    id), and the league's next round is still the one it plays."""
    import sqlite3

    from tourney.tournament.store.database import open_store
    from tourney.tournament.tournament_lease import latest_free

    db = str(tmp_path / "l.db")
    older = invoke("run", "--game", "sticks", "--bots", "random,greedy", "--games-per-pair", "2", "--local",
                   "--db", db, "--json")
    assert older.exit_code == 0, older.output
    with sqlite3.connect(db) as conn:  # as a run interrupted before its end leaves it
        conn.execute("UPDATE tournament SET status = 'interrupted'")
    assert invoke("league", "create", "lg", "--game", "sticks", "--schedule", "0 * * * *", "--db", db,
                  "--now", "2026-03-01T00:00").exit_code == 0
    for bot in ("random", "greedy", "random@r2", "greedy@g2"):
        spec, _, alias = bot.partition("@")
        assert invoke("league", "join", "lg", spec, "--db", db, *(["--alias", alias] if alias else [])).exit_code == 0
    first = invoke("league", "run-due", "--db", db, "--local", "--now", "2026-03-01T01:30", "--json")
    assert first.exit_code == 0, first.output

    def played(tournament_id: int) -> int:
        with sqlite3.connect(db) as conn:
            row = conn.execute("SELECT count(*) FROM match WHERE tournament_id = ?", (tournament_id,)).fetchone()
            return int(row[0])

    division = 2
    assert played(division) == 4  # round 1: two pairings, two games each
    assert latest_free(open_store(db)) == 1  # the plain run, not the newer division
    by_id = invoke("resume", str(division), "--db", db, "--local")
    assert by_id.exit_code == 2 and "Traceback" not in by_id.output
    assert "tournament 2 is division 1 of season 1 of league 'lg'" in by_id.output
    assert "tourney league run-due" in by_id.output
    assert played(division) == 4
    resumed = invoke("resume", "--db", db, "--local", "--json")  # finishes the plain run, leaves the league alone
    assert resumed.exit_code == 0, resumed.output
    assert json.loads(resumed.stdout)["tournament_id"] == 1
    assert played(division) == 4
    nothing = invoke("resume", "--db", db, "--local")
    assert nothing.exit_code == 2 and "no unfinished tournament to resume" in nothing.output
    second = invoke("league", "run-due", "--db", db, "--local", "--now", "2026-03-01T02:30", "--json")
    assert [(r["season"], r["round"], r["status"]) for r in json.loads(second.stdout)["rounds"]] == [(0, 1, "done")]
    assert played(division) == 8


def test_a_division_emptied_by_a_leaver_is_filled_from_below(tmp_path) -> None:
    """Two divisions of two; a top-division bot leaves and a newcomer joins. The next season used to put the
    one who stayed alone in the top division, whose tournament cannot be played: every round from then on
    failed ("a tournament needs at least two bots") and the league was stuck. Now the best of the division below
    moves up, and every division has two."""
    db = str(tmp_path / "l.db")
    assert invoke("league", "create", "few", "--game", "sticks", "--format", "round-robin", "--schedule", "0 * * * *",
                  "--divisions", "2", "--promote", "1", "--db", db, "--now", "2026-03-01T00:00").exit_code == 0
    for bot in ("random", "greedy", "random@r2", "greedy@g2"):
        spec, _, alias = bot.partition("@")
        assert invoke("league", "join", "few", spec, "--db", db, *(["--alias", alias] if alias else [])).exit_code == 0
    first = invoke("league", "run-due", "--db", db, "--local", "--now", "2026-03-01T01:30", "--json")
    assert first.exit_code == 0, first.output
    season1 = json.loads(invoke("league", "standings", "few", "--db", db, "--json").stdout)
    top = [row["bot"] for row in season1["divisions"][0]["standings"]]
    below = [row["bot"] for row in season1["divisions"][1]["standings"]]
    assert invoke("league", "leave", "few", top[0], "--db", db).exit_code == 0
    assert invoke("league", "join", "few", "random", "--alias", "newcomer", "--db", db).exit_code == 0
    second = invoke("league", "run-due", "--db", db, "--local", "--now", "2026-03-01T02:30", "--json")
    assert second.exit_code == 0, second.output
    assert [(r["season"], r["status"]) for r in json.loads(second.stdout)["rounds"]] == [(1, "done")]
    season2 = json.loads(invoke("league", "standings", "few", "--db", db, "--json").stdout)
    placed = [sorted(row["bot"] for row in division["standings"]) for division in season2["divisions"]]
    assert placed == [sorted([top[1], below[0]]), sorted([below[1], "newcomer"])]
