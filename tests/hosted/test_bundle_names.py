"""A bundle whose names cannot be unpacked is refused when it is packed, in one bounded sentence.

A tar or zip may hold `a` as a file and `a/b` beside it, or a name longer than a filesystem takes: such
a bundle packed and was stored, and every unpacking (validation, each worker's cache) then failed with
a raw FileExistsError or "File name too long" that quoted the whole name back.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from tourney.workers.sandbox import BundleError, pack_bundle, unpack_bundle


def tar_of(names: list[str]) -> bytes:
    """An uncompressed tar holding a small file under each of `names`."""
    out = io.BytesIO()
    with tarfile.open(fileobj=out, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name in names:
            info = tarfile.TarInfo(name)
            info.size = 1
            tar.addfile(info, io.BytesIO(b"x"))
    return out.getvalue()


def zip_of(names: list[str]) -> bytes:
    out = io.BytesIO()
    with zipfile.ZipFile(out, "w") as archive:
        for name in names:
            archive.writestr(name, b"x")
    return out.getvalue()


HOSTILE = {
    "a file and a folder of one name": (["bot.py", "lib", "lib/util.py"], "both as a file and as a folder"),
    "a name over 255 bytes": (["bot.py", "x" * 300], "too long"),
    "a path over 1024 bytes": (["bot.py", "/".join(["d" * 200] * 6) + "/f.py"], "too long"),
    "a long name in many bytes": (["bot.py", "é" * 200], "too long"),
}


@pytest.mark.parametrize("archive", [tar_of, zip_of], ids=["tar", "zip"])
@pytest.mark.parametrize("case", sorted(HOSTILE))
def test_names_that_cannot_be_unpacked_are_refused_at_packing(tmp_path: Path, archive: object, case: str) -> None:
    names, why = HOSTILE[case]
    path = tmp_path / "bundle"
    path.write_bytes(archive(names))  # type: ignore[operator]
    with pytest.raises(BundleError, match=why) as refused:
        pack_bundle(path)
    assert len(str(refused.value)) < 300  # the sender's name is quoted in part, never whole


def test_the_longest_names_allowed_pack_and_unpack(tmp_path: Path) -> None:
    names = ["bot.py", "n" * 255, "/".join(["d" * 200] * 4) + "/" + "f" * 220]  # 1,024 bytes
    path = tmp_path / "bundle"
    path.write_bytes(tar_of(names))
    packed, sha, files = pack_bundle(path)
    unpack_bundle(packed, sha, tmp_path / "out")
    assert files == 3 and all((tmp_path / "out" / name).read_bytes() == b"x" for name in names)


def test_a_stored_bundle_that_cannot_be_unpacked_is_one_sentence(tmp_path: Path) -> None:
    packed = gzip.compress(tar_of(["lib", "lib/util.py"]), mtime=0)  # stored before packing refused it
    with pytest.raises(BundleError, match="cannot be unpacked .*: submit the bot again"):
        unpack_bundle(packed, hashlib.sha256(packed).hexdigest(), tmp_path / "out")
