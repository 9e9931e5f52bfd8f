"""A tar whose header claims megabytes of records stops at the bundle's limit instead of filling memory.

tarfile reads a pax header's records, and a GNU long name, whole into memory at the size the header
claims, before any member's bytes are counted: a few MiB of gzip-compressed zeros made gigabytes in the
process that packs the upload (the web app, once per upload), and the bundle still packed. Here the
limits are shrunk so that the bomb is small and the test quick; the reading must stop at the limit.
"""

from __future__ import annotations

import bz2
import gzip
import io
import lzma
import tarfile
from collections.abc import Callable
from pathlib import Path

import pytest

from tourney.workers.sandbox import BundleError, pack_bundle
from tourney.workers.sandbox import bundle as limits

BOMB = 4 << 20  # bytes of header records: far past the shrunk limit (about 25 KB)
COMPRESSIONS: dict[str, Callable[[bytes], bytes]] = {"tar": bytes, "gz": gzip.compress, "bz2": bz2.compress,
                                                     "xz": lzma.compress}


def header_bomb(kind: bytes, record: bytes) -> bytes:
    """A tar whose first header is `kind` with BOMB bytes of `record`, then an honest bot.py."""
    header = tarfile.TarInfo("././@LongLink")
    header.type = kind
    header.size = BOMB
    out = io.BytesIO()
    out.write(header.tobuf(format=tarfile.USTAR_FORMAT))
    out.write(record * (BOMB // len(record)))
    bot = tarfile.TarInfo("bot.py")
    bot.size = 8
    out.write(bot.tobuf(format=tarfile.USTAR_FORMAT) + b"print(1)".ljust(512, b"\0") + b"\0" * 1024)
    return out.getvalue()


@pytest.fixture(autouse=True)
def small_limits(monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_FILES", 3)
    monkeypatch.setattr(limits, "MAX_FOLDERS", 3, raising=False)
    monkeypatch.setattr(limits, "MAX_BYTES", 1000)


@pytest.mark.parametrize("compression", sorted(COMPRESSIONS))
@pytest.mark.parametrize(("kind", "record"), [(tarfile.XHDTYPE, b"\0"), (tarfile.GNUTYPE_LONGNAME, b"a")],
                         ids=["pax-records", "gnu-long-name"])
def test_a_header_claiming_megabytes_stops_at_the_limit(tmp_path: Path, compression: str, kind: bytes,
                                                        record: bytes) -> None:
    bomb = tmp_path / "bomb"
    bomb.write_bytes(COMPRESSIONS[compression](header_bomb(kind, record)))
    with pytest.raises(BundleError, match="over 0 MiB unpacked, its headers included") as refused:
        pack_bundle(bomb)
    assert len(str(refused.value)) < 200


@pytest.mark.parametrize("compression", sorted(COMPRESSIONS))
def test_an_honest_archive_of_each_compression_packs_like_its_folder(tmp_path: Path, compression: str) -> None:
    folder = tmp_path / "bot"
    folder.mkdir()
    (folder / "bot.py").write_bytes(b"print(1)\n")
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        tar.add(folder / "bot.py", "bot.py")
    archive = tmp_path / "bot.archive"
    archive.write_bytes(COMPRESSIONS[compression](raw.getvalue()))
    assert pack_bundle(archive)[1:] == pack_bundle(folder)[1:]
