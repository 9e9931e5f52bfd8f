"""An archive of nothing but folders is refused at the folder limit.

Folder entries were skipped without being counted: a few MiB of gzip-compressed tar headers make
millions of them, each kept by tarfile (or zipfile) in memory and each a turn of the packing loop, in
the web app's process, while the upload's packing holds the lock every other upload waits for.
"""

from __future__ import annotations

import io
import tarfile
import zipfile
from pathlib import Path

import pytest

from tourney.workers.sandbox import BundleError, pack_bundle
from tourney.workers.sandbox import bundle as limits

FOLDERS = 50


def folders_tar(path: Path) -> None:
    with tarfile.open(path, "w:gz") as tar:
        for i in range(FOLDERS):
            info = tarfile.TarInfo(f"d{i}")
            info.type = tarfile.DIRTYPE
            tar.addfile(info)
        bot = tarfile.TarInfo("bot.py")
        bot.size = 1
        tar.addfile(bot, io.BytesIO(b"x"))


def folders_zip(path: Path) -> None:
    with zipfile.ZipFile(path, "w") as archive:
        for i in range(FOLDERS):
            archive.writestr(f"d{i}/", b"")
        archive.writestr("bot.py", b"x")


@pytest.mark.parametrize("make", [folders_tar, folders_zip], ids=["tar", "zip"])
def test_folders_count_against_their_limit(tmp_path: Path, monkeypatch: pytest.MonkeyPatch, make: object) -> None:
    monkeypatch.setattr(limits, "MAX_FOLDERS", FOLDERS - 1, raising=False)
    path = tmp_path / "bundle"
    make(path)  # type: ignore[operator]
    with pytest.raises(BundleError, match=f"more than {FOLDERS - 1} folders"):
        pack_bundle(path)
    monkeypatch.setattr(limits, "MAX_FOLDERS", FOLDERS)
    assert pack_bundle(path)[2] == 1  # at the limit it packs: one file
