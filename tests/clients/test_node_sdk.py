"""clients/node is an npm package: `npm pack` makes a tarball that carries the proto, and its own tests
(`node --test`) play a match against a real `tourney serve`."""

from __future__ import annotations

import shutil
import subprocess
import tarfile
from pathlib import Path

import pytest

from tests.clients.arena import ADMIN, ENV, ROOT, served

NODE_DIR = ROOT / "clients" / "node"
NODE, NPM = shutil.which("node"), shutil.which("npm")
pytestmark = pytest.mark.skipif(NODE is None or NPM is None, reason="node and npm are not installed")


def _install() -> None:
    """npm install once (bounded); later runs reuse node_modules."""
    assert NPM is not None
    if not (NODE_DIR / "node_modules" / "@grpc" / "grpc-js").exists():
        subprocess.run([NPM, "install", "--no-audit", "--no-fund"], cwd=NODE_DIR, check=True, timeout=300,
                       capture_output=True)


def test_npm_pack_makes_a_package_that_carries_the_proto(tmp_path: Path) -> None:
    assert NPM is not None
    subprocess.run([NPM, "pack", "--pack-destination", str(tmp_path)], cwd=NODE_DIR, check=True, timeout=120,
                   capture_output=True)
    (tarball,) = tmp_path.glob("tourney-bot-*.tgz")
    with tarfile.open(tarball) as packed:
        names = set(packed.getnames())
        proto = packed.extractfile("package/arena.proto")
        assert proto is not None
        carried = proto.read()
    assert {"package/package.json", "package/index.js", "package/bot.js", "package/arena.proto"} <= names
    assert carried == (ROOT / "proto" / "tourney" / "v1" / "arena.proto").read_bytes()


@pytest.mark.timeout(600)
def test_the_packages_own_tests_play_against_tourney_serve() -> None:
    assert NODE is not None
    _install()
    with served() as address:
        done = subprocess.run([NODE, "--test", "test/"], cwd=NODE_DIR, capture_output=True, text=True, timeout=300,
                              env={**ENV, "TOURNEY_ARENA": address, "TOURNEY_ADMIN_TOKEN": ADMIN})
    assert done.returncode == 0, done.stdout + done.stderr
    assert "# pass 3" in done.stdout and "# skipped 0" in done.stdout, done.stdout
