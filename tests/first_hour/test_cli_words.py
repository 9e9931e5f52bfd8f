"""Items 2, 4, 5, 7, 8: solo matches, readable standings, progress in a pipe, clear messages, one vocabulary."""

from __future__ import annotations

import json
import sqlite3

import pytest
import typer
from typer.main import get_command
from typer.testing import CliRunner

import tests.sticks  # noqa: F401
from tourney.tournament.cli.main import app, guarded

runner = CliRunner()


def one_error(result) -> str:
    assert result.exit_code == 2, result.output
    lines = result.stderr.strip().splitlines()
    assert len(lines) == 1 and lines[0].startswith("error: ") and "Traceback" not in result.output, result.output
    return lines[0]


def test_solo_match_seats_one_bot_against_the_rulebook_ai():
    result = runner.invoke(app, ["match", "--mode", "solo", "--bots", "greedy", "--seed", "3", "--json"])
    assert result.exit_code == 0, result.output
    doc = json.loads(result.stdout)
    assert [s["bot"] for s in doc["seats"]] == ["greedy", "Solo AI"]
    text = runner.invoke(app, ["match", "--mode", "solo", "--bots", "greedy", "--seed", "3"]).stdout
    assert "Solo AI (seat 1)" in text and "greedy (seat 0)" in text and "random" not in text


def test_solo_match_with_two_bots_says_to_pass_one():
    line = one_error(runner.invoke(app, ["match", "--mode", "solo", "--bots", "greedy,random"]))
    assert "pass one bot" in line


def test_a_solo_tournament_of_one_bot_plays_it_against_the_rulebook_ai(tmp_path):
    db = tmp_path / "solo.db"
    result = runner.invoke(app, ["run", "--local", "--mode", "solo", "--bots", "greedy", "--games-per-pair", "2",
                                 "--db", str(db), "--json"])
    assert result.exit_code == 0, result.output
    seats = sqlite3.connect(db).execute("select alias from matchseat").fetchall()
    assert len(seats) >= 2 and {a for (a,) in seats} == {"greedy"}  # only the bot's seat is stored


def test_tiny_ninjas_seat_count_names_the_flag():
    assert "--players 2" in one_error(runner.invoke(app, ["match", "--bots", "greedy,random,random"]))


def test_too_many_players_talks_about_players_not_pods(tmp_path):
    line = one_error(runner.invoke(app, ["run", "--local", "--bots", "random,greedy,random@r2", "--players", "9",
                                         "--db", str(tmp_path / "t.db")]))
    assert "tiny-ninjas is played by 2 players, not 9: fix --players." in line and "pod" not in line
    assert not (tmp_path / "t.db").exists() or "tournament" not in str(
        sqlite3.connect(tmp_path / "t.db").execute("select name from sqlite_master").fetchall())


def test_a_bot_option_that_is_not_a_number_says_so():
    line = one_error(runner.invoke(app, ["match", "--bots", "ismcts:iterations=abc,greedy"]))
    assert "iterations=abc" in line and "is not a whole number" in line and "'<'" not in line


@pytest.mark.parametrize("command, maker", [
    (["standings", "1"], "tourney run"), (["matches", "1"], "tourney run"), (["replay", "1"], "tourney run"),
    (["resume"], "tourney run"), (["league", "list"], "tourney league create"),
    (["league", "standings", "weekly"], "tourney league create"),
    (["league", "join", "weekly", "random"], "tourney league create"),
    (["league", "run-due", "--local"], "tourney league create"),
    (["league", "pause", "weekly"], "tourney league create")])
def test_reading_commands_never_create_a_database(tmp_path, command, maker):
    typo = tmp_path / "typo.db"
    line = one_error(runner.invoke(app, [*command, "--db", str(typo)]))
    assert f"there is no database {typo}" in line and f"`{maker}` creates it" in line
    assert not typo.exists()


def test_multi_player_standings_are_whole_and_points_exact(tmp_path):
    db = str(tmp_path / "mp.db")
    bots = "random,random@r2,random@a_rather_long_bot_name,random@another_long_name,random@r5"
    ran = runner.invoke(app, ["run", "--local", "--game", "maitre-ninja", "--players", "4", "--bots", bots,
                              "--games-per-pair", "1", "--db", db, "--json"])
    assert ran.exit_code == 0, ran.output
    tid = json.loads(ran.stdout)["tournament_id"]
    table = runner.invoke(app, ["standings", str(tid), "--db", db]).stdout
    assert "…" not in table and "a_rather_long_bot_name" in table and "faults" in table
    assert all(f"│ {rank} │" in table for rank in range(1, 6))
    doc = json.loads(runner.invoke(app, ["standings", str(tid), "--db", db, "--json"]).stdout)
    for s in doc["standings"]:
        assert s["points"] == round(s["points"], 6) and s["buchholz"] == round(s["buchholz"], 6)


def test_run_in_a_pipe_prints_progress_lines_on_stderr(tmp_path, monkeypatch):
    monkeypatch.setattr("tourney.tournament.cli.progress.PERIOD_S", 0.001)
    result = runner.invoke(app, ["run", "--local", "--game", "sticks", "--bots", "random,greedy", "--games-per-pair",
                                 "6", "--db", str(tmp_path / "t.db")])
    assert result.exit_code == 0, result.output
    lines = [line for line in result.stderr.splitlines() if line.startswith("sticks: ")]
    assert lines and lines[-1].startswith("sticks: 6/6 matches")


