"""Attack on the web app's upload with `Expect: 100-continue`: a client that says its body is a terabyte
was answered 100 Continue, invited to send it, and held an upload place while the first 32 MiB arrived
(a body is read up to the limit and refused past it). A body declared past the limit is now refused
before any of it is read; a client without the author's token is never invited either."""

from __future__ import annotations

import socket
from pathlib import Path

import pytest

from tests.hosted.bundles import GAME, bot_source
from tests.security.test_web_pipelined_unread import bounded_web
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import add_version, set_token
from tourney.web.hosted import MAX_UPLOAD
from tourney.workers.sandbox import pack_bundle

pytestmark = pytest.mark.timeout(120)
WAIT_S = 60.0


def first_answer(port: int, head: bytes) -> bytes:
    """The status line of the first answer to a request head sent alone (its body never follows)."""
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_S) as sock:
        sock.sendall(head)
        seen = b""
        while b"\r\n" not in seen:
            chunk = sock.recv(4096)
            if not chunk:
                break
            seen += chunk
        return seen.split(b"\r\n", 1)[0]


def test_a_body_declared_past_the_limit_is_refused_before_it_is_invited(tmp_path: Path) -> None:
    with bounded_web(tmp_path) as (_, port):
        engine = open_store(str(tmp_path / "t.db"))
        (tmp_path / "b").mkdir()
        (tmp_path / "b" / "bot.py").write_text(bot_source("good"))
        packed, sha256, files = pack_bundle(tmp_path / "b")
        add_version(engine, "frank", packed, sha256, files, "python3 bot.py", [GAME])
        token = set_token(engine, "frank")

        def head(authorization: str, length: int) -> bytes:
            return (f"POST /api/hosted/frank/versions?run=python3+bot.py HTTP/1.1\r\nHost: x\r\n{authorization}"
                    f"Expect: 100-continue\r\nContent-Length: {length}\r\n\r\n").encode()

        author = f"Authorization: Bearer {token}\r\n"
        assert first_answer(port, head(author, 1 << 40)) == b"HTTP/1.1 413 Request Entity Too Large"
        assert first_answer(port, head(author, MAX_UPLOAD + 1)) == b"HTTP/1.1 413 Request Entity Too Large"
        assert first_answer(port, head("", 1 << 40)) == b"HTTP/1.1 403 Forbidden"
        assert first_answer(port, head(author, 1000)) == b"HTTP/1.1 100 Continue"  # a body within the limit
