"""A zip this cannot read (encrypted, an unknown compression, corrupt data) is one sentence, never a
traceback: zipfile raised RuntimeError, NotImplementedError or zlib.error, which `tourney bot submit`
printed as a traceback and the web app's upload answered with a 500."""

from __future__ import annotations

import io
import struct
import zipfile
from pathlib import Path

import pytest

from tourney.workers.sandbox import BundleError, pack_bundle

LOCAL_FLAGS, LOCAL_METHOD, CENTRAL_FLAGS, CENTRAL_METHOD = 6, 8, 8, 10  # offsets in the zip's two headers


def odd_zip(flags: int | None = None, method: int | None = None, corrupt: bool = False) -> bytes:
    """A deflated zip of bot.py with its headers' flags or method changed, or its data overwritten."""
    buf = io.BytesIO()
    with zipfile.ZipFile(buf, "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bot.py", b"print(1)\n" * 1000)
    data = bytearray(buf.getvalue())
    central = data.find(b"PK\x01\x02")
    for value, local, in_central in ((flags, LOCAL_FLAGS, CENTRAL_FLAGS), (method, LOCAL_METHOD, CENTRAL_METHOD)):
        if value is not None:
            data[local:local + 2] = data[central + in_central:central + in_central + 2] = struct.pack("<H", value)
    if corrupt:
        start = 30 + len("bot.py")  # the member's data, after its local header
        data[start:start + 8] = b"\xff" * 8
    return bytes(data)


@pytest.mark.parametrize(("data", "why"), [
    (odd_zip(flags=1), "is encrypted: zip the bot without a password"),
    (odd_zip(method=98), "is compressed in a way this cannot read"),
    (odd_zip(corrupt=True), "cannot read .*: pass a readable folder or archive"),
], ids=["encrypted", "ppmd", "corrupt"])
def test_an_unreadable_zip_is_one_sentence(tmp_path: Path, data: bytes, why: str) -> None:
    path = tmp_path / "bot.zip"
    path.write_bytes(data)
    with pytest.raises(BundleError, match=why):
        pack_bundle(path)
