"""Bundles: a bot's files packed into one deterministic tar.gz, content-addressed by its SHA-256.

Packing takes a directory or an archive (.tar, .tar.gz, .tgz, .tar.bz2, .tar.xz, .zip) and refuses
what a hosted bot may not bring: more than MAX_FILES files (or folders) or MAX_BYTES unpacked, names
longer than a filesystem takes, a name that is both a file and a folder, absolute paths or `..`,
links leading out of the bundle, devices and pipes. A tar archive is read through a cap on its
unpacked size, headers included: tarfile reads a header's records whole, whatever size they claim.
A link inside the bundle is stored as a copy of its file. The same files always pack to the same
bytes (sorted, no times, no owners), so the same bot submitted twice has the same hash. Unpacking
checks it all again.
"""

from __future__ import annotations

import bz2
import gzip
import hashlib
import io
import lzma
import os
import stat
import tarfile
import zipfile
import zlib
from collections.abc import Iterator
from pathlib import Path, PurePosixPath
from typing import IO, Protocol, cast

from tourney.engine.core import TourneyError

MAX_FILES = 4000
MAX_FOLDERS = MAX_FILES
MAX_BYTES = 64 << 20  # unpacked
MAX_PACKED = 32 << 20
MAX_PATH = 1024  # bytes of a member's path: unpacked under a cache folder, it must stay under PATH_MAX
MAX_PART = 255  # bytes of one name in it (NAME_MAX)
HEADER_BYTES = 4096  # a tar member's header, pax records and padding, with a path up to MAX_PATH
SHOWN = 80  # characters of an archive's name quoted back in a message
CHUNK = 1 << 16
CENTRAL_ENTRY = b"PK\x01\x02"  # the signature that starts each entry of a zip's central directory


class BundleError(TourneyError):
    """A bundle breaks a limit or a rule; the message names which and what to do."""


def _quoted(name: str) -> str:
    """A name from an archive as a message quotes it: at most SHOWN characters (the rest is the sender's)."""
    return name if len(name) <= SHOWN else name[:SHOWN] + "..."


def _clean(name: str) -> str:
    """A member's path made relative and checked: no absolute path, no `..`."""
    path = PurePosixPath(name.replace("\\", "/"))
    if path.is_absolute() or ".." in path.parts:
        raise BundleError(f"the bundle's path '{_quoted(name)}' leads out of it: use paths inside the bot's folder.")
    return str(PurePosixPath(*[p for p in path.parts if p not in ("", ".")]))


class _Readable(Protocol):
    def read(self, size: int = -1, /) -> bytes: ...


class _Capped:
    """An archive's unpacked bytes, refused once they pass `limit`: tarfile reads a pax header's records
    or a GNU long name whole into memory, so a header that claims gigabytes of zeros (a few MiB packed)
    would otherwise fill the memory of whoever packs it (the web app, for an upload)."""

    def __init__(self, stream: _Readable, limit: int) -> None:
        self.stream = stream
        self.left = limit

    def read(self, size: int = -1) -> bytes:
        """Up to `size` bytes (all, for -1), as the stream's read; BundleError past the limit."""
        want = self.left + 1 if size < 0 else min(size, self.left + 1)
        data = self.stream.read(want)
        self.left -= len(data)
        if self.left < 0:
            raise BundleError(f"the archive is over {_tar_limit() >> 20} MiB unpacked, its headers included: "
                              "leave out what the bot does not need.")
        return data


def _tar_limit() -> int:
    """The most bytes a bundle's tar stream may hold: its files, and a header for each file and folder."""
    return MAX_BYTES + (MAX_FILES + MAX_FOLDERS) * HEADER_BYTES


def _unpacked(raw: IO[bytes]) -> _Readable:
    """The tar stream inside `raw`, decompressed by its magic bytes as tarfile's own open would."""
    magic = raw.read(6)
    raw.seek(0)
    if magic.startswith(b"\x1f\x8b"):
        return gzip.GzipFile(fileobj=raw)
    if magic.startswith(b"BZh"):
        return bz2.BZ2File(raw)
    if magic.startswith(b"\xfd7zXZ\x00"):
        return lzma.LZMAFile(raw)
    return raw


def _open_tar(raw: IO[bytes]) -> tarfile.TarFile:
    """A tar archive read in one pass through _Capped (members in order, each read before the next)."""
    return tarfile.open(fileobj=cast(IO[bytes], _Capped(_unpacked(raw), _tar_limit())), mode="r|")


class _Budget:
    """Counts files and bytes against the limits while packing or unpacking."""

    def __init__(self) -> None:
        self.files = 0
        self.folders = 0
        self.bytes = 0

    def file(self, name: str) -> None:
        self.files += 1
        if self.files > MAX_FILES:
            raise BundleError(f"the bundle has more than {MAX_FILES} files: leave out what the bot does not need "
                              f"(e.g. caches, .git).")
        encoded = name.encode("utf-8", "surrogateescape")
        if len(encoded) > MAX_PATH or any(len(part) > MAX_PART for part in encoded.split(b"/")):
            raise BundleError(f"the bundle's path '{_quoted(name)}' is too long (at most {MAX_PATH} bytes, "
                              f"{MAX_PART} a name): give it a shorter name.")

    def folder(self) -> None:
        self.folders += 1
        if self.folders > MAX_FOLDERS:
            raise BundleError(f"the bundle has more than {MAX_FOLDERS} folders: leave out what the bot does not "
                              "need.")

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
            budget.folder()
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
    with data.open("rb") as raw, _open_tar(raw) as tar:
        for member in tar:
            if member.isdir():
                budget.folder()
                continue
            if not member.isreg():
                raise BundleError(f"the archive's member '{_quoted(member.name)}' is a link or a device: a bundle "
                                  "holds only files and folders.")
            name = _clean(member.name)
            budget.file(name)
            stream = tar.extractfile(member)
            assert stream is not None
            yield name, _read(stream, budget), bool(member.mode & stat.S_IXUSR)


