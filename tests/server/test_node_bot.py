"""The Node.js example bot (clients/node) plays every built game over loopback gRPC."""

from __future__ import annotations

import os
import shutil
import subprocess
from pathlib import Path

import pytest

from tests.server.harness import ArenaHarness, wait_for
from tourney.engine.core import available_games

NODE_DIR = Path(__file__).resolve().parents[2] / "clients" / "node"
NODE = shutil.which("node")


def _install() -> None:
    """npm install once (bounded); later runs reuse node_modules."""
    if (NODE_DIR / "node_modules" / "@grpc" / "grpc-js").exists():
        return
    npm = shutil.which("npm")
    assert npm is not None, "node is installed but npm is not"
    subprocess.run([npm, "install", "--no-audit", "--no-fund"], cwd=NODE_DIR, check=True, timeout=300,
                   capture_output=True)


@pytest.mark.skipif(NODE is None, reason="node is not installed")
def test_node_bot_plays_every_built_game(harness: ArenaHarness) -> None:
    assert NODE is not None
    _install()
    games = [g.id for g in available_games() if g.max_players >= 2]
    env = {**os.environ, "TOURNEY_ARENA": harness.address, "TOURNEY_BOT_NAME": "node",
           "TOURNEY_MATCHES": str(len(games)), "TOURNEY_CONCURRENCY": "2"}
    proc = subprocess.Popen([NODE, "bot.js"], cwd=NODE_DIR, env=env, stdout=subprocess.PIPE,
                            stderr=subprocess.PIPE, text=True)
    try:
        assert wait_for(lambda: bool(harness.arena.connected("node")) or proc.poll() is not None)
        assert proc.poll() is None, proc.stderr.read() if proc.stderr else ""
        for seed, game in enumerate(games):
            record = harness.run_match(game, ["remote:node", "random"], seed=seed)
            assert record.termination in ("normal", "adjudication"), (game, record.reason)
        out, err = proc.communicate(timeout=60)
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait(20)
    assert proc.returncode == 0, err
    lines = [line for line in out.splitlines() if line.startswith("{")]
    assert len(lines) == len(games)
