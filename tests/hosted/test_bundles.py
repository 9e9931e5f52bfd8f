"""Packing and unpacking bundles: deterministic hashes, the limits, and no way out of the bundle."""

from __future__ import annotations

import io
import os
import tarfile
import zipfile
from pathlib import Path

import pytest

from tourney.workers.sandbox import BundleError, cached_bundle, pack_bundle, unpack_bundle
from tourney.workers.sandbox import bundle as limits


def folder_with(tmp_path: Path, files: dict[str, bytes]) -> Path:
    root = tmp_path / "bot"
    for name, data in files.items():
        (root / name).parent.mkdir(parents=True, exist_ok=True)
        (root / name).write_bytes(data)
    return root


def test_the_same_files_pack_to_the_same_hash_and_unpack_as_they_were(tmp_path: Path) -> None:
    root = folder_with(tmp_path, {"bot.py": b"print(1)\n", "lib/util.py": b"X = 2\n"})
    (root / "bot.py").chmod(0o755)
    packed, sha, files = pack_bundle(root)
    os.utime(root / "bot.py", (0, 12345))  # times and owners are not part of a bundle
    assert pack_bundle(root)[1] == sha and files == 2
    out = tmp_path / "out"
    unpack_bundle(packed, sha, out)
    assert (out / "lib" / "util.py").read_bytes() == b"X = 2\n"
    assert os.access(out / "bot.py", os.X_OK) and not os.access(out / "lib" / "util.py", os.X_OK)
    (root / "lib" / "util.py").write_bytes(b"X = 3\n")
    assert pack_bundle(root)[1] != sha


def test_archives_pack_like_the_folder(tmp_path: Path) -> None:
    root = folder_with(tmp_path, {"bot.py": b"print(1)\n"})
    with tarfile.open(tmp_path / "b.tar.gz", "w:gz") as tar:
        tar.add(root / "bot.py", "bot.py")
    with zipfile.ZipFile(tmp_path / "b.zip", "w") as archive:
        archive.write(root / "bot.py", "bot.py")
    folder_sha = pack_bundle(root)[1]
    assert pack_bundle(tmp_path / "b.tar.gz")[1] == folder_sha
    zipped = tmp_path / "out"
    unpack_bundle(*pack_bundle(tmp_path / "b.zip")[:2], zipped)
    assert (zipped / "bot.py").read_bytes() == b"print(1)\n"


def test_links_leading_out_are_refused_and_links_inside_are_copied(tmp_path: Path) -> None:
    root = folder_with(tmp_path, {"bot.py": b"print(1)\n"})
    (tmp_path / "secret").write_text("organiser")
    (root / "alias.py").symlink_to(root / "bot.py")
    packed, sha, files = pack_bundle(root)
    assert files == 2
    (root / "leak").symlink_to(tmp_path / "secret")
    with pytest.raises(BundleError, match="leads out of the bundle"):
        pack_bundle(root)


@pytest.mark.parametrize("member", ["../escape.py", "/etc/evil.py"])
def test_archive_paths_leading_out_are_refused(tmp_path: Path, member: str) -> None:
    with tarfile.open(tmp_path / "b.tar", "w") as tar:
        info = tarfile.TarInfo(member)
        info.size = 1
        tar.addfile(info, io.BytesIO(b"x"))
    with pytest.raises(BundleError, match="leads out of it"):
        pack_bundle(tmp_path / "b.tar")


def test_archive_links_are_refused(tmp_path: Path) -> None:
    with tarfile.open(tmp_path / "b.tar", "w") as tar:
        info = tarfile.TarInfo("passwd")
        info.type = tarfile.SYMTYPE
        info.linkname = "/etc/passwd"
        tar.addfile(info)
    with pytest.raises(BundleError, match="is a link or a device"):
        pack_bundle(tmp_path / "b.tar")


def test_too_many_files_or_bytes_are_refused(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    monkeypatch.setattr(limits, "MAX_FILES", 3)
    monkeypatch.setattr(limits, "MAX_BYTES", 1000)
    many = folder_with(tmp_path / "many", {f"f{i}.py": b"" for i in range(4)})
    with pytest.raises(BundleError, match="more than 3 files"):
        pack_bundle(many)
    big = folder_with(tmp_path / "big", {"weights.bin": b"0" * 1001})
    with pytest.raises(BundleError, match="over 0 MiB unpacked"):
        pack_bundle(big)
    # A zip whose member expands past the limit stops there, whatever its header claims.
    with zipfile.ZipFile(tmp_path / "bomb.zip", "w", zipfile.ZIP_DEFLATED) as archive:
        archive.writestr("bomb.bin", b"\0" * 100_000)
    with pytest.raises(BundleError, match="unpacked"):
        pack_bundle(tmp_path / "bomb.zip")


def test_a_bundle_whose_bytes_do_not_match_its_hash_is_refused(tmp_path: Path) -> None:
    packed, sha, _ = pack_bundle(folder_with(tmp_path, {"bot.py": b"print(1)\n"}))
    with pytest.raises(BundleError, match="does not match its hash"):
        unpack_bundle(packed + b"\0", sha, tmp_path / "out")


def test_the_cache_fetches_a_bundle_once(tmp_path: Path) -> None:
    packed, sha, _ = pack_bundle(folder_with(tmp_path, {"bot.py": b"print(1)\n"}))
    fetched: list[str] = []

    def fetch(key: str) -> bytes:
        fetched.append(key)
        return packed

    first = cached_bundle(sha, fetch, tmp_path / "cache").folder
    assert cached_bundle(sha, fetch, tmp_path / "cache").folder == first == tmp_path / "cache" / sha
    assert fetched == [sha] and (first / "bot.py").is_file()
    assert sorted(p.name for p in (tmp_path / "cache").iterdir()) == [".locks", sha]  # no staging folder left