def _zip_entries_at_most(data: Path, most: int) -> bool:
    """Whether the zip at `data` lists at most `most` entries. zipfile reads its whole central directory
    into memory before a member can be counted (a 29 MiB upload of 600,000 one-letter names took 290 MB),
    and each entry it reads starts with CENTRAL_ENTRY at a place of its own in the file: counting the
    signature, in chunks and stopping past `most`, bounds them without parsing one. (A zip stored
    uncompressed inside the bundle has its entries counted too: a bound, not an exact count.)"""
    seen, tail = 0, b""
    with data.open("rb") as raw:
        while seen <= most and (chunk := raw.read(CHUNK)):
            window = tail + chunk
            seen += window.count(CENTRAL_ENTRY)  # one crossing the chunks' border is whole only here
            tail = window[-(len(CENTRAL_ENTRY) - 1):]
    return seen <= most


def _zip_files(data: Path, budget: _Budget) -> Iterator[tuple[str, bytes, bool]]:
    if not _zip_entries_at_most(data, MAX_FILES + MAX_FOLDERS):
        raise BundleError(f"the archive lists more than {MAX_FILES + MAX_FOLDERS} files and folders: leave out what "
                          "the bot does not need (e.g. caches, .git).")
    with zipfile.ZipFile(data) as archive:
        for info in archive.infolist():
            if info.is_dir():
                budget.folder()
                continue
            mode = info.external_attr >> 16  # Unix mode, when the zip was made on Unix (else 0)
            if stat.S_IFMT(mode) and not stat.S_ISREG(mode):
                raise BundleError(f"the archive's member '{_quoted(info.filename)}' is a link or a device: a bundle "
                                  "holds only files and folders.")
            name = _clean(info.filename)
            budget.file(name)
            try:
                with archive.open(info) as stream:
                    content = _read(stream, budget)
            except NotImplementedError:  # a RuntimeError too: caught first
                raise BundleError(f"the archive's member '{_quoted(info.filename)}' is compressed in a way this "
                                  "cannot read: zip it with deflate (zip's default), or send a .tar.gz.") from None
            except RuntimeError:  # zipfile's word for a member that needs a password
                raise BundleError(f"the archive's member '{_quoted(info.filename)}' is encrypted: zip the bot "
                                  "without a password.") from None
            yield name, content, bool(mode & stat.S_IXUSR)


def pack_bundle(path: Path) -> tuple[bytes, str, int]:
    """Pack a directory or archive: (the bundle's bytes, their SHA-256, the number of files)."""
    budget = _Budget()
    try:
        if path.is_dir():
            files = list(_directory_files(path, budget))
        elif path.is_file() and zipfile.is_zipfile(path):
            files = list(_zip_files(path, budget))
        elif path.is_file():
            files = list(_tar_files(path, budget))
        elif path.exists():  # a pipe, a socket or a device: nothing to pack
            raise BundleError(f"'{path}' is neither a folder nor a file: pass the bot's folder or an archive of it.")
        else:
            raise BundleError(f"'{path}' does not exist: pass the bot's folder or an archive of it.")
    except tarfile.ReadError as exc:
        if budget.files or budget.folders:
            raise BundleError(f"cannot read '{path}' ({exc}): pass a readable folder or archive.") from None
        raise BundleError(f"'{path}' is neither a folder nor a .tar/.tar.gz/.zip archive: pass the bot's "
                          "folder.") from None
    except (OSError, tarfile.TarError, zipfile.BadZipFile, EOFError, lzma.LZMAError, zlib.error) as exc:
        raise BundleError(f"cannot read '{path}' ({exc}): pass a readable folder or archive.") from None
    if not files:
        raise BundleError(f"'{path}' holds no files: pass the bot's folder.")
    names = [n for n, _, _ in files]
    if len(set(names)) != len(names):
        raise BundleError(f"'{path}' holds a file twice under one name: pack each file once.")
    folders = {str(parent) for name in names for parent in PurePosixPath(name).parents}
    if clash := sorted(folders.intersection(names)):
        raise BundleError(f"'{path}' holds '{_quoted(clash[0])}' both as a file and as a folder: rename one of them.")
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
    with _open_tar(io.BytesIO(packed)) as tar:
        for member in tar:
            if not member.isreg():
                raise BundleError(f"the stored bundle {sha256[:12]} holds a link or a device: submit the bot again.")
            name = _clean(member.name)
            budget.file(name)
            stream = tar.extractfile(member)
            assert stream is not None
            target = dest / name
            try:
                target.parent.mkdir(parents=True, exist_ok=True)
                target.write_bytes(_read(stream, budget))
            except OSError as exc:  # e.g. a name both a file and a folder, stored before packing refused it
                raise BundleError(f"the stored bundle {sha256[:12]} cannot be unpacked ({exc.strerror}): submit "
                                  "the bot again.") from None
            target.chmod(0o755 if member.mode & stat.S_IXUSR else 0o644)
