"""The bundle cache every worker fills: bounded in bytes, the least recently used bundle removed first,
and never one in use (leased by a match)."""

from __future__ import annotations

import os
from pathlib import Path

import pytest

from tourney.engine.core import ConfigError
from tourney.engine.core.environment import BUNDLE_CACHE_BYTES_ENV
from tourney.workers.sandbox import cached_bundle, pack_bundle
from tourney.workers.sandbox.cache import cache_limit

SIZE = 100_000  # each bundle's one file; the limit below holds two of them, not three
LIMIT = 2 * SIZE + SIZE // 2


def _bundles(tmp_path: Path, count: int) -> dict[str, bytes]:
    packed = {}
    for n in range(count):
        folder = tmp_path / f"bot{n}"
        folder.mkdir()
        (folder / "bot.py").write_bytes(bytes([n]) * SIZE)
        data, sha, _ = pack_bundle(folder)
        packed[sha] = data
    return packed


def _cached(root: Path) -> set[str]:
    return {p.name for p in root.iterdir() if not p.name.startswith(".")}


def _used_at(root: Path, sha: str, when: int) -> None:
    """Mark `sha` as last used at `when` (seconds), so the order of use does not hang on the clock's grain."""
    os.utime(root / sha, (when, when))


def test_the_least_recently_used_bundle_goes_first(tmp_path: Path) -> None:
    packed = _bundles(tmp_path, 3)
    a, b, c = packed
    root, fetched = tmp_path / "cache", []

    def fetch(sha: str) -> bytes:
        fetched.append(sha)
        return packed[sha]

    cached_bundle(a, fetch, root, LIMIT).release()
    cached_bundle(b, fetch, root, LIMIT).release()
    _used_at(root, a, 1_000)
    _used_at(root, b, 2_000)
    cached_bundle(a, fetch, root, LIMIT).release()  # a used again: now b is the oldest
    cached_bundle(c, fetch, root, LIMIT).release()
    assert _cached(root) == {a, c}
    assert cached_bundle(b, fetch, root, LIMIT).folder.joinpath("bot.py").read_bytes() == bytes([1]) * SIZE
    assert fetched == [a, b, c, b]  # b was fetched again once removed


def test_a_bundle_in_use_is_never_removed(tmp_path: Path) -> None:
    packed = _bundles(tmp_path, 3)
    a, b, c = packed
    root = tmp_path / "cache"
    playing = cached_bundle(a, packed.__getitem__, root, LIMIT)  # a match holds it, as a sandboxed seat does
    cached_bundle(b, packed.__getitem__, root, LIMIT).release()
    _used_at(root, a, 1_000)
    _used_at(root, b, 2_000)
    cached_bundle(c, packed.__getitem__, root, LIMIT).release()
    assert _cached(root) == {a, c} and (playing.folder / "bot.py").is_file()  # b went, though a is older
    playing.release()
    cached_bundle(b, packed.__getitem__, root, LIMIT).release()  # a, no longer in use, is now the oldest
    assert _cached(root) == {b, c}


def test_a_cache_over_its_limit_with_every_bundle_in_use_keeps_them(tmp_path: Path) -> None:
    packed = _bundles(tmp_path, 3)
    root = tmp_path / "cache"
    leases = [cached_bundle(sha, packed.__getitem__, root, SIZE) for sha in packed]
    assert _cached(root) == set(packed) and all((lease.folder / "bot.py").is_file() for lease in leases)


def test_the_limit_is_read_from_the_environment(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setenv(BUNDLE_CACHE_BYTES_ENV, "12345")
    assert cache_limit() == 12345
    monkeypatch.setenv(BUNDLE_CACHE_BYTES_ENV, "lots")
    with pytest.raises(ConfigError, match="whole number of bytes"):
        cache_limit()
