"""The package list for pyproject.toml, and the compiled build of the hot rules.

Every folder keeps its place in the repository (engine/, workers/, tournament/, web/) and installs
under the one package `tourney`, so nothing else lands at the top of site-packages.

The modules the random playouts, `observe()` and the training tensor spend their time in (COMPILED)
are also compiled with mypyc (it ships with mypy) when a C compiler and Python's headers are
present: the same source, as C extensions beside it. Without a compiler, or with TOURNEY_PURE=1 at
install time, the install is the pure-Python source alone, slower and otherwise identical
(`tourney.engine.compiled` also falls back to the source at run time; docs/CONTRIBUTING.md says when).
"""

import os
import shlex
import subprocess
import sys
import sysconfig
import tempfile
from pathlib import Path

from setuptools import Extension, find_namespace_packages, setup

LAYERS = ("engine", "workers", "tournament", "web", "envs")

# Hot in the profile of random playouts and views, and free of what mypyc refuses (class-level
# mutation, monkeypatching): the rules, states, actions, tables and tensors of the four games and
# the core's chance streams. Each game's bots, rendering and Game object stay interpreted. Then the
# arena's per-decision path that is not the game (the referee's steps, the codecs, the request
# framing): with it compiled the arena's own CPU a decision fell 6-22% (engine/server/README.md).
COMPILED = (
    "engine/core/chance.py",
    "engine/core/encoding.py",
    "engine/games/tiny_ninjas/data.py",
    "engine/games/tiny_ninjas/rules.py",
    "engine/games/tiny_ninjas/state.py",
    "engine/games/tiny_ninjas/modes.py",
    "engine/games/tiny_ninjas/solo.py",
    "engine/games/tiny_ninjas/tensor.py",
    "engine/games/maitre_ninja/data.py",
    "engine/games/maitre_ninja/rules.py",
    "engine/games/maitre_ninja/state.py",
    "engine/games/maitre_ninja/tensor.py",
    "engine/games/ninja_versus_ninja/data.py",
    "engine/games/ninja_versus_ninja/rules.py",
    "engine/games/ninja_versus_ninja/state.py",
    "engine/games/ninja_versus_ninja/tensor.py",
    "engine/games/ninja_arena/data.py",
    "engine/games/ninja_arena/matching.py",
    "engine/games/ninja_arena/rules.py",
    "engine/games/ninja_arena/state.py",
    "engine/games/ninja_arena/tensor.py",
    "engine/core/json_view.py",
    # The arena's per-decision path beside the rules.
    "engine/referee.py",
    "engine/server/framing.py",
    "engine/server/wire.py",
    "engine/server/codecs/base.py",
    "engine/server/codecs/tiny_ninjas.py",
    "engine/server/codecs/maitre_ninja.py",
    "engine/server/codecs/ninja_versus_ninja.py",
    "engine/server/codecs/ninja_arena.py",
)
# The one shared library mypyc links the compiled modules into, inside the package.
COMPILED_GROUP = "tourney.engine.compiled_rules"


def layout() -> tuple[dict[str, str], list[str]]:
    """The folder of each layer, and every package name under `tourney` (a function: setup.py is exec'd).

    Folders of data alone (web/templates, web/static) are listed too: Python can import them as namespace
    packages, and setuptools warns at length on every install about each importable folder left out."""
    package_dir = {f"tourney.{layer}": layer for layer in LAYERS}
    packages = [f"tourney.{layer}" for layer in LAYERS]
    packages += [f"tourney.{layer}.{sub}" for layer in LAYERS
                 for sub in find_namespace_packages(layer, exclude=["__pycache__", "*.__pycache__"])]
    return package_dir, packages


def compiler_works() -> bool:
    """Whether this machine's C compiler builds a file that includes Python.h (a fresh machine may
    have neither gcc nor the headers)."""
    command = shlex.split(os.environ.get("CC") or sysconfig.get_config_var("CC") or "cc")
    include = sysconfig.get_paths()["include"]
    with tempfile.TemporaryDirectory() as scratch:
        source = Path(scratch) / "probe.c"
        source.write_text("#include <Python.h>\nint probe(void) { return Py_IsInitialized(); }\n")
        try:
            done = subprocess.run([*command, "-I", include, "-c", str(source), "-o", str(Path(scratch) / "probe.o")],
                                  capture_output=True, timeout=120, check=False)
        except (OSError, subprocess.TimeoutExpired):
            return False
    return done.returncode == 0


def forget_old_extensions() -> None:
    """Delete the extensions an earlier editable build left beside their sources (this build makes
    its own): a module dropped from COMPILED, or any for a pure build, would otherwise shadow its
    source and ask the new shared library for an init it no longer has."""
    suffix = sysconfig.get_config_var("EXT_SUFFIX")
    for built in Path("engine").rglob(f"*{suffix}"):
        source = built.with_name(built.name[: -len(suffix)] + ".py")
        if source.is_file():
            built.unlink()


def compiled_extensions() -> list[Extension]:
    """mypyc's extensions for COMPILED, or none (the pure build) when TOURNEY_PURE=1, when mypyc is
    absent, or when no compiler works; the reason goes to stderr in one sentence."""
    forget_old_extensions()
    if os.environ.get("TOURNEY_PURE") == "1":
        return []
    try:
        from mypyc.build import mypycify
    except ImportError:
        print("tourney: mypyc is not installed, so the rules install as pure Python (slower); "
              "install mypy and reinstall to compile them.", file=sys.stderr)
        return []
    if not compiler_works():
        print("tourney: no working C compiler with Python's headers, so the rules install as pure Python "
              "(slower); install gcc and python3-dev and reinstall to compile them.", file=sys.stderr)
        return []
    # mypyc names modules from a tree shaped like the install (tourney/engine/...), as the type check does.
    tree = Path(".mypy-tree") / "tourney"
    tree.mkdir(parents=True, exist_ok=True)
    for layer in LAYERS:
        link = tree / layer
        if not link.is_symlink():
            link.symlink_to(Path("..", "..", layer))
    os.environ["MYPYPATH"] = str(tree.parent)
    return mypycify(["--explicit-package-bases", *(str(tree / p) for p in COMPILED)],
                    group_name=COMPILED_GROUP, opt_level="3", debug_level="0")


package_dir, packages = layout()
setup(package_dir=package_dir, packages=packages, ext_modules=compiled_extensions())
