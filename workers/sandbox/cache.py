"""Bundles unpacked once per machine, by content hash: a worker fetches a bundle's bytes from the
store the first time a match needs it, and every later match of that version reuses the folder.

The cache is bounded: past its byte limit the least recently used bundles are removed, but never one
in use. A bundle is in use while a lease on it is held: a shared lock on its lock file
(`.locks/SHA256`), which a remover must take exclusively, without waiting, first. Lock files are kept
(empty, one per version ever played here): removing one could let two processes lock different files.
"""

from __future__ import annotations

import contextlib
import fcntl
import os
import shutil
import tempfile
from collections.abc import Callable
from pathlib import Path
from typing import IO

from tourney.engine.core import ConfigError
from tourney.engine.core.environment import BUNDLE_CACHE_BYTES_ENV, BUNDLE_CACHE_ENV

DEFAULT_CACHE_BYTES = 2 << 30
LOCKS = ".locks"


def cache_root() -> Path:
    """Where unpacked bundles live: $TOURNEY_BUNDLE_CACHE, else ~/.cache/tourney/bundles."""
    return Path(os.environ.get(BUNDLE_CACHE_ENV) or Path.home() / ".cache" / "tourney" / "bundles")


def cache_limit() -> int:
    """The cache's byte limit: $TOURNEY_BUNDLE_CACHE_BYTES, else DEFAULT_CACHE_BYTES."""
    raw = os.environ.get(BUNDLE_CACHE_BYTES_ENV, "").strip()
    if not raw:
        return DEFAULT_CACHE_BYTES
    if not raw.isdigit():
        raise ConfigError(f"${BUNDLE_CACHE_BYTES_ENV} is '{raw[:40]}': give a whole number of bytes, e.g. "
                          f"{DEFAULT_CACHE_BYTES}.")
    return int(raw)


class BundleLease:
    """An unpacked bundle's folder, kept from removal until `release` (or until this object is dropped)."""

    def __init__(self, folder: Path, lock: IO[bytes]) -> None:
        self.folder = folder
        self._lock = lock

    def release(self) -> None:
        """Let the cache remove the folder again (closing the file drops its lock)."""
        self._lock.close()


def _lock_file(base: Path, sha256: str) -> IO[bytes]:
    locks = base / LOCKS
    locks.mkdir(exist_ok=True)
    return (locks / sha256).open("ab")


def cached_bundle(sha256: str, fetch: Callable[[str], bytes], root: Path | None = None,
                  limit: int | None = None) -> BundleLease:
    """A lease on the folder of bundle `sha256`, unpacked from `fetch(sha256)` unless already here; a
    bundle unpacked here may remove the least recently used others to keep the cache within `limit`.

    Unpacked into a private folder and renamed into place, so two workers racing for the same
    bundle never see half of it; the loser's copy is discarded.
    """
    from tourney.workers.sandbox.bundle import unpack_bundle

    base = root or cache_root()
    final = base / sha256
    base.mkdir(parents=True, exist_ok=True)
    lock = _lock_file(base, sha256)
    try:
        fcntl.flock(lock, fcntl.LOCK_SH)  # waits while a remover holds it: then the folder is gone
        if final.is_dir():
            os.utime(final)  # its last use, which eviction orders by
            return BundleLease(final, lock)
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
    except BaseException:
        lock.close()
        raise
    evict(base, cache_limit() if limit is None else limit)
    return BundleLease(final, lock)


def _size(folder: Path) -> int:
    total = 0
    for parent, _, files in os.walk(folder):
        for name in files:
            with contextlib.suppress(OSError):  # removed meanwhile
                total += os.lstat(os.path.join(parent, name)).st_size
    return total


def evict(base: Path, limit: int) -> list[str]:
    """Remove the least recently used bundles not in use until the cache holds at most `limit` bytes;
    returns the hashes removed."""
    bundles = []
    for entry in base.iterdir():
        if entry.name.startswith(".") or not entry.is_dir():
            continue  # staging folders and the lock files
        bundles.append((entry.stat().st_mtime, entry.name, _size(entry)))
    total = sum(size for _, _, size in bundles)
    removed: list[str] = []
    for _, sha256, size in sorted(bundles):
        if total <= limit:
            break
        with _lock_file(base, sha256) as lock:
            try:
                fcntl.flock(lock, fcntl.LOCK_EX | fcntl.LOCK_NB)
            except BlockingIOError:
                continue  # in use by a match: kept, whatever its age
            shutil.rmtree(base / sha256, ignore_errors=True)
        total -= size
        removed.append(sha256)
    return removed
