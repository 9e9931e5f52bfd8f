"""A zip whose central directory lists hundreds of thousands of entries is refused before zipfile reads it.

zipfile reads the whole central directory into memory, a ZipInfo an entry, before the first member can be
counted against the file limit: a 29 MiB upload (under the 32 MiB the web app takes) listing 600,000
one-letter names took the packing process from 98 to 390 MB and 3 s of CPU, and was then refused with
zipfile's "Bad magic number for file header" rather than the limit it broke.
"""

from __future__ import annotations

import struct
import tracemalloc
import zipfile
from pathlib import Path

import pytest

from tourney.workers.sandbox import BundleError, pack_bundle
from tourney.workers.sandbox import bundle as limits

ENTRIES = 60_000  # under 65,535: no zip64 record needed
MOST_BYTES = 8 << 20  # what packing may allocate for it: the entries alone took ~10 times that


def directory_only_zip(path: Path, entries: int) -> None:
    """A zip of nothing but central-directory entries (no member data), each a short name of a regular file."""
    listed = bytearray()
    for i in range(entries):
        name = b"%x" % i
        listed += struct.pack("<4s6H3L5H2L", b"PK\x01\x02", 20, 20, 0, 0, 0, 0, 0, 0, 0, len(name), 0, 0, 0, 0,
                              0o100644 << 16, 0) + name
    end = struct.pack("<4s4H2LH", b"PK\x05\x06", 0, 0, entries, entries, len(listed), 0, 0)
    path.write_bytes(bytes(listed) + end)


def test_a_zip_listing_too_many_entries_is_refused_unread(tmp_path: Path) -> None:
    path = tmp_path / "listing.zip"
    directory_only_zip(path, ENTRIES)
    tracemalloc.start()
    try:
        with pytest.raises(BundleError, match="lists more than 8000 files and folders"):
            pack_bundle(path)
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < MOST_BYTES, f"packing allocated {peak} bytes for a zip it refuses"


def test_entries_are_counted_exactly_across_read_chunks(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # Chunks of 5 bytes: most signatures cross a chunk's border, and none may be missed or counted twice.
    monkeypatch.setattr(limits, "CHUNK", 5)
    monkeypatch.setattr(limits, "MAX_FOLDERS", 0)
    monkeypatch.setattr(limits, "MAX_FILES", 6)
    path = tmp_path / "bot.zip"
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(6):
            archive.writestr(f"f{i}.py", b"x = 1\n")
    assert pack_bundle(path)[2] == 6  # at the limit it packs
    with zipfile.ZipFile(path, "a") as archive:
        archive.writestr("f6.py", b"x = 1\n")
    with pytest.raises(BundleError, match="lists more than 6 files and folders"):
        pack_bundle(path)
