"""`pip install ./clients/python` gives `tourney_bot`, standing alone: its wheel holds only the SDK and
asks only for grpcio and protobuf, and a bot on the installed copy (with `tourney` made unimportable)
plays matches against a real `tourney serve`."""

from __future__ import annotations

import shutil
import subprocess
import sys
import zipfile
from pathlib import Path

import pytest

from tests.clients.arena import ROOT, program_plays

SDK = ROOT / "clients" / "python"
# The bot program: `tourney` is blocked, so any import of the project inside the SDK fails loudly.
LAUNCH = """import sys
sys.modules["tourney"] = None
sys.path.insert(0, sys.argv[1])
import tourney_bot
assert tourney_bot.__file__.startswith(sys.argv[1]), tourney_bot.__file__

class Last(tourney_bot.Bot):
    def act(self, observation, legal_actions, request):
        assert isinstance(observation, dict) and observation, "the observation reaches the bot as a dict"
        return len(legal_actions) - 1

    def on_match_ended(self, message):
        print(message.termination, flush=True)

tourney_bot.run_bot(Last())
"""


@pytest.fixture(scope="module")
def wheel(tmp_path_factory: pytest.TempPathFactory) -> Path:
    out = tmp_path_factory.mktemp("wheel")
    # Built from a copy: setuptools writes build/ and egg-info beside the sources it builds.
    source = shutil.copytree(SDK, out / "source", ignore=shutil.ignore_patterns("build", "*.egg-info", "__pycache__"))
    subprocess.run([sys.executable, "-m", "pip", "wheel", "-q", "--no-deps", "--no-build-isolation", "-w", str(out),
                    str(source)], check=True, timeout=300, capture_output=True)
    (built,) = out.glob("tourney_bot-*.whl")
    return built


def test_the_wheel_holds_the_sdk_and_needs_only_grpcio_and_protobuf(wheel: Path) -> None:
    with zipfile.ZipFile(wheel) as archive:
        names = archive.namelist()
        metadata = next(archive.read(n).decode() for n in names if n.endswith(".dist-info/METADATA"))
    code = {n for n in names if ".dist-info/" not in n}
    assert {"tourney_bot/__init__.py", "tourney_bot/client.py", "tourney_bot/run.py", "tourney_bot/py.typed",
            "tourney_bot/generated/arena_pb2.py", "tourney_bot/generated/arena_pb2_grpc.py"} <= code
    assert all(n.startswith("tourney_bot/") for n in code), code  # nothing else lands in site-packages
    requires = sorted(line.split(":", 1)[1].split(">")[0].strip() for line in metadata.splitlines()
                      if line.startswith("Requires-Dist:"))
    assert requires == ["grpcio", "protobuf"]


@pytest.mark.timeout(600)
def test_a_bot_on_the_installed_sdk_plays_against_tourney_serve(wheel: Path, tmp_path: Path) -> None:
    site = tmp_path / "site"
    subprocess.run([sys.executable, "-m", "pip", "install", "-q", "--no-deps", "--target", str(site), str(wheel)],
                   check=True, timeout=300, capture_output=True)
    (tmp_path / "bot.py").write_text(LAUNCH)
    records, out = program_plays([sys.executable, "bot.py", str(site)], "pybot", cwd=tmp_path)
    # Always the last action: a match may run into its cap (adjudicated), still played to its end.
    assert all(r["termination"] in ("normal", "adjudication") for r in records), records
    assert out.splitlines() == [r["termination"] for r in records]  # the bot heard each match end
