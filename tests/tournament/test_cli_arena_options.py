"""Ninja Arena's options on the command line: --players, --genin-pack, --mode duel, --characters."""

from __future__ import annotations

import json

from typer.testing import CliRunner

from tourney.tournament.cli import app

runner = CliRunner()


def test_six_players_need_and_get_the_genin_pack():
    bots = "greedy,random,random,random,tactician,random"
    refused = runner.invoke(app, ["match", "--game", "ninja-arena", "--players", "6", "--bots", bots])
    assert refused.exit_code == 2 and "genin_pack" in refused.stderr
    played = runner.invoke(app, ["match", "--game", "ninja-arena", "--players", "6", "--genin-pack", "--bots", bots,
                                 "--seed", "3", "--json"])
    assert played.exit_code == 0, played.output
    assert sorted(s for tier in json.loads(played.stdout)["ranking"] for s in tier) == list(range(6))


def test_duel_with_chosen_characters_plays_and_shows_them():
    result = runner.invoke(app, ["match", "--game", "ninja-arena", "--mode", "duel", "--characters",
                                 "Naruto,Sasuke,Sakura,Shikamaru", "--bots", "tactician,greedy", "--seed", "2",
                                 "--verbose"])
    assert result.exit_code == 0, result.output
    assert "Naruto" in result.stdout and "Shikamaru" in result.stdout


def test_an_unknown_character_is_one_sentence():
    result = runner.invoke(app, ["match", "--game", "ninja-arena", "--characters", "Nobody,Sasuke", "--bots",
                                 "greedy,random"])
    assert result.exit_code == 2 and "unknown Ninja Arena character 'Nobody'" in result.stderr


def test_run_takes_the_same_options(tmp_path):
    result = runner.invoke(app, ["run", "--local", "--game", "ninja-arena", "--characters", "Naruto,Sasuke",
                                 "--bots", "greedy,random", "--games-per-pair", "2", "--db", str(tmp_path / "a.db"),
                                 "--json"])
    assert result.exit_code == 0, result.output
    assert json.loads(result.stdout)["matches"] == 2
