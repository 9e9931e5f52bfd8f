"""A run's size is checked by arithmetic before anything is planned: huge counts are refused in one
sentence, and the bound used for that check never falls below what a format really plays."""

from __future__ import annotations

import itertools
import json
import sqlite3

import pytest

from tests.tournament.test_cli import one_sentence_error, run
from tourney.tournament.formats.registry import MAX_MATCHES, FormatSpec, matches_at_most, total_estimate


@pytest.mark.parametrize("format_name,players", [("round-robin", 2), ("round-robin", 3), ("round-robin", 4),
                                                 ("gauntlet", 2), ("swiss", 2), ("swiss", 3), ("solo", 2)])
def test_the_bound_is_never_below_the_planned_count(format_name, players):
    for n, games, cycles, rounds in itertools.product(range(players, 11), (1, 2, 3), (1, 2), (None, 1, 5)):
        spec = FormatSpec(format_name, players, games, cycles, rounds)
        assert matches_at_most(spec, n) >= total_estimate(spec, n), (spec, n)


def test_the_bound_of_an_up_front_format_is_exact_for_two_players():
    for n in range(2, 12):
        for name in ("round-robin", "gauntlet", "solo"):
            spec = FormatSpec(name, 2, 3, 2)
            assert matches_at_most(spec, n) == total_estimate(spec, n)


@pytest.mark.timeout(60)
@pytest.mark.parametrize("flags", [("--games-per-pair", str(10**18)), ("--cycles", str(10**15)),
                                   ("--format", "swiss", "--rounds", str(10**12)),
                                   ("--players", "3", "--rounds", str(10**9)),
                                   ("--format", "gauntlet", "--games-per-pair", str(MAX_MATCHES))])
def test_a_run_too_big_to_plan_is_refused_in_one_sentence_before_anything_is_stored(tmp_path, flags):
    db = tmp_path / "t.db"
    one_sentence_error(run("run", "--game", "sticks", "--bots", "random,greedy,random@r2", *flags, "--db", str(db)),
                       f"more than the {MAX_MATCHES:,}")
    if db.exists():  # the store may be made before the plan is checked, but holds no tournament
        with sqlite3.connect(db) as con:
            assert con.execute("select count(*) from tournament").fetchone()[0] == 0


def test_a_league_whose_round_could_never_be_played_is_refused_at_creation(tmp_path):
    db = str(tmp_path / "l.db")
    one_sentence_error(run("league", "create", "big", "--game", "sticks", "--schedule", "0 20 * * *",
                           "--games-per-pair", str(MAX_MATCHES + 1), "--db", db), "--games-per-pair", "one round")


@pytest.mark.parametrize("args", [  # seeds have their own sentence (tests/security/test_seed_ranges.py)
    ("league", "create", "wide", "--game", "sticks", "--schedule", "0 20 * * *", "--divisions", "2",
     "--promote", str(10**20)),
    ("league", "create", "late", "--game", "sticks", "--schedule", "0 20 * * *", "--move-ms", str(10**20)),
    ("standings", str(10**23)),
    ("matches", str(10**23)),
])
def test_a_number_beyond_64_bits_is_one_sentence_and_keeps_what_is_stored(tmp_path, args):
    db = str(tmp_path / "t.db")
    first = run("run", "--game", "sticks", "--bots", "random,greedy", "--db", db, "--json")
    assert first.exit_code == 0, first.output
    one_sentence_error(run(*args, "--db", db), "is out of range: give a whole number from")
    again = run("standings", "1", "--db", db, "--json")
    assert again.exit_code == 0 and json.loads(again.stdout)["standings"] == json.loads(first.stdout)["standings"]
