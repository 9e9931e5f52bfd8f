"""A stranger's text (a bundle's file names, a --run command, a validation's reason and log) reaches the
organiser's terminal through `tourney` commands: two worlds that differ only in an escape sequence
must print the same but for that text, and never its raw control bytes. Web pages escape HTML."""

from __future__ import annotations

import io
import tarfile
from pathlib import Path

import httpx
import pytest
from typer.testing import CliRunner

from tests.web.browser import served
from tourney.engine.core.printable import SHOWN_CHARS, shown
from tourney.tournament.cli import app
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import FAILED, add_version, set_status
from tourney.web.app import create_app

HOSTILE = "\x1b]0;owned\x07\x1b[2J\r\b\x00\u202e"  # retitle, clear screen, overwrite, NUL, reverse text
RAW = ("\x1b", "\x07", "\r", "\b", "\x00", "\u202e")
runner = CliRunner()


def _raw_bytes(text: str) -> list[str]:
    return [c for c in RAW if c in text]


def _show(tmp_path: Path, tail: str) -> str:
    """`tourney bot show` of a bot whose --run, reason and log carry `tail`."""
    db = str(tmp_path / f"{len(tail)}.db")
    engine = open_store(db)
    version = add_version(engine, "eve", b"x", "0" * 64, 1, f"python3 bot.py{tail}", ["tiny-ninjas"])
    set_status(engine, version.id or 0, FAILED, f"tiny-ninjas: it crashed{tail}", f"Traceback{tail}")
    result = runner.invoke(app, ["bot", "show", "eve", "--db", db])
    assert result.exit_code == 0, result.output
    return result.stdout


def test_bot_show_prints_no_control_bytes(tmp_path: Path) -> None:
    calm, hostile = _show(tmp_path, ""), _show(tmp_path, HOSTILE)
    assert _raw_bytes(calm) == [] and _raw_bytes(hostile) == []
    assert "python3 bot.py\\x1b]0;owned\\x07" in hostile and "\\u202e" in hostile


def _archive(tmp_path: Path, member: str) -> Path:
    """A .tar whose one member is a link named `member` (refused, and named in the error)."""
    path = tmp_path / f"bundle{len(member)}.tar"
    with tarfile.open(path, "w") as tar:
        info = tarfile.TarInfo(member)
        info.type, info.linkname = tarfile.SYMTYPE, "/etc/passwd"
        tar.addfile(info, io.BytesIO(b""))
    return path


@pytest.mark.skipif(__import__("shutil").which("bwrap") is None, reason="bubblewrap is not installed")
def test_an_archive_member_name_is_shown_escaped(tmp_path: Path) -> None:
    def submit(member: str) -> str:
        result = runner.invoke(app, ["bot", "submit", "eve", str(_archive(tmp_path, member)), "--run", "python3 a",
                                     "--db", str(tmp_path / "t.db")])
        assert result.exit_code == 2 and "is a link or a device" in result.stderr, result.output
        return result.stderr

    calm, hostile = submit("bot.py"), submit(f"bot{HOSTILE}.py")
    assert _raw_bytes(calm) == [] and _raw_bytes(hostile) == []
    assert hostile.replace("\\x1b]0;owned\\x07\\x1b[2J\\r\\x08\\x00\\u202e", "") == calm


def test_shown_is_printable_and_bounded() -> None:
    long = HOSTILE * 1000
    text = shown(long)
    assert text.isprintable() and len(text) < SHOWN_CHARS + 40 and f"({len(long)} characters)" in text
    assert shown("plain name") == "plain name"


def test_the_bot_page_escapes_html(tmp_path: Path) -> None:
    engine = open_store(str(tmp_path / "t.db"))
    add_version(engine, "eve", b"x", "0" * 64, 1, "python3 bot.py <script>alert(1)</script>", ["tiny-ninjas"])
    with served(create_app(engine)) as base:
        page = httpx.get(f"{base}/hosted/eve", timeout=30).text
    assert "<script>alert(1)</script>" not in page and "&lt;script&gt;alert(1)&lt;/script&gt;" in page
