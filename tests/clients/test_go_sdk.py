"""The Go SDK (clients/go) builds from Debian's packages alone (clients/go/build.sh, GOPATH mode) and its
random bot plays a match of each test game against a real `tourney serve`."""

from __future__ import annotations

import json
import shutil
import subprocess

import pytest

from tests.clients.arena import ROOT, program_plays

GO_DIR = ROOT / "clients" / "go"
TOOLS = ("go", "protoc", "protoc-gen-go", "protoc-gen-go-grpc")
pytestmark = pytest.mark.skipif(any(shutil.which(t) is None for t in TOOLS),
                                reason="the Go SDK's Debian packages are not installed (see clients/README.md)")


@pytest.mark.timeout(1500)
def test_the_go_random_bot_plays_against_tourney_serve() -> None:
    # The first build compiles Debian's grpc into clients/go/.gocache; later ones reuse it.
    built = subprocess.run(["bash", "build.sh"], cwd=GO_DIR, capture_output=True, text=True, timeout=1400)
    assert built.returncode == 0, built.stderr
    records, out = program_plays([str(GO_DIR / "bin" / "randombot")], "gobot")
    # A random bot may run a match into its cap: adjudicated, still a match played to its end.
    assert all(r["termination"] in ("normal", "adjudication") for r in records), records
    ended = [json.loads(line) for line in out.splitlines()]
    assert [e["termination"] for e in ended] == [r["termination"] for r in records], out