def test_match_in_a_pipe_prints_progress_lines_on_stderr(monkeypatch):
    monkeypatch.setattr("tourney.tournament.cli.progress.PERIOD_S", 0.001)
    result = runner.invoke(app, ["match", "--game", "tiny-ninjas", "--bots", "ismcts:iterations=20,greedy", "--seed",
                                 "2"])
    assert result.exit_code == 0, result.output
    assert "tiny-ninjas seed 2: " in result.stderr and " decisions" in result.stderr


def test_ninja_arena_defaults_put_tactician_in_place_of_ismcts(tmp_path):
    result = runner.invoke(app, ["run", "--local", "--game", "ninja-arena", "--games-per-pair", "2", "--db",
                                 str(tmp_path / "t.db"), "--json"])
    assert result.exit_code == 0, result.output
    assert {s["bot"] for s in json.loads(result.stdout)["standings"]} == {"random", "greedy", "tactician"}


def _help(*path: str) -> str:
    result = runner.invoke(app, [*path, "--help"])
    assert result.exit_code == 0, result.output
    return result.stdout


def _commands(group=None, prefix=()):  # every (sub)command path of the real app
    group = group or get_command(app)
    for name, command in group.commands.items():
        yield (*prefix, name)
        if hasattr(command, "commands"):
            yield from _commands(command, (*prefix, name))


def test_help_has_one_vocabulary_and_no_bool_placeholders():
    paths = list(_commands())
    assert {("league",), ("bots",), ("serve",), ("connect",), ("arena-match",)} <= set(paths)
    top = _help()
    for path in paths:
        assert path[-1] in top  # `tourney --help` names every command, subcommands included
    for path in paths:
        text = _help(*path)
        assert "<bool>" not in text
        if path in (("connect",), ("arena-match",)):
            assert "--arena" in text and "--address" not in text
        if path in (("run",), ("resume",), ("sprt",)):
            assert "--address" in text and "Ray cluster" in text


def test_ctrl_c_names_the_resume_command(capsys):
    def interrupted() -> None:
        raise KeyboardInterrupt

    with pytest.raises(typer.Exit) as stopped:
        guarded(interrupted)
    assert stopped.value.exit_code == 2
    assert "tourney resume" in capsys.readouterr().err


@pytest.mark.parametrize("game, short", [("tiny-ninjas", "[RBY]"), ("maitre-ninja", "BL = block"),
                                         ("ninja-arena", "F = fist")])
def test_verbose_play_by_play_explains_its_short_forms(game, short):
    result = runner.invoke(app, ["match", "--game", game, "--bots", "random,random", "--seed", "1", "--verbose"])
    assert result.exit_code == 0, result.output
    assert result.stdout.startswith("key: ") and short in result.stdout.splitlines()[0]


def test_arena_match_prints_a_line_for_a_person_and_the_record_with_json():
    line = runner.invoke(app, ["arena-match", "--game", "sticks", "--bots", "random,greedy", "--seed", "1"])
    assert line.exit_code == 0, line.output
    assert len(line.stdout.strip().splitlines()) == 1 and "seed 1: " in line.stdout and "replay" not in line.stdout
    record = runner.invoke(app, ["arena-match", "--game", "sticks", "--bots", "random,greedy", "--seed", "1", "--json"])
    assert json.loads(record.stdout)["replay"]["seed"] == 1


def test_ninja_versus_ninja_play_by_play_numbers_the_turn_that_follows_the_move():
    result = runner.invoke(app, ["match", "--game", "ninja-versus-ninja", "--bots", "greedy,random", "--seed", "7",
                                 "--verbose"])
    assert result.exit_code == 0, result.output
    lines = result.stdout.splitlines()
    heads = [n for n, line in enumerate(lines) if line.startswith("turn ") and " to move " in line]
    assert len(heads) > 3
    for number, n in enumerate(heads, start=2):  # the first move printed is turn 1: its position shows turn 2
        assert lines[n - 1].startswith("seat ")  # right under the move it follows
        assert lines[n].startswith(f"turn {number} · ")
        nxt = lines[n].split(" · ")[1].removesuffix(" to move")
        moved = next(line for line in lines[n:] if line.startswith("last: ")).split()[1]
        assert {nxt, moved} == {"Red", "Black"}  # the side to move is the other one


def test_a_solo_tournament_match_replays_with_the_solo_ai_named(tmp_path):
    db = str(tmp_path / "solo.db")
    ran = runner.invoke(app, ["run", "--local", "--mode", "solo", "--bots", "greedy,random", "--games-per-pair", "2",
                              "--db", db])
    assert ran.exit_code == 0, ran.output
    replayed = runner.invoke(app, ["replay", "1", "--db", db])
    assert replayed.exit_code == 0, replayed.output
    last = replayed.stdout.strip().splitlines()[-1]
    assert last.startswith("match 1 (tiny-ninjas): ") and "Solo AI" in last and "greedy" in last


def test_every_command_that_plays_defaults_to_the_same_game():
    for path in (("match",), ("run",), ("sprt",), ("connect",), ("arena-match",)):
        assert "[default: tiny-ninjas]" in _help(*path), path
    played = runner.invoke(app, ["arena-match", "--bots", "random,greedy", "--seed", "1"])
    assert played.exit_code == 0, played.output
    assert played.stdout.startswith("tiny-ninjas match ")
