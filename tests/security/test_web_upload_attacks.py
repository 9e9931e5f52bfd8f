"""Attacks on the web app's one write, a hosted bot's upload, over a real uvicorn server on 127.0.0.1:
what a client without the author's token can make it hold."""

from __future__ import annotations

import asyncio
import select
import socket
import time
from pathlib import Path
from urllib.parse import urlsplit

import pytest
from fastapi import HTTPException, Request
from sqlalchemy.engine import Engine

from tests.hosted.bundles import GAME, bot_source
from tests.web.browser import served
from tourney.tournament.hosted.submission import submit_version
from tourney.tournament.store.database import open_store
from tourney.tournament.store.hosted import VALIDATED, set_status, set_token
from tourney.web import hosted
from tourney.web.app import create_app
from tourney.web.hosted import MAX_UPLOAD

WAIT_S = 20.0


def _open_upload(base: str, name: str, token: str | None) -> socket.socket:
    """An upload that announces a body of the largest size allowed and sends its first KiB only."""
    address = urlsplit(base)
    sock = socket.create_connection((address.hostname or "127.0.0.1", address.port or 80), timeout=WAIT_S)
    head = (f"POST /api/hosted/{name}/versions?run=python3+bot.py&game={GAME} HTTP/1.1\r\n"
            f"Host: {address.netloc}\r\nContent-Length: {MAX_UPLOAD}\r\n"
            + (f"Authorization: Bearer {token}\r\n" if token else "") + "\r\n")
    sock.sendall(head.encode() + b"\0" * 1024)
    return sock


def _status(sock: socket.socket) -> int | None:
    """The status of the answer, once its first line arrived within WAIT_S (None: no answer came)."""
    deadline = time.monotonic() + WAIT_S
    got = b""
    sock.settimeout(0.2)
    while b"\r\n" not in got and time.monotonic() < deadline:
        try:
            chunk = sock.recv(4096)
        except TimeoutError:
            continue
        if not chunk:
            break
        got += chunk
    return int(got.split()[1]) if got.startswith(b"HTTP/1.1 ") else None


def _first_answered(socks: list[socket.socket], count: int = 1) -> dict[int, int]:
    """{index: status} of the sockets answered by the time `count` answers arrived (within WAIT_S)."""
    got = [b""] * len(socks)
    for sock in socks:
        sock.settimeout(0)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        readable, _, _ = select.select(socks, [], [], 0.2)
        for sock in readable:
            got[socks.index(sock)] += sock.recv(4096)
        answered = {i: int(g.split()[1]) for i, g in enumerate(got) if g.startswith(b"HTTP/1.1 ") and b"\r\n" in g}
        if len(answered) >= count:
            return answered
    return {}


def _slots_freed(base: str, token: str, name: str = "frank") -> bool:
    """Whether a whole (junk) upload by the author of `name` is read within WAIT_S: its 400 for a bad
    bundle, not 429, says an upload place was free for it (those cut before it gave theirs back)."""
    address = urlsplit(base)
    deadline = time.monotonic() + WAIT_S
    while time.monotonic() < deadline:
        sock = socket.create_connection((address.hostname or "127.0.0.1", address.port or 80), timeout=WAIT_S)
        head = (f"POST /api/hosted/{name}/versions?run=python3+bot.py&game={GAME} HTTP/1.1\r\n"
                f"Host: {address.netloc}\r\nContent-Length: 4\r\nAuthorization: Bearer {token}\r\n\r\n")
        sock.sendall(head.encode() + b"junk")
        status = _status(sock)
        sock.close()
        if status != 429:
            return status == 400
    return False


def _frank(tmp_path: Path) -> tuple[Engine, str]:
    """A store with hosted bot frank, and its author's token."""
    engine = open_store(str(tmp_path / "t.db"))
    return engine, _hosted_bot(engine, tmp_path, "frank")


def _hosted_bot(engine: Engine, tmp_path: Path, name: str) -> str:
    """Hosted bot `name` added to the store; its author's token."""
    folder = tmp_path / name
    folder.mkdir()
    (folder / "bot.py").write_text(bot_source("good"))
    version = submit_version(engine, name, folder, "python3 bot.py", [GAME])
    set_status(engine, version.id or 0, VALIDATED)  # nothing left for the app to validate at start
    return set_token(engine, name)


