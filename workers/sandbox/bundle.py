"""Bundles: a bot's files packed into one deterministic tar.gz, content-addressed by its SHA-256.

Packing takes a directory or an archive (.tar, .tar.gz, .tgz, .zip) and refuses what a
hosted bot may not bring: more than MAX_FILES files or MAX_BYTES unpacked, absolute paths or
`..`, links leading out of the bundle, devices and pipes. A link inside the bundle is stored as
a copy of its file. The same files always pack to the same bytes (sorted, no times, no
owners), so the same bot submitted twice has the same hash. Unpacking checks it all again.
"""

from __future__ import annotations

import gzip
import hashlib
import io
import os
import stat
import tarfile
import zipfile
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO

from tourney.engine.core import TourneyError

MAX_FILES = 4000
MAX_BYTES = 64 << 20  # unpacked
MAX_PACKED = 32 << 20
CHUNK = 1 << 16


class BundleError(TourneyError):
    """A bundle breaks a limit or a rule; the message names which and what to do."""


def _clean(name: str) -> str:
    """A member's path made relative and checked: no absolute path, no `..`."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts:
        raise BundleError(f"the bundle's path '{name}' leads out of it: use paths inside the bot's folder.")
    return str(PurePosixPath(*[p for p in path.parts if p not in ("", ".")]))


class _Budget:
    """Counts files and bytes against the limits while packing or unpacking."""

    def __init__(self) -> None:
        self.files = 0
        self.bytes = 0

    def file(self, name: str) -> None:
        self.files += 1
        if self.files > MAX_FILES:
            raise BundleError(f"the bundle has more than {MAX_FILES} files: leave out what the bot does not need "
                              f"(e.g. caches, .git).")

    def add(self, n: int) -> None:
        self.bytes += n
        if self.bytes > MAX_BYTES:
            raise BundleError(f"the bundle is over {MAX_BYTES >> 20} MiB unpacked: leave out what the bot does "
                              "not need.")


def _read(stream: IO[bytes], budget: _Budget) -> bytes:
    """A member's bytes, read in chunks so an archive that lies about sizes stops at the limit."""
    out = bytearray()
    while chunk := stream.read(CHUNK):
        budget.add(len(chunk))
        out += chunk
    return bytes(out)


def _directory_files(root: Path, budget: _Budget) -> Iterator[tuple[str, bytes, bool]]:
    """(name, bytes, executable) of every file under root; links must stay inside and lead to files."""
    real_root = root.resolve()
    for folder, dirs, files in os.walk(root):
        dirs.sort()
        for d in dirs:
            if (Path(folder) / d).is_symlink():
                raise BundleError(f"'{Path(folder, d).relative_to(root)}' is a link to a folder: copy the folder "
                                  "into the bundle instead.")
        for f in sorted(files):
            path = Path(folder) / f
            name = str(path.relative_to(root))
            target = path.resolve()
            if path.is_symlink() and not target.is_relative_to(real_root):
                raise BundleError(f"the link '{name}' leads out of the bundle: copy what it points at into it.")
            mode = target.stat().st_mode if target.exists() else 0
            if not stat.S_ISREG(mode):
                raise BundleError(f"'{name}' is not a regular file: a bundle holds only files and folders.")
            budget.file(name)
            with target.open("rb") as fh:
                yield name, _read(fh, budget), bool(mode & stat.S_IXUSR)


def _tar_files(data: Path, budget: _Budget) -> Iterator[tuple[str, bytes, bool]]:
    with tarfile.open(data) as tar:
        for member in tar:
            if member.isdir():
                continue
            if not member.isreg():
                raise BundleError(f"the archive's member '{member.name}' is a link or a device: a bundle holds "
                                  "only files and folders.")
            name = _clean(member.name)
            budget.file(name)
            stream = tar.extractfile(member)
            assert stream is not None
            yield name, _read(stream, budget), bool(member.mode & stat.S_IXUSR)


def _zip_files(data: Path, budget: _Budget) -> Iterator[tuple[str, bytes, bool]]:
    with zipfile.ZipFile(data) as archive:
        for info in archive.infolist():
            if info.is_dir():
                continue
            mode = info.external_attr >> 16  # Unix mode, when the zip was made on Unix (else 0)
            if stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                raise BundleError(f"the archive's member '{info.filename}' is a link or a device: a bundle holds "
                                  "only files and folders.")
            name = _clean(info.filename)
            budget.file(name)
            with archive.open(info) as stream:
                yield name, _read(stream, budget), bool(mode & stat.S_IXUSR)


def pack_bundle(path: Path) -> tuple[bytes, str, int]:
    """Pack a directory or archive: (the bundle's bytes, their SHA-256, the number of files)."""
    budget = _Budget()
    try:
        if path.is_dir():
            files = list(_directory_files(path, budget))
        elif path.is_file() and zipfile.is_zipfile(path):
            files = list(_zip_files(path, budget))
        elif path.is_file() and tarfile.is_tarfile(path):
            files = list(_tar_files(path, budget))
        elif path.exists():
            raise BundleError(f"'{path}' is neither a folder nor a .tar/.tar.gz/.zip archive: pass the bot's folder.")
        else:
            raise BundleError(f"'{path}' does not exist: pass the bot's folder or an archive of it.")
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError) as exc:
        raise BundleError(f"cannot read '{path}' ({exc}): pass a readable folder or archive.") from None
    if not files:
        raise BundleError(f"'{path}' holds no files: pass the bot's folder.")
    names = [n for n, _, _ in files]
    if len(set(names)) != len(names):
        raise BundleError(f"'{path}' holds a file twice under one name: pack each file once.")
    raw = io.BytesIO()
    with tarfile.open(fileobj=raw, mode="w", format=tarfile.PAX_FORMAT) as tar:
        for name, content, executable in sorted(files):
            info = tarfile.TarInfo(name)
            info.size = len(content)
            info.mode = 0o755 if executable else 0o644
            tar.addfile(info, io.BytesIO(content))
    packed = gzip.compress(raw.getvalue(), mtime=0)
    if len(packed) > MAX_PACKED:
        raise BundleError(f"the packed bundle is over {MAX_PACKED >> 20} MiB: leave out what the bot does not need.")
    return packed, hashlib.sha256(packed).hexdigest(), len(files)


def unpack_bundle(packed: bytes, sha256: str, dest: Path) -> None:
    """Check the bytes against their hash and the limits, and write the files under `dest`."""
    if hashlib.sha256(packed).hexdigest() != sha256:
        raise BundleError(f"the stored bundle {sha256[:12]} does not match its hash: submit the bot again.")
    budget = _Budget()
    with tarfile.open(fileobj=io.BytesIO(packed), mode="r:gz") as tar:
        for member in tar:
            if not member.isreg():
                raise BundleError(f"the stored bundle {sha256[:12]} holds a link or a device: submit the bot again.")
            name = _clean(member.name)
            budget.file(name)
            stream = tar.extractfile(member)
            assert stream is not None
            target = dest / name
            target.parent.mkdir(parents=True, exist_ok=True)
            target.write_bytes(_read(stream, budget))
            target.chmod(0o755 if member.mode & stat.S_IXUSR else 0o644)
