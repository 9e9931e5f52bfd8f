"""Bundles unpacked once per machine, by content hash: a worker fetches a bundle's bytes from the
store the first time a match needs it, and every later match of that version reuses the folder."""

from __future__ import annotations

import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path

from tourney.engine.core.environment import BUNDLE_CACHE_ENV


def cache_root() -> Path:
    """Where unpacked bundles live: $TOURNEY_BUNDLE_CACHE, else ~/.cache/tourney/bundles."""
    return Path(os.environ.get(BUNDLE_CACHE_ENV) or Path.home() / ".cache" / "tourney" / "bundles")


def cached_bundle(sha256: str, fetch: Callable[[str], bytes], root: Path | None = None) -> Path:
    """The folder of bundle `sha256`, unpacked from `fetch(sha256)` unless already here.

    Unpacked into a private folder and renamed into place, so two workers racing for the same
    bundle never see half of it; the loser's copy is discarded.
    """
    from tourney.workers.sandbox.bundle import unpack_bundle

    base = root or cache_root()
    final = base / sha256
    if final.is_dir():
        return final
    base.mkdir(parents=True, exist_ok=True)
    staging = Path(tempfile.mkdtemp(prefix=f".{sha256[:12]}-", dir=base))
    try:
        unpack_bundle(fetch(sha256), sha256, staging)
        staging.chmod(0o755)
        try:
            staging.rename(final)
        except OSError:  # another worker put it there first
            if not final.is_dir():
                raise
    finally:
        shutil.rmtree(staging, ignore_errors=True)
    return final
