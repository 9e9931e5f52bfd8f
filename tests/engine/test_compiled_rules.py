"""The compiled build of the rules (setup.py's mypyc extensions) plays exactly what the source plays,
and the build falls back to the source when there is no compiler or a source was edited."""

from __future__ import annotations

import json
import os
import shutil
import subprocess
import sys
import time
from pathlib import Path

import pytest

from tourney.engine.compiled import stale_sources

ROOT = Path(__file__).resolve().parents[2]
SEEDS = 40

# Plays random playouts of every game (fewest and most players) on SEEDS seeds and prints, per game,
# a digest of everything a seat or a trainer meets: who acts, the legal labels, each acting seat's
# view and training tensor (from the view and from the state), the actions, a clone and a
# determinized world at mid-game, the outcome; and what the arena's compiled path makes of it (the
# server's codecs, framing and request bytes of every decision, and the referee's result of a match).
PLAYOUTS = r"""
import hashlib, json, random, sys
import tourney.engine as engine
from tourney.engine.bots import make_bot
from tourney.engine.core import available_games, ConfigError
from tourney.engine.referee import play_match
from tourney.engine.server.codecs import codec_for
from tourney.engine.server.wire import legal_encoder, observation_bytes, request_message
import tourney.engine.games.ninja_arena.rules as probe
import tourney.engine.server.wire as wire_probe

digests = {}
for game in available_games():
    counts = [game.min_players]
    try:
        game.new_state(0, players=4)
        counts.append(4)
    except ConfigError:
        pass
    encoding = game.encoding()
    codec = codec_for(game.id)
    # Every mode too (Tiny Ninjas' Solo and series, Ninja Arena's Duel), on a quarter of the seeds.
    tables = [(players, None, int(sys.argv[1])) for players in sorted(set(counts))]
    tables += [(game.min_players, {"mode": mode}, int(sys.argv[1]) // 4) for mode in game.modes[1:]]
    for players, config, seeds in tables:
        h = hashlib.sha256()
        for seed in range(seeds):
            rng = random.Random(seed)
            try:
                state = game.new_state(seed, players=players, config=config)
            except ConfigError:  # a mode played only on a clock (Ninja Arena's realtime)
                break
            step = 0
            while not state.is_over():
                joint = {}
                for seat in state.to_act():
                    legal = state.legal_actions(seat)
                    view = state.observe(seat)
                    h.update(json.dumps([seat, [a.label for a in legal], view], sort_keys=True).encode())
                    h.update(request_message(f"m{seed}", step, seat, observation_bytes(codec, view), 1000,
                                             legal_encoder(codec).encode(legal)))
                    if encoding is not None:
                        h.update(repr(encoding.encode(view)).encode())
                        h.update(repr(encoding.encode_state(state, seat)).encode())
                    joint[seat] = legal[rng.randrange(len(legal))]
                if step == 20:
                    twin = state.clone()
                    h.update(json.dumps(twin.observe(0), sort_keys=True).encode())
                    world = state.determinize(0, random.Random(seed))
                    h.update(json.dumps(world.public_view(), sort_keys=True).encode())
                state.apply(joint)
                step += 1
            h.update(repr(state.outcome()).encode())
            played = play_match(game.id, [make_bot("random", game, seed + s) for s in range(players)], seed, config)
            h.update(repr((played.termination, played.reason, played.details, played.forfeit_seat,
                           [(s.tier, s.tier_size, s.score, s.points, s.decisions, s.faults) for s in played.seats],
                           [[(d.seat, d.index, d.fault) for d in step] for step in played.replay.steps])).encode())
        digests[f"{game.id}/{players}/{(config or {}).get('mode', 'default')}"] = h.hexdigest()
print(json.dumps({"compiled": engine.COMPILED_RULES, "probe": probe.__file__, "wire_probe": wire_probe.__file__,
                  "digests": digests}))
"""


def play(pure: bool) -> dict[str, object]:
    """The digests of PLAYOUTS in a fresh interpreter, with the compiled modules hidden or not."""
    env = {k: v for k, v in os.environ.items() if k != "TOURNEY_PURE"}
    if pure:
        env["TOURNEY_PURE"] = "1"
    done = subprocess.run([sys.executable, "-c", PLAYOUTS, str(SEEDS)], capture_output=True, text=True,
                          env=env, timeout=240, check=True)
    answer: dict[str, object] = json.loads(done.stdout)
    return answer


