"""Which build of the hot rules runs: the mypyc extensions beside the source, or the source itself.

setup.py compiles the modules the playouts spend their time in (its COMPILED list) into C extensions
placed beside their .py files, and Python's import system prefers an extension over a source file in
the same folder. `use_source_when_needed` steps in when the extensions must not be used:
- TOURNEY_PURE=1 in the environment (to compare the two builds, or to read a traceback in the source);
- a source file edited after its extension was built: an editable install would otherwise keep
  playing the old rules until the next `pip install -e .`.
It is all or nothing: compiled modules call each other directly, so a mix would still run old code.
"""

from __future__ import annotations

import logging
import os
import sys
from collections.abc import Iterator, Sequence
from importlib.abc import MetaPathFinder
from importlib.machinery import EXTENSION_SUFFIXES, ModuleSpec, PathFinder
from importlib.util import spec_from_file_location
from pathlib import Path
from types import ModuleType

logger = logging.getLogger(__name__)

ENGINE = Path(__file__).resolve().parent


def extensions_with_sources(root: Path) -> Iterator[tuple[Path, Path]]:
    """Every (extension, the .py it was compiled from) under `root`."""
    for suffix in EXTENSION_SUFFIXES:
        for extension in root.rglob(f"*{suffix}"):
            source = extension.with_name(extension.name[: -len(suffix)] + ".py")
            if source.is_file():
                yield extension, source


def stale_sources(root: Path) -> list[Path]:
    """The sources under `root` changed after their extension was built."""
    return sorted(source for extension, source in extensions_with_sources(root)
                  if source.stat().st_mtime > extension.stat().st_mtime)


class SourceOnly(MetaPathFinder):
    """Finds a tourney.engine module's .py even where a compiled extension sits beside it."""

    def find_spec(self, fullname: str, path: Sequence[str] | None,
                  target: ModuleType | None = None) -> ModuleSpec | None:
        """The source's spec for a compiled module of tourney.engine; None (the usual search) otherwise."""
        if path is None or not fullname.startswith("tourney.engine."):
            return None
        found = PathFinder.find_spec(fullname, path)
        if found is None or found.origin is None:
            return None
        suffix = next((s for s in EXTENSION_SUFFIXES if found.origin.endswith(s)), None)
        if suffix is None:
            return None
        source = found.origin[: -len(suffix)] + ".py"
        return spec_from_file_location(fullname, source) if os.path.isfile(source) else None


def use_source_when_needed() -> bool:
    """Put SourceOnly first on the import path when TOURNEY_PURE=1 or a compiled module's source was
    edited since the build; True when the compiled build runs (extensions present and used)."""
    compiled = any(True for _ in extensions_with_sources(ENGINE))
    if not compiled:
        return False
    reason = ""
    if os.environ.get("TOURNEY_PURE") == "1":
        reason = "TOURNEY_PURE=1"
    else:
        edited = stale_sources(ENGINE)
        if edited:
            logger.warning("%s changed after the rules were compiled, so the pure-Python rules run (slower); "
                           "reinstall (pip install -e .) to compile them again.", edited[0].relative_to(ENGINE))
            reason = "edited"
    if reason and not any(isinstance(f, SourceOnly) for f in sys.meta_path):
        sys.meta_path.insert(0, SourceOnly())
    return not reason