@pytest.mark.timeout(120)
def test_an_upload_without_the_token_is_refused_before_its_body_is_read(tmp_path: Path) -> None:
    # Before: the whole body (up to 32 MiB) was read into memory first and the token checked after,
    # so anyone could make the web app hold 32 MiB (64 MiB while copied) per upload, as many at once
    # as they opened, and keep each for as long as they took to send it.
    engine, token = _frank(tmp_path)
    with served(create_app(engine)) as base:
        strangers = [_open_upload(base, "frank", guess) for guess in (None, "not-the-token")]
        nobody = _open_upload(base, "nobody", token)
        assert [_status(sock) for sock in strangers] == [403, 403]
        assert _status(nobody) == 404
        # Authors' uploads are read; past a few at once, the next is refused before its body. Which of the
        # five is refused is the order the server checked their tokens in, not the order they opened.
        others = {name: _hosted_bot(engine, tmp_path, name) for name in ("b1", "b2", "b3", "b4")}
        authors = [_open_upload(base, name, author) for name, author in [("frank", token), *others.items()]]
        assert list(_first_answered(authors).values()) == [429]
        for sock in [*strangers, nobody, *authors]:
            sock.close()  # hung up mid-body: each gives back its place
        assert _slots_freed(base, token)


def test_an_upload_cut_mid_body_is_answered_in_one_sentence() -> None:
    # Before: starlette's ClientDisconnect escaped the handler, and the app logged a traceback for each.
    async def hung_up() -> dict[str, str]:
        return {"type": "http.disconnect"}

    request = Request({"type": "http", "method": "POST", "headers": [], "query_string": b""}, hung_up)
    with pytest.raises(HTTPException) as refused:
        asyncio.run(hosted.read_body(request))
    assert refused.value.status_code == 400 and "cut off" in str(refused.value.detail)


@pytest.mark.timeout(120)
def test_trickled_uploads_lose_their_places(tmp_path: Path, monkeypatch: pytest.MonkeyPatch) -> None:
    # The attack: authors (anyone with a bot) open every upload place with bodies that never finish
    # arriving, and no other author could upload again. Each body now has UPLOAD_READ_S to arrive.
    monkeypatch.setattr(hosted, "UPLOAD_READ_S", 1.0)
    engine, token = _frank(tmp_path)
    authors = {f"b{i}": _hosted_bot(engine, tmp_path, f"b{i}") for i in range(hosted.MAX_UPLOADS)}
    with served(create_app(engine)) as base:
        stalled = [_open_upload(base, name, author) for name, author in authors.items()]
        assert [_status(sock) for sock in stalled] == [408] * hosted.MAX_UPLOADS
        late = _open_upload(base, "frank", token)
        assert _status(late) == 408  # admitted (not 429): the places were free again, then it stalled too
        for sock in [*stalled, late]:
            sock.close()


@pytest.mark.timeout(120)
def test_one_author_cannot_hold_every_upload_place(tmp_path: Path) -> None:
    # The attack: an author opens every upload place at once with bodies that trickle in (each may take
    # UPLOAD_READ_S, two minutes, and is opened again as soon as it is refused), and no other author can
    # upload at all. A bot now has one upload received at a time: its author holds one place at most.
    engine, token = _frank(tmp_path)
    grace = _hosted_bot(engine, tmp_path, "grace")
    with served(create_app(engine)) as base:
        trickled = [_open_upload(base, "frank", token) for _ in range(hosted.MAX_UPLOADS)]
        answered = _first_answered(trickled, hosted.MAX_UPLOADS - 1)
        assert sorted(answered.values()) == [429] * (hosted.MAX_UPLOADS - 1)  # all but one, at once
        assert _slots_freed(base, grace, "grace")  # another author's upload is read meanwhile
        for sock in trickled:
            sock.close()
        assert _slots_freed(base, token)  # and frank's next, once his held one was cut