@pytest.mark.timeout(600)
def test_the_compiled_and_the_pure_rules_play_the_same_matches():
    pure, compiled = play(pure=True), play(pure=False)
    assert pure["compiled"] is False and str(pure["probe"]).endswith("rules.py")
    if not compiled["compiled"]:
        pytest.skip("this install has no compiled rules (no C compiler at install time): nothing to compare")
    assert not str(compiled["probe"]).endswith(".py") and not str(compiled["wire_probe"]).endswith(".py")
    assert str(pure["wire_probe"]).endswith("wire.py")
    digests = pure["digests"]
    assert isinstance(digests, dict) and len(digests) >= 12  # four games, their 4-player tables and modes
    assert compiled["digests"] == digests


def test_a_source_edited_after_the_build_is_found_stale(tmp_path: Path):
    from importlib.machinery import EXTENSION_SUFFIXES

    folder = tmp_path / "games" / "g"
    folder.mkdir(parents=True)
    built, source = folder / f"rules{EXTENSION_SUFFIXES[0]}", folder / "rules.py"
    source.write_text("X = 1\n")
    built.write_bytes(b"")
    os.utime(source, (time.time() - 60, time.time() - 60))  # built after the source: in date
    assert stale_sources(tmp_path) == []
    os.utime(source, (time.time() + 60, time.time() + 60))  # edited after the build
    assert stale_sources(tmp_path) == [source]


def checkout_copy(into: Path) -> Path:
    """The repository's files (tracked, and new ones not ignored) copied to `into`: a build there
    cannot touch this checkout's own compiled rules or build folder."""
    listed = subprocess.run(["git", "ls-files", "-co", "--exclude-standard", "-z"], cwd=ROOT, capture_output=True,
                            check=True, timeout=60).stdout.decode().split("\0")
    for name in filter(None, listed):
        source = ROOT / name
        if source.is_file():
            (into / name).parent.mkdir(parents=True, exist_ok=True)
            shutil.copy2(source, into / name)
    return into


@pytest.mark.timeout(300)
def test_without_a_compiler_the_install_is_the_pure_source(tmp_path: Path):
    env = {k: v for k, v in os.environ.items() if k != "TOURNEY_PURE"}
    env["CC"] = str(tmp_path / "no-such-compiler")
    tree = checkout_copy(tmp_path / "checkout")
    done = subprocess.run([sys.executable, "-m", "pip", "wheel", "--no-deps", "--no-build-isolation", "-v",
                           "-w", str(tmp_path / "wheels"), str(tree)], capture_output=True, text=True, env=env,
                          timeout=280, check=False)
    assert done.returncode == 0, done.stderr[-2000:]
    assert "no working C compiler" in done.stdout + done.stderr
    import zipfile

    (wheel,) = (tmp_path / "wheels").glob("tourney-*.whl")
    names = zipfile.ZipFile(wheel).namelist()
    assert "tourney/engine/games/ninja_arena/rules.py" in names
    assert not [n for n in names if n.endswith((".so", ".pyd"))]
    # The web app's data folders ship, and are listed as packages: setuptools used to print some 80
    # lines of warnings about them on every install, `./run.sh` on a fresh clone included.
    assert "tourney/web/templates/base.html" in names and "tourney/web/static/viewer.js" in names
    assert "absent from the `packages` configuration" not in done.stdout + done.stderr


def test_the_referees_time_control_is_a_plain_value_on_either_build():
    """The referee is compiled, its TimeControl not (a compiled frozen dataclass cannot be pickled or
    copied): plans and configurations that carry one still pickle and copy it."""
    import copy
    import pickle

    from tourney.engine.referee import TimeControl

    control = TimeControl(move_s=0.5, bank_s=2.0, increment_s=0.1)
    assert pickle.loads(pickle.dumps(control)) == control
    assert copy.deepcopy(control) == control and hash(copy.copy(control)) == hash(control)
    assert TimeControl.from_ms(250) == TimeControl(move_s=0.25)
