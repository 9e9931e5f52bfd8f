"""The Python SDK's example bots (clients/python/examples) play their games over loopback gRPC."""

from __future__ import annotations

import importlib.util
import os
import subprocess
import sys
from pathlib import Path
from types import ModuleType

import pytest

from tests.server.harness import ArenaHarness, wait_for
from tourney.engine.core import available_games

EXAMPLES = Path(__file__).resolve().parents[2] / "clients" / "python" / "examples"
BUILT = {g.id for g in available_games()}
BOTS = {
    "maitre-ninja": ("maitre_ninja_bot.py", "LongestBot"),
    "ninja-versus-ninja": ("ninja_versus_ninja_bot.py", "DeepBot"),
    "tiny-ninjas": ("tiny_ninjas_bot.py", "EagerBot"),
    "ninja-arena": ("ninja_arena_bot.py", "BusyBot"),
}


def _load(path: Path) -> ModuleType:
    spec = importlib.util.spec_from_file_location(path.stem, path)
    assert spec is not None and spec.loader is not None
    module = importlib.util.module_from_spec(spec)
    spec.loader.exec_module(module)
    return module


@pytest.mark.parametrize("game", sorted(BUILT & set(BOTS)))
def test_example_bot_plays_its_game(harness: ArenaHarness, game: str) -> None:
    filename, cls = BOTS[game]
    bot = getattr(_load(EXAMPLES / filename), cls)()
    client = harness.bot("example", bot, games=[game])
    for seed, seats in ((1, ["remote:example", "random"]), (2, ["random", "remote:example"])):
        record = harness.run_match(game, seats, seed=seed)
        assert record.termination in ("normal", "adjudication"), record.reason
    assert not client.errors


def test_random_example_runs_as_a_program(harness: ArenaHarness) -> None:
    env = {**os.environ, "TOURNEY_ARENA": harness.address, "TOURNEY_BOT_NAME": "prog", "TOURNEY_MATCHES": "2"}
    proc = subprocess.Popen([sys.executable, str(EXAMPLES / "random_bot.py")], env=env,
                            stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: bool(harness.arena.connected("prog")) or proc.poll() is not None)
        for seed in range(2):
            assert harness.run_match("sticks", ["remote:prog", "random"], seed=seed).termination == "normal"
        _, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(20)
    assert proc.returncode == 0, err
