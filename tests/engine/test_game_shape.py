"""Four games, one shape: every game package has the same modules, makes its GAME in __init__.py, and
declares every fact the layers above need about it (legend, codec, real-time driver, CLI flags,
default line-up, viewer drawing), which those layers read from the Game without naming a game."""

from __future__ import annotations

import ast
import json
import subprocess
import sys
from pathlib import Path

import pytest
from fastapi.testclient import TestClient
from typer.testing import CliRunner

from tourney.engine.bots import bot_names
from tourney.engine.core import available_games, get_game
from tourney.engine.server.codecs import GenericCodec, codec_for
from tourney.engine.server.realtime import no_realtime, supports_realtime
from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store
from tourney.web.app import create_app
from tourney.web.game_viewers import viewer_games, viewer_script

ROOT = Path(__file__).resolve().parents[2]
GAMES_DIR = ROOT / "engine" / "games"
PACKAGES = sorted(p.name for p in GAMES_DIR.iterdir() if (p / "__init__.py").exists())
BUILT_IN = sorted(g.id for g in available_games() if type(g).__module__.startswith("tourney.engine.games."))
# What each package holds (docs/CONTRIBUTING.md, "A game package"); a game may add helper modules.
SHAPE = ("__init__.py", "data.py", "actions.py", "state.py", "rules.py", "game.py", "bots.py", "render.py",
         "tensor.py", "viewer.js", "README.md")
runner = CliRunner()


def test_there_are_four_built_in_games_in_four_packages() -> None:
    assert len(PACKAGES) == 4 and len(BUILT_IN) == 4


@pytest.mark.parametrize("package", PACKAGES)
def test_every_game_package_has_the_same_modules(package: str) -> None:
    assert [name for name in SHAPE if not (GAMES_DIR / package / name).is_file()] == []


def _assigns_game(path: Path) -> bool:
    return any(isinstance(node, ast.Assign) and any(isinstance(t, ast.Name) and t.id == "GAME" for t in node.targets)
               for node in ast.parse(path.read_text()).body)


@pytest.mark.parametrize("package", PACKAGES)
def test_the_game_is_made_in_the_package_init_and_nowhere_else(package: str) -> None:
    made_in = [p.name for p in sorted((GAMES_DIR / package).glob("*.py")) if _assigns_game(p)]
    assert made_in == ["__init__.py"]


@pytest.mark.parametrize("game_id", BUILT_IN)
def test_each_game_declares_its_facts(game_id: str) -> None:
    game = get_game(game_id)
    assert game.legend and game.legend.startswith("key: ")
    codec = codec_for(game_id)
    assert not isinstance(codec, GenericCodec) and game.codec == f"{type(codec).__module__}:{type(codec).__name__}"
    keys = {option.key for option in game.options}
    assert all(flag.key in keys for flag in game.cli_flags)  # a flag is a shortcut for a declared option
    assert set(game.default_bots) <= set(bot_names(game))
    script = viewer_script(game_id)
    assert script is not None and f'["{game_id}"]' in script.read_text()  # it registers under its own id


def test_only_ninja_arena_plays_in_real_time() -> None:
    assert [g for g in BUILT_IN if supports_realtime(g)] == ["ninja-arena"]
    assert get_game("ninja-arena").realtime_driver() is not None
    assert no_realtime("maitre-ninja") == "maitre-ninja has no real-time mode: drop realtime or pick ninja-arena."


def test_a_game_declaring_no_facts_gets_the_generic_ones() -> None:
    sticks = get_game("sticks")  # the tests' own game (tests/sticks.py), registered from outside engine/games
    assert sticks.legend is None and sticks.cli_flags == () and sticks.default_bots == ()
    assert isinstance(codec_for("sticks"), GenericCodec)
    assert not supports_realtime("sticks") and not supports_realtime("no-such-game")
    assert viewer_script("sticks") is None and "sticks" not in viewer_games()


def test_the_cli_offers_each_games_flags_and_names_the_game() -> None:
    shown = runner.invoke(app, ["run", "--help"], env={"COLUMNS": "200"})
    assert shown.exit_code == 0
    words = " ".join(shown.output.replace("│", " ").split())  # the help as one line, however it wraps
    for game in available_games():
        for flag in game.cli_flags:
            assert flag.flag in words
    assert "ninja-arena: add the six Genin Pack characters" in words


def test_tourney_games_names_each_games_default_line_up() -> None:
    listed = runner.invoke(app, ["games", "--json"])
    lineups = {g["id"]: g["default_bots"] for g in json.loads(listed.stdout)["games"]}
    assert lineups["ninja-arena"] == ["random", "greedy", "tactician"]
    assert lineups["tiny-ninjas"] == ["random", "greedy", "ismcts"]  # no line-up of its own: the generic one


def test_the_cli_starts_without_importing_a_game() -> None:
    """The games' flags are read when `match` or `run` needs them, not when any command starts."""
    code = ("import sys, tourney.tournament.cli.main;"
            "print(sorted(m for m in sys.modules if m.startswith('tourney.engine.games.')))")
    out = subprocess.run([sys.executable, "-c", code], capture_output=True, text=True, check=True, timeout=120)
    assert out.stdout.strip() == "[]"


def test_a_flag_of_another_game_is_refused_in_one_sentence() -> None:
    result = runner.invoke(app, ["match", "--game", "tiny-ninjas", "--bots", "random,random", "--genin-pack"])
    assert result.exit_code == 2
    assert "genin_pack" in result.output and "Traceback" not in result.output


def test_the_web_serves_each_games_drawing_and_nothing_else(tmp_path: Path) -> None:
    client = TestClient(create_app(open_store(str(tmp_path / "store.db"))))
    for game_id in BUILT_IN:
        got = client.get(f"/games/{game_id}/viewer.js")
        assert got.status_code == 200 and got.headers["content-type"].startswith("text/javascript")
        assert got.text == viewer_script(game_id).read_text()  # type: ignore[union-attr]
    for wrong in ("sticks", "no-such-game", "..%2F..%2Fweb", "tiny-ninjas%2F..%2F..%2Fcore"):
        assert client.get(f"/games/{wrong}/viewer.js").status_code == 404
